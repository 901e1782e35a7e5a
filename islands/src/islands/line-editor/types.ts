// Types of the order line editor island (contract with the server's sheet pages and JSON API).
import type { IslandLot } from '../../generated/island-props';

/** One lot of a line's product in the sheet's warehouse: 'WWYY' or 'unknown', its age, on hand. */
export type LineLot = IslandLot;

export type Kind = 'sales' | 'purchase' | 'transfer' | 'adjustment';

/** One line as the island keeps it; `qty`, `price` and `inWarehouseQty` stay as typed. */
export interface Line {
  /** Server id as a string, or a temporary "new_<n>" for new lines (spec §3). */
  readonly key: string;
  readonly productId: number | null;
  readonly code: string;
  readonly name: string;
  readonly unit: string;
  /** On hand in the warehouse. */
  readonly stock: number | null;
  /** As typed; a whole number ≥ 0. */
  readonly qty: string;
  /** Dollars as typed, e.g. "123.45"; ≥ 0 with at most 2 decimals. */
  readonly price: string;
  readonly description: string;
  readonly taxType: number;
  /** Adjustment only. */
  readonly inWarehouseQty: string;
  /** Adjustment only (read-only: the stock when the product was chosen). */
  readonly inSystemQty: string;
  /** Product class A price in cents (for the 3-AUD notice). */
  readonly classA: number | null;
  /** Cents (adjustment amount = difference × cost). */
  readonly costPrice: number | null;
  /** A tyre's DOT code as typed ('2325'); empty: none (an invoice takes oldest first). */
  readonly dot: string;
  /** The product is tracked by DOT: the line has a DOT cell. */
  readonly dotTracked: boolean;
  /** The product's lots in the sheet's warehouse, oldest first (quantities, never cost). */
  readonly lots: LineLot[];
}

export interface LineEditorProps {
  /** 'sales' for order types 1, 2; 'purchase' 3, 4, 5; 'transfer' 6; 'adjustment' 7. */
  kind: Kind;
  /** 1..7 */
  orderType: number;
  /** 1 No Tax, 2 Tax Inclusive, 3 GST on Income. */
  taxType: number;
  /** Sales only. */
  customerId: number | null;
  /** Stock is read for this warehouse (the OUT warehouse for transfers). */
  warehouseId: number | null;
  /** false → a read-only table (no inputs, no buttons); totals still shown. */
  editable: boolean;
  /** Whether the viewer sees cost; without it an adjustment shows no cost or amount. */
  seesCost: boolean;
  /** Name of the hidden input the lines are serialized into, e.g. "lines_json". */
  fieldName: string;
  /** Initial lines; empty → one empty line. */
  lines: Line[];
  /** Server messages keyed "lines.<index>.<field>" (0-based index as submitted) or "lines". */
  errors: Record<string, string>;
}

/** The fields of a line that can carry a message. */
export type LineField = 'product' | 'qty' | 'price' | 'inWarehouseQty' | 'dot';

/** What the hidden input holds for each line. */
export type SerializedLine = Pick<
  Line,
  'key' | 'productId' | 'qty' | 'price' | 'description' | 'taxType' | 'inWarehouseQty' | 'inSystemQty' | 'dot'
>;

export interface PriceTier {
  label: string;
  /** Cents. */
  price: number;
}

/** One row of `GET /api/products` (prices in cents). */
export interface ProductHit {
  id: number;
  code: string;
  name: string;
  unit: string;
  stock: number;
  classAPrice: number;
  /** 1 physical, 4 virtual (holds no stock). */
  category?: number;
  /** Stock held by DOT code (issue 36): its lots are fetched once picked. */
  dotTracked?: boolean;
  /** Absent for a viewer who may not see cost. */
  costPrice?: number;
  /** The customer's price by price strategy; class A without a customer. */
  unitPrice: number;
  prices: PriceTier[];
}

/** One row of `POST /api/ag/lines` (prices in cents). */
export interface ImportedLine {
  productId: number | null;
  code: string;
  name: string;
  unit: string;
  stock: number | null;
  quantity: number | string | null;
  inWarehouseQty: number | string | null;
  inSystemQty: number | string | null;
  /** Absent on an adjustment for a viewer who may not see cost (valued at cost). */
  price?: number | null;
  amount?: number | null;
  description: string | null;
  classAPrice: number | null;
  /** Absent for a viewer who may not see cost. */
  costPrice?: number | null;
}

/** `GET /api/products/<id>/history?cId=<customer>` (prices in cents). */
export interface HistoryResponse {
  product: {
    name: string;
    standard: number | null;
    special: number | null;
    classA: number | null;
    classB: number | null;
    ocop: number | null;
  };
  data: HistoryRow[];
}

export interface HistoryRow {
  no: string | number;
  date: string;
  dueDate: string | null;
  reference: string | null;
  csrName: string;
  qty: number;
  unitPrice: number;
  amount: number;
  type: number;
  id: number;
}
