// Island entry: <app-island name="quoting-cart"
//   props='{"storageKey":"carts","checkoutPath":"/order_add/invoices"}'>.
import type { QuotingCartProps as QuotingCartWire } from '../../generated/island-props';
import { defineIsland } from '../../lib/island';
import { createMount, stringProp } from '../../lib/mount';
import { QuotingCart, type QuotingCartProps } from './QuotingCart';

export { QuotingCart };
export type { QuotingCartProps };

export const DEFAULT_STORAGE_KEY = 'carts';
export const DEFAULT_CHECKOUT_PATH = '/order_add/invoices';

export function parseQuotingCartProps(raw: unknown): QuotingCartProps {
  return {
    storageKey: stringProp<QuotingCartWire>(raw, 'storageKey') || DEFAULT_STORAGE_KEY,
    checkoutPath: stringProp<QuotingCartWire>(raw, 'checkoutPath') || DEFAULT_CHECKOUT_PATH,
  };
}

export const island = defineIsland(QuotingCart, parseQuotingCartProps);

export const mount = createMount(island);
