// What each column of the line table shows, shared by the two ways the rows are drawn: the
// live React rows (LineEditor) and the plain HTML of the first render (static-rows.ts).
// A cell's text, its classes and its messages are decided here once.
import { formatCents, formatInt } from '../../lib/money';
import { adjustmentAmount, belowClassA, lineAmount, MSG_BELOW_CLASS_A, MSG_ZERO_PRICE, parsePrice, qtyDifference, shortOfStock, TAX_TYPES, zeroPrice } from './rules';
import type { Kind, Line, LineField, LineLot } from './types';

export type Column =
  | 'select'
  | 'index'
  | 'code'
  | 'name'
  | 'unit'
  | 'stock'
  | 'qty'
  | 'dot'
  | 'price'
  | 'amount'
  | 'history'
  | 'taxType'
  | 'description'
  | 'inWarehouseQty'
  | 'inSystemQty'
  | 'difference'
  | 'cost'
  | 'adjAmount';

const COLUMNS: Record<Kind, Column[]> = {
  sales: ['select', 'index', 'code', 'name', 'unit', 'stock', 'qty', 'dot', 'price', 'amount', 'history', 'taxType', 'description'],
  purchase: ['select', 'index', 'code', 'name', 'unit', 'stock', 'qty', 'dot', 'price', 'amount', 'taxType', 'description'],
  transfer: ['select', 'index', 'code', 'name', 'unit', 'stock', 'qty', 'dot'],
  adjustment: ['select', 'index', 'code', 'name', 'unit', 'dot', 'inWarehouseQty', 'inSystemQty', 'difference', 'cost', 'adjAmount'],
};

/** A purchase order moves no stock: it has no DOT column (issue 36). */
const PURCHASE_ORDER = 3;

export const HEADERS: Record<Column, string> = {
  select: '',
  index: '#',
  code: 'Item Code',
  name: 'Item Name',
  unit: 'Unit',
  stock: 'Stock',
  qty: 'Qty',
  dot: 'DOT',
  price: 'Unit Price',
  amount: 'Line Amount',
  history: 'History',
  taxType: 'Tax Type',
  description: 'Description',
  inWarehouseQty: 'In-Warehouse Qty',
  inSystemQty: 'In-System Qty',
  difference: 'Qty Difference',
  cost: 'Cost Price',
  adjAmount: 'Amount',
};

const NUMERIC = new Set<Column>(['stock', 'qty', 'price', 'amount', 'inWarehouseQty', 'inSystemQty', 'difference', 'cost', 'adjAmount']);

/** Columns valued at cost: shown only to a viewer who sees cost (the server sends none otherwise). */
const AT_COST = new Set<Column>(['cost', 'adjAmount']);

/**
 * Whether the table has a DOT column: a sheet that moves stock (not a purchase order) with a
 * line of a tyre tracked by DOT (or a line still holding a code).
 */
export function hasDotColumn(orderType: number, lines: readonly Line[]): boolean {
  return orderType !== PURCHASE_ORDER && lines.some((l) => l.dotTracked || l.dot !== '');
}

/**
 * The columns shown for a kind; the read-only table has no selection or history buttons,
 * a viewer without cost sight no cost columns, and a sheet without tyres tracked by DOT
 * no DOT column (`dots`, see hasDotColumn).
 */
export function columnsFor(kind: Kind, editable: boolean, seesCost: boolean, dots: boolean): Column[] {
  return COLUMNS[kind].filter((c) => (editable || (c !== 'select' && c !== 'history')) && (seesCost || !AT_COST.has(c)) && (dots || c !== 'dot'));
}

export function columnHeaders(kind: Kind, editable: boolean, seesCost: boolean, dots: boolean): string[] {
  return columnsFor(kind, editable, seesCost, dots).map((c) => HEADERS[c]);
}

/** A header or body cell's classes. */
export function columnClass(column: Column): string {
  return NUMERIC.has(column) ? `num col-${column}` : `col-${column}`;
}

/** Input classes (app.css `.line-editor .le-*`): one height, and each field's width. */
export const INPUT_CLASS = {
  code: 'le-cell le-code',
  name: 'le-cell le-fluid',
  qty: 'le-cell le-num le-qty',
  price: 'le-cell le-num le-price',
  description: 'le-cell le-fluid',
  inWarehouseQty: 'le-cell le-num le-count',
  dot: 'le-cell le-dot',
  taxType: 'le-tax',
} as const;

/** The input fields whose message sits under them, and the label their inputs read. */
export const NUMBER_LABELS = { qty: 'Qty', price: 'Unit Price', inWarehouseQty: 'In-Warehouse Qty', dot: 'DOT' } as const;

/** What the DOT cell's input shows while empty. */
export const DOT_PLACEHOLDER = 'WWYY';

/** A lot as the DOT cell lists it: '2323 · 3y 5m · 4 in stock', 'unknown · 2 in stock'. */
export function lotText(lot: LineLot): string {
  return [lot.dot, lot.age, `${formatInt(lot.qty)} in stock`].filter((part) => part !== '').join(' · ');
}

/** The DOT cell's title: every lot of the warehouse, oldest first, one a line ('' for none). */
export function lotsTitle(line: Line): string {
  return line.lots.map(lotText).join('\n');
}

/** The lots the DOT cell offers to type: known codes that hold stock. */
export function pickableLots(line: Line): LineLot[] {
  return line.lots.filter((lot) => lot.qty > 0 && /^\d{4}$/.test(lot.dot));
}

/** The id of a line's list of lots, from its DOT message id. */
export function lotsListId(dotCellId: string): string {
  return `${dotCellId}-lots`;
}

export const SEARCH_LABELS = { code: 'Item Code', name: 'Item Name' } as const;

/**
 * The text of a cell that is text in both the editable and the read-only table, or null
 * for a cell that holds a control when editable.
 */
export function plainText(column: Column, line: Line, n: number): string | null {
  switch (column) {
    case 'index':
      return String(n);
    case 'unit':
      return line.unit;
    case 'stock':
      return line.stock === null ? '' : formatInt(line.stock);
    case 'dot':
      // Only a tyre tracked by DOT has the cell (or a line still holding a code to correct).
      return line.dotTracked || line.dot !== '' ? null : '';
    case 'amount': {
      const amount = lineAmount(line);
      return amount === null ? '' : formatCents(amount);
    }
    case 'inSystemQty':
      return line.inSystemQty;
    case 'difference': {
      const diff = line.productId === null ? null : qtyDifference(line);
      return diff === null ? '' : formatInt(diff);
    }
    case 'cost':
      return line.costPrice === null ? '' : formatCents(line.costPrice);
    case 'adjAmount': {
      const amount = adjustmentAmount(line);
      return amount === null ? '' : formatCents(amount);
    }
    default:
      return null;
  }
}

/** What a control's cell reads in the read-only table. */
export function readOnlyText(column: Column, line: Line): string {
  switch (column) {
    case 'code':
    case 'name':
    case 'qty':
    case 'description':
    case 'inWarehouseQty':
    case 'dot':
      return line[column];
    case 'price': {
      const cents = parsePrice(line.price);
      return cents === null ? line.price : formatCents(cents);
    }
    case 'taxType':
      return taxLabel(line.taxType);
    default:
      return '';
  }
}

export function taxLabel(taxType: number): string {
  return TAX_TYPES.find((tt) => tt.value === taxType)?.label ?? '';
}

/** The field whose message a cell shows under its control. */
export function messageField(column: Column): LineField | null {
  switch (column) {
    case 'code':
      return 'product';
    case 'qty':
    case 'price':
    case 'inWarehouseQty':
    case 'dot':
      return column;
    default:
      return null;
  }
}

/**
 * The Item Code cell's hint while the typed text names no product yet (not while the row
 * is being typed in, and not when a message already says so).
 */
export function needsPick(line: Line, editable: boolean, active: boolean, productError: string | null): boolean {
  return editable && !active && productError === null && line.productId === null && (line.code.trim() !== '' || line.name.trim() !== '');
}

/**
 * A cell's notice, shown while typing: a sales price of $0.00 or too far below Class A; a
 * quantity that takes the stock shown below zero.
 */
export function cellNotice(column: Column, orderType: number, line: Line): string | null {
  if (column === 'price') {
    if (zeroPrice(orderType, line)) return MSG_ZERO_PRICE;
    return belowClassA(orderType, line) ? MSG_BELOW_CLASS_A : null;
  }
  if (column === 'qty' && line.stock !== null) {
    const left = shortOfStock(orderType, line);
    return left === null ? null : `Only ${formatInt(line.stock)} in stock: approving leaves ${formatInt(left)}.`;
  }
  return null;
}
