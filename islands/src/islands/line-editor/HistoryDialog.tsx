// 'CHK' on a sales line: the product's prices and its sales history for the customer.
import * as Dialog from '@radix-ui/react-dialog';
import { useRef, useState } from 'react';
import { apiFetch } from '../../lib/api';
import { formatCents, formatDate, formatInt } from './rules';
import type { HistoryResponse } from './types';

export interface HistoryDialogProps {
  lineNo: number;
  productId: number | null;
  customerId: number | null;
}

type State =
  | { status: 'loading' }
  | { status: 'error' }
  | { status: 'done'; data: HistoryResponse };

export function historyPath(productId: number, customerId: number | null): string {
  const base = `/products/${productId}/history`;
  return customerId === null ? base : `${base}?cId=${customerId}`;
}

export function HistoryDialog({ lineNo, productId, customerId }: HistoryDialogProps) {
  const [open, setOpen] = useState(false);
  const [state, setState] = useState<State>({ status: 'loading' });
  const request = useRef<AbortController | null>(null);

  const load = (id: number) => {
    request.current?.abort();
    const controller = new AbortController();
    request.current = controller;
    setState({ status: 'loading' });
    apiFetch<HistoryResponse>(historyPath(id, customerId), { signal: controller.signal }).then(
      (data) => {
        if (request.current === controller) setState({ status: 'done', data });
      },
      () => {
        if (request.current === controller) setState({ status: 'error' });
      },
    );
  };

  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (next && productId !== null) load(productId);
    if (!next) {
      request.current?.abort();
      request.current = null;
    }
  };

  const product = state.status === 'done' ? state.data.product : null;
  const rows = state.status === 'done' && Array.isArray(state.data.data) ? state.data.data : [];
  const price = (label: string, cents: number | null | undefined) =>
    cents === null || cents === undefined ? null : (
      <span key={label} style={{ marginRight: 14 }}>
        <span className="muted">{label}</span> <strong className="num">{formatCents(cents)}</strong>
      </span>
    );

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Trigger type="button" className="btn small" disabled={productId === null} aria-label={`History line ${lineNo}`}>
        CHK
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog" style={{ minWidth: 'min(640px, 94vw)' }}>
          <Dialog.Title>Price History</Dialog.Title>
          <Dialog.Description className="dialog-description">
            {product ? product.name : state.status === 'error' ? 'The history could not be loaded.' : 'Loading…'}
          </Dialog.Description>
          {product ? (
            <p data-prices="">
              {price('Standard', product.standard)}
              {price('Special', product.special)}
              {price('Class A', product.classA)}
              {price('Class B', product.classB)}
              {price('OCOP', product.ocop)}
            </p>
          ) : null}
          {state.status === 'done' ? (
            <table className="data-table">
              <thead>
                <tr>
                  <th>No.</th>
                  <th>Date</th>
                  <th>CSR</th>
                  <th className="num">Qty</th>
                  <th className="num">Unit Price</th>
                  <th className="num">Amount</th>
                </tr>
              </thead>
              <tbody>
                {rows.length === 0 ? (
                  <tr>
                    <td className="empty" colSpan={6}>
                      No history
                    </td>
                  </tr>
                ) : (
                  rows.map((r, i) => (
                    <tr key={`${r.id}-${i}`}>
                      <td>{r.no}</td>
                      <td>{formatDate(r.date)}</td>
                      <td>{r.csrName}</td>
                      <td className="num">{formatInt(r.qty)}</td>
                      <td className="num">{formatCents(r.unitPrice)}</td>
                      <td className="num">{formatCents(r.amount)}</td>
                    </tr>
                  ))
                )}
              </tbody>
            </table>
          ) : null}
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
