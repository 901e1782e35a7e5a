// OCOP price dialogs (spec §2.4 OCOP list). One per page; invisible until the page asks:
//   in  `open-ocop`    {productId} → GET /api/ocops/{productId}, dialog 'Edit Prices · <code> <name>'
//   out `ocop-changed` {productId} after a successful PUT /api/ocops/{productId}
// The table lists every customer with an OCOP price for the product (edit, remove, add by
// search); Save sends the complete list. A customer's name opens their OCOP price list.
// SSR-safe: renders nothing until the event; DOM and API use only in effects and handlers.
import * as Dialog from '@radix-ui/react-dialog';
import { useCallback, useEffect, useId, useRef, useState, type CSSProperties, type FormEvent } from 'react';
import { apiFetch, MSG_HTTP_ERROR, toast, TOAST_LONG_MS, TOAST_SHORT_MS } from '../../lib/api';
import { centsToInput, formatCents, parsePrice } from '../price-dialog/money';
import { CustomerPrices, type CustomerRef } from './CustomerPrices';
import { CustomerSearch } from './CustomerSearch';
import { toOcopAnswer, type CustomerHit, type OcopProduct, type OcopUpdate } from './types';

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

const positiveId = (v: unknown): number | null =>
  typeof v === 'number' && Number.isSafeInteger(v) && v > 0
    ? v
    : typeof v === 'string' && /^\d+$/.test(v) && Number(v) > 0
      ? Number(v)
      : null;

export function OcopEditor() {
  const [open, setOpen] = useState(false);
  const [productId, setProductId] = useState<number | null>(null);
  const [product, setProduct] = useState<OcopProduct | null>(null);
  // null while loading.
  const [rows, setRows] = useState<Row[] | null>(null);
  const [errors, setErrors] = useState<Record<number, string>>({});
  const [saving, setSaving] = useState(false);
  const [highlight, setHighlight] = useState<number | null>(null);
  const [customer, setCustomer] = useState<CustomerRef | null>(null);
  const request = useRef<AbortController | null>(null);
  const priceInputs = useRef<Map<number, HTMLInputElement>>(new Map());
  // A row whose price input gets the focus after the next render.
  const focusNext = useRef<number | null>(null);
  const highlightTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const searchListOpen = useRef(false);
  // Mirrors `saving` for the document listener: no other product opens during a save.
  const savingRef = useRef(false);
  const id = useId();

  const close = useCallback(() => {
    request.current?.abort();
    request.current = null;
    setOpen(false);
    setProductId(null);
    setProduct(null);
    setRows(null);
    setErrors({});
    setSaving(false);
    savingRef.current = false;
    setHighlight(null);
    setCustomer(null);
  }, []);

  const load = useCallback(
    (pid: number) => {
      request.current?.abort();
      const controller = new AbortController();
      request.current = controller;
      setOpen(true);
      setProductId(pid);
      setProduct(null);
      setRows(null);
      setErrors({});
      setSaving(false);
      setCustomer(null);
      apiFetch<{ data?: unknown }>(`/ocops/${pid}`, { signal: controller.signal }).then(
        (body) => {
          if (request.current !== controller) return;
          request.current = null;
          const answer = toOcopAnswer(body?.data);
          if (!answer) {
            toast(MSG_HTTP_ERROR, 'error', TOAST_LONG_MS);
            close();
            return;
          }
          setProduct(answer.product);
          setRows(answer.csrs.map((c) => ({ ...c, price: centsToInput(c.price) })));
          focusNext.current = answer.csrs[0]?.id ?? null;
        },
        () => {
          // apiFetch has reported it (an abort means another load or a close).
          if (request.current === controller) close();
        },
      );
    },
    [close],
  );

  useEffect(() => {
    const onOpen = (e: Event) => {
      // Claimed: the page stops re-sending a request made before this island mounted.
      e.preventDefault();
      const detail: unknown = (e as CustomEvent<unknown>).detail;
      const pid =
        typeof detail === 'object' && detail !== null
          ? positiveId((detail as { productId?: unknown }).productId)
          : null;
      if (pid !== null && !savingRef.current) load(pid);
    };
    document.addEventListener(OPEN_EVENT, onOpen);
    return () => {
      document.removeEventListener(OPEN_EVENT, onOpen);
      request.current?.abort();
      if (highlightTimer.current !== null) clearTimeout(highlightTimer.current);
    };
  }, [load]);

  // Focus the row asked for (a new customer, or one picked again).
  useEffect(() => {
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
    if (!rows || !product) return;
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
    setRows((prev) => prev && prev.map((r) => (r.id === customerId ? { ...r, price: value } : r)));
    if (errors[customerId]) {
      const parsed = parsePrice(value);
      setErrors((prev) => withError(prev, customerId, parsed.ok ? undefined : parsed.message));
    }
  };

  const checkPrice = (customerId: number) => {
    const row = rows?.find((r) => r.id === customerId);
    if (!row) return;
    const parsed = parsePrice(row.price);
    setErrors((prev) => withError(prev, customerId, parsed.ok ? undefined : parsed.message));
  };

  const onRemove = (customerId: number) => {
    setRows((prev) => prev && prev.filter((r) => r.id !== customerId));
    setErrors((prev) => withError(prev, customerId, undefined));
  };

  const closeCustomer = useCallback(() => setCustomer(null), []);

  const onOpenChange = (next: boolean) => {
    if (next || saving) return;
    close();
  };

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (!rows || productId === null || saving) return;
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
    setSaving(true);
    savingRef.current = true;
    const body: OcopUpdate = { prices };
    try {
      await apiFetch(`/ocops/${productId}`, { method: 'PUT', json: body });
    } catch {
      // apiFetch has reported it; the dialog stays open for another try.
      setSaving(false);
      savingRef.current = false;
      return;
    }
    toast(MSG_SAVED, 'success', TOAST_SHORT_MS);
    close();
    document.dispatchEvent(new CustomEvent(CHANGED_EVENT, { detail: { productId } }));
  };

  const title = product ? `Edit Prices · ${product.code} ${product.name}` : 'Edit Prices';

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content
          className="dialog ocop-dialog"
          style={{ minWidth: 'min(620px, 94vw)' }}
          aria-describedby={product ? `${id}-desc` : undefined}
          onEscapeKeyDown={(e) => {
            // Esc in the customer search closes its suggestion list, not the dialog.
            if (searchListOpen.current) e.preventDefault();
          }}
        >
          <Dialog.Title>{title}</Dialog.Title>
          {product ? (
            <Dialog.Description className="dialog-description" id={`${id}-desc`}>
              Class A {formatCents(product.classAPrice)} · Standard {formatCents(product.standardPrice)}
            </Dialog.Description>
          ) : null}
          {rows === null ? (
            <p className="muted" role="status">
              Loading…
            </p>
          ) : (
            <form noValidate onSubmit={onSubmit}>
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
                      <tr
                        key={row.id}
                        data-customer={row.id}
                        style={highlight === row.id ? highlightStyle : undefined}
                      >
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
                          <input
                            ref={(el) => {
                              if (el) priceInputs.current.set(row.id, el);
                              else priceInputs.current.delete(row.id);
                            }}
                            id={inputId}
                            type="number"
                            inputMode="decimal"
                            step="0.01"
                            min="0"
                            style={priceStyle}
                            value={row.price}
                            disabled={saving}
                            aria-label={`OCOP price for ${row.name}`}
                            aria-invalid={error ? true : undefined}
                            aria-describedby={error ? `${inputId}-error` : undefined}
                            onChange={(e) => setPrice(row.id, e.target.value)}
                            onBlur={() => checkPrice(row.id)}
                          />
                          {error ? (
                            <div className="field-error" id={`${inputId}-error`} role="alert">
                              {error}
                            </div>
                          ) : null}
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
                  {rows.length === 0 ? (
                    <tr>
                      <td className="empty" colSpan={4}>
                        No Data
                      </td>
                    </tr>
                  ) : null}
                </tbody>
              </table>
              <CustomerSearch onPick={onPick} listOpen={searchListOpen} disabled={saving} />
              <div className="dialog-actions">
                <Dialog.Close asChild>
                  <button type="button" className="btn" disabled={saving}>
                    Cancel
                  </button>
                </Dialog.Close>
                <button type="submit" className="btn primary" disabled={saving}>
                  Save
                </button>
              </div>
            </form>
          )}
          <CustomerPrices customer={customer} onClose={closeCustomer} />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
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
