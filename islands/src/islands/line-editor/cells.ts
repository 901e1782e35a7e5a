// What each column of the line table shows, shared by the two ways the rows are drawn: the
// live React rows (LineEditor) and the plain HTML of the first render (static-rows.ts).
// A cell's text, its classes and its messages are decided here once.
import { formatCents, formatInt } from '../../lib/money';
import { adjustmentAmount, belowClassA, lineAmount, MSG_BELOW_CLASS_A, MSG_ZERO_PRICE, parsePrice, qtyDifference, shortOfStock, TAX_TYPES, zeroPrice } from './rules';
import type { Kind, Line, LineField } from './types';

export type Column =
  | 'select'
  | 'index'
  | 'code'
  | 'name'
  | 'unit'
  | 'stock'
  | 'qty'
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
  sales: ['select', 'index', 'code', 'name', 'unit', 'stock', 'qty', 'price', 'amount', 'history', 'taxType', 'description'],
  purchase: ['select', 'index', 'code', 'name', 'unit', 'stock', 'qty', 'price', 'amount', 'taxType', 'description'],
  transfer: ['select', 'index', 'code', 'name', 'unit', 'stock', 'qty'],
  adjustment: ['select', 'index', 'code', 'name', 'unit', 'inWarehouseQty', 'inSystemQty', 'difference', 'cost', 'adjAmount'],
};

export const HEADERS: Record<Column, string> = {
  select: '',
  index: '#',
  code: 'Item Code',
  name: 'Item Name',
  unit: 'Unit',
  stock: 'Stock',
  qty: 'Qty',
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
 * The columns shown for a kind; the read-only table has no selection or history buttons,
 * and a viewer without cost sight no cost columns.
 */
export function columnsFor(kind: Kind, editable: boolean, seesCost: boolean): Column[] {
  return COLUMNS[kind].filter((c) => (editable || (c !== 'select' && c !== 'history')) && (seesCost || !AT_COST.has(c)));
}

export function columnHeaders(kind: Kind, editable: boolean, seesCost: boolean): string[] {
  return columnsFor(kind, editable, seesCost).map((c) => HEADERS[c]);
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
  taxType: 'le-tax',
} as const;

/** The input fields whose message sits under them, and the label their inputs read. */
export const NUMBER_LABELS = { qty: 'Qty', price: 'Unit Price', inWarehouseQty: 'In-Warehouse Qty' } as const;

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
