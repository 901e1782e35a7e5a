// The report form in the DOM: tabs, the payload built from choices, the checkbox rules,
// pickers, Include Cost only for staff who may see cost, the 'Preparing…' answer and a 422
// shown next to its field.
import { act, render, screen, waitFor, within } from '@testing-library/preact';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mount, parseReportFormProps } from '../src/islands/report-form/index';
import { ReportForm } from '../src/islands/report-form/ReportForm';
import { captureToasts, sentHeaders, setMeta } from './helpers';

const PREPARING = 'Preparing for the report, please check it later';

const RAW = {
  tabs: [
    { type: 'invoiceDetails', title: 'Invoices & Credit Notes Detail', canShowCost: true },
    { type: 'saleSummary', title: 'Customers Sales Summary', canShowCost: true },
    { type: 'slowMoving', title: 'Slow-moving Products Analysis', canShowCost: true },
  ],
  warehouses: [
    { id: 5, name: 'Main' },
    { id: 6, name: 'North' },
  ],
  brands: [{ id: 8, name: 'Bridgestone' }],
  categories: [{ code: 1, label: 'Batteries' }],
  tags: [
    { code: 1, label: 'Normal' },
    { code: 2, label: 'Adjustment' },
  ],
  areas: [{ code: 1, label: 'North' }],
  payments: [{ code: 10, label: 'CBD' }],
  today: '2026-11-20',
  maySeeCost: true,
};
const PURCHASE = {
  ...RAW,
  tabs: [
    { type: 'purchaseDetails', title: 'Purchase Orders or Bills Detail', canShowCost: false },
    { type: 'purchaseSummary', title: 'Purchase Summary', canShowCost: false },
  ],
};
const INVENTORY = {
  ...RAW,
  tags: [],
  tabs: [
    { type: 'transferDetails', title: 'Transfers Detail', canShowCost: false },
    { type: 'adjustmentDetails', title: 'Adjustments Detail', canShowCost: false },
  ],
};

type Call = { url: string; method: string; body: unknown; init: RequestInit | undefined };

function mockApi(post: { status: number; body: unknown } = { status: 201, body: { data: { id: 1 }, message: PREPARING } }) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      calls.push({ url, method, body: init?.body ? JSON.parse(String(init.body)) : undefined, init });
      const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });
      if (method === 'POST') return json(post.body, post.status);
      if (url.startsWith('/api/products?')) return json({ data: [{ id: 40, code: 'P-40', name: '205/55R16 Tyre' }, { id: 41, code: 'P-41', name: 'Other' }] });
      if (url.startsWith('/api/customers?')) return json({ data: [{ id: 3, name: 'Acme Tyres', code: '11 222' }] });
      if (url.startsWith('/api/suppliers?')) return json({ data: [{ id: 9, name: 'Tyre Import Co' }] });
      return json({ message: 'Not found' }, 404);
    }),
  );
  return { calls, posts: () => calls.filter((c) => c.method === 'POST') };
}

let capture: ReturnType<typeof captureToasts>;
beforeEach(() => {
  capture = captureToasts();
  setMeta('csrf-token', 'csrf-rep');
  setMeta('org-id', '4');
});
afterEach(() => capture.stop());

function renderForm(raw: unknown = RAW) {
  const user = userEvent.setup();
  render(<ReportForm {...parseReportFormProps(raw)} />);
  const submit = () => user.click(screen.getByRole('button', { name: 'Submit' }));
  const group = (name: string) => within(screen.getByRole('group', { name }));
  return { user, submit, group };
}

describe('report form', () => {
  it('sends the first tab with its defaults and says Preparing… with a link to the Download Center', async () => {
    const api = mockApi();
    const { submit } = renderForm();
    expect(screen.getByRole('tab', { name: 'Invoices & Credit Notes Detail' }).getAttribute('aria-selected')).toBe('true');
    await submit();
    const status = await screen.findByRole('status');
    expect(status.textContent).toContain(PREPARING);
    expect(within(status).getByRole('link').getAttribute('href')).toBe('/reports_download');
    const [post] = api.posts();
    expect(post?.url).toBe('/api/reports');
    expect(sentHeaders(post?.init)['x-csrf-token']).toBe('csrf-rep');
    expect(post?.body).toEqual({
      type: 'invoiceDetails',
      group: 'asCustomers',
      dateType: 'date',
      dateRange: ['2026-11-01', '2026-11-20'],
      includeCost: 'No',
    });
  });

  it('builds the payload from the choices made', async () => {
    const api = mockApi();
    const { user, submit, group } = renderForm();
    await user.selectOptions(screen.getByLabelText('Group by'), 'asProducts');
    await user.selectOptions(screen.getByLabelText('Date Range type'), 'ETA Date');
    await user.clear(screen.getByLabelText('Date Range from'));
    await user.type(screen.getByLabelText('Date Range from'), '2026-01-01');
    await user.click(group('Warehouse').getByLabelText('North'));
    await user.click(group('Sheet Tag').getByLabelText('ALL'));
    await user.click(group('Sheet Tag').getByLabelText('Adjustment'));
    await user.selectOptions(screen.getByLabelText('Include Cost'), 'Yes');
    await user.click(group('Payment Type').getByLabelText('CBD'));
    await submit();
    await screen.findByRole('status');
    expect(api.posts()[0]?.body).toEqual({
      type: 'invoiceDetails',
      group: 'asProducts',
      dateType: 'deliveryDate',
      dateRange: ['2026-01-01', '2026-11-20'],
      tags: [2],
      warehouses: [5],
      includeCost: 'Yes',
    });
  });

  it('applies the ALL rules to the boxes (spec §5)', async () => {
    mockApi();
    const { user, group } = renderForm();
    const wh = group('Warehouse');
    expect((wh.getByLabelText('ALL') as HTMLInputElement).checked).toBe(true);
    await user.click(wh.getByLabelText('Main'));
    expect((wh.getByLabelText('ALL') as HTMLInputElement).checked).toBe(false);
    await user.click(wh.getByLabelText('Main'));
    expect((wh.getByLabelText('ALL') as HTMLInputElement).checked).toBe(true);
    await user.click(wh.getByLabelText('ALL'));
    expect((wh.getByLabelText('Main') as HTMLInputElement).checked).toBe(false);
    expect((wh.getByLabelText('North') as HTMLInputElement).checked).toBe(false);
    await user.click(wh.getByLabelText('ALL'));
    expect((wh.getByLabelText('Main') as HTMLInputElement).checked).toBe(true);
    expect((wh.getByLabelText('North') as HTMLInputElement).checked).toBe(true);
  });

  it('designated products and customers are picked by remote search and removable', async () => {
    const api = mockApi();
    const { user, submit } = renderForm();
    await user.type(screen.getByLabelText('Item Code'), 'P-4');
    const list = await screen.findByRole('listbox', { name: 'Item Code suggestions' }, { timeout: 2000 });
    expect(api.calls.some((c) => c.url === '/api/products?code=P-4&per_page=20')).toBe(true);
    await user.keyboard('{ArrowDown}{Enter}');
    expect(list.isConnected).toBe(false);
    await user.type(screen.getByLabelText('Item Name'), 'tyre');
    await screen.findByRole('listbox', { name: 'Item Name suggestions' }, { timeout: 2000 });
    await user.keyboard('{Enter}');
    const chosen = screen.getByRole('list', { name: 'Chosen products' });
    expect(within(chosen).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['P-41 · Other ×', 'P-40 · 205/55R16 Tyre ×']);
    await user.click(within(chosen).getByRole('button', { name: 'Remove P-41 · Other' }));
    await user.type(screen.getByLabelText('Customer'), 'acme');
    await screen.findByRole('option', { name: /Acme Tyres/ }, { timeout: 2000 });
    await user.keyboard('{Enter}');
    expect(screen.getByRole('list', { name: 'Chosen customers' }).textContent).toContain('Acme Tyres');
    await submit();
    await screen.findByRole('status');
    expect(api.posts()[0]?.body).toMatchObject({ products: [40], csrs: [3] });
  });

  it('shows a 422 next to the named field, and a field it cannot show above Submit', async () => {
    mockApi({ status: 422, body: { message: 'The range is longer than ten years; choose a shorter one.', errors: { dateRange: 'The range is longer than ten years; choose a shorter one.' } } });
    const { submit } = renderForm();
    await submit();
    const msg = await screen.findByText('The range is longer than ten years; choose a shorter one.', { selector: '.field-error' });
    const from = screen.getByLabelText('Date Range from');
    expect(from.getAttribute('aria-invalid')).toBe('true');
    expect(from.getAttribute('aria-describedby')).toBe(msg.id);
    await waitFor(() => expect(document.activeElement).toBe(from));
    expect(screen.queryByRole('status')).toBeNull();
    expect(capture.toasts.map((t) => t.text)).toContain('The range is longer than ten years; choose a shorter one.');

    mockApi({ status: 422, body: { message: "'x' is not a report type.", errors: { type: "'x' is not a report type." } } });
    await submit();
    expect((await screen.findByRole('alert')).textContent).toContain("'x' is not a report type.");
  });

  it('slow-moving takes numbers only and sends its as-of date', async () => {
    const api = mockApi();
    const { user, submit } = renderForm();
    await user.click(screen.getByRole('tab', { name: 'Slow-moving Products Analysis' }));
    expect(screen.queryByLabelText('Date Range from')).toBeNull();
    const days = screen.getByLabelText('Unsolde days');
    await user.clear(days);
    await user.type(days, '3o');
    await submit();
    await screen.findByText('Enter a whole number.');
    expect(days.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(days);
    expect(api.posts()).toHaveLength(0);
    await user.clear(days);
    await user.type(days, '30');
    await user.clear(screen.getByLabelText('Qty Criterion'));
    await user.type(screen.getByLabelText('Qty Criterion'), '2');
    await submit();
    await screen.findByRole('status');
    expect(api.posts()[0]?.body).toEqual({ type: 'slowMoving', dueDate: '2026-11-20', unSoldDay: 30, lessThan: 2, includeCost: 'No' });
  });

  it('hides Include Cost from staff who may not see cost', async () => {
    const api = mockApi();
    const { submit } = renderForm({ ...RAW, maySeeCost: false });
    expect(screen.queryByLabelText('Include Cost')).toBeNull();
    await submit();
    await screen.findByRole('status');
    expect(api.posts()[0]?.body).not.toHaveProperty('includeCost');
  });

  it('purchase tabs offer source and suppliers, and no cost', async () => {
    const api = mockApi();
    const { user, submit } = renderForm(PURCHASE);
    expect(screen.queryByLabelText('Include Cost')).toBeNull();
    expect(screen.queryByLabelText('Group by')).toBeNull();
    await user.selectOptions(screen.getByLabelText('Source'), 'Purchase Orders');
    await user.type(screen.getByLabelText('Supplier'), 'tyre');
    await screen.findByRole('option', { name: 'Tyre Import Co' }, { timeout: 2000 });
    await user.keyboard('{Enter}');
    await submit();
    await screen.findByRole('status');
    expect(api.posts()[0]?.body).toEqual({ type: 'purchaseDetails', source: 'po', dateType: 'date', dateRange: ['2026-11-01', '2026-11-20'], suppliers: [9] });
  });

  it('transfers filter by out- and in-warehouse', async () => {
    const api = mockApi();
    const { user, submit, group } = renderForm(INVENTORY);
    expect(screen.queryByRole('group', { name: 'Sheet Tag' })).toBeNull();
    await user.click(group('In Warehouse').getByLabelText('Main'));
    await submit();
    await screen.findByRole('status');
    expect(api.posts()[0]?.body).toEqual({ type: 'transferDetails', dateRange: ['2026-11-01', '2026-11-20'], inWarehouse: [6] });
  });

  it('moves between tabs with the arrow keys', async () => {
    mockApi();
    const { user } = renderForm();
    const first = screen.getByRole('tab', { name: 'Invoices & Credit Notes Detail' });
    first.focus();
    await user.keyboard('{ArrowRight}');
    const second = screen.getByRole('tab', { name: 'Customers Sales Summary' });
    expect(document.activeElement).toBe(second);
    expect(second.getAttribute('aria-selected')).toBe('true');
    expect(first.getAttribute('tabindex')).toBe('-1');
    await user.keyboard('{ArrowLeft}{ArrowLeft}');
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Slow-moving Products Analysis' }));
    const panel = screen.getByRole('tabpanel');
    expect(document.getElementById(panel.getAttribute('aria-labelledby') ?? '')?.textContent).toBe('Slow-moving Products Analysis');
    // A form may not take the tabpanel role (W3C checker): the panel is the form's parent.
    expect(panel.tagName).toBe('DIV');
    expect(panel.querySelector('form')).not.toBeNull();
  });

  it('mounts into the element, replacing the fallback, and unmounts', () => {
    mockApi();
    const el = document.createElement('div');
    el.textContent = 'Loading the report form…';
    document.body.append(el);
    let unmount = () => {};
    act(() => {
      unmount = mount(el, RAW);
    });
    expect(el.textContent).not.toContain('Loading the report form…');
    expect(within(el).getAllByRole('tab')).toHaveLength(3);
    act(() => unmount());
    expect(el.childElementCount).toBe(0);
  });
});
