// Line rules (spec §5, §9): parsing what staff type, cents arithmetic, GST, totals, columns.
// Pure functions, shared by the component and the tests; they mirror the server's checks.
import { parseMoney, parseQty, parseSignedInt } from '../../lib/money';
import type { Kind, Line, LineField, SerializedLine } from './types';

export const MSG_QTY = 'Quantity must be a whole number, 0 or more';
export const MSG_PRICE = 'Price must be 0 or more with at most 2 decimals';
export const MSG_BELOW_CLASS_A = 'The price is more than 3 AUD below PriceA / COD.';
/** A sales line at no price (issue 29); approving it asks to confirm too. */
export const MSG_ZERO_PRICE = 'The price is $0.00: this line is given away.';
export const MSG_CUSTOMER_CHANGED = 'CSR changed, mind items PRICE & QTY';
export const MSG_PICK_PRODUCT = 'Choose a product from the list';
/** The client's check of a DOT code's shape; the server checks the week and the date. */
export const MSG_DOT = 'Type the DOT code as 4 digits, week then year (WWYY), e.g. 2325';

/** An invoice price more than this many cents below class A gets a notice (spec §9). */
export const BELOW_CLASS_A_CENTS = 300;
/** Product search debounces (spec §9). */
export const CODE_DEBOUNCE_MS = 700;
export const NAME_DEBOUNCE_MS = 500;

export const TAX_TYPES: ReadonlyArray<{ value: number; label: string }> = [
  { value: 1, label: 'No Tax' },
  { value: 2, label: 'Tax Inclusive' },
  { value: 3, label: 'GST on Income' },
];

/** Order type → sheet kind. */
export function kindOf(orderType: number): Kind {
  if (orderType === 6) return 'transfer';
  if (orderType === 7) return 'adjustment';
  if (orderType >= 3 && orderType <= 5) return 'purchase';
  return 'sales';
}

/** A line price as typed → cents, or null: every refusal shows the one MSG_PRICE. */
export function parsePrice(text: string): number | null {
  const parsed = parseMoney(text);
  return parsed.ok ? parsed.cents : null;
}

/** `n / d` rounded half away from zero, for integers (d > 0). */
export function divRoundHalfAway(n: number, d: number): number {
  const q = Math.floor((2 * Math.abs(n) + d) / (2 * d));
  return n < 0 ? -q : q;
}

/** Types 1–5 carry tax (Total Tax and SubTotal in the footer). */
export function isTaxable(orderType: number): boolean {
  return orderType >= 1 && orderType <= 5;
}

/** GST is 1/11 of the total for tax types 2 and 3, rounded once on the total. */
export function chargesGst(taxType: number): boolean {
  return taxType === 2 || taxType === 3;
}

export function gstOf(totalCents: number, taxType: number): number {
  return chargesGst(taxType) ? divRoundHalfAway(totalCents, 11) : 0;
}

export function gstLabel(taxType: number): string {
  return chargesGst(taxType) ? '(GST 10%)' : '(No Tax)';
}

/** Kinds with a unit price column. */
export function hasPrice(kind: Kind): boolean {
  return kind === 'sales' || kind === 'purchase';
}

/** A line's quantity and price as numbers (null where the text is refused). */
interface LineNumbers {
  qty: number | null;
  price: number | null;
}

const NUMBERS = new WeakMap<Line, LineNumbers>();

/**
 * A line's numbers, read once per line: the footer, the amount, the messages and the
 * Class A notice all ask, and a 200-line server render (QuickJS) paid for each reading.
 * Lines are never changed, only replaced (their fields are readonly), so a line's numbers
 * cannot go stale.
 */
function numbersOf(line: Line): LineNumbers {
  let numbers = NUMBERS.get(line);
  if (numbers === undefined) {
    numbers = { qty: parseQty(line.qty), price: parsePrice(line.price) };
    NUMBERS.set(line, numbers);
  }
  return numbers;
}

/** Qty × price in cents, for a line with a product and valid numbers; else null. */
export function lineAmount(line: Line): number | null {
  if (line.productId === null) return null;
  const { qty, price } = numbersOf(line);
  return qty === null || price === null ? null : qty * price;
}

/** Adjustment: in-warehouse − in-system, when the counted qty is valid. */
export function qtyDifference(line: Line): number | null {
  const counted = parseQty(line.inWarehouseQty);
  if (counted === null) return null;
  return counted - (parseSignedInt(line.inSystemQty) ?? 0);
}

/** Adjustment: difference × cost price. */
export function adjustmentAmount(line: Line): number | null {
  if (line.productId === null) return null;
  const diff = qtyDifference(line);
  return diff === null ? null : diff * (line.costPrice ?? 0);
}

/** The client message for a cell, checked like the server for lines with a product. */
export function clientError(kind: Kind, line: Line, field: LineField): string | null {
  const checked = (value: string) => line.productId !== null || value.trim() !== '';
  switch (field) {
    case 'qty':
      if (kind === 'adjustment' || !checked(line.qty)) return null;
      return numbersOf(line).qty === null ? MSG_QTY : null;
    case 'price':
      if (!hasPrice(kind) || !checked(line.price)) return null;
      return numbersOf(line).price === null ? MSG_PRICE : null;
    case 'inWarehouseQty':
      if (kind !== 'adjustment' || !checked(line.inWarehouseQty)) return null;
      return parseQty(line.inWarehouseQty) === null ? MSG_QTY : null;
    case 'dot':
      return line.dot.trim() === '' || /^\d{4}$/.test(line.dot.trim()) ? null : MSG_DOT;
    case 'product':
      return null;
  }
}

/** Invoices and credit notes: a product line priced at $0.00. */
export function zeroPrice(orderType: number, line: Line): boolean {
  if ((orderType !== 1 && orderType !== 2) || line.productId === null) return false;
  return numbersOf(line).price === 0;
}

/**
 * Sheets that take stock out of their warehouse (invoice, bill credit note, transfer): the
 * quantity beyond the stock shown, or null. Virtual products come without stock (null).
 */
export function shortOfStock(orderType: number, line: Line): number | null {
  if (![1, 5, 6].includes(orderType) || line.productId === null || line.stock === null) return null;
  const { qty } = numbersOf(line);
  return qty !== null && qty > line.stock ? line.stock - qty : null;
}

/** Invoices only: price below class A by more than 3 AUD. */
export function belowClassA(orderType: number, line: Line): boolean {
  if (orderType !== 1 || line.productId === null || line.classA === null) return false;
  const { price } = numbersOf(line);
  return price !== null && price < line.classA - BELOW_CLASS_A_CENTS;
}

export interface Totals {
  qty: number;
  amount: number;
  tax: number;
  subtotal: number;
}

/** Footer totals over the lines with a product (the server ignores the others). */
export function totals(kind: Kind, orderType: number, taxType: number, lines: Line[]): Totals {
  let qty = 0;
  let amount = 0;
  for (const line of lines) {
    if (line.productId === null) continue;
    if (kind === 'adjustment') {
      qty += qtyDifference(line) ?? 0;
      amount += adjustmentAmount(line) ?? 0;
    } else {
      qty += numbersOf(line).qty ?? 0;
      amount += lineAmount(line) ?? 0;
    }
  }
  const tax = kind !== 'adjustment' && isTaxable(orderType) ? gstOf(amount, taxType) : 0;
  return { qty, amount, tax, subtotal: amount - tax };
}

/** True for a line nothing was typed into. */
export function isBlank(line: Line): boolean {
  return (
    line.productId === null &&
    line.code.trim() === '' &&
    line.name.trim() === '' &&
    line.qty.trim() === '' &&
    line.inWarehouseQty.trim() === ''
  );
}

export function emptyLine(key: string, taxType: number): Line {
  return {
    key,
    productId: null,
    code: '',
    name: '',
    unit: '',
    stock: null,
    qty: '',
    price: '',
    description: '',
    taxType,
    inWarehouseQty: '',
    inSystemQty: '',
    classA: null,
    costPrice: null,
    dot: '',
    dotTracked: false,
    lots: [],
  };
}

export function serializeLines(lines: Line[]): string {
  return JSON.stringify(
    lines.map(
      (l): SerializedLine => ({
        key: l.key,
        productId: l.productId,
        qty: l.qty,
        price: l.price,
        description: l.description,
        taxType: l.taxType,
        inWarehouseQty: l.inWarehouseQty,
        inSystemQty: l.inSystemQty,
        dot: l.dot,
      }),
    ),
  );
}

/** The highest n of the "new_<n>" keys (0 when none). */
export function maxNewKey(lines: Line[]): number {
  let max = 0;
  for (const l of lines) {
    if (!l.key.startsWith('new_')) continue; // saved lines: no pattern to run
    const m = /^new_(\d+)$/.exec(l.key);
    if (m) max = Math.max(max, Number(m[1]));
  }
  return max;
}

/** Editable cells in column order, and the ones Enter stops at (DESIGN §6). */
export type CellField = 'code' | 'name' | 'qty' | 'price' | 'taxType' | 'description' | 'inWarehouseQty' | 'dot';

export function cellOrder(kind: Kind): CellField[] {
  switch (kind) {
    case 'sales':
    case 'purchase':
      return ['code', 'name', 'qty', 'dot', 'price', 'taxType', 'description'];
    case 'transfer':
      return ['code', 'name', 'qty', 'dot'];
    case 'adjustment':
      return ['code', 'name', 'dot', 'inWarehouseQty'];
  }
}

/**
 * Where Enter stops. On a sales sheet the line is done after its quantity (the price comes
 * with the product, priced for the customer): Enter there goes to the next line's code, and
 * Tab reaches the price, tax type and description (issue 32: a fast typist's invoice is
 * code, Enter, qty, Enter per line). A purchase sheet's price is typed: Enter stops there.
 */
export function enterStops(kind: Kind): CellField[] {
  switch (kind) {
    case 'sales':
      return ['code', 'qty'];
    case 'purchase':
      return ['code', 'qty', 'price', 'description'];
    case 'transfer':
      return ['code', 'qty'];
    case 'adjustment':
      return ['code', 'inWarehouseQty'];
  }
}

/** The Enter stop after `field` in the same row, or null at the row's last stop. */
export function nextStop(kind: Kind, field: CellField): CellField | null {
  const order = cellOrder(kind);
  const at = order.indexOf(field);
  return enterStops(kind).find((f) => order.indexOf(f) > at) ?? null;
}
