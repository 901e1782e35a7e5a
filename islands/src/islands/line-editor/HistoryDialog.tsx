// 'CHK' on a sales line: the product's prices and its sales history for the customer.
import { useState } from 'react';
import { apiFetch } from '../../lib/api';
import { DialogFooter, DialogFrame } from '../../lib/dialog';
import { useLatestRequest } from '../../lib/latest-request';
import { formatCents, formatInt } from '../../lib/money';
import { EmptyRow } from '../../lib/table';
import { formatDate } from './rules';
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
  const request = useLatestRequest();

  const load = (id: number) => {
    setState({ status: 'loading' });
    request.start(
      (signal) => apiFetch<HistoryResponse>(historyPath(id, customerId), { signal }),
      (data) => setState({ status: 'done', data }),
      () => setState({ status: 'error' }),
    );
  };

  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (next && productId !== null) load(productId);
    if (!next) request.abort();
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
      open={open}
      onOpenChange={onOpenChange}
      title="Price History"
      description={product ? product.name : status}
      trigger={
        <button type="button" className="btn small" disabled={productId === null} aria-label={`History line ${lineNo}`}>
          CHK
        </button>
      }
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
      <DialogFooter close="Close" />
    </DialogFrame>
  );
}
