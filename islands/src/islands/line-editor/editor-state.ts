// The line editor's data and what users do to it: a pure reducer (useLineEditor.ts runs it),
// so each action can be tested without rendering. The API calls, toasts and DOM focus stay
// in the hooks; the reducer only records where the focus should go.
import { centsToInput } from '../../lib/money';
import { emptyLine, hasPrice, isBlank, maxNewKey, nextStop, type CellField } from './rules';
import type { ImportedLine, Kind, Line, LineEditorProps, LineField, LineLot, PriceTier, ProductHit } from './types';

/** What the plain rows held when the island went live: by line index, field name → value. */
export type TypedLines = ReadonlyMap<number, Readonly<Partial<Record<string, string>>>>;

/** The page's header fields the lines depend on, as the form held them then. */
export interface TypedHeader {
  customerId: number | null;
  warehouseId: number | null;
  /** Null when the sheet has no tax type field. */
  taxType: number | null;
}

/** Server messages keyed by line key, each dropped once its cell is edited. */
export type ServerErrors = Record<string, Partial<Record<LineField, string>>>;

/** A cell to focus once it has rendered; each request is a new object. */
export interface FocusTarget {
  key: string;
  field: CellField;
}

/** The input fields whose message goes once they are typed in. */
export type NumberField = 'qty' | 'price' | 'inWarehouseQty' | 'dot';

export interface EditorState {
  lines: Line[];
  serverErrors: ServerErrors;
  /** The server's message about the lines as a whole ("lines"). */
  tableError: string | null;
  selected: ReadonlySet<string>;
  /** The page's header fields, followed through their DOM events (usePageEvents.ts). */
  customerId: number | null;
  warehouseId: number | null;
  taxType: number;
  /** The last hit's tier prices per line key (not serialized). */
  prices: Record<string, PriceTier[]>;
  loadingPrices: ReadonlySet<string>;
  /** The row holding the focus: its pick hint waits until the row is left. */
  activeRow: string | null;
  /** The line whose price history (CHK) is showing. */
  historyOf: string | null;
  importing: boolean;
  /** The n of the last "new_<n>" key handed out. */
  lastNewKey: number;
  focus: FocusTarget | null;
}

/**
 * What users do to the lines. `kind` travels with the actions that depend on it, as the
 * component reads it from its props.
 */
export type EditorAction =
  | { type: 'addLine' }
  /** Enter in a cell: the next stop in the row, else the next row, else a new line. */
  | { type: 'moveNext'; kind: Kind; key: string; field: CellField }
  | { type: 'edit'; key: string; patch: Partial<Pick<Line, 'taxType' | 'description'>> }
  | { type: 'typeNumber'; key: string; field: NumberField; text: string }
  /** A DOT code typed: on a count, the line's in-system figure becomes that lot's (issue 36). */
  | { type: 'typeDot'; kind: Kind; key: string; text: string }
  | { type: 'typeProduct'; key: string; field: 'code' | 'name'; text: string }
  | { type: 'pick'; kind: Kind; key: string; hit: ProductHit }
  /** A picked tyre's lots in the warehouse arrived (for the product the line has then). */
  | { type: 'lotsLoaded'; kind: Kind; key: string; productId: number; lots: LineLot[] }
  | { type: 'choosePrice'; key: string; cents: number }
  | { type: 'toggle'; key: string }
  | { type: 'toggleAll' }
  | { type: 'deleteSelected' }
  | { type: 'copySelected' }
  | { type: 'pricesLoading'; key: string }
  /** `prices` is null when the request failed. */
  | { type: 'pricesLoaded'; key: string; prices: PriceTier[] | null }
  | { type: 'rowFocused'; key: string }
  | { type: 'rowLeft' }
  | { type: 'openHistory'; key: string }
  | { type: 'closeHistory' }
  | { type: 'importStarted' }
  /**
   * `rows` is null when the upload failed (it has been reported). `taxType` is the one the
   * file was chosen under, not the one when the answer arrives.
   */
  | { type: 'importFinished'; rows: ImportedLine[] | null; kind: Kind; taxType: number }
  /**
   * The island went live: what was typed into the plain rows and the header before its code
   * arrived becomes its state (adopt.ts reads it; `typed` by line index as submitted).
   */
  | { type: 'adopt'; kind: Kind; typed: TypedLines; header: TypedHeader | null }
  /** The product a code typed before the island ran names (exact code), if still typed. */
  | { type: 'adoptPick'; kind: Kind; key: string; code: string; hit: ProductHit }
  | { type: 'customerChanged'; id: number | null }
  | { type: 'warehouseChanged'; id: number | null }
  | { type: 'taxTypeChanged'; taxType: number };

const LINE_FIELDS: readonly LineField[] = ['product', 'qty', 'price', 'inWarehouseQty', 'dot'];

/** Initial lines (one empty line when none) and the server messages keyed by line key. */
export function initialEditorState(props: LineEditorProps): EditorState {
  const lines = props.lines.length > 0 ? props.lines : [emptyLine('new_1', props.taxType)];
  const serverErrors: ServerErrors = {};
  for (const [name, message] of Object.entries(props.errors)) {
    const m = /^lines\.(\d+)\.(\w+)$/.exec(name);
    if (!m) continue;
    const line = lines[Number(m[1])];
    const field = m[2] as LineField;
    if (!line || !LINE_FIELDS.includes(field)) continue;
    serverErrors[line.key] = { ...serverErrors[line.key], [field]: message };
  }
  return {
    lines,
    serverErrors,
    tableError: props.errors['lines'] ?? null,
    selected: new Set(),
    customerId: props.customerId,
    warehouseId: props.warehouseId,
    taxType: props.taxType,
    prices: {},
    loadingPrices: new Set(),
    activeRow: null,
    historyOf: null,
    importing: false,
    lastNewKey: maxNewKey(lines),
    focus: null,
  };
}

export function lineEditorReducer(state: EditorState, action: EditorAction): EditorState {
  switch (action.type) {
    case 'addLine':
      return addLine(state);
    case 'moveNext': {
      const stop = nextStop(action.kind, action.field);
      if (stop) return { ...state, focus: { key: action.key, field: stop } };
      const next = state.lines[state.lines.findIndex((l) => l.key === action.key) + 1];
      return next ? { ...state, focus: { key: next.key, field: 'code' } } : addLine(state);
    }
    case 'edit':
      return { ...state, lines: patched(state.lines, action.key, action.patch) };
    case 'typeNumber':
      return {
        ...state,
        lines: patched(state.lines, action.key, { [action.field]: action.text }),
        serverErrors: dismissed(state.serverErrors, action.key, [action.field]),
      };
    case 'typeDot': {
      const { kind, key, text } = action;
      return {
        ...state,
        lines: state.lines.map((l) => (l.key === key ? { ...l, dot: text, inSystemQty: kind === 'adjustment' ? systemOfCount(l, text) : l.inSystemQty } : l)),
        serverErrors: dismissed(state.serverErrors, key, ['dot']),
      };
    }
    case 'typeProduct': {
      const { key } = action;
      // The typed text no longer names the picked product: the line waits for a new pick.
      const patch = { [action.field]: action.text, productId: null, unit: '', stock: null, classA: null, costPrice: null, inSystemQty: '', dotTracked: false, lots: [] };
      return {
        ...state,
        lines: patched(state.lines, key, patch),
        prices: without(state.prices, key),
        serverErrors: dismissed(state.serverErrors, key, ['product']),
      };
    }
    case 'pick': {
      const { kind, key, hit } = action;
      return {
        ...state,
        lines: state.lines.map((l) => (l.key === key ? picked(kind, l, hit) : l)),
        prices: { ...state.prices, [key]: Array.isArray(hit.prices) ? hit.prices : [] },
        serverErrors: dismissed(state.serverErrors, key, ['product', 'price']),
        tableError: null,
        focus: { key, field: kind === 'adjustment' ? 'inWarehouseQty' : 'qty' },
      };
    }
    case 'lotsLoaded': {
      const { kind, key, productId, lots } = action;
      const arrived = (l: Line): Line => {
        const withLots = { ...l, lots };
        return kind === 'adjustment' && l.dot.trim() !== '' ? { ...withLots, inSystemQty: systemOfCount(withLots, l.dot) } : withLots;
      };
      return { ...state, lines: state.lines.map((l) => (l.key === key && l.productId === productId ? arrived(l) : l)) };
    }
    case 'choosePrice':
      return {
        ...state,
        lines: patched(state.lines, action.key, { price: centsToInput(action.cents) }),
        serverErrors: dismissed(state.serverErrors, action.key, ['price']),
        focus: { key: action.key, field: 'price' },
      };
    case 'toggle': {
      const selected = new Set(state.selected);
      if (selected.has(action.key)) selected.delete(action.key);
      else selected.add(action.key);
      return { ...state, selected };
    }
    case 'toggleAll':
      return { ...state, selected: allSelected(state) ? new Set() : new Set(state.lines.map((l) => l.key)) };
    case 'deleteSelected': {
      const rest = state.lines.filter((l) => !state.selected.has(l.key));
      if (rest.length > 0) return { ...state, lines: rest, selected: new Set() };
      const keys = newKeys(state);
      const lines = [emptyLine(keys.next(), state.taxType)];
      return { ...state, lines, selected: new Set(), lastNewKey: keys.last() };
    }
    case 'copySelected':
      return copySelected(state);
    case 'pricesLoading':
      return { ...state, loadingPrices: new Set(state.loadingPrices).add(action.key) };
    case 'pricesLoaded': {
      const loadingPrices = new Set(state.loadingPrices);
      loadingPrices.delete(action.key);
      const prices = action.prices === null ? state.prices : { ...state.prices, [action.key]: action.prices };
      return { ...state, prices, loadingPrices };
    }
    case 'rowFocused':
      return state.activeRow === action.key ? state : { ...state, activeRow: action.key };
    case 'rowLeft':
      return state.activeRow === null ? state : { ...state, activeRow: null };
    case 'openHistory':
      return { ...state, historyOf: action.key };
    case 'closeHistory':
      return { ...state, historyOf: null };
    case 'importStarted':
      return { ...state, importing: true };
    case 'importFinished':
      return action.rows === null ? { ...state, importing: false } : imported(state, action.rows, action.kind, action.taxType);
    case 'adopt':
      return adopted(state, action.kind, action.typed, action.header);
    case 'adoptPick': {
      const { kind, key, code, hit } = action;
      const line = state.lines.find((l) => l.key === key);
      // Typed on since, or picked already: the user's latest word stands.
      if (!line || line.productId !== null || line.code !== code) return state;
      const withProduct = picked(kind, line, hit);
      // A price typed before the code arrived is kept; an empty one takes the product's.
      const typed = line.price.trim() === '' ? withProduct : { ...withProduct, price: line.price };
      return {
        ...state,
        lines: state.lines.map((l) => (l.key === key ? typed : l)),
        prices: { ...state.prices, [key]: Array.isArray(hit.prices) ? hit.prices : [] },
        serverErrors: dismissed(state.serverErrors, key, ['product']),
      };
    }
    case 'customerChanged':
      // Tier prices (OCOP) depend on the customer.
      return { ...state, customerId: action.id, prices: {} };
    case 'warehouseChanged':
      // The lots listed were the other warehouse's; they are fetched again (useLineEditor).
      return { ...state, warehouseId: action.id, lines: state.lines.map((l) => (l.lots.length > 0 ? { ...l, lots: [] } : l)) };
    case 'taxTypeChanged':
      return { ...state, taxType: action.taxType };
  }
}

/**
 * The state once what was typed before the island ran is applied, field by field, as if it
 * had been typed into the live cells (the same actions, so the same messages go and the same
 * product is dropped when its code or name changed). Always a new state: the editor hands
 * the focus back once it has rendered this.
 */
function adopted(state: EditorState, kind: Kind, typed: TypedLines, header: TypedHeader | null): EditorState {
  let next: EditorState = { ...state };
  const run = (action: EditorAction) => {
    next = lineEditorReducer(next, action);
  };
  if (header !== null) {
    if (header.customerId !== next.customerId) run({ type: 'customerChanged', id: header.customerId });
    if (header.warehouseId !== next.warehouseId) run({ type: 'warehouseChanged', id: header.warehouseId });
    if (header.taxType !== null && header.taxType !== next.taxType) run({ type: 'taxTypeChanged', taxType: header.taxType });
  }
  for (const [index, fields] of typed) {
    const line = next.lines[index];
    if (!line) continue;
    const { key } = line;
    const changed = (field: 'code' | 'name' | NumberField | 'description'): string | null => {
      const value = fields[field];
      return value !== undefined && value !== line[field] ? value : null;
    };
    for (const field of ['code', 'name'] as const) {
      const text = changed(field);
      if (text !== null) run({ type: 'typeProduct', key, field, text });
    }
    for (const field of ['qty', 'price', 'inWarehouseQty'] as const) {
      const text = changed(field);
      if (text !== null) run({ type: 'typeNumber', key, field, text });
    }
    const dot = changed('dot');
    if (dot !== null) run({ type: 'typeDot', kind, key, text: dot });
    const description = changed('description');
    if (description !== null) run({ type: 'edit', key, patch: { description } });
    const taxType = Number(fields['taxType']);
    if (fields['taxType'] !== undefined && Number.isInteger(taxType) && taxType !== line.taxType) run({ type: 'edit', key, patch: { taxType } });
  }
  return next === state ? { ...state } : next;
}

/**
 * The lines whose product a code typed before the island ran should name: the code changed
 * (`before` → `after`), no product is picked, and a code is there to look up.
 */
export function codesToLookUp(before: EditorState, after: EditorState): Array<{ key: string; code: string }> {
  const was = new Map(before.lines.map((l) => [l.key, l.code]));
  return after.lines
    .filter((l) => l.productId === null && l.code.trim() !== '' && was.get(l.key) !== l.code)
    .map((l) => ({ key: l.key, code: l.code }));
}

/** True when every line is selected (and there is a line). */
export function allSelected(state: EditorState): boolean {
  return state.lines.length > 0 && state.lines.every((l) => state.selected.has(l.key));
}

export function anySelected(state: EditorState): boolean {
  return state.lines.some((l) => state.selected.has(l.key));
}

/** Hands out the "new_<n>" keys after the state's last one; `last()` is the last handed out. */
function newKeys(state: EditorState) {
  let n = state.lastNewKey;
  return { next: () => `new_${++n}`, last: () => n };
}

function addLine(state: EditorState): EditorState {
  const keys = newKeys(state);
  const key = keys.next();
  return {
    ...state,
    lines: [...state.lines, emptyLine(key, state.taxType)],
    lastNewKey: keys.last(),
    focus: { key, field: 'code' },
  };
}

/** The selected lines copied, with new keys, after the last selected one. */
function copySelected(state: EditorState): EditorState {
  const { lines, selected } = state;
  const last = lines.reduce((at, l, i) => (selected.has(l.key) ? i : at), -1);
  if (last < 0) return state;
  const keys = newKeys(state);
  const pairs = lines.filter((l) => selected.has(l.key)).map((l) => [l.key, { ...l, key: keys.next() }] as const);
  const prices = { ...state.prices };
  for (const [from, copy] of pairs) if (state.prices[from]) prices[copy.key] = state.prices[from];
  return {
    ...state,
    lines: [...lines.slice(0, last + 1), ...pairs.map(([, copy]) => copy), ...lines.slice(last + 1)],
    prices,
    selected: new Set(),
    lastNewKey: keys.last(),
  };
}

/** Imported rows replace the trailing blank lines. */
function imported(state: EditorState, rows: ImportedLine[], kind: Kind, taxType: number): EditorState {
  const keys = newKeys(state);
  const added = rows.map((row) => fromImported(row, keys.next(), kind, taxType));
  const kept = [...state.lines];
  while (kept.length > 0 && isBlank(kept[kept.length - 1] as Line)) kept.pop();
  const lines = [...kept, ...added];
  return {
    ...state,
    importing: false,
    lines: lines.length > 0 ? lines : state.lines,
    tableError: added.length > 0 ? null : state.tableError,
    lastNewKey: keys.last(),
  };
}

/** A line once a product is picked for it. */
function picked(kind: Kind, line: Line, hit: ProductHit): Line {
  // A purchase line starts from the average cost, for those who see it; others type the price.
  const cost = typeof hit.costPrice === 'number' ? hit.costPrice : null;
  const price = kind === 'sales' ? centsToInput(hit.unitPrice) : kind === 'purchase' ? (cost === null ? line.price : centsToInput(cost)) : line.price;
  return {
    ...line,
    productId: hit.id,
    code: hit.code,
    name: hit.name,
    unit: hit.unit,
    // A virtual product holds no stock: no stock shown, no shortage noticed.
    stock: hit.category === 4 ? null : hit.stock,
    classA: hit.classAPrice,
    costPrice: cost,
    price,
    inSystemQty: kind === 'adjustment' ? String(hit.stock) : line.inSystemQty,
    qty: kind !== 'adjustment' && line.qty.trim() === '' ? '1' : line.qty,
    dotTracked: hit.dotTracked === true,
    lots: [],
  };
}

function numberText(value: number | string | null | undefined): string {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return typeof value === 'string' ? value : '';
}

function fromImported(row: ImportedLine, key: string, kind: Kind, taxType: number): Line {
  return {
    key,
    productId: typeof row.productId === 'number' ? row.productId : null,
    code: row.code ?? '',
    name: row.name ?? '',
    unit: row.unit ?? '',
    stock: typeof row.stock === 'number' ? row.stock : null,
    qty: kind === 'adjustment' ? '' : numberText(row.quantity),
    price: hasPrice(kind) && typeof row.price === 'number' ? centsToInput(row.price) : '',
    description: row.description ?? '',
    taxType,
    inWarehouseQty: kind === 'adjustment' ? numberText(row.inWarehouseQty) : '',
    inSystemQty: kind === 'adjustment' ? numberText(row.inSystemQty) : '',
    classA: typeof row.classAPrice === 'number' ? row.classAPrice : null,
    costPrice: typeof row.costPrice === 'number' ? row.costPrice : null,
    // The file does not say whether the product is tracked: the saved sheet shows its cell.
    dot: '',
    dotTracked: false,
    lots: [],
  };
}

function patched(lines: Line[], key: string, patch: Partial<Line>): Line[] {
  return lines.map((l) => (l.key === key ? { ...l, ...patch } : l));
}

function without<T>(record: Record<string, T>, key: string): Record<string, T> {
  if (!(key in record)) return record;
  const rest = { ...record };
  delete rest[key];
  return rest;
}

function dismissed(errors: ServerErrors, key: string, fields: readonly LineField[]): ServerErrors {
  const own = errors[key];
  if (!own || !fields.some((f) => own[f] !== undefined)) return errors;
  const rest = { ...own };
  for (const f of fields) delete rest[f];
  return { ...errors, [key]: rest };
}

/**
 * What the system holds of what a count line counts (issue 36): a tyre tracked by DOT counted
 * under a code is that lot's stock in the warehouse (0 for a code it does not hold); without a
 * code, the line counts the warehouse's stock as a whole, as before. Other products keep the
 * figure they have.
 */
export function systemOfCount(line: Line, dot: string): string {
  if (!line.dotTracked) return line.inSystemQty;
  const code = dot.trim();
  if (code === '') return line.stock === null ? line.inSystemQty : String(line.stock);
  const lot = line.lots.find((l) => l.dot === code);
  return String(lot ? lot.qty : 0);
}
