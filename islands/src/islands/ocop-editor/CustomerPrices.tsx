// The second OCOP dialog: every OCOP price of one customer,
// GET /api/ocops?customerId=<id>&per_page=150 → {data: [{id, code, name, price, classAPrice}], meta}.
// Rendered inside the editor's dialog (a nested Radix dialog: Esc closes this one first).
import { useEffect, useState } from 'react';
import { apiFetch } from '../../lib/api';
import { DialogFooter, DialogFrame, Loading } from '../../lib/dialog';
import { useLatestRequest } from '../../lib/latest-request';
import { formatCents } from '../../lib/money';
import { EmptyRow } from '../../lib/table';
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
  const request = useLatestRequest();

  useEffect(() => {
    if (customerId === null) return;
    setLoaded(null);
    const path = `/ocops?customerId=${customerId}&per_page=${CUSTOMER_PRICES_PAGE_SIZE}`;
    request.start(
      (signal) => apiFetch<{ data?: unknown; meta?: unknown }>(path, { signal }),
      (body) => setLoaded({ customerId, rows: toCustomerPrices(body?.data), total: metaTotal(body?.meta) }),
      // apiFetch has reported it.
      onClose,
    );
    return () => request.abort();
  }, [customerId, onClose, request]);

  const rows = loaded !== null && loaded.customerId === customerId ? loaded.rows : null;
  const total = loaded?.total ?? null;

  return (
    <DialogFrame
      open={customer !== null}
      onOpenChange={(next) => {
        if (!next) onClose();
      }}
      title={`OCOP Prices · ${customer?.name ?? ''}`}
      className="ocop-customer-dialog"
      style={{ minWidth: 'min(560px, 94vw)' }}
      nested
    >
      {rows === null ? (
        <Loading />
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
              {rows.length === 0 ? <EmptyRow columns={4} /> : null}
            </tbody>
          </table>
          {total !== null && total > rows.length ? (
            <p className="muted">
              Showing {rows.length} of {total}
            </p>
          ) : null}
        </>
      )}
      <DialogFooter close="Close" />
    </DialogFrame>
  );
}
