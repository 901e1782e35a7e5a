import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { mount, parsePriceDialogProps } from '../src/islands/price-dialog/index';
import { deriveTier } from '../src/islands/price-dialog/tiers';
import { PriceDialog } from '../src/islands/price-dialog/PriceDialog';
import { formatCents } from '../src/lib/money';
import { parsePrice } from '../src/lib/PriceInput';
import { dialogPage, leave, sentHeaders } from './helpers';

const UPLIFTS = { b: 500, c: 1000, d: 1500, e: 2000 };
const MSG_ZERO = 'When "Special or not" is YES, "Monthly Special" price CANNOT be 0';
const MSG_NOT_YES = 'When the "Monthly Special" price is set, "Special or not" MUST be YES';
const MSG_RESET = 'Special is off: the Monthly Special price was reset to 0.';
const MSG_PERMISSION = 'Sorry, no permission to modify the prices.';

const PRODUCT = {
  id: 7,
  code: 'T-205',
  name: 'Tyre 205/55R16',
  standardPrice: 1500000,
  specialPrice: 0,
  classAPrice: 12345,
  classBPrice: null,
  classCPrice: 14000,
  classDPrice: null,
  classEPrice: null,
  ref_pur: 9000,
  is_special: false,
  is_clearance: true,
  is_customer_show: false,
  costPrice: 8000,
};

type Call = { url: string; init: RequestInit | undefined };

/** fetch mock: GET /api/products/{id} answers `product`; POST answers `post`. */
function mockApi(product: unknown = PRODUCT, post: { status: number; body: unknown } = { status: 200, body: { message: 'ok' } }) {
  const calls: Call[] = [];
  const fn = vi.fn(async (url: string, init?: RequestInit) => {
    calls.push({ url, init });
    if ((init?.method ?? 'GET') === 'GET') {
      return new Response(JSON.stringify({ data: product }), { status: 200 });
    }
    return new Response(JSON.stringify(post.body), { status: post.status });
  });
  vi.stubGlobal('fetch', fn);
  return { fn, calls, posts: () => calls.filter((c) => c.init?.method === 'POST') };
}

const page = dialogPage('open-price-dialog', 'prices-changed', { csrf: 'csrf-xyz', org: '2' });
const openFor = page.openFor;

async function openDialog(props: { canModify?: boolean; uplifts?: typeof UPLIFTS } = {}) {
  const user = userEvent.setup();
  render(<PriceDialog canModify={props.canModify ?? true} uplifts={props.uplifts ?? UPLIFTS} />);
  await openFor(7);
  const dialog = await screen.findByRole('dialog', { name: 'Prices · T-205' });
  await within(dialog).findByRole('button', { name: 'Save' });
  const input = (label: string) => within(dialog).getByLabelText(label) as HTMLInputElement;
  const save = () => user.click(within(dialog).getByRole('button', { name: 'Save' }));
  return { user, dialog, input, save };
}

const setValue = (el: HTMLInputElement, value: string) => fireEvent.change(el, { target: { value } });

describe('price-dialog: loading', () => {
  it('shows nothing until open-price-dialog, then loads the product prices', async () => {
    const api = mockApi();
    const { container } = render(<PriceDialog canModify uplifts={UPLIFTS} />);
    expect(container.innerHTML).toBe('');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(api.fn).not.toHaveBeenCalled();

    await openFor(7);
    const dialog = await screen.findByRole('dialog', { name: 'Prices · T-205' });
    expect(api.calls[0]!.url).toBe('/api/products/7');
    expect(sentHeaders(api.calls[0]!.init)['x-csrf-token']).toBe('csrf-xyz');
    await within(dialog).findByLabelText('Standard');
    expect(dialog.querySelector('h2')?.textContent).toBe('Prices · T-205');
    expect(dialog.textContent).toContain('Tyre 205/55R16');

    const input = (label: string) => within(dialog).getByLabelText(label) as HTMLInputElement;
    expect(input('Standard').value).toBe('15000.00');
    await waitFor(() => expect(document.activeElement).toBe(input('Standard')));
    expect(input('Monthly Special').value).toBe('0.00');
    expect(input('Class A').value).toBe('123.45');
    expect(input('Tempe (Ref. purchase)').value).toBe('90.00');
    expect((within(dialog).getByLabelText('Special or not') as HTMLSelectElement).value).toBe('no');
    expect(input('Clearance').checked).toBe(true);
    expect(input('Show to customer').checked).toBe(false);
    for (const label of ['Standard', 'Monthly Special', 'Class A', 'Tempe (Ref. purchase)']) {
      expect(input(label).type).toBe('number');
      expect(input(label).step).toBe('0.01');
      expect(input(label).min).toBe('0');
    }
  });

  it('without cost sight the answer has no ref_pur: no Tempe field, and a save keeps the stored one', async () => {
    const { ref_pur: _withheld, costPrice: _cost, ...withheld } = PRODUCT;
    const api = mockApi(withheld);
    const { dialog, save } = await openDialog();
    expect(within(dialog).queryByLabelText('Tempe (Ref. purchase)')).toBeNull();
    expect(dialog.textContent).not.toContain('Tempe');
    await save();
    await waitFor(() => expect(api.posts()).toHaveLength(1));
    const body = JSON.parse(String(api.posts()[0]!.init?.body));
    expect('ref_pur' in body, 'the stored reference purchase price is left as it is').toBe(false);
  });

  it('shows B–E derived from Class A with the uplifts, and stored overrides as inputs', async () => {
    mockApi();
    const { dialog, input } = await openDialog();
    // 123.45 × 1.05 = 129.6225 → 129.62; × 1.15 = 141.9675 → 141.97; × 1.20 = 148.14
    expect(input('Class B').tagName).toBe('OUTPUT');
    expect(input('Class B').textContent).toBe('129.62');
    expect(input('Class D').textContent).toBe('141.97');
    expect(input('Class E').textContent).toBe('148.14');
    expect(input('Override Class B').checked).toBe(false);
    // Class C is stored: an override.
    expect(input('Override Class C').checked).toBe(true);
    expect(input('Class C').tagName).toBe('INPUT');
    expect(input('Class C').value).toBe('140.00');

    // The derived prices follow Class A as it is typed (thousands separators shown).
    setValue(input('Class A'), '1000');
    expect(input('Class B').textContent).toBe('1,050.00');
    expect(input('Class D').textContent).toBe('1,150.00');
    expect(input('Class E').textContent).toBe('1,200.00');
    setValue(input('Class A'), '-3');
    expect(input('Class B').textContent).toBe('—');
    expect(dialog.textContent).toContain('+5%');
  });

  it('uses the uplifts from props', async () => {
    mockApi({ ...PRODUCT, classAPrice: 10000 });
    const { input } = await openDialog({ uplifts: { b: 250, c: 1234, d: 0, e: 10000 } });
    expect(input('Class B').textContent).toBe('102.50');
    expect(input('Class C').value).toBe('140.00'); // stored override, not derived
    expect(input('Class D').textContent).toBe('100.00');
    expect(input('Class E').textContent).toBe('200.00');
  });

  it('closes when the product cannot be loaded (the API client reports the error)', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ message: 'Boom' }), { status: 500 })));
    render(<PriceDialog canModify uplifts={UPLIFTS} />);
    await openFor(7);
    await waitFor(() => expect(page.toasts).toEqual([{ text: 'Boom', level: 'error', ms: 5000 }]));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('ignores an open event without a valid productId', async () => {
    const api = mockApi();
    render(<PriceDialog canModify uplifts={UPLIFTS} />);
    await openFor('abc');
    await openFor(-2);
    expect(api.fn).not.toHaveBeenCalled();
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('price-dialog: saving', () => {
  it('posts every price in cents, overrides or null, toasts, closes and dispatches prices-changed', async () => {
    const api = mockApi();
    const { user, dialog, input, save } = await openDialog();
    // Override B (starts from the derived price), drop C's override.
    await user.click(input('Override Class B'));
    expect(input('Class B').tagName).toBe('INPUT');
    expect(input('Class B').value).toBe('129.62');
    setValue(input('Class B'), '130.5');
    await user.click(input('Override Class C'));
    expect(input('Class C').tagName).toBe('OUTPUT');
    expect(input('Class C').textContent).toBe('135.80'); // 123.45 × 1.10 = 135.795 → 135.80
    setValue(input('Standard'), '160');
    setValue(input('Tempe (Ref. purchase)'), '91.25');
    await user.click(input('Show to customer'));
    await user.click(input('Clearance'));
    await save();

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.posts()).toHaveLength(1);
    const post = api.posts()[0]!;
    expect(post.url).toBe('/api/products/7/price');
    expect(sentHeaders(post.init)['x-csrf-token']).toBe('csrf-xyz');
    expect(JSON.parse(String(post.init?.body))).toEqual({
      standardPrice: 16000,
      specialPrice: 0,
      classAPrice: 12345,
      classBPrice: 13050,
      classCPrice: null,
      classDPrice: null,
      classEPrice: null,
      ref_pur: 9125,
      is_special: false,
      is_clearance: false,
      is_customer_show: true,
    });
    expect(page.toasts).toEqual([{ text: 'Operation successful', level: 'success', ms: 3500 }]);
    expect(page.changed).toEqual([{ productId: 7 }]);
    expect(dialog.isConnected).toBe(false);
  });

  it('Special = Yes with Monthly Special 0 is blocked with the exact message', async () => {
    const api = mockApi();
    const { user, dialog, save } = await openDialog();
    await user.selectOptions(within(dialog).getByLabelText('Special or not'), 'yes');
    await save();
    expect(page.toasts).toEqual([{ text: MSG_ZERO, level: 'error', ms: 3500 }]);
    expect(api.posts()).toHaveLength(0);
    expect(screen.getByRole('dialog')).toBe(dialog);
    expect(page.changed).toEqual([]);
  });

  it('Special = No with a Monthly Special above 0 is blocked with the exact message', async () => {
    const api = mockApi();
    const { input, save } = await openDialog();
    setValue(input('Monthly Special'), '99.90');
    await save();
    expect(page.toasts).toEqual([{ text: MSG_NOT_YES, level: 'error', ms: 3500 }]);
    expect(api.posts()).toHaveLength(0);
  });

  it('Special = Yes with a Monthly Special price saves', async () => {
    const api = mockApi();
    const { user, dialog, input, save } = await openDialog();
    await user.selectOptions(within(dialog).getByLabelText('Special or not'), 'yes');
    setValue(input('Monthly Special'), '110');
    await save();
    await waitFor(() => expect(api.posts()).toHaveLength(1));
    const body = JSON.parse(String(api.posts()[0]!.init?.body));
    expect(body.is_special).toBe(true);
    expect(body.specialPrice).toBe(11000);
  });

  it('switching Special to No resets the Monthly Special to 0 with a notice', async () => {
    mockApi({ ...PRODUCT, is_special: true, specialPrice: 8000 });
    const { user, dialog, input } = await openDialog();
    expect(input('Monthly Special').value).toBe('80.00');
    await user.selectOptions(within(dialog).getByLabelText('Special or not'), 'no');
    expect(input('Monthly Special').value).toBe('0.00');
    expect(page.toasts).toEqual([{ text: MSG_RESET, level: 'info', ms: 5000 }]);
  });

  it('without canModify, Save shows the permission message and posts nothing', async () => {
    const api = mockApi();
    const { input, save } = await openDialog({ canModify: false });
    setValue(input('Standard'), '1');
    await save();
    expect(page.toasts).toEqual([{ text: MSG_PERMISSION, level: 'error', ms: 3500 }]);
    expect(api.fn).toHaveBeenCalledTimes(1); // the GET only
    expect(api.posts()).toHaveLength(0);
  });

  it('refuses negative prices and more than 2 decimals', async () => {
    const api = mockApi();
    const { dialog, input, save } = await openDialog();
    setValue(input('Standard'), '-1');
    leave(input('Standard'));
    expect(within(dialog).getByRole('alert').textContent).toBe('Prices cannot be negative.');
    await save();
    expect(page.toasts).toEqual([{ text: 'Prices cannot be negative.', level: 'error', ms: 3500 }]);
    expect(document.activeElement).toBe(input('Standard'));

    setValue(input('Standard'), '10');
    expect(within(dialog).queryByRole('alert')).toBeNull();
    setValue(input('Class A'), '1.234');
    await save();
    expect(page.toasts[1]).toEqual({ text: 'Prices can have at most 2 decimals.', level: 'error', ms: 3500 });
    expect(api.posts()).toHaveLength(0);
  });

  it('keeps the dialog open with field messages when the server refuses', async () => {
    mockApi(PRODUCT, { status: 422, body: { message: 'Invalid', errors: { classAPrice: 'Too low' } } });
    const { dialog, save } = await openDialog();
    await save();
    await waitFor(() => expect(within(dialog).getByRole('alert').textContent).toBe('Too low'));
    expect(page.toasts).toEqual([{ text: 'Invalid', level: 'error', ms: 3500 }]);
    expect(page.changed).toEqual([]);
    expect((within(dialog).getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(false);
  });
});

describe('price-dialog: helpers and mount', () => {
  it('derives tiers rounding half away from zero', () => {
    expect(deriveTier(10, 500)).toBe(11); // 10.5
    expect(deriveTier(-10, 500)).toBe(-11);
    expect(deriveTier(12345, 1500)).toBe(14197);
    expect(deriveTier(12345, 1000)).toBe(13580); // 13579.5
    expect(deriveTier(10_000_000_000_000, 2000)).toBe(12_000_000_000_000);
  });

  it('parses and formats prices', () => {
    expect(parsePrice('12.5')).toEqual({ ok: true, cents: 1250 });
    expect(parsePrice('.05')).toEqual({ ok: true, cents: 5 });
    expect(parsePrice('1.500')).toEqual({ ok: true, cents: 150 });
    expect(parsePrice('-0.01')).toEqual({ ok: false, message: 'Prices cannot be negative.' });
    expect(parsePrice('0.001')).toEqual({ ok: false, message: 'Prices can have at most 2 decimals.' });
    expect(parsePrice('')).toEqual({ ok: false, message: 'Please enter' });
    expect(formatCents(123456789)).toBe('1,234,567.89');
    expect(formatCents(5)).toBe('0.05');
  });

  it('parses props: canModify only for a literal true, uplifts default per tier', () => {
    expect(parsePriceDialogProps({ canModify: 'true', uplifts: { b: 100 } })).toEqual({
      canModify: false,
      uplifts: { b: 100, c: 1000, d: 1500, e: 2000 },
    });
    expect(parsePriceDialogProps({ canModify: true, uplifts: UPLIFTS }).canModify).toBe(true);
  });

  it('mount() renders nothing visible and opens on the event', async () => {
    mockApi();
    const el = document.createElement('div');
    document.body.append(el);
    let unmount = () => {};
    await act(async () => {
      unmount = mount(el, { canModify: true, uplifts: UPLIFTS });
    });
    expect(el.innerHTML).toBe('');
    await openFor(7);
    expect(await screen.findByRole('dialog', { name: 'Prices · T-205' })).toBeTruthy();
    await act(async () => unmount());
    expect(screen.queryByRole('dialog')).toBeNull();
    el.remove();
  });
});
