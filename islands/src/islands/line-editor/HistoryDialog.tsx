// 'CHK' on a sales line: the product's prices and its sales history for the customer.
// One dialog serves the whole editor: a row's CHK is a plain button (HistoryButton.tsx) and the
// editor shows this dialog for the line it names, so a 200-line sheet renders 200 buttons,
// not 200 dialog roots (on the server every element costs; see docs/decisions/islands.md and docs/performance.md).
import { useEffect, useState } from 'react';
import { apiFetch } from '../../lib/api';
import { DialogFooter, DialogFrame } from '../../lib/dialog';
import { useLatestRequest } from '../../lib/latest-request';
import { showDate } from '../../lib/dates';
import { formatCents, formatInt } from '../../lib/money';
import { EmptyRow } from '../../lib/table';
import type { HistoryResponse } from './types';

export interface HistoryDialogProps {
  lineNo: number;
  productId: number;
  customerId: number | null;
  /** The dialog was closed: the editor stops showing it and focus returns to the row's CHK. */
  onClose: () => void;
}

type State =
  | { status: 'loading' }
  | { status: 'error' }
  | { status: 'done'; data: HistoryResponse };

export function historyPath(productId: number, customerId: number | null): string {
  const base = `/products/${productId}/history`;
  return customerId === null ? base : `${base}?cId=${customerId}`;
}

export function HistoryDialog({ lineNo, productId, customerId, onClose }: HistoryDialogProps) {
  const [state, setState] = useState<State>({ status: 'loading' });
  const request = useLatestRequest();

  useEffect(() => {
    setState({ status: 'loading' });
    request.start(
      (signal) => apiFetch<HistoryResponse>(historyPath(productId, customerId), { signal }),
      (data) => setState({ status: 'done', data }),
      () => setState({ status: 'error' }),
    );
    // `request` is stable (one per dialog); a new product or customer loads again.
  }, [request, productId, customerId]);

  const onOpenChange = (next: boolean) => {
    if (next) return;
    request.abort();
    onClose();
  };
  const backToButton = (e: Event) => {
    e.preventDefault();
    const button = document.querySelector<HTMLButtonElement>(`button[aria-label="CHK history, line ${lineNo}"]`);
    button?.focus();
  };

  const product = state.status === 'done' ? state.data.product : null;
  const rows = state.status === 'done' && Array.isArray(state.data.data) ? state.data.data : [];
  const price = (label: string, cents: number | null | undefined) =>
    cents === null || cents === undefined ? null : (
      <span key={label} style={{ marginRight: 14 }}>
        <span className="muted">{label}</span> <strong className="num">{formatCents(cents)}</strong>
      </span>
    );

  const status = state.status === 'error' ? 'The history could not be loaded.' : 'Loading…';
  return (
    <DialogFrame
      open
      onOpenChange={onOpenChange}
      onCloseAutoFocus={backToButton}
      title="Price History"
      description={product ? product.name : status}
      style={{ minWidth: 'min(640px, 94vw)' }}
    >
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
              <EmptyRow columns={6} text="No history" />
            ) : (
              rows.map((r, i) => (
                <tr key={`${r.id}-${i}`}>
                  <td>{r.no}</td>
                  <td>{showDate(r.date)}</td>
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
      <DialogFooter close="Close" />
    </DialogFrame>
  );
}
