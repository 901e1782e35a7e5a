// The line editor's first render draws its rows as plain HTML (static-rows.ts), and swaps in
// live React rows once it runs. The user must not see the swap: element by element, the
// two tables carry the same tags, classes, labels, values, messages and disabled buttons.
import { act } from '@testing-library/preact';
import { renderToString } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { island, mount } from '../src/islands/line-editor/index';

/** Attributes that legitimately differ: the live combobox names its (closed) list by an id
 *  React makes; `value`, `checked` and `selected` are compared as the fields' state; the
 *  plain rows name their fields for the form's own submission (the live ones send JSON). */
const IGNORED = new Set(['aria-controls', 'value', 'checked', 'selected', 'name']);

/** An element tree as text: tag, sorted attributes, field state, text (comments dropped). */
function canonical(node: Node): string {
  if (node.nodeType === Node.TEXT_NODE) return node.textContent ?? '';
  if (!(node instanceof Element)) return '';
  // What a count line held when picked, sent by the plain form only: nothing shows.
  if (node instanceof HTMLInputElement && node.type === 'hidden') return '';
  const attrs = [...node.attributes]
    .filter((a) => !IGNORED.has(a.name))
    .map((a) => `${a.name}="${a.value}"`)
    .sort();
  if (node instanceof HTMLInputElement) attrs.push(node.type === 'checkbox' ? `:checked=${node.checked}` : `:value="${node.value}"`);
  if (node instanceof HTMLSelectElement) attrs.push(`:value="${node.value}"`);
  const children = [...node.childNodes].map(canonical).join('');
  return `<${node.tagName.toLowerCase()} ${attrs.join(' ')}>${children}</${node.tagName.toLowerCase()}>`;
}

/** The table body as the server sends it, and as it reads once the island runs. */
async function bothTables(props: Record<string, unknown>) {
  const el = document.createElement('app-island-test');
  el.setAttribute('ssr', '');
  el.innerHTML = renderToString(<island.Component {...island.parse(props)} />);
  document.body.append(el);
  const first = el.querySelector('tbody');
  const served = canonical(first as Node);
  const errors = vi.spyOn(console, 'error');
  let unmount = () => {};
  await act(async () => {
    unmount = mount(el, props);
  });
  const live = el.querySelector('tbody');
  expect(live).not.toBe(first); // the swap happened
  const result = { served, live: canonical(live as Node), errors: errors.mock.calls.length };
  await act(async () => unmount());
  el.remove();
  errors.mockRestore();
  return result;
}

const base = { key: 'a', productId: 3, code: 'T-205', name: 'Tyre 205/55R16', unit: 'EA', stock: 12_345, qty: '2', price: '1,150.00', description: '', taxType: 3 };

const SALES_LINES = [
  base,
  // Quotes, ampersands and angle brackets in what users type.
  { ...base, key: 'b', productId: 4, code: 'B&"55"', name: '<Battery> 55D23L', description: 'Fits "Hilux" & <Ranger>', taxType: 1, stock: null },
  // Below Class A by more than 3 dollars.
  { ...base, key: 'c', productId: 5, price: '10.00', classA: 2_000, taxType: 2 },
  // Typed but not picked (the hint), and a quantity the rules refuse.
  { ...base, key: 'd', productId: null, code: 'MICH', name: '', qty: '1.5', price: '', stock: null, unit: '' },
  // An empty line.
  { key: 'e', productId: null, code: '', name: '', qty: '', price: '', description: '', taxType: 3 },
];

const SERVER_ERRORS = { 'lines.0.price': 'Price must be 0 or more with at most 2 decimals', 'lines.4.product': 'Pick the product of this line', lines: 'Add at least one line' };

describe('the first render draws the same rows as the live editor', () => {
  const cases: Array<[string, Record<string, unknown>]> = [
    ['an invoice', { kind: 'sales', orderType: 1, lines: SALES_LINES, errors: SERVER_ERRORS }],
    ['a read-only invoice', { kind: 'sales', orderType: 1, editable: false, lines: SALES_LINES, errors: SERVER_ERRORS }],
    ['a bill', { kind: 'purchase', orderType: 4, lines: SALES_LINES, errors: SERVER_ERRORS }],
    ['a transfer', { kind: 'transfer', orderType: 6, lines: SALES_LINES }],
    [
      'a stock count',
      {
        kind: 'adjustment',
        orderType: 7,
        lines: [
          { ...base, inWarehouseQty: '10', inSystemQty: '12', costPrice: 9_850 },
          { ...base, key: 'f', inWarehouseQty: 'ten', inSystemQty: '-3', costPrice: null },
          { ...base, key: 'g', productId: null, code: '', name: '', inWarehouseQty: '', inSystemQty: '' },
        ],
        errors: { 'lines.2.inWarehouseQty': 'Count the stock' },
      },
    ],
    ['a read-only stock count', { kind: 'adjustment', orderType: 7, editable: false, lines: [{ ...base, inWarehouseQty: '10', inSystemQty: '12', costPrice: 9_850 }] }],
    ['a new sheet', { kind: 'sales', orderType: 1, lines: [] }],
    [
      'an invoice of tyres by DOT date',
      {
        kind: 'sales',
        orderType: 1,
        lines: [
          { ...base, dotTracked: true, dot: '2323', lots: [{ dot: 'unknown', age: '', qty: 2 }, { dot: '2323', age: '3y 5m', qty: 4 }] },
          { ...base, key: 'h', dotTracked: true, dot: '5425', lots: [] },
          { ...base, key: 'i', dotTracked: true, dot: '', lots: [{ dot: '0125', age: '1y 10m', qty: 6 }] },
          { ...base, key: 'j' },
        ],
        errors: { 'lines.1.dot': 'Week 54 does not exist.' },
      },
    ],
    ['a read-only transfer of tyres', { kind: 'transfer', orderType: 6, editable: false, lines: [{ ...base, dotTracked: true, dot: '2323', lots: [] }] }],
    ['a count of tyres', { kind: 'adjustment', orderType: 7, lines: [{ ...base, dotTracked: true, dot: '2323', inWarehouseQty: '4', inSystemQty: '4', lots: [{ dot: '2323', age: '3y 5m', qty: 4 }] }] }],
  ];

  it.each(cases)('%s', async (_name, props) => {
    const { served, live, errors } = await bothTables(props);
    expect(errors).toBe(0);
    expect(served).toContain('<tr');
    expect(served).toBe(live);
  });

  it('carries the values, messages and hints', async () => {
    const { served } = await bothTables({ kind: 'sales', orderType: 1, lines: SALES_LINES, errors: SERVER_ERRORS });
    for (const text of [
      ':value="Fits "Hilux" & <Ranger>"',
      ':value="B&"55""',
      '12,345',
      '2,300.00',
      'Pick the product of this line',
      'Choose a product from the list',
      'Quantity must be a whole number, 0 or more',
      'The price is more than 3 AUD below PriceA / COD.',
      'Price must be 0 or more with at most 2 decimals',
    ]) {
      expect(served).toContain(text);
    }
  });
});
