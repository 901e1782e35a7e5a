import { act, fireEvent, render, screen, within } from '@testing-library/preact';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LineEditor } from '../src/islands/line-editor/LineEditor';
import { mount, parseProps } from '../src/islands/line-editor/index';
import { captureToasts } from './helpers';
import { cell, headers, line, props, serialized, total } from './fixtures/line-editor';

let capture: ReturnType<typeof captureToasts>;
beforeEach(() => {
  capture = captureToasts();
});
afterEach(() => capture.stop());

const rows = () => Array.from(document.querySelectorAll<HTMLElement>('table.data-table tbody tr'));
const cellText = (row: Element, col: string) => {
  const i = headers().indexOf(col);
  if (i < 0) throw new Error(`no column ${col}`);
  return row.querySelectorAll('td')[i]?.textContent ?? '';
};

describe('columns by kind (spec §2.5)', () => {
  it('sales', () => {
    render(<LineEditor {...props()} />);
    expect(headers()).toEqual([
      '', '#', 'Item Code', 'Item Name', 'Unit', 'Stock', 'Qty', 'Unit Price', 'Line Amount', 'History', 'Tax Type', 'Description',
    ]);
    expect(screen.getByRole('checkbox', { name: 'Select all lines' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Prices line 1' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'CHK history, line 1' }).textContent).toBe('CHK');
  });

  it('purchase: no history, no prices dropdown', () => {
    render(<LineEditor {...props({ kind: 'purchase', orderType: 4, customerId: null })} />);
    expect(headers()).toEqual([
      '', '#', 'Item Code', 'Item Name', 'Unit', 'Stock', 'Qty', 'Unit Price', 'Line Amount', 'Tax Type', 'Description',
    ]);
    expect(screen.queryByRole('button', { name: 'Prices line 1' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'CHK history, line 1' })).toBeNull();
  });

  it('transfer: qty only, no footer', () => {
    render(<LineEditor {...props({ kind: 'transfer', orderType: 6, customerId: null })} />);
    expect(headers()).toEqual(['', '#', 'Item Code', 'Item Name', 'Unit', 'Stock', 'Qty']);
    expect(screen.queryByLabelText('Unit Price line 1')).toBeNull();
    expect(document.querySelector('dl')).toBeNull();
  });

  it('adjustment', () => {
    render(<LineEditor {...props({ kind: 'adjustment', orderType: 7, customerId: null })} />);
    expect(headers()).toEqual([
      '', '#', 'Item Code', 'Item Name', 'Unit', 'In-Warehouse Qty', 'In-System Qty', 'Qty Difference', 'Cost Price', 'Amount',
    ]);
    expect(cell('In-Warehouse Qty line 1')).toBeTruthy();
    expect(screen.queryByLabelText('Qty line 1')).toBeNull();
  });

  it('adjustment for a viewer without cost sight: quantities only, no cost, amount or total amount', () => {
    const counted = line({ qty: '', price: '', costPrice: null, inSystemQty: '5', inWarehouseQty: '7' });
    render(<LineEditor {...props({ kind: 'adjustment', orderType: 7, customerId: null, seesCost: false, lines: [counted] })} />);
    expect(headers()).toEqual(['', '#', 'Item Code', 'Item Name', 'Unit', 'In-Warehouse Qty', 'In-System Qty', 'Qty Difference']);
    expect(total('Total Qty')).toBe('2');
    expect(total('Total Amount')).toBeNull();
  });

  it('without cost sight a sales sheet keeps its money columns', () => {
    render(<LineEditor {...props({ seesCost: false })} />);
    expect(headers()).toContain('Line Amount');
    expect(total('Total Amount')).not.toBeNull();
  });
});

describe('initial lines and the hidden input', () => {
  it('starts with one empty line when none are given, serialized with a new_ key', () => {
    render(<LineEditor {...props()} />);
    expect(rows()).toHaveLength(1);
    expect(cell('Item Code line 1').value).toBe('');
    expect(serialized()).toEqual([
      { key: 'new_1', productId: null, qty: '', price: '', description: '', taxType: 3, inWarehouseQty: '', inSystemQty: '', dot: '' },
    ]);
  });

  it('reflects every edit in the hidden input named by fieldName', async () => {
    const user = userEvent.setup();
    render(<LineEditor {...props({ fieldName: 'sheet_lines', lines: [line(), line({ key: 'new_4', productId: 502, qty: '1', price: '160' })] })} />);
    expect(serialized('sheet_lines').map((l) => l.key)).toEqual(['11', 'new_4']);

    await user.clear(cell('Qty line 1'));
    await user.type(cell('Qty line 1'), '7');
    await user.clear(cell('Unit Price line 2'));
    await user.type(cell('Unit Price line 2'), '99.9');
    await user.type(cell('Description line 2'), 'rush');
    await user.selectOptions(screen.getByLabelText('Tax Type line 1'), '1');

    expect(serialized('sheet_lines')).toEqual([
      { key: '11', productId: 501, qty: '7', price: '142.50', description: '', taxType: 1, inWarehouseQty: '', inSystemQty: '', dot: '' },
      { key: 'new_4', productId: 502, qty: '1', price: '99.9', description: 'rush', taxType: 3, inWarehouseQty: '', inSystemQty: '', dot: '' },
    ]);
    // Added lines continue after the highest new_ key.
    await user.click(screen.getByRole('button', { name: '+ Add Line' }));
    expect(serialized('sheet_lines').map((l) => l.key)).toEqual(['11', 'new_4', 'new_5']);
  });
});

describe('validation (spec §5)', () => {
  it('qty must be a whole number ≥ 0; price ≥ 0 with at most 2 decimals', async () => {
    const user = userEvent.setup();
    render(<LineEditor {...props({ lines: [line()] })} />);
    const qty = cell('Qty line 1');
    const price = cell('Unit Price line 1');
    expect(document.querySelectorAll('.field-error')).toHaveLength(0);

    for (const bad of ['1.5', '-1', 'x', '']) {
      await user.clear(qty);
      if (bad) await user.type(qty, bad);
      const err = qty.closest('td')?.querySelector('.field-error');
      expect(err?.textContent, bad).toBe('Quantity must be a whole number, 0 or more');
      expect(qty.getAttribute('aria-invalid')).toBe('true');
      expect(qty.getAttribute('aria-describedby')).toBe(err?.id);
    }
    await user.clear(qty);
    await user.type(qty, '0');
    expect(qty.closest('td')?.querySelector('.field-error')).toBeNull();

    for (const bad of ['12.345', '-3', '1.2.3', 'abc', '1,23']) {
      await user.clear(price);
      await user.type(price, bad);
      expect(price.closest('td')?.querySelector('.field-error')?.textContent, bad).toBe(
        'Price must be 0 or more with at most 2 decimals',
      );
    }
    for (const good of ['0', '12.3', '12.30', '1,234.56', '.5']) {
      await user.clear(price);
      await user.type(price, good);
      expect(price.closest('td')?.querySelector('.field-error'), good).toBeNull();
    }
  });

  it('does not flag an untouched blank line', () => {
    render(<LineEditor {...props()} />);
    expect(document.querySelectorAll('.field-error')).toHaveLength(0);
  });

  it('checks the in-warehouse qty of adjustments', async () => {
    const user = userEvent.setup();
    render(<LineEditor {...props({ kind: 'adjustment', orderType: 7, lines: [line({ qty: '', price: '', inSystemQty: '5', inWarehouseQty: '5' })] })} />);
    const counted = cell('In-Warehouse Qty line 1');
    await user.clear(counted);
    await user.type(counted, '2.5');
    expect(counted.closest('td')?.querySelector('.field-error')?.textContent).toBe('Quantity must be a whole number, 0 or more');
  });
});

describe('server errors', () => {
  it('shows messages per cell (0-based line index) until that cell is edited, and table-level messages', async () => {
    const user = userEvent.setup();
    render(
      <LineEditor
        {...props({
          lines: [line(), line({ key: 'new_2', productId: null, code: 'ZZZ', name: '', qty: '1', price: '5' })],
          errors: {
            'lines.0.qty': 'Quantity must be a whole number, 0 or more',
            'lines.0.price': 'Use at most 2 decimal places',
            'lines.1.product': 'Unknown product',
            lines: 'Add at least one line with a product.',
          },
        })}
      />,
    );
    const [first, second] = rows();
    expect(within(first!).getAllByRole('alert').map((e) => e.textContent)).toEqual([
      'Quantity must be a whole number, 0 or more',
      'Use at most 2 decimal places',
    ]);
    expect(cell('Item Code line 2').closest('td')?.querySelector('.field-error')?.textContent).toBe('Unknown product');
    expect(within(second!).queryByText('Quantity must be a whole number, 0 or more')).toBeNull();
    expect(screen.getByText('Add at least one line with a product.').className).toBe('field-error');

    // Editing the qty cell removes its server message only.
    await user.type(cell('Qty line 1'), '0');
    expect(within(first!).getAllByRole('alert').map((e) => e.textContent)).toEqual(['Use at most 2 decimal places']);
    await user.type(cell('Item Code line 2'), 'Z');
    expect(screen.queryByText('Unknown product')).toBeNull();
  });
});

describe('amounts and totals (spec §9)', () => {
  it('line amount = qty × price in cents, with thousands separators; GST 1/11 on the total', () => {
    render(
      <LineEditor
        {...props({
          lines: [
            line({ qty: '3', price: '0.10' }), // 0.30 (no float drift)
            line({ key: '12', qty: '12', price: '1234.56' }), // 14,814.72
            line({ key: 'new_1', productId: null, code: '', name: '', qty: '5', price: '9' }), // no product: not counted
          ],
        })}
      />,
    );
    const [a, b, c] = rows();
    expect(cellText(a!, 'Line Amount')).toBe('0.30');
    expect(cellText(b!, 'Line Amount')).toBe('14,814.72');
    expect(cellText(c!, 'Line Amount')).toBe('');
    expect(total('Total Qty')).toBe('15');
    expect(total('Total Amount')).toBe('14,815.02');
    // 1,481,502 / 11 = 134,682.0 → 1,346.82
    expect(total('Total Tax (GST 10%)')).toBe('1,346.82');
    expect(total('SubTotal')).toBe('13,468.20');
  });

  it('rounds the GST half away from zero on the total (not per line)', () => {
    // Two lines of 0.06: per line GST would round to 0.01 each (0.02); on the total 0.12/11 = 0.0109 → 0.01.
    render(<LineEditor {...props({ lines: [line({ qty: '1', price: '0.06' }), line({ key: '12', qty: '1', price: '0.06' })] })} />);
    expect(total('Total Tax (GST 10%)')).toBe('0.01');
    expect(total('SubTotal')).toBe('0.11');
  });

  it.each([
    [1, 'Total Tax (No Tax)', '0.00', '100.00'],
    [2, 'Total Tax (GST 10%)', '9.09', '90.91'],
    [3, 'Total Tax (GST 10%)', '9.09', '90.91'],
  ])('tax type %i → %s', (taxType, label, tax, subtotal) => {
    render(<LineEditor {...props({ taxType, lines: [line({ qty: '1', price: '100' })] })} />);
    expect(total(label)).toBe(tax);
    expect(total('SubTotal')).toBe(subtotal);
    expect(total('Total Amount')).toBe('100.00');
  });

  it('follows tax-type-changed for the footer label', () => {
    render(<LineEditor {...props({ taxType: 3, lines: [line({ qty: '1', price: '100' })] })} />);
    expect(total('Total Tax (GST 10%)')).toBe('9.09');
    act(() => {
      document.dispatchEvent(new CustomEvent('tax-type-changed', { detail: { taxType: 1 } }));
    });
    expect(total('Total Tax (GST 10%)')).toBeNull();
    expect(total('Total Tax (No Tax)')).toBe('0.00');
    expect(total('SubTotal')).toBe('100.00');
  });

  it('purchase totals have tax too', () => {
    render(<LineEditor {...props({ kind: 'purchase', orderType: 3, taxType: 2, lines: [line({ qty: '4', price: '98.50' })] })} />);
    expect(total('Total Amount')).toBe('394.00');
    expect(total('Total Tax (GST 10%)')).toBe('35.82'); // 39400/11 = 3581.8 → 3582
  });

  it('adjustments: difference = in-warehouse − in-system, amount = difference × cost; no tax', async () => {
    const user = userEvent.setup();
    render(
      <LineEditor
        {...props({
          kind: 'adjustment',
          orderType: 7,
          lines: [
            line({ qty: '', price: '', inSystemQty: '10', inWarehouseQty: '7', costPrice: 9_850 }),
            line({ key: '12', qty: '', price: '', inSystemQty: '-2', inWarehouseQty: '1', costPrice: 1_000 }),
          ],
        })}
      />,
    );
    const [a, b] = rows();
    expect(cellText(a!, 'In-System Qty')).toBe('10');
    expect(cellText(a!, 'Qty Difference')).toBe('-3');
    expect(cellText(a!, 'Cost Price')).toBe('98.50');
    expect(cellText(a!, 'Amount')).toBe('-295.50');
    expect(cellText(b!, 'Qty Difference')).toBe('3');
    expect(total('Total Qty')).toBe('0');
    expect(total('Total Amount')).toBe('-265.50');
    expect(total('SubTotal')).toBeNull();
    expect(Array.from(document.querySelectorAll('dt')).some((d) => d.textContent?.startsWith('Total Tax'))).toBe(false);

    await user.clear(cell('In-Warehouse Qty line 1'));
    await user.type(cell('In-Warehouse Qty line 1'), '12');
    expect(cellText(a!, 'Qty Difference')).toBe('2');
    expect(total('Total Qty')).toBe('5');
    expect(total('Total Amount')).toBe('227.00');
  });
});

describe('3-AUD notice (invoices only)', () => {
  const NOTICE = 'The price is more than 3 AUD below PriceA / COD.';

  it('shows when the price is more than 3.00 below class A on an invoice', async () => {
    const user = userEvent.setup();
    render(<LineEditor {...props({ lines: [line({ classA: 15_000, price: '147.00' })] })} />);
    expect(screen.queryByText(NOTICE)).toBeNull(); // exactly 3.00 below
    const price = cell('Unit Price line 1');
    await user.clear(price);
    await user.type(price, '146.99');
    const notice = screen.getByText(NOTICE);
    expect(notice.getAttribute('role')).toBe('status');
    expect(notice.classList.contains('field-error')).toBe(false); // a notice, not an error
    await user.clear(price);
    await user.type(price, '150');
    expect(screen.queryByText(NOTICE)).toBeNull();
  });

  it.each([2, 3, 4])('never for order type %i', (orderType) => {
    const kind = orderType === 2 ? 'sales' : 'purchase';
    render(<LineEditor {...props({ kind, orderType, lines: [line({ classA: 15_000, price: '1.00' })] })} />);
    expect(screen.queryByText(NOTICE)).toBeNull();
  });
});

describe('notices of issue 29: a sale at $0.00, stock taken below zero', () => {
  const ZERO = 'The price is $0.00: this line is given away.';

  it.each([1, 2])('a product line priced at 0 on order type %i says so while typing', async (orderType) => {
    const user = userEvent.setup();
    render(<LineEditor {...props({ orderType, lines: [line({ classA: 0, price: '5.00' })] })} />);
    expect(screen.queryByText(ZERO)).toBeNull();
    const price = cell('Unit Price line 1');
    await user.clear(price);
    await user.type(price, '0');
    expect(screen.getByText(ZERO).getAttribute('role')).toBe('status');
  });

  it('a quantity beyond the stock shown on an invoice, a bill credit note or a transfer', async () => {
    const user = userEvent.setup();
    render(<LineEditor {...props({ lines: [line({ stock: 3, qty: '3' })] })} />);
    expect(screen.queryByText(/in stock: approving leaves/)).toBeNull();
    const qty = cell('Qty line 1');
    await user.clear(qty);
    await user.type(qty, '7');
    expect(screen.getByText('Only 3 in stock: approving leaves -4.').getAttribute('role')).toBe('status');
  });

  it.each([
    ['a credit note brings stock in', { orderType: 2 }],
    ['a purchase order brings stock in', { kind: 'purchase' as const, orderType: 3 }],
    ['a virtual product holds no stock', { orderType: 1, stock: null }],
  ])('no stock notice when %s', (_why, over) => {
    const { stock, ...rest } = { stock: 3 as number | null, ...over };
    render(<LineEditor {...props({ ...rest, lines: [line({ stock, qty: '9' })] })} />);
    expect(screen.queryByText(/in stock: approving leaves/)).toBeNull();
  });
});

describe('customer-changed', () => {
  const change = (id: number | null) =>
    act(() => {
      document.dispatchEvent(new CustomEvent('customer-changed', { detail: { id, priceType: 2 } }));
    });

  it('warns when a line names a product', () => {
    render(<LineEditor {...props({ lines: [line()] })} />);
    change(77);
    expect(capture.toasts).toEqual([{ text: 'CSR changed, mind items PRICE & QTY', level: 'warning', ms: 5000 }]);
  });

  it('stays quiet without product lines', () => {
    render(<LineEditor {...props({ lines: [line({ productId: null, code: 'abc' })] })} />);
    change(77);
    expect(capture.toasts).toEqual([]);
  });
});

describe('selection: delete and copy', () => {
  const three = () => [line({ key: '1', qty: '1' }), line({ key: '2', qty: '2' }), line({ key: '3', qty: '3' })];

  it('enables Delete Line and Copy Line only with a selection', async () => {
    const user = userEvent.setup();
    render(<LineEditor {...props({ lines: three() })} />);
    const del = screen.getByRole('button', { name: 'Delete Line' }) as HTMLButtonElement;
    const copy = screen.getByRole('button', { name: 'Copy Line' }) as HTMLButtonElement;
    expect(del.disabled).toBe(true);
    expect(copy.disabled).toBe(true);
    await user.click(screen.getByRole('checkbox', { name: 'Select line 2' }));
    expect(del.disabled).toBe(false);
    expect(copy.disabled).toBe(false);
    await user.click(screen.getByRole('checkbox', { name: 'Select line 2' }));
    expect(del.disabled).toBe(true);
    await user.click(screen.getByRole('checkbox', { name: 'Select all lines' }));
    expect(screen.getAllByRole('checkbox', { checked: true })).toHaveLength(4);
  });

  it('deletes the selected lines; deleting all leaves one empty line', async () => {
    const user = userEvent.setup();
    render(<LineEditor {...props({ lines: three() })} />);
    await user.click(screen.getByRole('checkbox', { name: 'Select line 1' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select line 3' }));
    await user.click(screen.getByRole('button', { name: 'Delete Line' }));
    expect(serialized().map((l) => [l.key, l.qty])).toEqual([['2', '2']]);
    expect((screen.getByRole('button', { name: 'Delete Line' }) as HTMLButtonElement).disabled).toBe(true);

    await user.click(screen.getByRole('checkbox', { name: 'Select all lines' }));
    await user.click(screen.getByRole('button', { name: 'Delete Line' }));
    expect(serialized()).toEqual([
      { key: 'new_1', productId: null, qty: '', price: '', description: '', taxType: 3, inWarehouseQty: '', inSystemQty: '', dot: '' },
    ]);
  });

  it('copies the selected lines after the last selected one, with new keys', async () => {
    const user = userEvent.setup();
    render(<LineEditor {...props({ lines: three() })} />);
    await user.click(screen.getByRole('checkbox', { name: 'Select line 1' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select line 2' }));
    await user.click(screen.getByRole('button', { name: 'Copy Line' }));
    expect(serialized().map((l) => [l.key, l.qty])).toEqual([
      ['1', '1'],
      ['2', '2'],
      ['new_1', '1'],
      ['new_2', '2'],
      ['3', '3'],
    ]);
    expect(cell('Item Code line 3').value).toBe('2055516-MICH');
  });
});

describe('read-only', () => {
  it('renders no inputs or buttons but the values and totals', () => {
    render(
      <LineEditor
        {...props({
          editable: false,
          lines: [line({ qty: '2', price: '1234.5', description: 'front pair', taxType: 2 })],
          errors: { 'lines.0.price': 'Server says no' },
        })}
      />,
    );
    expect(document.querySelectorAll('input:not([type=hidden]), select, textarea, button')).toHaveLength(0);
    expect(headers()).toEqual(['#', 'Item Code', 'Item Name', 'Unit', 'Stock', 'Qty', 'Unit Price', 'Line Amount', 'Tax Type', 'Description']);
    const row = rows()[0]!;
    expect(cellText(row, 'Item Code')).toBe('2055516-MICH');
    expect(cellText(row, 'Qty')).toBe('2');
    expect(cellText(row, 'Unit Price')).toBe('1,234.50Server says no');
    expect(cellText(row, 'Line Amount')).toBe('2,469.00');
    expect(cellText(row, 'Tax Type')).toBe('Tax Inclusive');
    expect(cellText(row, 'Description')).toBe('front pair');
    expect(total('Total Amount')).toBe('2,469.00');
    expect(total('Total Tax (GST 10%)')).toBe('224.45');
  });
});

describe('mount', () => {
  it('parses the props JSON with defaults and renders into the element', () => {
    const el = document.createElement('div');
    document.body.append(el);
    const unmount = mount(el, {
      kind: 'purchase',
      orderType: 3,
      taxType: 1,
      customerId: null,
      warehouseId: 4,
      editable: true,
      fieldName: 'lines_json',
      lines: [{ key: 7, productId: 9, code: 'X1', name: 'Thing', unit: 'EA', stock: 3, qty: 2, price: '5.00', description: '', taxType: 1, inWarehouseQty: '', inSystemQty: '', classA: null, costPrice: 300 }],
      errors: { 'lines.0.qty': ['first', 'second'] },
    });
    expect(el.querySelector('input[aria-label="Item Code line 1"]')).not.toBeNull();
    expect(el.textContent).toContain('first');
    expect(JSON.parse(el.querySelector<HTMLInputElement>('input[type=hidden]')!.value)[0]).toMatchObject({ key: '7', qty: '2' });
    unmount();
    expect(el.innerHTML).toBe('');
  });

  it('derives the kind from the order type and fills defaults', () => {
    expect(parseProps({ orderType: 6 })).toEqual({
      kind: 'transfer',
      orderType: 6,
      taxType: 3,
      customerId: null,
      warehouseId: null,
      editable: true,
      seesCost: false,
      fieldName: 'lines_json',
      lines: [],
      errors: {},
    });
    expect(parseProps({ orderType: 5 }).kind).toBe('purchase');
    expect(parseProps({ orderType: 7 }).kind).toBe('adjustment');
    expect(parseProps({ kind: 'sales', orderType: 2, editable: false }).editable).toBe(false);
    expect(parseProps(null).kind).toBe('sales');
    expect(parseProps({ seesCost: true }).seesCost, 'cost shows only when the server says so').toBe(true);
  });
});

it('input events are plain: fireEvent change keeps the hidden input in sync', () => {
  render(<LineEditor {...props({ lines: [line()] })} />);
  fireEvent.change(cell('Description line 1'), { target: { value: 'via change' } });
  expect(serialized()[0]?.description).toBe('via change');
});
