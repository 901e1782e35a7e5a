// The quoting cart (spec §3 Cart, §5 cart quantity, §9): items with summed quantities and
// the chosen customer, saved in localStorage as
//   {"items":[{"id":1,"code":"…","name":"…","qty":2}],"csr":{"id":5,"name":"…"}|null}
// (`carts`; `carts_csr` is the customer self-order cart with the same shape).
// Pure functions; storage access is wrapped so a blocked localStorage never throws.

export interface CartItem {
  id: number;
  code: string;
  name: string;
  qty: number;
}

export interface CartCustomer {
  id: number;
  name: string;
}

export interface Cart {
  items: CartItem[];
  csr: CartCustomer | null;
}

/** Cart quantity limits (spec §5, §9). */
export const MIN_QTY = 1;
export const MAX_QTY = 999;
/** How long the badge flashes when the total quantity changes (spec §9). */
export const FLASH_MS = 350;

export const EMPTY_CART: Cart = { items: [], csr: null };

export const MSG_CHECKOUT_CONFIRM =
  'When checking out for new invoice, Do you want to EMPTY Quoting Cart & Customer?';
export const MSG_EMPTIED = 'Quoting carts has been emptied, and checking out...';
export const MSG_POPUP_BLOCKED =
  'The browser blocked the new tab; the cart was kept. Allow pop-ups for this site and try again.';

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const isId = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v > 0;

/** A quantity clamped to 1–999, or null when it is not a whole number ≥ 1. */
export function clampQty(v: unknown): number | null {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < MIN_QTY) return null;
  return Math.min(v, MAX_QTY);
}

/** One item from untyped JSON (an event detail or stored data), or null. */
export function toItem(raw: unknown): CartItem | null {
  if (!isRecord(raw) || !isId(raw.id)) return null;
  const qty = clampQty(raw.qty);
  if (qty === null) return null;
  return {
    id: raw.id,
    code: typeof raw.code === 'string' ? raw.code : '',
    name: typeof raw.name === 'string' ? raw.name : '',
    qty,
  };
}

function toCustomer(raw: unknown): CartCustomer | null {
  if (!isRecord(raw) || !isId(raw.id)) return null;
  return { id: raw.id, name: typeof raw.name === 'string' ? raw.name : '' };
}

/** Stored JSON → a cart; anything unreadable counts as empty. Duplicate ids are summed. */
export function parseCart(text: string | null): Cart {
  if (text === null || text === '') return EMPTY_CART;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return EMPTY_CART;
  }
  if (!isRecord(raw)) return EMPTY_CART;
  let cart: Cart = { items: [], csr: toCustomer(raw.csr) };
  if (Array.isArray(raw.items)) {
    for (const entry of raw.items) {
      const item = toItem(entry);
      if (item) cart = addItem(cart, item);
    }
  }
  return cart;
}

/** Adds an item; the quantity of a product already in the cart is summed (capped at 999). */
export function addItem(cart: Cart, item: CartItem): Cart {
  const index = cart.items.findIndex((i) => i.id === item.id);
  if (index < 0) return { ...cart, items: [...cart.items, { ...item }] };
  const items = cart.items.map((i, n) =>
    n === index
      ? {
          id: i.id,
          code: item.code || i.code,
          name: item.name || i.name,
          qty: Math.min(i.qty + item.qty, MAX_QTY),
        }
      : i,
  );
  return { ...cart, items };
}

export function setQty(cart: Cart, id: number, qty: number): Cart {
  return { ...cart, items: cart.items.map((i) => (i.id === id ? { ...i, qty } : i)) };
}

export function removeItem(cart: Cart, id: number): Cart {
  return { ...cart, items: cart.items.filter((i) => i.id !== id) };
}

export function totalQty(cart: Cart): number {
  return cart.items.reduce((sum, i) => sum + i.qty, 0);
}

/** `customer-changed` detail `{id: number|null, name?}` → the cart's customer. */
export function customerFrom(detail: unknown, previous: CartCustomer | null): CartCustomer | null {
  if (!isRecord(detail) || !isId(detail.id)) return null;
  const name =
    typeof detail.name === 'string'
      ? detail.name
      : previous !== null && previous.id === detail.id
        ? previous.name
        : '';
  return { id: detail.id, name };
}

/** `id:qty,id:qty` for the check-out URL. */
export function itemsParam(cart: Cart): string {
  return cart.items.map((i) => `${i.id}:${i.qty}`).join(',');
}

/** The new-invoice URL: `<checkoutPath>/<operation>?items=id:qty,…[&csr=<id>]`. */
export function checkoutUrl(
  checkoutPath: string,
  operation: 'addFromCart' | 'addFromCartAndClear',
  cart: Cart,
): string {
  const base = checkoutPath.replace(/\/+$/, '');
  const csr = cart.csr ? `&csr=${cart.csr.id}` : '';
  return `${base}/${operation}?items=${itemsParam(cart)}${csr}`;
}

export function serializeCart(cart: Cart): string {
  return JSON.stringify({ items: cart.items, csr: cart.csr });
}

export function sameCart(a: Cart, b: Cart): boolean {
  return serializeCart(a) === serializeCart(b);
}

/** Reads the stored cart (call from effects and handlers only). */
export function loadCart(key: string): Cart {
  try {
    return parseCart(window.localStorage.getItem(key));
  } catch {
    return EMPTY_CART;
  }
}

/** Saves the cart; an empty cart without a customer removes the key. */
export function saveCart(key: string, cart: Cart): void {
  try {
    if (cart.items.length === 0 && cart.csr === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, serializeCart(cart));
  } catch {
    // Storage unavailable (private mode, quota): the cart still works for this page.
  }
}
