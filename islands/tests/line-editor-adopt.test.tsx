// The editor is usable before its code arrives (issue 37): its first rows are a plain form,
// and when the island runs it adopts what was typed there and in the header, keeps the
// focus and caret where the user is typing, and sends the typed lines from then on.
import { act } from '@testing-library/preact';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { codesToLookUp, initialEditorState, lineEditorReducer } from '../src/islands/line-editor/editor-state';
import { island, mount } from '../src/islands/line-editor/index';
import { setMeta } from './helpers';
import { flush, hit, line, props, routeFetch, searchRoute } from './fixtures/line-editor';

describe('adopting what was typed (the reducer)', () => {
  const start = initialEditorState(props({ lines: [line({ key: '11', qty: '2', price: '142.50' }), line({ key: 'new_2', productId: null, code: '', name: '', qty: '', price: '' })] }));

  it('takes typed quantities, prices, descriptions and tax types as if typed live', () => {
    const typed = new Map([
      [0, { code: '2055516-MICH', qty: '7', price: '150.00', description: 'Front pair', taxType: '1' }],
      [1, { qty: '3' }],
    ]);
    const next = lineEditorReducer(start, { type: 'adopt', kind: 'sales', typed, header: null });
    expect(next.lines[0]).toMatchObject({ productId: 501, qty: '7', price: '150.00', description: 'Front pair', taxType: 1 });
    expect(next.lines[1]).toMatchObject({ productId: null, qty: '3' });
    expect(codesToLookUp(start, next)).toEqual([]);
  });

  it('drops the product of a line whose code was changed, and names the code to look up', () => {
    const typed = new Map([[0, { code: '2055516-CONT' }], [1, { code: '2055516-bridge' }]]);
    const next = lineEditorReducer(start, { type: 'adopt', kind: 'sales', typed, header: null });
    expect(next.lines[0]).toMatchObject({ productId: null, code: '2055516-CONT', qty: '2', price: '142.50' });
    expect(codesToLookUp(start, next)).toEqual([
      { key: '11', code: '2055516-CONT' },
      { key: 'new_2', code: '2055516-bridge' },
    ]);
  });

  it('follows the header as the form holds it, and is a new state even when nothing changed', () => {
    const next = lineEditorReducer(start, { type: 'adopt', kind: 'sales', typed: new Map(), header: { customerId: 77, warehouseId: 3, taxType: 2 } });
    expect(next).toMatchObject({ customerId: 77, warehouseId: 3, taxType: 2 });
    const same = lineEditorReducer(start, { type: 'adopt', kind: 'sales', typed: new Map(), header: null });
    expect(same).not.toBe(start);
    expect(same.lines).toBe(start.lines);
  });

  it('puts the looked-up product on a line still holding the code, keeping a typed price', () => {
    const typed = new Map([[1, { code: '2055516-cont', qty: '4', price: '99.00' }]]);
    const adopted = lineEditorReducer(start, { type: 'adopt', kind: 'sales', typed, header: null });
    const found = hit({ id: 502, code: '2055516-CONT', name: 'Continental', unitPrice: 16_000 });
    const next = lineEditorReducer(adopted, { type: 'adoptPick', kind: 'sales', key: 'new_2', code: '2055516-cont', hit: found });
    expect(next.lines[1]).toMatchObject({ productId: 502, code: '2055516-CONT', name: 'Continental', qty: '4', price: '99.00' });
    expect(next.focus).toBeNull();
    // Typed on since: the answer is too late for that line.
    const retyped = lineEditorReducer(adopted, { type: 'typeProduct', key: 'new_2', field: 'code', text: '2055516-BRID' });
    expect(lineEditorReducer(retyped, { type: 'adoptPick', kind: 'sales', key: 'new_2', code: '2055516-cont', hit: found })).toBe(retyped);
  });
});

describe('going live in the page', () => {
  beforeEach(() => {
    setMeta('csrf-token', 'csrf-abc');
    setMeta('org-id', '3');
  });
  afterEach(() => {
    document.body.innerHTML = '';
  });

  /** The sheet's form with its header fields and the editor as the server sends it. */
  function page(editorProps: object) {
    const form = document.createElement('form');
    form.innerHTML =
      '<input type="hidden" name="customer_id" value="42">' +
      '<select name="warehouse_id"><option value="2">Main</option><option value="5">North</option></select>' +
      '<select name="tax_type"><option value="1">No Tax</option><option value="2">Tax Inclusive</option><option value="3" selected>GST on Income</option></select>';
    const el = document.createElement('app-island');
    el.setAttribute('ssr', '');
    el.innerHTML = renderToString(<island.Component {...island.parse(editorProps)} />);
    form.append(el);
    document.body.append(form);
    return { form, el };
  }

  const named = (form: HTMLFormElement, name: string) => form.elements.namedItem(name) as HTMLInputElement | HTMLSelectElement | null;
  const byLabel = (el: Element, label: string) => el.querySelector<HTMLInputElement>(`[aria-label="${label}"]`) as HTMLInputElement;

  it('submits the plain rows by name until live, then the adopted lines as JSON, with the focus and caret kept', async () => {
    const fetch = routeFetch(searchRoute());
    const editorProps = props({ lines: [], customerId: 42, warehouseId: 2 });
    const { form, el } = page(editorProps);
    const plain = new FormData(form);
    expect(plain.has('lines_json')).toBe(false);
    expect(plain.get('lines.0.code')).toBe('');

    // The user types before the code arrives: a code, a quantity, a header change.
    named(form, 'lines.0.code')!.value = '2055516-mich';
    const qty = named(form, 'lines.0.qty') as HTMLInputElement;
    qty.value = '12';
    qty.focus();
    qty.setSelectionRange(1, 1);
    named(form, 'warehouse_id')!.value = '5';
    expect(new FormData(form).get('lines.0.qty')).toBe('12');

    const errors = vi.spyOn(console, 'error');
    let unmount = () => {};
    await act(async () => {
      unmount = mount(el, editorProps);
    });
    await flush();

    expect(el.querySelector('.line-editor')?.hasAttribute('data-live')).toBe(true);
    const liveQty = byLabel(el, 'Qty line 1');
    expect(liveQty).not.toBe(qty); // the live row replaced the plain one…
    expect(liveQty.value).toBe('12'); // …holding what was typed
    expect(document.activeElement).toBe(liveQty);
    expect([liveQty.selectionStart, liveQty.selectionEnd]).toEqual([1, 1]);
    // The typed code named a product: looked up in the sheet's (new) warehouse, and picked.
    const lookup = fetch.mock.calls.map(([url]) => String(url)).find((u) => u.includes('code='));
    expect(lookup).toContain('code=2055516-mich');
    expect(lookup).toContain('warehouseId=5');
    expect(byLabel(el, 'Item Code line 1').value).toBe('2055516-MICH');
    expect(byLabel(el, 'Item Name line 1').value).toBe('Michelin Primacy 4 205/55R16 91V');

    const live = new FormData(form);
    expect([...live.keys()].filter((k) => k.startsWith('lines.'))).toEqual([]);
    const sent = JSON.parse(String(live.get('lines_json'))) as Array<Record<string, unknown>>;
    expect(sent).toEqual([expect.objectContaining({ productId: 501, qty: '12', price: '142.50' })]);
    expect(errors).not.toHaveBeenCalled();
    await act(async () => unmount());
  });

  it('keeps a code that names no product, with its hint, and the server messages of other fields', async () => {
    routeFetch(searchRoute());
    const editorProps = props({ lines: [line({ key: '11' })], errors: { 'lines.0.price': 'Price must be 0 or more' } });
    const { form, el } = page(editorProps);
    named(form, 'lines.0.code')!.value = 'NOPE';
    await act(async () => {
      mount(el, editorProps);
    });
    await flush();
    expect(byLabel(el, 'Item Code line 1').value).toBe('NOPE');
    expect(el.textContent).toContain('Choose a product from the list');
    expect(el.textContent).toContain('Price must be 0 or more');
    const sent = JSON.parse(String(new FormData(form).get('lines_json'))) as Array<Record<string, unknown>>;
    expect(sent[0]).toMatchObject({ productId: null, qty: '2' });
  });
});
