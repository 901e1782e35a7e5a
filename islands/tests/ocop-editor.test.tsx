import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { mount } from '../src/islands/ocop-editor/index';
import { OcopEditor } from '../src/islands/ocop-editor/OcopEditor';
import { dialogPage, sentHeaders } from './helpers';

const OCOP = {
  product: { id: 7, code: 'T-205', name: 'Tyre 205/55R16', classAPrice: 12345, standardPrice: 150000 },
  csrs: [
    { id: 1, name: 'Acme Tyres', code: '11 222 333 444', price: 11000 },
    { id: 2, name: 'Bravo Autos', code: '55 666 777 888', price: 11550 },
  ],
};
const CUSTOMERS = [
  { id: 3, name: 'Charlie Cars', code: '99 000', email: 'c@example.com' },
  { id: 1, name: 'Acme Tyres', code: '11 222 333 444' },
];
const CUSTOMER_PRICES = {
  data: [
    { id: 7, code: 'T-205', name: 'Tyre 205/55R16', price: 11000, classAPrice: 12345 },
    { id: 9, code: 'W-17', name: 'Alloy wheel 17"', price: 123456, classAPrice: 130000 },
  ],
  meta: { total: 2, per_page: 150 },
};

type Call = { url: string; method: string; body: unknown; init: RequestInit | undefined };

function mockApi(options: { put?: { status: number; body: unknown } } = {}) {
  const calls: Call[] = [];
  const fn = vi.fn(async (url: string, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    calls.push({ url, method, body: init?.body ? JSON.parse(String(init.body)) : undefined, init });
    const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });
    if (method === 'PUT') return json(options.put?.body ?? { message: 'ok' }, options.put?.status ?? 200);
    if (url === '/api/ocops/7') return json({ data: OCOP });
    if (url.startsWith('/api/customers?')) return json({ data: CUSTOMERS });
    if (url.startsWith('/api/ocops?customerId=1')) return json(CUSTOMER_PRICES);
    return json({ message: 'Not found' }, 404);
  });
  vi.stubGlobal('fetch', fn);
  return {
    fn,
    calls,
    of: (prefix: string, method = 'GET') => calls.filter((c) => c.method === method && c.url.startsWith(prefix)),
  };
}

const page = dialogPage('open-ocop', 'ocop-changed', { csrf: 'csrf-ocop', org: '4' });
const openFor = page.openFor;

async function openEditor() {
  const user = userEvent.setup();
  render(<OcopEditor />);
  await openFor(7);
  const dialog = await screen.findByRole('dialog', { name: 'Edit Prices · T-205 Tyre 205/55R16' });
  await within(dialog).findByRole('button', { name: 'Save' });
  const price = (name: string) => within(dialog).getByLabelText(`OCOP price for ${name}`) as HTMLInputElement;
  const search = () => within(dialog).getByRole('combobox', { name: 'Add customer' }) as HTMLInputElement;
  const save = () => user.click(within(dialog).getByRole('button', { name: 'Save' }));
  return { user, dialog, price, search, save };
}

const tableRows = (dialog: HTMLElement) =>
  Array.from(dialog.querySelectorAll('tbody tr')).map((tr) => {
    const cells = Array.from(tr.querySelectorAll('td'));
    return [cells[0]?.textContent, cells[1]?.textContent, tr.querySelector('input')?.value];
  });

describe('ocop-editor: loading', () => {
  it('shows nothing until open-ocop, then lists every customer with an OCOP price', async () => {
    const api = mockApi();
    const { container } = render(<OcopEditor />);
    expect(container.innerHTML).toBe('');
    expect(api.fn).not.toHaveBeenCalled();

    await openFor(7);
    const dialog = await screen.findByRole('dialog', { name: 'Edit Prices · T-205 Tyre 205/55R16' });
    await within(dialog).findByRole('button', { name: 'Save' });
    expect(api.calls.map((c) => c.url)).toEqual(['/api/ocops/7']);
    expect(sentHeaders(api.calls[0]!.init)['x-org-id']).toBe('4');
    expect(dialog.querySelector('h2')?.textContent).toBe('Edit Prices · T-205 Tyre 205/55R16');
    expect(dialog.textContent).toContain('Class A 123.45 · Standard 1,500.00');
    expect(within(dialog).getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
      'Customer',
      'ABN/code',
      'OCOP price',
      '',
    ]);
    expect(tableRows(dialog)).toEqual([
      ['Acme Tyres', '11 222 333 444', '110.00'],
      ['Bravo Autos', '55 666 777 888', '115.50'],
    ]);
    const input = within(dialog).getByLabelText('OCOP price for Acme Tyres') as HTMLInputElement;
    expect(input.type).toBe('number');
    expect(input.min).toBe('0');
    expect(input.step).toBe('0.01');
    // Keyboard-first: the first price has the focus once loaded.
    await waitFor(() => expect(document.activeElement).toBe(input));
  });

  it('claims an open request, so the page stops re-sending one made before it mounted', async () => {
    mockApi();
    const early = new CustomEvent('open-ocop', { detail: { productId: 7 }, cancelable: true });
    expect(document.dispatchEvent(early)).toBe(true); // nobody listening yet: not claimed
    render(<OcopEditor />);
    const again = new CustomEvent('open-ocop', { detail: { productId: 7 }, cancelable: true });
    await act(async () => {
      expect(document.dispatchEvent(again)).toBe(false);
    });
    await screen.findByRole('dialog', { name: 'Edit Prices · T-205 Tyre 205/55R16' });
  });

  it('closes when loading fails', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response('{"message":"Nope"}', { status: 500 })));
    render(<OcopEditor />);
    await openFor(7);
    await waitFor(() => expect(page.toasts).toEqual([{ text: 'Nope', level: 'error', ms: 5000 }]));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});

describe('ocop-editor: editing', () => {
  it('edits, removes and adds (keyboard pick) and PUTs the complete list', async () => {
    const api = mockApi();
    const { user, dialog, price, search, save } = await openEditor();

    fireEvent.change(price('Acme Tyres'), { target: { value: '120' } });
    await user.click(within(dialog).getByRole('button', { name: 'Remove Bravo Autos' }));
    expect(within(dialog).queryByText('Bravo Autos')).toBeNull();

    await user.type(search(), 'Char');
    const list = await within(dialog).findByRole('listbox', { name: 'Customer suggestions' });
    // Debounced: one request for the whole word.
    expect(api.of('/api/customers').map((c) => c.url)).toEqual(['/api/customers?name=Char&per_page=20']);
    const options = within(list).getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['Charlie Cars · 99 000', 'Acme Tyres · 11 222 333 444']);
    expect(options[0]!.getAttribute('aria-selected')).toBe('true');
    await user.keyboard('{ArrowDown}');
    expect(within(list).getAllByRole('option')[1]!.getAttribute('aria-selected')).toBe('true');
    expect(search().getAttribute('aria-activedescendant')).toBe(within(list).getAllByRole('option')[1]!.id);
    await user.keyboard('{ArrowUp}');
    expect(within(list).getAllByRole('option')[0]!.getAttribute('aria-selected')).toBe('true');
    await user.keyboard('{Enter}');

    expect(within(dialog).queryByRole('listbox')).toBeNull();
    expect(search().value).toBe('');
    expect(tableRows(dialog)).toEqual([
      ['Acme Tyres', '11 222 333 444', '120'],
      ['Charlie Cars', '99 000', '123.45'], // starts from Class A
    ]);
    await waitFor(() => expect(document.activeElement).toBe(price('Charlie Cars')));
    fireEvent.change(price('Charlie Cars'), { target: { value: '118.9' } });

    await save();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const puts = api.of('/api/ocops/7', 'PUT');
    expect(puts).toHaveLength(1);
    expect(sentHeaders(puts[0]!.init)['x-csrf-token']).toBe('csrf-ocop');
    expect(puts[0]!.body).toEqual({
      prices: [
        { id: 1, price: 12000 },
        { id: 3, price: 11890 },
      ],
    });
    expect(page.toasts).toEqual([{ text: 'Operation successful', level: 'success', ms: 3500 }]);
    expect(page.changed).toEqual([{ productId: 7 }]);
  });

  it('picking a customer already listed focuses its row instead of adding it', async () => {
    mockApi();
    const { user, dialog, price, search } = await openEditor();
    await user.type(search(), 'Acme');
    const list = await within(dialog).findByRole('listbox');
    await user.click(within(list).getByRole('option', { name: /Acme Tyres/ }));
    expect(tableRows(dialog).map((r) => r[0])).toEqual(['Acme Tyres', 'Bravo Autos']);
    await waitFor(() => expect(document.activeElement).toBe(price('Acme Tyres')));
  });

  it('Esc closes the suggestion list first, then the dialog', async () => {
    mockApi();
    const { user, dialog, search } = await openEditor();
    await user.type(search(), 'Ch');
    await within(dialog).findByRole('listbox');
    await user.keyboard('{Escape}');
    expect(within(dialog).queryByRole('listbox')).toBeNull();
    expect(screen.getByRole('dialog')).toBe(dialog);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('Enter in the search never submits the form', async () => {
    const api = mockApi();
    const { user, search } = await openEditor();
    await user.click(search());
    await user.keyboard('{Enter}');
    expect(api.of('/api/ocops/7', 'PUT')).toHaveLength(0);
    expect(screen.getByRole('dialog')).toBeTruthy();
  });

  it('blocks negative prices and more than 2 decimals', async () => {
    const api = mockApi();
    const { dialog, price, save } = await openEditor();
    fireEvent.change(price('Bravo Autos'), { target: { value: '-5' } });
    await save();
    expect(page.toasts).toEqual([{ text: 'Prices cannot be negative.', level: 'error', ms: 3500 }]);
    expect(within(dialog).getByRole('alert').textContent).toBe('Prices cannot be negative.');
    expect(document.activeElement).toBe(price('Bravo Autos'));
    fireEvent.change(price('Bravo Autos'), { target: { value: '5.125' } });
    expect(within(dialog).getByRole('alert').textContent).toBe('Prices can have at most 2 decimals.');
    expect(api.of('/api/ocops/7', 'PUT')).toHaveLength(0);
  });

  it('sends an empty list when every customer is removed, and stays open on a server error', async () => {
    const api = mockApi({ put: { status: 422, body: { message: 'Refused' } } });
    const { user, dialog, save } = await openEditor();
    await user.click(within(dialog).getByRole('button', { name: 'Remove Acme Tyres' }));
    await user.click(within(dialog).getByRole('button', { name: 'Remove Bravo Autos' }));
    expect(within(dialog).getByText('No Data')).toBeTruthy();
    await save();
    await waitFor(() => expect(page.toasts).toEqual([{ text: 'Refused', level: 'error', ms: 3500 }]));
    expect(api.of('/api/ocops/7', 'PUT')[0]!.body).toEqual({ prices: [] });
    expect(screen.getByRole('dialog')).toBe(dialog);
    expect(page.changed).toEqual([]);
  });
});

describe('ocop-editor: customer prices', () => {
  it("a customer's name opens a second dialog with that customer's OCOP prices", async () => {
    const api = mockApi();
    const { user, dialog } = await openEditor();
    await user.click(within(dialog).getByRole('button', { name: 'Acme Tyres' }));
    const second = await screen.findByRole('dialog', { name: 'OCOP Prices · Acme Tyres' });
    await within(second).findByRole('table');
    expect(api.of('/api/ocops?').map((c) => c.url)).toEqual(['/api/ocops?customerId=1&per_page=150']);
    expect(within(second).getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
      'Item Code',
      'Item Name',
      'OCOP',
      'Class A',
    ]);
    const rows = Array.from(second.querySelectorAll('tbody tr')).map((tr) =>
      Array.from(tr.querySelectorAll('td')).map((td) => td.textContent),
    );
    expect(rows).toEqual([
      ['T-205', 'Tyre 205/55R16', '110.00', '123.45'],
      ['W-17', 'Alloy wheel 17"', '1,234.56', '1,300.00'],
    ]);

    await user.click(within(second).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'OCOP Prices · Acme Tyres' })).toBeNull());
    expect(screen.getByRole('dialog', { name: 'Edit Prices · T-205 Tyre 205/55R16' })).toBe(dialog);
  });
});

describe('ocop-editor: mount', () => {
  it('mount() renders nothing until open-ocop and unmounts cleanly', async () => {
    mockApi();
    const el = document.createElement('div');
    document.body.append(el);
    let unmount = () => {};
    await act(async () => {
      unmount = mount(el, {});
    });
    expect(el.innerHTML).toBe('');
    await openFor(7);
    expect(await screen.findByRole('dialog', { name: /^Edit Prices · T-205/ })).toBeTruthy();
    await act(async () => unmount());
    expect(screen.queryByRole('dialog')).toBeNull();
    el.remove();
  });
});
