// The line editor's reducer, action by action, without rendering.
import { describe, expect, it } from 'vitest';
import { hit, line, props } from '../../../tests/fixtures/line-editor';
import { allSelected, anySelected, initialEditorState, lineEditorReducer, type EditorAction, type EditorState } from './editor-state';
import type { ImportedLine, LineEditorProps } from './types';

const start = (over: Partial<LineEditorProps> = {}) => initialEditorState(props(over));

/** The state after `actions`, one after the other. */
const after = (state: EditorState, ...actions: EditorAction[]) => actions.reduce(lineEditorReducer, state);

const keys = (state: EditorState) => state.lines.map((l) => l.key);

const imported = (over: Partial<ImportedLine> = {}): ImportedLine => ({
  productId: 9,
  code: 'X1',
  name: 'Thing',
  unit: 'EA',
  stock: 3,
  quantity: 2,
  inWarehouseQty: null,
  inSystemQty: null,
  price: 500,
  description: null,
  classAPrice: null,
  costPrice: 300,
  ...over,
});

describe('the initial state', () => {
  it('is one empty new_1 line for a new sheet', () => {
    const state = start({ taxType: 1 });
    expect(keys(state)).toEqual(['new_1']);
    expect(state.lines[0]?.taxType).toBe(1);
    expect(state.lastNewKey).toBe(1);
    expect(state.focus).toBeNull();
  });

  it('keys the server messages by line, and keeps the message about the lines as a whole', () => {
    const state = start({
      lines: [line({ key: '7' }), line({ key: 'new_4' })],
      errors: { 'lines.1.qty': 'Bad qty', 'lines.0.product': 'Pick one', 'lines.5.qty': 'No such line', 'lines.0.unit': 'Not a field', lines: 'Add a line' },
    });
    expect(state.serverErrors).toEqual({ '7': { product: 'Pick one' }, new_4: { qty: 'Bad qty' } });
    expect(state.tableError).toBe('Add a line');
    expect(state.lastNewKey).toBe(4);
  });
});

describe('adding lines and moving on with Enter', () => {
  it('+ Add Line appends an empty line after the highest new_ key, at the tax type now, and focuses its code', () => {
    const state = after(start({ lines: [line({ key: '11' }), line({ key: 'new_4' })] }), { type: 'taxTypeChanged', taxType: 2 }, { type: 'addLine' });
    expect(keys(state)).toEqual(['11', 'new_4', 'new_5']);
    expect(state.lines[2]).toMatchObject({ productId: null, code: '', qty: '', taxType: 2 });
    expect(state.focus).toEqual({ key: 'new_5', field: 'code' });
  });

  it('goes to the next stop in the row, then to the next row', () => {
    const state = start({ lines: [line({ key: '1' }), line({ key: '2' })] });
    expect(after(state, { type: 'moveNext', kind: 'purchase', key: '1', field: 'code' }).focus).toEqual({ key: '1', field: 'qty' });
    expect(after(state, { type: 'moveNext', kind: 'purchase', key: '1', field: 'taxType' }).focus).toEqual({ key: '1', field: 'description' });
    const next = after(state, { type: 'moveNext', kind: 'purchase', key: '1', field: 'description' });
    expect(next.focus).toEqual({ key: '2', field: 'code' });
    expect(next.lines).toBe(state.lines);
  });

  it('on a sales sheet the line ends at its quantity: Enter goes on to the next line', () => {
    const state = start({ lines: [line({ key: '1' }), line({ key: '2' })] });
    expect(after(state, { type: 'moveNext', kind: 'sales', key: '1', field: 'code' }).focus).toEqual({ key: '1', field: 'qty' });
    expect(after(state, { type: 'moveNext', kind: 'sales', key: '1', field: 'qty' }).focus).toEqual({ key: '2', field: 'code' });
    expect(after(state, { type: 'moveNext', kind: 'sales', key: '1', field: 'price' }).focus).toEqual({ key: '2', field: 'code' });
    const added = after(state, { type: 'moveNext', kind: 'sales', key: '2', field: 'qty' });
    expect(keys(added)).toEqual(['1', '2', 'new_1']);
    expect(added.focus).toEqual({ key: 'new_1', field: 'code' });
  });

  it('past the last row adds a line and focuses its code cell', () => {
    const state = after(start({ kind: 'transfer', orderType: 6, lines: [line({ key: '1' })] }), { type: 'moveNext', kind: 'transfer', key: '1', field: 'qty' });
    expect(keys(state)).toEqual(['1', 'new_1']);
    expect(state.focus).toEqual({ key: 'new_1', field: 'code' });
  });

  it('asks for the focus anew each time, even for the same cell', () => {
    const state = start({ lines: [line({ key: '1' })] });
    const once = after(state, { type: 'choosePrice', key: '1', cents: 100 });
    const twice = after(once, { type: 'choosePrice', key: '1', cents: 100 });
    expect(twice.focus).toEqual(once.focus);
    expect(twice.focus).not.toBe(once.focus);
  });
});

describe('typing and picking', () => {
  it('typing a number drops that field’s server message only', () => {
    const state = after(
      start({ lines: [line({ key: '1' })], errors: { 'lines.0.qty': 'Bad qty', 'lines.0.price': 'Bad price' } }),
      { type: 'typeNumber', key: '1', field: 'qty', text: '9' },
    );
    expect(state.lines[0]?.qty).toBe('9');
    expect(state.serverErrors).toEqual({ '1': { price: 'Bad price' } });
  });

  it('typing over a picked product forgets the product, its tier prices and the product message', () => {
    const picked = after(start({ lines: [line({ key: '1' })], errors: { 'lines.0.product': 'Unknown' } }), { type: 'pricesLoaded', key: '1', prices: [{ label: 'A', price: 1 }] });
    const state = after(picked, { type: 'typeProduct', key: '1', field: 'code', text: 'MICH' });
    expect(state.lines[0]).toMatchObject({ code: 'MICH', productId: null, unit: '', stock: null, classA: null, costPrice: null });
    expect(state.prices).toEqual({});
    expect(state.serverErrors).toEqual({ '1': {} });
  });

  it('picking on an invoice takes the customer price, a quantity of 1 and moves to the qty', () => {
    const state = after(
      start({ lines: [line({ key: '1', productId: null, qty: '', price: '' })], errors: { lines: 'Add a product' } }),
      { type: 'pick', kind: 'sales', key: '1', hit: hit({ unitPrice: 14_250 }) },
    );
    expect(state.lines[0]).toMatchObject({ productId: 501, price: '142.50', qty: '1', stock: 14 });
    expect(state.prices['1']).toHaveLength(4);
    expect(state.tableError).toBeNull();
    expect(state.focus).toEqual({ key: '1', field: 'qty' });
  });

  it('picking on a stock count records the stock and moves to the counted qty; a virtual product has no stock', () => {
    const count = after(start({ kind: 'adjustment', orderType: 7 }), { type: 'pick', kind: 'adjustment', key: 'new_1', hit: hit({ stock: 6 }) });
    expect(count.lines[0]).toMatchObject({ inSystemQty: '6', qty: '', price: '' });
    expect(count.focus).toEqual({ key: 'new_1', field: 'inWarehouseQty' });
    const bill = after(start({ kind: 'purchase', orderType: 4 }), { type: 'pick', kind: 'purchase', key: 'new_1', hit: hit({ category: 4, costPrice: 9_850 }) });
    expect(bill.lines[0]).toMatchObject({ stock: null, price: '98.50' });
  });
});

describe('counting a tyre by DOT code (issue 36)', () => {
  it('a code typed on a count line takes that lot as the system figure; no code, the warehouse as a whole', () => {
    const lots = [
      { dot: 'unknown', age: '', qty: 1 },
      { dot: '2324', age: '2y 5m', qty: 4 },
    ];
    const picked = after(start({ kind: 'adjustment', orderType: 7 }), { type: 'pick', kind: 'adjustment', key: 'new_1', hit: hit({ stock: 5, dotTracked: true }) }, { type: 'lotsLoaded', kind: 'adjustment', key: 'new_1', productId: 501, lots });
    expect(picked.lines[0]).toMatchObject({ inSystemQty: '5' });
    const coded = after(picked, { type: 'typeDot', kind: 'adjustment', key: 'new_1', text: '2324' });
    expect(coded.lines[0]).toMatchObject({ dot: '2324', inSystemQty: '4' });
    // A code the warehouse does not hold: none in the system.
    expect(after(coded, { type: 'typeDot', kind: 'adjustment', key: 'new_1', text: '0126' }).lines[0]).toMatchObject({ inSystemQty: '0' });
    expect(after(coded, { type: 'typeDot', kind: 'adjustment', key: 'new_1', text: '' }).lines[0]).toMatchObject({ inSystemQty: '5' });
    // On a sale the code pins the line and changes nothing else.
    const sale = after(start(), { type: 'pick', kind: 'sales', key: 'new_1', hit: hit({ stock: 5, dotTracked: true }) }, { type: 'typeDot', kind: 'sales', key: 'new_1', text: '2324' });
    expect(sale.lines[0]).toMatchObject({ dot: '2324', qty: '1' });
  });
});

describe('selection', () => {
  const three = () => start({ lines: [line({ key: '1' }), line({ key: '2' }), line({ key: '3' })] });

  it('select all toggles every line', () => {
    const all = after(three(), { type: 'toggleAll' });
    expect(allSelected(all)).toBe(true);
    expect(anySelected(after(all, { type: 'toggleAll' }))).toBe(false);
  });

  it('deleting every line leaves one empty line with a new key', () => {
    const state = after(three(), { type: 'toggleAll' }, { type: 'deleteSelected' });
    expect(keys(state)).toEqual(['new_1']);
    expect(anySelected(state)).toBe(false);
  });

  it('copies the selected lines after the last selected one, with new keys and their tier prices', () => {
    const state = after(
      three(),
      { type: 'pricesLoaded', key: '1', prices: [{ label: 'A', price: 1 }] },
      { type: 'toggle', key: '1' },
      { type: 'toggle', key: '2' },
      { type: 'copySelected' },
    );
    expect(keys(state)).toEqual(['1', '2', 'new_1', 'new_2', '3']);
    expect(state.prices['new_1']).toEqual([{ label: 'A', price: 1 }]);
    expect(state.prices['new_2']).toBeUndefined();
    expect(anySelected(state)).toBe(false);
  });
});

describe('import and the page’s header fields', () => {
  it('imported lines replace the trailing blank lines, at the tax type the import started under', () => {
    const state = after(
      start({ lines: [line({ key: '1' })] }),
      { type: 'addLine' },
      { type: 'importStarted' },
      { type: 'importFinished', rows: [imported(), imported({ productId: null, quantity: '3' })], kind: 'sales', taxType: 1 },
    );
    expect(keys(state)).toEqual(['1', 'new_2', 'new_3']);
    expect(state.lines[1]).toMatchObject({ productId: 9, qty: '2', price: '5.00', taxType: 1 });
    expect(state.importing).toBe(false);
  });

  it('a failed import changes nothing but the busy flag', () => {
    const busy = after(start(), { type: 'importStarted' });
    const state = after(busy, { type: 'importFinished', rows: null, kind: 'sales', taxType: 3 });
    expect(state).toEqual({ ...busy, importing: false });
  });

  it('a new customer forgets the tier prices', () => {
    const state = after(start({ lines: [line({ key: '1' })] }), { type: 'pricesLoaded', key: '1', prices: [] }, { type: 'customerChanged', id: 77 });
    expect(state.customerId).toBe(77);
    expect(state.prices).toEqual({});
  });

  it('focusing the row already active changes nothing (no render)', () => {
    const state = after(start(), { type: 'rowFocused', key: 'new_1' });
    expect(lineEditorReducer(state, { type: 'rowFocused', key: 'new_1' })).toBe(state);
    expect(after(state, { type: 'rowLeft' }).activeRow).toBeNull();
  });
});
