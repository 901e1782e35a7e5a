// The second OCOP dialog: every OCOP price of one customer,
// GET /api/ocops?customerId=<id>&per_page=150 → {data: [{id, code, name, price, classAPrice}], meta}.
// Rendered inside the editor's dialog (a nested Radix dialog: Esc closes this one first).
import * as Dialog from '@radix-ui/react-dialog';
import { useEffect, useState } from 'react';
import { apiFetch } from '../../lib/api';
import { formatCents } from '../price-dialog/money';
import { metaTotal, toCustomerPrices, type CustomerPrice } from './types';

export const CUSTOMER_PRICES_PAGE_SIZE = 150;

export interface CustomerRef {
  id: number;
  name: string;
}

export interface CustomerPricesProps {
  /** The customer shown; null keeps the dialog closed. */
  customer: CustomerRef | null;
  /** Must be stable (useCallback): a new function reloads the list. */
  onClose: () => void;
}

interface Loaded {
  customerId: number;
  rows: CustomerPrice[];
  total: number | null;
}

export function CustomerPrices({ customer, onClose }: CustomerPricesProps) {
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const customerId = customer?.id ?? null;

  useEffect(() => {
    if (customerId === null) return;
    const controller = new AbortController();
    setLoaded(null);
    const path = `/ocops?customerId=${customerId}&per_page=${CUSTOMER_PRICES_PAGE_SIZE}`;
    apiFetch<{ data?: unknown; meta?: unknown }>(path, { signal: controller.signal }).then(
      (body) => {
        if (controller.signal.aborted) return;
        setLoaded({ customerId, rows: toCustomerPrices(body?.data), total: metaTotal(body?.meta) });
      },
      () => {
        // apiFetch has reported it.
        if (!controller.signal.aborted) onClose();
      },
    );
    return () => controller.abort();
  }, [customerId, onClose]);

  const rows = loaded !== null && loaded.customerId === customerId ? loaded.rows : null;
  const total = loaded?.total ?? null;

  return (
    <Dialog.Root open={customer !== null} onOpenChange={(next) => (next ? undefined : onClose())}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" style={{ zIndex: 52 }} />
        <Dialog.Content
          className="dialog ocop-customer-dialog"
          style={{ zIndex: 53, minWidth: 'min(560px, 94vw)' }}
          aria-describedby={undefined}
        >
          <Dialog.Title>OCOP Prices · {customer?.name ?? ''}</Dialog.Title>
          {rows === null ? (
            <p className="muted" role="status">
              Loading…
            </p>
          ) : (
            <>
              <table className="data-table">
                <thead>
                  <tr>
                    <th>Item Code</th>
                    <th>Item Name</th>
                    <th className="num">OCOP</th>
                    <th className="num">Class A</th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((r) => (
                    <tr key={r.id} data-product={r.id}>
                      <td>{r.code}</td>
                      <td>{r.name}</td>
                      <td className="num">{formatCents(r.price)}</td>
                      <td className="num">{r.classAPrice === null ? '' : formatCents(r.classAPrice)}</td>
                    </tr>
                  ))}
                  {rows.length === 0 ? (
                    <tr>
                      <td className="empty" colSpan={4}>
                        No Data
                      </td>
                    </tr>
                  ) : null}
                </tbody>
              </table>
              {total !== null && total > rows.length ? (
                <p className="muted">
                  Showing {rows.length} of {total}
                </p>
              ) : null}
            </>
          )}
          <div className="dialog-actions">
            <Dialog.Close asChild>
              <button type="button" className="btn">
                Close
              </button>
            </Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
