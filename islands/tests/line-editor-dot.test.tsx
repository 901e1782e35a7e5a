// Tyres by DOT date (issue 36): the DOT cell of a line whose product is tracked by DOT, on
// the sheets that move stock; its list of the warehouse's lots with their ages; the server's
// message on it; and the lots fetched when a tyre is picked.
import { act, render, screen } from '@testing-library/preact';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LineEditor } from '../src/islands/line-editor/LineEditor';
import { MSG_DOT } from '../src/islands/line-editor/rules';
import { cell, flush, headers, hit, line, props, routeFetch, searchRoute, serialized } from './fixtures/line-editor';

const LOTS = [
  { dot: 'unknown', age: '', qty: 2 },
  { dot: '2323', age: '3y 5m', qty: 4 },
  { dot: '0125', age: '1y 10m', qty: 6 },
];

const tyre = (over = {}) => line({ dotTracked: true, lots: LOTS, ...over });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the DOT cell', () => {
  it('is on the lines of tyres tracked by DOT, typed as WWYY and sent with the line', async () => {
    const user = userEvent.setup();
    render(<LineEditor {...props({ kind: 'purchase', orderType: 4, lines: [tyre({ key: '1' }), line({ key: '2', productId: 504, code: 'FIT' })] })} />);
    expect(headers()).toContain('DOT');
    const dot = cell('DOT line 1');
    expect(dot.placeholder).toBe('WWYY');
    expect(dot.maxLength).toBe(4);
    expect(screen.queryByLabelText('DOT line 2')).toBeNull();
    await user.type(dot, '0125');
    expect(serialized().map((l) => l.dot)).toEqual(['0125', '']);
  });

  it('is on invoices, credit notes, bill credit notes, transfers and counts, never on a purchase order', () => {
    for (const [kind, orderType] of [['sales', 1], ['sales', 2], ['purchase', 4], ['purchase', 5], ['transfer', 6], ['adjustment', 7]] as const) {
      const view = render(<LineEditor {...props({ kind, orderType, lines: [tyre()] })} />);
      expect(headers(), `${orderType}`).toContain('DOT');
      view.unmount();
    }
    render(<LineEditor {...props({ kind: 'purchase', orderType: 3, lines: [tyre()] })} />);
    expect(headers()).not.toContain('DOT');
    expect(screen.queryByLabelText('DOT line 1')).toBeNull();
  });

  it('has no column on a sheet without a tracked tyre', () => {
    render(<LineEditor {...props({ lines: [line()] })} />);
    expect(headers()).not.toContain('DOT');
  });

  it("lists the warehouse's lots oldest first with their ages; unknown stock only in the title", () => {
    render(<LineEditor {...props({ lines: [tyre()] })} />);
    const dot = cell('DOT line 1');
    expect(dot.title).toBe('unknown · 2 in stock\n2323 · 3y 5m · 4 in stock\n0125 · 1y 10m · 6 in stock');
    const list = document.getElementById(dot.getAttribute('list') ?? '');
    expect(list?.tagName).toBe('DATALIST');
    const options = [...(list?.querySelectorAll('option') ?? [])].map((o) => [o.value, o.label]);
    expect(options).toEqual([
      ['2323', '2323 · 3y 5m · 4 in stock'],
      ['0125', '0125 · 1y 10m · 6 in stock'],
    ]);
  });

  it("shows the server's message on the cell until it is typed in", async () => {
    const user = userEvent.setup();
    render(<LineEditor {...props({ lines: [tyre({ dot: '5425' })], errors: { 'lines.0.dot': 'Week 54 does not exist' } })} />);
    const dot = cell('DOT line 1');
    expect(dot.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('alert').textContent).toBe('Week 54 does not exist');
    await user.clear(dot);
    await user.type(dot, '2325');
    expect(screen.queryByText('Week 54 does not exist')).toBeNull();
  });

  it('says at once when the code is not 4 digits', async () => {
    const user = userEvent.setup();
    render(<LineEditor {...props({ lines: [tyre()] })} />);
    await user.type(cell('DOT line 1'), '23a');
    expect(screen.getByText(MSG_DOT)).toBeTruthy();
  });

  it('is read-only text on an approved sheet', () => {
    render(<LineEditor {...props({ editable: false, lines: [tyre({ dot: '2323' })] })} />);
    expect(screen.queryByLabelText('DOT line 1')).toBeNull();
    const row = document.querySelector('tbody tr');
    expect(row?.querySelector('td.col-dot')?.textContent).toBe('2323');
  });

  it('is in the tab order after the quantity, and Enter moves on from it', async () => {
    const user = userEvent.setup();
    render(<LineEditor {...props({ kind: 'purchase', orderType: 4, lines: [tyre()] })} />);
    await user.click(cell('Qty line 1'));
    await user.tab();
    expect(document.activeElement?.getAttribute('aria-label')).toBe('DOT line 1');
    await user.keyboard('{Enter}');
    expect(document.activeElement?.getAttribute('aria-label')).toBe('Unit Price line 1');
  });
});

describe('picking a tyre', () => {
  it("fetches its lots in the sheet's warehouse and lists them", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const lotsAsked: string[] = [];
    const search = searchRoute([hit({ id: 601, code: 'T-2055516', name: 'Tyre 205/55R16', dotTracked: true })]);
    routeFetch((url, init) => {
      if (url.startsWith('/api/products/601/lots')) {
        lotsAsked.push(url);
        return { status: 200, body: { data: LOTS.slice(1), meta: {} } };
      }
      return search(url, init);
    });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    render(<LineEditor {...props({ warehouseId: 2 })} />);
    await user.type(cell('Item Code line 1'), 'T-2055516');
    await vi.advanceTimersByTimeAsync(800);
    await flush();
    await user.keyboard('{Enter}');
    await flush();
    expect(lotsAsked).toEqual(['/api/products/601/lots?warehouseId=2']);
    expect(cell('DOT line 1').title).toBe('2323 · 3y 5m · 4 in stock\n0125 · 1y 10m · 6 in stock');
    vi.useRealTimers();
  });

  it("lists another warehouse's lots once the header's warehouse changes", async () => {
    const asked: string[] = [];
    routeFetch((url) => {
      if (!url.startsWith('/api/products/501/lots')) return undefined;
      asked.push(url);
      return { status: 200, body: { data: [{ dot: '4824', age: '2y', qty: 9 }], meta: {} } };
    });
    render(<LineEditor {...props({ warehouseId: 2, lines: [tyre(), line({ key: '12', productId: 502 })] })} />);
    await act(async () => {
      document.dispatchEvent(new CustomEvent('warehouse-changed', { detail: { id: 9 } }));
    });
    await flush();
    expect(asked).toEqual(['/api/products/501/lots?warehouseId=9']);
    expect(cell('DOT line 1').title).toBe('4824 · 2y · 9 in stock');
  });
});
