// Island entry: <app-island name="quoting-cart"
//   props='{"storageKey":"carts","checkoutPath":"/order_add/invoices"}'>.
import { createMount, stringProp } from '../../lib/mount';
import { QuotingCart, type QuotingCartProps } from './QuotingCart';

export { QuotingCart };
export type { QuotingCartProps };

export const DEFAULT_STORAGE_KEY = 'carts';
export const DEFAULT_CHECKOUT_PATH = '/order_add/invoices';

export function parseQuotingCartProps(raw: unknown): QuotingCartProps {
  return {
    storageKey: stringProp(raw, 'storageKey') || DEFAULT_STORAGE_KEY,
    checkoutPath: stringProp(raw, 'checkoutPath') || DEFAULT_CHECKOUT_PATH,
  };
}

export const mount = createMount(QuotingCart, parseQuotingCartProps);
