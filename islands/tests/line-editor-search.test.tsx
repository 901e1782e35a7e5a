import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LineEditor } from '../src/islands/line-editor/LineEditor';
import { captureToasts, setMeta } from './helpers';
import { HITS, cell, flush, line, props, routeFetch, searchRoute, serialized } from './fixtures/line-editor';

let capture: ReturnType<typeof captureToasts>;
beforeEach(() => {
  capture = captureToasts();
  setMeta('csrf-token', 'csrf-abc');
  setMeta('org-id', '3');
});
afterEach(() => {
  capture.stop();
  vi.useRealTimers();
});

const listbox = () => screen.queryByRole('listbox');
// Scoped to the list: the Tax Type <select> has options too.
const options = () => {
  const list = listbox();
  return list ? within(list).queryAllByRole('option') : [];
};

/**
 * Fake timers for the debounces. Testing Library drains its async wrapper with a
 * setTimeout(0) that it only advances when it sees Jest's fake timers, so it is shown a
 * `jest` that advances Vitest's clock.
 */
function fake() {
  vi.useFakeTimers();
  vi.stubGlobal('jest', { advanceTimersByTime: (ms: number) => vi.advanceTimersByTime(ms) });
  return userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
}

async function advance(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
  await flush();
}

describe('product search debounce and request (spec §9)', () => {
  it('Item Code searches 700 ms after the last keystroke with code, per_page, customerId and warehouseId', async () => {
    const user = fake();
    const fetch = routeFetch(searchRoute());
    render(<LineEditor {...props({ customerId: 42, warehouseId: 2 })} />);
    const code = cell('Item Code line 1');
    await user.click(code);
    await user.type(code, '205/55');
    await advance(400);
    await user.type(code, 'R16');
    await advance(699);
    expect(fetch).not.toHaveBeenCalled();
    await advance(1);
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('/api/products?code=205%2F55R16&per_page=20&customerId=42&warehouseId=2');
    expect(new Headers(init?.headers).get('x-csrf-token')).toBe('csrf-abc');
    expect(new Headers(init?.headers).get('x-org-id')).toBe('3');
    await flush();
    expect(listbox()).not.toBeNull();
    expect(code.getAttribute('aria-expanded')).toBe('true');
    expect(options()).toHaveLength(3);
  });

  it('says so when nothing matches', async () => {
    const user = fake();
    routeFetch(searchRoute());
    render(<LineEditor {...props()} />);
    await user.click(cell('Item Code line 1'));
    await user.type(cell('Item Code line 1'), 'zzz');
    await advance(700);
    expect(options()).toHaveLength(0);
    expect(listbox()?.textContent).toBe('No matching products');
    await user.keyboard('{Enter}'); // nothing to pick: the line stays empty
    expect(serialized()[0]?.productId).toBeNull();
  });

  it('Item Name searches after 500 ms with name=…; no customer/warehouse params when null', async () => {
    const user = fake();
    const fetch = routeFetch(searchRoute());
    render(<LineEditor {...props({ kind: 'purchase', orderType: 3, customerId: null, warehouseId: null })} />);
    const name = cell('Item Name line 1');
    await user.click(name);
    await user.type(name, 'michelin');
    await advance(499);
    expect(fetch).not.toHaveBeenCalled();
    await advance(1);
    expect(fetch.mock.calls.map((c) => c[0])).toEqual(['/api/products?name=michelin&per_page=20']);
    expect(options().map((o) => o.textContent)).toEqual([expect.stringContaining('2055516-MICH')]);
  });

  it('uses the ids from customer-changed and warehouse-changed for later searches', async () => {
    const user = fake();
    const fetch = routeFetch(searchRoute());
    render(<LineEditor {...props({ customerId: 42, warehouseId: 2 })} />);
    act(() => {
      document.dispatchEvent(new CustomEvent('customer-changed', { detail: { id: 77, priceType: 3 } }));
      document.dispatchEvent(new CustomEvent('warehouse-changed', { detail: { id: 9 } }));
    });
    expect(capture.toasts).toEqual([]); // no product lines yet
    await user.click(cell('Item Code line 1'));
    await user.type(cell('Item Code line 1'), '2055516');
    await advance(700);
    expect(fetch.mock.calls[0]?.[0]).toBe('/api/products?code=2055516&per_page=20&customerId=77&warehouseId=9');
  });

  it('an empty text closes the list and does not search', async () => {
    const user = fake();
    const fetch = routeFetch(searchRoute());
    render(<LineEditor {...props()} />);
    const code = cell('Item Code line 1');
    await user.click(code);
    await user.type(code, '2');
    await user.clear(code);
    await advance(1000);
    expect(fetch).not.toHaveBeenCalled();
    expect(listbox()).toBeNull();
  });
});

describe('suggestion list', () => {
  async function openList() {
    const user = fake();
    const fetch = routeFetch(searchRoute());
    render(<LineEditor {...props()} />);
    const code = cell('Item Code line 1');
    await user.click(code);
    await user.type(code, '2055516');
    await advance(700);
    expect(options()).toHaveLength(3);
    return { user, fetch, code };
  }

  it('ArrowDown/ArrowUp move the highlight; Enter picks, fills the line and focuses Qty', async () => {
    const { user, code } = await openList();
    const selectedIndex = () => options().findIndex((o) => o.getAttribute('aria-selected') === 'true');
    expect(selectedIndex()).toBe(0);
    await user.keyboard('{ArrowDown}');
    expect(selectedIndex()).toBe(1);
    expect(code.getAttribute('aria-activedescendant')).toBe(options()[1]!.id);
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(selectedIndex()).toBe(0); // wraps
    await user.keyboard('{ArrowUp}');
    expect(selectedIndex()).toBe(2);
    await user.keyboard('{ArrowUp}');
    expect(selectedIndex()).toBe(1);
    await user.keyboard('{Enter}');

    expect(listbox()).toBeNull();
    const picked = HITS[1]!;
    expect(code.value).toBe(picked.code);
    expect(cell('Item Name line 1').value).toBe(picked.name);
    const row = code.closest('tr')!;
    expect(row.textContent).toContain('EA');
    expect(within(row).getByText('3')).toBeTruthy(); // stock
    expect(cell('Qty line 1').value).toBe('1');
    expect(cell('Unit Price line 1').value).toBe('160.00'); // sales: unitPrice
    expect(document.activeElement).toBe(cell('Qty line 1'));
    expect(serialized()[0]).toMatchObject({ productId: 502, qty: '1', price: '160.00' });
  });

  it('keeps a typed qty; purchase takes the cost price; the mouse can pick', async () => {
    const user = fake();
    routeFetch(searchRoute());
    render(<LineEditor {...props({ kind: 'purchase', orderType: 4, lines: [line({ key: 'new_1', productId: null, code: '', name: '', qty: '6', price: '' })] })} />);
    await user.click(cell('Item Name line 1'));
    await user.type(cell('Item Name line 1'), 'bridgestone');
    await advance(500);
    await user.click(options()[0]!);
    expect(cell('Item Code line 1').value).toBe('2055516-BRID');
    expect(cell('Qty line 1').value).toBe('6');
    expect(cell('Unit Price line 1').value).toBe('80.00');
    expect(document.activeElement).toBe(cell('Qty line 1'));
  });

  it('adjustments: in-system qty = stock, cost price shown, focus to In-Warehouse Qty', async () => {
    const user = fake();
    routeFetch(searchRoute());
    render(<LineEditor {...props({ kind: 'adjustment', orderType: 7, customerId: null })} />);
    await user.click(cell('Item Code line 1'));
    await user.type(cell('Item Code line 1'), 'MICH');
    await advance(700);
    await user.keyboard('{Enter}');
    const row = cell('Item Code line 1').closest('tr')!;
    expect(row.textContent).toContain('98.50');
    expect(serialized()[0]).toMatchObject({ productId: 501, inSystemQty: '14', qty: '', price: '' });
    expect(document.activeElement).toBe(cell('In-Warehouse Qty line 1'));
  });

  it('transfers get qty 1 and no price', async () => {
    const user = fake();
    routeFetch(searchRoute());
    render(<LineEditor {...props({ kind: 'transfer', orderType: 6, customerId: null })} />);
    await user.click(cell('Item Code line 1'));
    await user.type(cell('Item Code line 1'), 'CONT');
    await advance(700);
    await user.keyboard('{Enter}');
    expect(serialized()[0]).toMatchObject({ productId: 502, qty: '1', price: '' });
  });

  it('Esc closes the list without picking and without leaving the cell', async () => {
    const { user, code } = await openList();
    await user.keyboard('{Escape}');
    expect(listbox()).toBeNull();
    expect(document.activeElement).toBe(code);
    expect(serialized()[0]?.productId).toBeNull();
  });

  it('Enter before the debounce ends searches at once (then Enter picks)', async () => {
    const user = fake();
    const fetch = routeFetch(searchRoute());
    render(<LineEditor {...props()} />);
    const code = cell('Item Code line 1');
    await user.click(code);
    await user.type(code, '2055516{Enter}');
    await flush();
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(options()).toHaveLength(3);
    await advance(1000);
    expect(fetch).toHaveBeenCalledTimes(1); // the debounced search was replaced
    await user.keyboard('{ArrowDown}{Enter}');
    expect(serialized()[0]?.productId).toBe(502);
    expect(document.activeElement).toBe(cell('Qty line 1'));
  });

  it('a whole code and Enter before the debounce ends takes that product at once (issue 32)', async () => {
    const user = fake();
    const fetch = routeFetch(searchRoute());
    render(<LineEditor {...props()} />);
    const code = cell('Item Code line 1');
    await user.click(code);
    await user.type(code, '2055516-brid{Enter}');
    await flush();
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(options()).toHaveLength(0);
    expect(serialized()[0]?.productId).toBe(503);
    expect(document.activeElement).toBe(cell('Qty line 1'));
  });

  it('text only one product matches and Enter takes it at once', async () => {
    const user = fake();
    routeFetch(searchRoute());
    render(<LineEditor {...props()} />);
    const code = cell('Item Code line 1');
    await user.click(code);
    await user.type(code, 'CONT{Enter}');
    await flush();
    expect(options()).toHaveLength(0);
    expect(serialized()[0]?.productId).toBe(502);
    expect(document.activeElement).toBe(cell('Qty line 1'));
  });

  it('typing over a picked product clears it until a new pick', async () => {
    const user = fake();
    routeFetch(searchRoute());
    render(<LineEditor {...props({ lines: [line()] })} />);
    await user.type(cell('Item Code line 1'), 'X');
    expect(serialized()[0]?.productId).toBeNull();
    expect(screen.queryByText('Choose a product from the list')).toBeNull(); // not while in the row
    await user.click(document.body);
    expect(screen.getByText('Choose a product from the list')).toBeTruthy();
  });
});

describe('prices dropdown (sales)', () => {
  it('lists the picked hit prices; choosing one sets the unit price', async () => {
    const user = fake();
    const fetch = routeFetch(searchRoute());
    render(<LineEditor {...props()} />);
    await user.click(cell('Item Code line 1'));
    await user.type(cell('Item Code line 1'), 'MICH');
    await advance(700);
    await user.keyboard('{Enter}');
    const calls = fetch.mock.calls.length;

    const button = screen.getByRole('button', { name: 'Prices line 1' });
    await user.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    const items = screen.getAllByRole('menuitem');
    expect(items.map((i) => i.textContent)).toEqual(['A/COD150.00', 'B157.50', 'Standard179.00', 'OCOP139.90']);
    expect(fetch.mock.calls.length).toBe(calls); // known prices: no request
    expect(document.activeElement).toBe(items[0]);
    await user.keyboard('{ArrowDown}{ArrowDown}{Enter}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(cell('Unit Price line 1').value).toBe('179.00');
    expect(document.activeElement).toBe(cell('Unit Price line 1'));
  });

  it('loads the prices of a server line lazily (ids + customerId) and Esc closes', async () => {
    vi.useRealTimers();
    const user = userEvent.setup();
    const fetch = routeFetch(searchRoute());
    render(<LineEditor {...props({ customerId: 42, lines: [line({ productId: 502 })] })} />);
    const button = screen.getByRole('button', { name: 'Prices line 1' });
    await user.click(button);
    await waitFor(() => expect(screen.getAllByRole('menuitem')).toHaveLength(1));
    expect(fetch.mock.calls.map((c) => c[0])).toEqual(['/api/products?ids=502&customerId=42']);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(button);
    // Reopening uses the loaded prices.
    await user.click(button);
    expect(screen.getAllByRole('menuitem')).toHaveLength(1);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('is disabled without a product', () => {
    routeFetch(searchRoute());
    render(<LineEditor {...props()} />);
    expect((screen.getByRole('button', { name: 'Prices line 1' }) as HTMLButtonElement).disabled).toBe(true);
  });
});

describe('history (CHK)', () => {
  it('opens a dialog with the product prices and the history rows, dates as dd MMM yyyy', async () => {
    const user = userEvent.setup();
    const fetch = routeFetch((url) =>
      url === '/api/products/501/history?cId=42'
        ? {
            status: 200,
            body: {
              product: { name: 'Michelin Primacy 4', standard: 17_900, special: 16_500, classA: 15_000, classB: 15_750, ocop: null },
              data: [
                { no: 'INV-1002', date: '2026-03-05', dueDate: '2026-04-05', reference: 'PO77', csrName: 'Acme Tyres', qty: 4, unitPrice: 14_250, amount: 57_000, type: 1, id: 1002 },
                { no: 'INV-0990', date: '2025-12-24', dueDate: null, reference: null, csrName: 'Acme Tyres', qty: 1200, unitPrice: 14_000, amount: 16_800_000, type: 1, id: 990 },
              ],
            },
          }
        : undefined,
    );
    render(<LineEditor {...props({ customerId: 42, lines: [line(), line({ key: 'new_2', productId: null, code: '', name: '' })] })} />);
    expect((screen.getByRole('button', { name: 'CHK history, line 2' }) as HTMLButtonElement).disabled).toBe(true);

    await user.click(screen.getByRole('button', { name: 'CHK history, line 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Price History' });
    await within(dialog).findByText('Michelin Primacy 4');
    expect(fetch.mock.calls.map((c) => c[0])).toEqual(['/api/products/501/history?cId=42']);
    const prices = dialog.querySelector('[data-prices]')!.textContent;
    expect(prices).toContain('Standard 179.00');
    expect(prices).toContain('Special 165.00');
    expect(prices).toContain('Class A 150.00');
    expect(prices).toContain('Class B 157.50');
    expect(prices).not.toContain('OCOP');
    const table = within(dialog).getByRole('table');
    expect(Array.from(table.querySelectorAll('th')).map((th) => th.textContent)).toEqual(['No.', 'Date', 'CSR', 'Qty', 'Unit Price', 'Amount']);
    const cells = Array.from(table.querySelectorAll('tbody tr')).map((tr) => Array.from(tr.querySelectorAll('td')).map((td) => td.textContent));
    expect(cells).toEqual([
      ['INV-1002', '05 Mar 2026', 'Acme Tyres', '4', '142.50', '570.00'],
      ['INV-0990', '24 Dec 2025', 'Acme Tyres', '1,200', '140.00', '168,000.00'],
    ]);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // One dialog serves every line: closing it hands focus back to the line's CHK.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'CHK history, line 1' })));
    expect(screen.getByRole('button', { name: 'CHK history, line 1' }).getAttribute('aria-expanded')).toBe('false');
  });
});

it('keyboard events inside the list never submit: Enter on an open list is prevented', async () => {
  const user = fake();
  routeFetch(searchRoute());
  const submit = vi.fn((e: Event) => e.preventDefault());
  render(
    <form onSubmit={(e) => submit(e.nativeEvent)}>
      <LineEditor {...props()} />
    </form>,
  );
  await user.click(cell('Item Code line 1'));
  await user.type(cell('Item Code line 1'), 'MICH');
  await advance(700);
  fireEvent.keyDown(cell('Item Code line 1'), { key: 'Enter' });
  expect(submit).not.toHaveBeenCalled();
  expect(serialized()[0]?.productId).toBe(501);
});
