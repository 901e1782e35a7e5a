// The Quoting cart widget (spec §2.4 cart widget, §3 Cart, §5 cart quantity, §9).
//
// Page contract (DOM CustomEvents on `document`):
//   in  `cart-add`          {id, code, name, qty}  same product → quantities summed (≤ 999)
//   in  `customer-changed`  {id: number|null, name?}  stores / clears the cart's customer
//   out `cart-customer`     {id, name}  once on mount when the restored cart has a customer;
//                           {id: null} when 'Empty & GO' has emptied the cart and its customer
// State lives in localStorage[storageKey] (shape in ./cart.ts) and follows other tabs via
// the `storage` event. SSR-safe: the first render is the empty cart; storage is only read
// in effects and written in handlers.
import * as AlertDialog from '@radix-ui/react-alert-dialog';
import * as Popover from '@radix-ui/react-popover';
import { useCallback, useEffect, useRef, useState, type CSSProperties } from 'react';
import { toast, TOAST_LONG_MS } from '../../lib/api';
import { formatInt, parseQty } from '../../lib/money';
import { EmptyRow } from '../../lib/table';
import {
  addItem,
  checkoutUrl,
  customerFrom,
  EMPTY_CART,
  FLASH_MS,
  loadCart,
  MAX_QTY,
  MIN_QTY,
  MSG_CHECKOUT_CONFIRM,
  MSG_EMPTIED,
  MSG_POPUP_BLOCKED,
  parseCart,
  removeItem,
  sameCart,
  saveCart,
  setQty,
  toItem,
  totalQty,
  type Cart,
} from './cart';

export interface QuotingCartProps {
  /** localStorage key of the cart: `carts` (staff quoting) or `carts_csr` (self-orders). */
  storageKey: string;
  /** The new-invoice page; check-out opens `<checkoutPath>/addFromCart[AndClear]?…`. */
  checkoutPath: string;
}

export const CART_ADD_EVENT = 'cart-add';
export const CUSTOMER_CHANGED_EVENT = 'customer-changed';
export const CART_CUSTOMER_EVENT = 'cart-customer';
export const FLASH_CLASS = 'flash';

const wrapStyle: CSSProperties = { display: 'inline-flex', alignItems: 'center', gap: 6 };
const badgeStyle: CSSProperties = { marginLeft: 2, transition: 'transform .12s, box-shadow .12s' };
const flashStyle: CSSProperties = {
  ...badgeStyle,
  transform: 'scale(1.3)',
  boxShadow: '0 0 0 3px rgba(192, 38, 45, .3)',
};
const popoverStyle: CSSProperties = {
  zIndex: 40,
  minWidth: 440,
  maxWidth: 'min(640px, 94vw)',
  maxHeight: '70vh',
  overflow: 'auto',
  padding: 10,
  background: '#fff',
  border: '1px solid var(--line, #d5dae1)',
  borderRadius: 6,
  boxShadow: 'var(--shadow, 0 4px 16px rgba(16,24,40,.16))',
};
const headStyle: CSSProperties = {
  display: 'flex',
  justifyContent: 'space-between',
  alignItems: 'baseline',
  gap: 12,
  marginBottom: 8,
};
const footStyle: CSSProperties = {
  display: 'flex',
  justifyContent: 'space-between',
  alignItems: 'center',
  gap: 12,
  marginTop: 8,
};
const qtyStyle: CSSProperties = { width: 64 };

export function QuotingCart({ storageKey, checkoutPath }: QuotingCartProps) {
  const [cart, setCart] = useState<Cart>(EMPTY_CART);
  // The latest cart for document/window listeners (they outlive renders).
  const cartRef = useRef<Cart>(EMPTY_CART);
  const [open, setOpen] = useState(false);
  const [confirmOpen, setConfirmOpen] = useState(false);
  // Quantity text being typed that is not (yet) a valid 1–999 quantity, by product id.
  const [drafts, setDrafts] = useState<Record<number, string>>({});
  const [flash, setFlash] = useState(false);
  // The total the badge last showed: a change starts the flash.
  const shownTotal = useRef(0);
  const flashTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const contentRef = useRef<HTMLDivElement>(null);

  const total = totalQty(cart);
  const empty = cart.items.length === 0;

  /** Makes `next` the cart; `persist` writes it to storage (not for restores / other tabs). */
  const apply = useCallback(
    (next: Cart, persist: boolean) => {
      if (sameCart(next, cartRef.current)) return;
      cartRef.current = next;
      setCart(next);
      if (persist) saveCart(storageKey, next);
    },
    [storageKey],
  );

  // Declared before the restore effect: on mount it runs first (total 0, nothing to do), so
  // the restored total it then records does not flash.
  useEffect(() => {
    if (total === shownTotal.current) return;
    shownTotal.current = total;
    setFlash(true);
    if (flashTimer.current !== null) clearTimeout(flashTimer.current);
    flashTimer.current = setTimeout(() => {
      flashTimer.current = null;
      setFlash(false);
    }, FLASH_MS);
  }, [total]);

  useEffect(() => {
    const restored = loadCart(storageKey);
    shownTotal.current = totalQty(restored); // restoring is not a change: no flash
    apply(restored, false);
    if (restored.csr) {
      document.dispatchEvent(
        new CustomEvent(CART_CUSTOMER_EVENT, {
          detail: { id: restored.csr.id, name: restored.csr.name },
        }),
      );
    }

    // Both claim the event (preventDefault), so a sender that repeats its request until
    // the cart has loaded (`TyreDesk.ask`) stops.
    const onAdd = (e: Event) => {
      e.preventDefault();
      const item = toItem((e as CustomEvent<unknown>).detail);
      if (item) apply(addItem(cartRef.current, item), true);
    };
    const onCustomer = (e: Event) => {
      e.preventDefault();
      const current = cartRef.current;
      apply({ ...current, csr: customerFrom((e as CustomEvent<unknown>).detail, current.csr) }, true);
    };
    const onStorage = (e: StorageEvent) => {
      if (e.storageArea && e.storageArea !== window.localStorage) return;
      if (e.key === null) apply(loadCart(storageKey), false); // localStorage.clear()
      else if (e.key === storageKey) apply(parseCart(e.newValue), false);
    };
    document.addEventListener(CART_ADD_EVENT, onAdd);
    document.addEventListener(CUSTOMER_CHANGED_EVENT, onCustomer);
    window.addEventListener('storage', onStorage);
    return () => {
      document.removeEventListener(CART_ADD_EVENT, onAdd);
      document.removeEventListener(CUSTOMER_CHANGED_EVENT, onCustomer);
      window.removeEventListener('storage', onStorage);
    };
  }, [storageKey, apply]);

  useEffect(
    () => () => {
      if (flashTimer.current !== null) clearTimeout(flashTimer.current);
    },
    [],
  );

  const dropDraft = (id: number) =>
    setDrafts((prev) => {
      if (!(id in prev)) return prev;
      const next = { ...prev };
      delete next[id];
      return next;
    });

  const onQtyChange = (id: number, text: string) => {
    const n = parseQty(text);
    if (n !== null && n >= MIN_QTY) {
      apply(setQty(cartRef.current, id, Math.min(n, MAX_QTY)), true);
      dropDraft(id);
    } else {
      // Empty, 0 or not a whole number: keep what was typed, the cart keeps its quantity.
      setDrafts((prev) => ({ ...prev, [id]: text }));
    }
  };

  const onDelete = (id: number) => {
    apply(removeItem(cartRef.current, id), true);
    dropDraft(id);
    contentRef.current?.focus();
  };

  const onClearAll = () => {
    apply({ ...cartRef.current, items: [] }, true);
    setDrafts({});
    contentRef.current?.focus();
  };

  const onCheckoutOpen = (next: boolean) => {
    if (next && cartRef.current.items.length === 0) return;
    if (next) setOpen(false);
    setConfirmOpen(next);
  };

  const checkout = (clear: boolean) => {
    const current = cartRef.current;
    setConfirmOpen(false);
    if (current.items.length === 0) return;
    const url = checkoutUrl(checkoutPath, clear ? 'addFromCartAndClear' : 'addFromCart', current);
    const tab = window.open(url, '_blank');
    if (tab === null) {
      // Nothing was opened: emptying now would lose the cart.
      toast(MSG_POPUP_BLOCKED, 'warning', TOAST_LONG_MS);
      return;
    }
    if (clear) {
      toast(MSG_EMPTIED, 'success', TOAST_LONG_MS);
      apply(EMPTY_CART, true);
      setDrafts({});
      // The cart's customer went with it: the page's To CSR field empties too.
      document.dispatchEvent(new CustomEvent(CART_CUSTOMER_EVENT, { detail: { id: null, name: '' } }));
    }
  };

  return (
    <span className="quoting-cart" style={wrapStyle}>
      <Popover.Root open={open} onOpenChange={setOpen}>
        <Popover.Trigger type="button" className="btn">
          Cart
          <span
            className={flash ? `badge ${FLASH_CLASS}` : 'badge'}
            style={flash ? flashStyle : badgeStyle}
            data-testid="cart-badge"
          >
            {formatInt(total)}
          </span>
        </Popover.Trigger>
        <Popover.Portal>
          <Popover.Content
            ref={contentRef}
            className="cart-popover"
            align="end"
            sideOffset={4}
            style={popoverStyle}
            aria-label="Quoting cart"
          >
            <div style={headStyle}>
              <strong>Quoting Cart</strong>
              {cart.csr ? (
                <span className="muted" data-testid="cart-csr">
                  Customer: {cart.csr.name || `#${cart.csr.id}`}
                </span>
              ) : null}
            </div>
            <table className="data-table">
              <thead>
                <tr>
                  <th>Item Code</th>
                  <th>Item Name</th>
                  <th className="num">QTY.</th>
                  <th aria-label="Actions" />
                </tr>
              </thead>
              <tbody>
                {cart.items.map((item) => {
                  const draft = drafts[item.id];
                  return (
                    <tr key={item.id} data-product={item.id}>
                      <td>{item.code}</td>
                      <td>{item.name}</td>
                      <td className="num">
                        <input
                          type="number"
                          inputMode="numeric"
                          min={MIN_QTY}
                          max={MAX_QTY}
                          step={1}
                          style={qtyStyle}
                          aria-label={`QTY. of ${item.code}`}
                          title={`${MIN_QTY}–${MAX_QTY}`}
                          value={draft ?? String(item.qty)}
                          aria-invalid={draft !== undefined ? true : undefined}
                          onChange={(e) => onQtyChange(item.id, e.target.value)}
                          onBlur={() => dropDraft(item.id)}
                        />
                      </td>
                      <td>
                        <button
                          type="button"
                          className="btn small danger"
                          aria-label={`Delete ${item.code}`}
                          onClick={() => onDelete(item.id)}
                        >
                          Delete
                        </button>
                      </td>
                    </tr>
                  );
                })}
                {empty ? <EmptyRow columns={4} /> : null}
              </tbody>
            </table>
            <div style={footStyle}>
              <span data-testid="cart-total">
                Total qty <strong>{formatInt(total)}</strong>
              </span>
              <button type="button" className="btn small" disabled={empty} onClick={onClearAll}>
                Clear All
              </button>
            </div>
          </Popover.Content>
        </Popover.Portal>
      </Popover.Root>
      <AlertDialog.Root open={confirmOpen} onOpenChange={onCheckoutOpen}>
        <AlertDialog.Trigger asChild>
          <button type="button" className="btn primary" disabled={empty}>
            Check out &gt;
          </button>
        </AlertDialog.Trigger>
        <AlertDialog.Portal>
          <AlertDialog.Overlay className="dialog-overlay" />
          <AlertDialog.Content className="dialog">
            <AlertDialog.Title>Check out</AlertDialog.Title>
            <AlertDialog.Description>{MSG_CHECKOUT_CONFIRM}</AlertDialog.Description>
            <div className="dialog-actions">
              <AlertDialog.Cancel asChild>
                <button type="button" className="btn">
                  Cancel
                </button>
              </AlertDialog.Cancel>
              <AlertDialog.Action asChild>
                <button type="button" className="btn" onClick={() => checkout(false)}>
                  just GO
                </button>
              </AlertDialog.Action>
              <AlertDialog.Action asChild>
                <button type="button" className="btn primary" onClick={() => checkout(true)}>
                  Empty &amp; GO
                </button>
              </AlertDialog.Action>
            </div>
          </AlertDialog.Content>
        </AlertDialog.Portal>
      </AlertDialog.Root>
    </span>
  );
}
