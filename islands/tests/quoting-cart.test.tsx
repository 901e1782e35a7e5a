import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mount } from '../src/islands/quoting-cart/index';
import {
  addItem,
  checkoutUrl,
  EMPTY_CART,
  parseCart,
} from '../src/islands/quoting-cart/cart';
import { QuotingCart } from '../src/islands/quoting-cart/QuotingCart';
import { captureToasts } from './helpers';

const KEY = 'carts';
const CONFIRM =
  'When checking out for new invoice, Do you want to EMPTY Quoting Cart & Customer?';
const EMPTIED = 'Quoting carts has been emptied, and checking out...';

let capture: ReturnType<typeof captureToasts>;

beforeEach(() => {
  localStorage.clear();
  capture = captureToasts();
});
afterEach(() => {
  capture.stop();
  vi.useRealTimers();
});

const stored = () => {
  const raw = localStorage.getItem(KEY);
  return raw === null ? null : (JSON.parse(raw) as unknown);
};

const add = (id: number, qty: number, code = `C${id}`, name = `Name ${id}`) =>
  act(() => {
    document.dispatchEvent(new CustomEvent('cart-add', { detail: { id, code, name, qty } }));
  });

const changeCustomer = (detail: { id: number | null; name?: string }) =>
  act(() => {
    document.dispatchEvent(new CustomEvent('customer-changed', { detail }));
  });

const badge = () => screen.getByTestId('cart-badge');
const cartButton = () => screen.getByRole('button', { name: /^Cart/ });
const checkoutButton = () => screen.getByRole('button', { name: 'Check out >' }) as HTMLButtonElement;

function renderCart(checkoutPath = '/order_add/invoices') {
  return render(<QuotingCart storageKey={KEY} checkoutPath={checkoutPath} />);
}

async function openPopover(user: ReturnType<typeof userEvent.setup>) {
  await user.click(cartButton());
  return screen.findByRole('dialog', { name: 'Quoting cart' });
}

const rowTexts = (popover: HTMLElement) =>
  within(popover)
    .getAllByRole('row')
    .slice(1)
    .map((tr) => {
      const cells = Array.from(tr.querySelectorAll('td'));
      const input = tr.querySelector('input');
      return cells.slice(0, 2).map((c) => c.textContent).concat(input ? [input.value] : []);
    });

describe('quoting-cart: items', () => {
  it('starts empty: badge 0 and Check out disabled', () => {
    renderCart();
    expect(badge().textContent).toBe('0');
    expect(badge().classList.contains('badge')).toBe(true);
    expect(checkoutButton().disabled).toBe(true);
    expect(stored()).toBeNull();
  });

  it('sums quantities of the same product, caps a line at 999 and saves the shared shape', async () => {
    renderCart();
    await add(11, 2, 'P-11', 'Tyre 205/55R16');
    await add(12, 1, 'P-12', 'Tyre 195/65R15');
    await add(11, 3, 'P-11', 'Tyre 205/55R16');
    expect(badge().textContent).toBe('6');
    expect(stored()).toEqual({
      items: [
        { id: 11, code: 'P-11', name: 'Tyre 205/55R16', qty: 5 },
        { id: 12, code: 'P-12', name: 'Tyre 195/65R15', qty: 1 },
      ],
      csr: null,
    });
    await add(12, 998);
    expect((stored() as { items: Array<{ qty: number }> }).items[1]!.qty).toBe(999);
    expect(badge().textContent).toBe('1,004');
    expect(checkoutButton().disabled).toBe(false);
  });

  it('ignores malformed cart-add details', async () => {
    renderCart();
    await act(() => {
      document.dispatchEvent(new CustomEvent('cart-add', { detail: { id: 'x', qty: 1 } }));
      document.dispatchEvent(new CustomEvent('cart-add', { detail: { id: 3, qty: 0 } }));
      document.dispatchEvent(new CustomEvent('cart-add', { detail: { id: 3, qty: 1.5 } }));
      document.dispatchEvent(new CustomEvent('cart-add', { detail: null }));
    });
    expect(badge().textContent).toBe('0');
    expect(stored()).toBeNull();
  });

  it('restores the stored cart on mount (without flashing)', async () => {
    localStorage.setItem(
      KEY,
      JSON.stringify({
        items: [
          { id: 1, code: 'A1', name: 'Alpha', qty: 4 },
          { id: 2, code: 'B2', name: 'Beta', qty: 2 },
        ],
        csr: null,
      }),
    );
    const user = userEvent.setup();
    renderCart();
    await waitFor(() => expect(badge().textContent).toBe('6'));
    expect(badge().classList.contains('flash')).toBe(false);
    const popover = await openPopover(user);
    expect(rowTexts(popover)).toEqual([
      ['A1', 'Alpha', '4'],
      ['B2', 'Beta', '2'],
    ]);
    expect(within(popover).getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
      'Item Code',
      'Item Name',
      'QTY.',
      '',
    ]);
  });

  it('treats unreadable storage as an empty cart', () => {
    localStorage.setItem(KEY, '{not json');
    renderCart();
    expect(badge().textContent).toBe('0');
  });

  it('follows other tabs through the storage event', async () => {
    renderCart();
    await add(1, 1);
    const other = { items: [{ id: 5, code: 'E5', name: 'Echo', qty: 7 }], csr: { id: 9, name: 'Kim' } };
    await act(() => {
      window.dispatchEvent(
        new StorageEvent('storage', { key: KEY, newValue: JSON.stringify(other), storageArea: localStorage }),
      );
    });
    expect(badge().textContent).toBe('7');
    // Another key is not this cart.
    await act(() => {
      window.dispatchEvent(
        new StorageEvent('storage', { key: 'carts_csr', newValue: JSON.stringify({ items: [], csr: null }) }),
      );
    });
    expect(badge().textContent).toBe('7');
    // Logout in another tab removes the key.
    await act(() => {
      window.dispatchEvent(new StorageEvent('storage', { key: KEY, newValue: null }));
    });
    expect(badge().textContent).toBe('0');
    expect(checkoutButton().disabled).toBe(true);
  });

  it('flashes the badge for 350 ms when the total changes', async () => {
    vi.useFakeTimers();
    renderCart();
    expect(badge().classList.contains('flash')).toBe(false);
    await add(1, 2);
    expect(badge().className).toBe('badge flash');
    await act(() => {
      vi.advanceTimersByTime(349);
    });
    expect(badge().classList.contains('flash')).toBe(true);
    await act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(badge().className).toBe('badge');
    // A customer change does not change the total: no flash.
    await changeCustomer({ id: 4, name: 'Lee' });
    expect(badge().classList.contains('flash')).toBe(false);
    // A new change restarts the 350 ms.
    await add(1, 1);
    await act(() => {
      vi.advanceTimersByTime(200);
    });
    await add(2, 1);
    await act(() => {
      vi.advanceTimersByTime(200);
    });
    expect(badge().classList.contains('flash')).toBe(true);
    await act(() => {
      vi.advanceTimersByTime(150);
    });
    expect(badge().classList.contains('flash')).toBe(false);
  });

  it('Delete removes a row, Clear All empties the items and keeps the customer', async () => {
    const user = userEvent.setup();
    renderCart();
    await add(1, 2, 'A1', 'Alpha');
    await add(2, 3, 'B2', 'Beta');
    await add(3, 1, 'C3', 'Gamma');
    await changeCustomer({ id: 8, name: 'Acme Tyres' });
    const popover = await openPopover(user);
    expect(within(popover).getByTestId('cart-total').textContent).toBe('Total qty 6');
    expect(within(popover).getByTestId('cart-csr').textContent).toBe('Customer: Acme Tyres');

    await user.click(within(popover).getByRole('button', { name: 'Delete B2' }));
    expect(rowTexts(popover)).toEqual([
      ['A1', 'Alpha', '2'],
      ['C3', 'Gamma', '1'],
    ]);
    expect(within(popover).getByTestId('cart-total').textContent).toBe('Total qty 3');
    expect((stored() as { items: Array<{ id: number }> }).items.map((i) => i.id)).toEqual([1, 3]);

    await user.click(within(popover).getByRole('button', { name: 'Clear All' }));
    expect(within(popover).getByTestId('cart-total').textContent).toBe('Total qty 0');
    expect(within(popover).getByText('No Data')).toBeTruthy();
    expect(stored()).toEqual({ items: [], csr: { id: 8, name: 'Acme Tyres' } });
    expect(badge().textContent).toBe('0');
    expect(checkoutButton().disabled).toBe(true);
  });

  it('quantity edits stay within 1–999', async () => {
    const user = userEvent.setup();
    renderCart();
    await add(1, 2, 'A1', 'Alpha');
    const popover = await openPopover(user);
    const qty = within(popover).getByLabelText('QTY. of A1') as HTMLInputElement;
    expect(qty.type).toBe('number');
    expect(qty.min).toBe('1');
    expect(qty.max).toBe('999');
    const storedQty = () => (stored() as { items: Array<{ qty: number }> }).items[0]!.qty;

    await user.clear(qty);
    await user.type(qty, '15');
    expect(storedQty()).toBe(15);
    expect(badge().textContent).toBe('15');

    await user.type(qty, '00'); // 1500 → capped
    expect(qty.value).toBe('999');
    expect(storedQty()).toBe(999);

    await user.clear(qty);
    await user.type(qty, '0');
    expect(qty.value).toBe('0');
    expect(qty.getAttribute('aria-invalid')).toBe('true');
    expect(storedQty()).toBe(999); // 0 is refused
    await user.tab(); // leaving the cell shows the kept quantity again
    expect(qty.value).toBe('999');
    expect(qty.getAttribute('aria-invalid')).toBeNull();

    fireEvent.change(qty, { target: { value: '2.5' } });
    expect(storedQty()).toBe(999);
    fireEvent.change(qty, { target: { value: '7' } });
    expect(storedQty()).toBe(7);
    expect(within(popover).getByTestId('cart-total').textContent).toBe('Total qty 7');
  });
});

describe('quoting-cart: customer', () => {
  it('stores and clears the customer from customer-changed', async () => {
    renderCart();
    await add(1, 1);
    await changeCustomer({ id: 42, name: 'Bob Motors' });
    expect((stored() as { csr: unknown }).csr).toEqual({ id: 42, name: 'Bob Motors' });
    // Same id without a name keeps the known name.
    await changeCustomer({ id: 42 });
    expect((stored() as { csr: unknown }).csr).toEqual({ id: 42, name: 'Bob Motors' });
    await changeCustomer({ id: null });
    expect((stored() as { csr: unknown }).csr).toBeNull();
  });

  it('dispatches cart-customer on mount when the stored cart has a customer', async () => {
    const seen: unknown[] = [];
    const listener = (e: Event) => seen.push((e as CustomEvent).detail);
    document.addEventListener('cart-customer', listener);
    try {
      localStorage.setItem(
        KEY,
        JSON.stringify({ items: [{ id: 1, code: 'A', name: 'a', qty: 1 }], csr: { id: 7, name: 'Zed' } }),
      );
      const first = renderCart();
      await waitFor(() => expect(seen).toEqual([{ id: 7, name: 'Zed' }]));
      first.unmount();

      localStorage.setItem(KEY, JSON.stringify({ items: [], csr: null }));
      renderCart();
      await waitFor(() => expect(badge().textContent).toBe('0'));
      expect(seen).toHaveLength(1);
    } finally {
      document.removeEventListener('cart-customer', listener);
    }
  });
});

describe('quoting-cart: check out', () => {
  function stubOpen(result: unknown = {}) {
    const open = vi.fn((_url?: string | URL, _target?: string) => result as Window | null);
    vi.stubGlobal('open', open);
    return open;
  }

  async function openConfirm(user: ReturnType<typeof userEvent.setup>) {
    await user.click(checkoutButton());
    return screen.findByRole('alertdialog');
  }

  it('asks before checking out', async () => {
    const user = userEvent.setup();
    renderCart();
    await add(1, 1);
    const dialog = await openConfirm(user);
    expect(dialog.textContent).toContain(CONFIRM);
    expect(within(dialog).getByText(CONFIRM)).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Empty & GO' })).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'just GO' })).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(badge().textContent).toBe('1');
  });

  it("'Empty & GO' opens addFromCartAndClear in a new tab, toasts and empties the cart and customer", async () => {
    const open = stubOpen();
    const user = userEvent.setup();
    renderCart();
    await add(11, 3);
    await add(12, 1);
    await changeCustomer({ id: 5, name: 'Cust' });
    const dialog = await openConfirm(user);
    await user.click(within(dialog).getByRole('button', { name: 'Empty & GO' }));

    expect(open).toHaveBeenCalledTimes(1);
    expect(open).toHaveBeenCalledWith(
      '/order_add/invoices/addFromCartAndClear?items=11:3,12:1&csr=5',
      '_blank',
    );
    expect(capture.toasts).toEqual([{ text: EMPTIED, level: 'success', ms: 5000 }]);
    expect(stored()).toBeNull();
    expect(badge().textContent).toBe('0');
    expect(checkoutButton().disabled).toBe(true);
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
  });

  it("'just GO' opens addFromCart and keeps the cart; no customer → no csr", async () => {
    const open = stubOpen();
    const user = userEvent.setup();
    renderCart();
    await add(21, 2);
    const before = stored();
    const dialog = await openConfirm(user);
    await user.click(within(dialog).getByRole('button', { name: 'just GO' }));

    expect(open).toHaveBeenCalledWith('/order_add/invoices/addFromCart?items=21:2', '_blank');
    expect(capture.toasts).toEqual([]);
    expect(stored()).toEqual(before);
    expect(badge().textContent).toBe('2');
    expect(checkoutButton().disabled).toBe(false);
  });

  it('keeps the cart when the browser blocks the new tab', async () => {
    stubOpen(null);
    const user = userEvent.setup();
    renderCart();
    await add(1, 1);
    const dialog = await openConfirm(user);
    await user.click(within(dialog).getByRole('button', { name: 'Empty & GO' }));
    expect(badge().textContent).toBe('1');
    expect(stored()).not.toBeNull();
    expect(capture.toasts.map((t) => t.level)).toEqual(['warning']);
  });
});

describe('quoting-cart: pure helpers and mount', () => {
  it('builds check-out URLs', () => {
    const cart = addItem(addItem(EMPTY_CART, { id: 1, code: 'a', name: 'a', qty: 2 }), {
      id: 3,
      code: 'c',
      name: 'c',
      qty: 4,
    });
    expect(checkoutUrl('/x/', 'addFromCart', cart)).toBe('/x/addFromCart?items=1:2,3:4');
    expect(checkoutUrl('/x', 'addFromCartAndClear', { ...cart, csr: { id: 9, name: 'n' } })).toBe(
      '/x/addFromCartAndClear?items=1:2,3:4&csr=9',
    );
  });

  it('parses stored carts defensively and merges duplicates', () => {
    expect(parseCart(null)).toEqual(EMPTY_CART);
    expect(parseCart('[]')).toEqual(EMPTY_CART);
    expect(
      parseCart(
        JSON.stringify({
          items: [
            { id: 1, code: 'a', name: 'A', qty: 600 },
            { id: 1, code: 'a', name: 'A', qty: 600 },
            { id: 2, qty: 0 },
            { id: -1, qty: 1 },
          ],
          csr: { id: 'x' },
        }),
      ),
    ).toEqual({ items: [{ id: 1, code: 'a', name: 'A', qty: 999 }], csr: null });
  });

  it('mount() uses the storageKey and checkoutPath props', async () => {
    localStorage.setItem('carts_csr', JSON.stringify({ items: [{ id: 4, code: 'D', name: 'd', qty: 3 }], csr: null }));
    const open = vi.fn(() => ({}) as Window);
    vi.stubGlobal('open', open);
    const el = document.createElement('div');
    document.body.append(el);
    let unmount = () => {};
    await act(async () => {
      unmount = mount(el, { storageKey: 'carts_csr', checkoutPath: '/order_add/csr' });
    });
    expect(within(el).getByTestId('cart-badge').textContent).toBe('3');
    const user = userEvent.setup();
    await user.click(within(el).getByRole('button', { name: 'Check out >' }));
    await user.click(await screen.findByRole('button', { name: 'just GO' }));
    expect(open).toHaveBeenCalledWith('/order_add/csr/addFromCart?items=4:3', '_blank');
    await act(async () => unmount());
    // Unmounted: events no longer reach it.
    document.dispatchEvent(new CustomEvent('cart-add', { detail: { id: 4, code: 'D', name: 'd', qty: 1 } }));
    expect(JSON.parse(localStorage.getItem('carts_csr')!).items[0].qty).toBe(3);
    el.remove();
  });
});
