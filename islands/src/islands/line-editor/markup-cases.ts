// Props for the markup snapshot tests (ssr-markup, live-markup): the sheets the editor is
// drawn for, as the server sends them (the wire type of src/generated/island-props.ts).
import type { EditorProps, IslandLine } from '../../generated/island-props';

const priced: IslandLine = {
  key: '101',
  productId: 501,
  code: '2055516-MICH',
  name: 'Michelin Primacy 4 205/55R16 91V',
  unit: 'EA',
  stock: 14,
  qty: '2',
  price: '142.50',
  description: 'Front pair',
  taxType: 3,
  inWarehouseQty: '',
  inSystemQty: '',
  classA: 15_000,
  costPrice: 9_850,
};

const blank: IslandLine = {
  ...priced,
  key: 'new_3',
  productId: null,
  code: '',
  name: '',
  unit: '',
  stock: null,
  qty: '',
  price: '',
  description: '',
  classA: null,
  costPrice: null,
};

const INVOICE_LINES: IslandLine[] = [
  priced,
  // Below Class A by more than 3 dollars, and more than the stock shown.
  { ...priced, key: '102', productId: 502, price: '10.00', qty: '20', stock: 3, taxType: 2, description: '' },
  // Given away at $0.00; quotes, ampersands and angle brackets as users type them.
  { ...priced, key: '103', productId: 503, code: 'B&"55"', name: '<Battery> 55D23L', price: '0', description: 'Fits "Hilux" & <Ranger>', taxType: 1 },
  // A virtual product (no stock).
  { ...priced, key: '104', productId: 504, code: 'FIT', name: 'Fitting', unit: 'JOB', stock: null, qty: '4', price: '25' },
  // Typed but not picked, with a quantity the rules refuse.
  { ...blank, key: 'new_2', code: 'MICH', qty: '1.5' },
  blank,
];

const BASE: EditorProps = {
  kind: 'sales',
  orderType: 1,
  taxType: 3,
  customerId: 42,
  warehouseId: 2,
  editable: true,
  seesCost: true,
  fieldName: 'lines_json',
  lines: [],
  errors: {},
};

export const MARKUP_CASES: ReadonlyArray<readonly [string, EditorProps]> = [
  ['an empty new invoice', BASE],
  [
    'an invoice with priced, warned and unpicked lines and server messages',
    {
      ...BASE,
      lines: INVOICE_LINES,
      errors: {
        'lines.0.price': 'Price must be 0 or more with at most 2 decimals',
        'lines.5.product': 'Pick the product of this line',
        lines: 'Add at least one line with a product.',
      },
    },
  ],
  ['an approved (read-only) invoice', { ...BASE, editable: false, taxType: 2, lines: INVOICE_LINES.slice(0, 4), errors: { 'lines.1.qty': 'Not enough stock' } }],
  ['a credit note without a customer', { ...BASE, orderType: 2, customerId: null, taxType: 1, lines: INVOICE_LINES.slice(0, 2) }],
  ['a purchase bill', { ...BASE, kind: 'purchase', orderType: 4, customerId: null, lines: INVOICE_LINES.slice(0, 3) }],
  ['a bill credit note for a viewer without cost', { ...BASE, kind: 'purchase', orderType: 5, customerId: null, seesCost: false, lines: INVOICE_LINES.slice(1, 2) }],
  ['a transfer', { ...BASE, kind: 'transfer', orderType: 6, customerId: null, lines: INVOICE_LINES.slice(0, 2) }],
  [
    'a stock count',
    {
      ...BASE,
      kind: 'adjustment',
      orderType: 7,
      customerId: null,
      lines: [
        { ...priced, qty: '', price: '', inWarehouseQty: '10', inSystemQty: '12' },
        { ...priced, key: '102', inWarehouseQty: 'ten', inSystemQty: '-3', costPrice: null },
        { ...blank, inWarehouseQty: '' },
      ],
      errors: { 'lines.2.inWarehouseQty': 'Count the stock' },
    },
  ],
  [
    'a read-only stock count for a viewer without cost',
    { ...BASE, kind: 'adjustment', orderType: 7, customerId: null, editable: false, seesCost: false, lines: [{ ...priced, qty: '', price: '', inWarehouseQty: '10', inSystemQty: '12' }] },
  ],
];
