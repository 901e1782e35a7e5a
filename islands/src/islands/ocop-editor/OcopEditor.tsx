// OCOP price dialogs (spec §2.4 OCOP list). One per page; invisible until the page asks:
//   in  `open-ocop`    {productId} → GET /api/ocops/{productId}, dialog 'Edit Prices · <code> <name>'
//   out `ocop-changed` {productId} after a successful PUT /api/ocops/{productId}
// The table lists every customer with an OCOP price for the product (edit, remove, add by
// search); Save sends the complete list. A customer's name opens their OCOP price list.
// SSR-safe: renders nothing until the event; DOM and API use only in effects and handlers.
import { useCallback, useEffect, useId, useLayoutEffect, useRef, useState, type CSSProperties, type FormEvent, type MutableRefObject } from 'react';
import { apiFetch, toast, TOAST_SHORT_MS } from '../../lib/api';
import { DialogForm, DialogFrame, Loading } from '../../lib/dialog';
import { FieldError } from '../../lib/form';
import { centsToInput, formatCents } from '../../lib/money';
import { parsePrice, PriceInput, priceError } from '../../lib/PriceInput';
import { useProductDialog, type ProductDialog } from '../../lib/product-dialog';
import { EmptyRow } from '../../lib/table';
import { CustomerPrices, type CustomerRef } from './CustomerPrices';
import { CustomerSearch } from './CustomerSearch';
import { toOcopAnswer, type CustomerHit, type OcopAnswer, type OcopUpdate } from './types';

export const OPEN_EVENT = 'open-ocop';
export const CHANGED_EVENT = 'ocop-changed';
export const MSG_SAVED = 'Operation successful';
/** How long a row that was picked again stays highlighted. */
export const HIGHLIGHT_MS = 1500;

/** A customer row being edited: the price as typed. */
interface Row {
  id: number;
  name: string;
  code: string;
  price: string;
}

const priceStyle: CSSProperties = { width: 110, textAlign: 'right' };
const highlightStyle: CSSProperties = { background: 'var(--brand-t, #e8f0fa)' };

async function loadOcop(productId: number, signal: AbortSignal): Promise<OcopAnswer | null> {
  const body = await apiFetch<{ data?: unknown }>(`/ocops/${productId}`, { signal });
  return toOcopAnswer(body?.data);
}

export function OcopEditor() {
  const dialog = useProductDialog(OPEN_EVENT, loadOcop);
  const searchListOpen = useRef(false);
  const product = dialog.data?.product ?? null;

  return (
    <DialogFrame
      {...dialog.frame}
      title={product ? `Edit Prices · ${product.code} ${product.name}` : 'Edit Prices'}
      description={
        product ? `Class A ${formatCents(product.classAPrice)} · Standard ${formatCents(product.standardPrice)}` : null
      }
      className="ocop-dialog"
      style={{ minWidth: 'min(620px, 94vw)' }}
      onEscapeKeyDown={(e) => {
        // Esc in the customer search closes its suggestion list, not the dialog.
        if (searchListOpen.current) e.preventDefault();
      }}
    >
      {dialog.productId === null || dialog.data === null ? (
        <Loading />
      ) : (
        <OcopForm productId={dialog.productId} answer={dialog.data} dialog={dialog} searchListOpen={searchListOpen} />
      )}
    </DialogFrame>
  );
}

interface OcopFormProps {
  productId: number;
  answer: OcopAnswer;
  dialog: ProductDialog<OcopAnswer>;
  searchListOpen: MutableRefObject<boolean>;
}

/** The loaded product's customer table; mounted afresh for each load. */
function OcopForm({ productId, answer, dialog, searchListOpen }: OcopFormProps) {
  const { product } = answer;
  const [rows, setRows] = useState<Row[]>(() => answer.csrs.map((c) => ({ ...c, price: centsToInput(c.price) })));
  const [errors, setErrors] = useState<Record<number, string>>({});
  const [highlight, setHighlight] = useState<number | null>(null);
  const [customer, setCustomer] = useState<CustomerRef | null>(null);
  const priceInputs = useRef<Map<number, HTMLInputElement>>(new Map());
  // A row whose price input gets the focus after the next render: the first one at first.
  const focusNext = useRef<number | null>(answer.csrs[0]?.id ?? null);
  const highlightTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const id = useId();
  const saving = dialog.saving;

  useEffect(
    () => () => {
      if (highlightTimer.current !== null) clearTimeout(highlightTimer.current);
    },
    [],
  );

  // Focus the row asked for (a new customer, or one picked again).
  useLayoutEffect(() => {
    const target = focusNext.current;
    if (target === null) return;
    focusNext.current = null;
    const input = priceInputs.current.get(target);
    if (!input) return;
    input.focus();
    input.select();
    input.scrollIntoView?.({ block: 'nearest' });
  });

  const flashRow = (customerId: number) => {
    setHighlight(customerId);
    if (highlightTimer.current !== null) clearTimeout(highlightTimer.current);
    highlightTimer.current = setTimeout(() => {
      highlightTimer.current = null;
      setHighlight(null);
    }, HIGHLIGHT_MS);
  };

  const onPick = (hit: CustomerHit) => {
    focusNext.current = hit.id;
    if (rows.some((r) => r.id === hit.id)) {
      // Already listed: go to its row instead of adding it twice.
      flashRow(hit.id);
      return;
    }
    // A new customer starts from the Class A price.
    setRows([...rows, { id: hit.id, name: hit.name, code: hit.code, price: centsToInput(product.classAPrice) }]);
    flashRow(hit.id);
  };

  const setPrice = (customerId: number, value: string) => {
    setRows((prev) => prev.map((r) => (r.id === customerId ? { ...r, price: value } : r)));
    // Once a message shows, it follows the typing.
    if (errors[customerId]) setErrors((prev) => withError(prev, customerId, priceError(value)));
  };

  const checkPrice = (customerId: number) => {
    const row = rows.find((r) => r.id === customerId);
    if (row) setErrors((prev) => withError(prev, customerId, priceError(row.price)));
  };

  const onRemove = (customerId: number) => {
    setRows((prev) => prev.filter((r) => r.id !== customerId));
    setErrors((prev) => withError(prev, customerId, undefined));
  };

  const closeCustomer = useCallback(() => setCustomer(null), []);

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (saving) return;
    const nextErrors: Record<number, string> = {};
    const prices: OcopUpdate['prices'] = [];
    let first: Row | null = null;
    for (const row of rows) {
      const parsed = parsePrice(row.price);
      if (parsed.ok) {
        prices.push({ id: row.id, price: parsed.cents });
      } else {
        nextErrors[row.id] = parsed.message;
        first ??= row;
      }
    }
    setErrors(nextErrors);
    if (first !== null) {
      toast(nextErrors[first.id] ?? '', 'error', TOAST_SHORT_MS);
      priceInputs.current.get(first.id)?.focus();
      return;
    }
    const body: OcopUpdate = { prices };
    try {
      await dialog.save(() => apiFetch(`/ocops/${productId}`, { method: 'PUT', json: body }));
    } catch {
      // apiFetch has reported it; the dialog stays open for another try.
      return;
    }
    toast(MSG_SAVED, 'success', TOAST_SHORT_MS);
    dialog.close();
    document.dispatchEvent(new CustomEvent(CHANGED_EVENT, { detail: { productId } }));
  };

  return (
    <>
      <DialogForm onSubmit={onSubmit} submit="Save" busyLabel="Saving…" busy={saving}>
        <table className="data-table">
          <thead>
            <tr>
              <th>Customer</th>
              <th>ABN/code</th>
              <th className="num">OCOP price</th>
              <th aria-label="Actions" />
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => {
              const error = errors[row.id];
              const inputId = `${id}-price-${row.id}`;
              return (
                <tr key={row.id} data-customer={row.id} style={highlight === row.id ? highlightStyle : undefined}>
                  <td>
                    <button
                      type="button"
                      className="btn link"
                      title={`OCOP prices of ${row.name}`}
                      onClick={() => setCustomer({ id: row.id, name: row.name })}
                    >
                      {row.name}
                    </button>
                  </td>
                  <td>{row.code}</td>
                  <td className="num">
                    <PriceInput
                      ref={(el) => {
                        if (el) priceInputs.current.set(row.id, el);
                        else priceInputs.current.delete(row.id);
                      }}
                      id={inputId}
                      style={priceStyle}
                      value={row.price}
                      disabled={saving}
                      aria-label={`OCOP price for ${row.name}`}
                      error={error}
                      onChange={(e) => setPrice(row.id, e.target.value)}
                      onBlur={() => checkPrice(row.id)}
                    />
                    <FieldError of={inputId} message={error} />
                  </td>
                  <td>
                    <button
                      type="button"
                      className="btn small"
                      disabled={saving}
                      aria-label={`Remove ${row.name}`}
                      onClick={() => onRemove(row.id)}
                    >
                      Remove
                    </button>
                  </td>
                </tr>
              );
            })}
            {rows.length === 0 ? <EmptyRow columns={4} /> : null}
          </tbody>
        </table>
        <CustomerSearch onPick={onPick} listOpen={searchListOpen} disabled={saving} />
      </DialogForm>
      <CustomerPrices customer={customer} onClose={closeCustomer} />
    </>
  );
}

function withError(
  errors: Record<number, string>,
  customerId: number,
  message: string | undefined,
): Record<number, string> {
  if (message === undefined) {
    if (!(customerId in errors)) return errors;
    const next = { ...errors };
    delete next[customerId];
    return next;
  }
  return errors[customerId] === message ? errors : { ...errors, [customerId]: message };
}
