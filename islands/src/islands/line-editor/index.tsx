// Island entry: <app-island name="line-editor" props='{"kind":"sales","orderType":1,…}'> inside
// the sheet's HTML <form>. Props arrive as untyped JSON; missing fields get safe defaults.
import type { EditorProps, IslandLine, IslandLot } from '../../generated/island-props';
import { defineIsland, wire } from '../../lib/island';
import { createMount } from '../../lib/mount';
import { LineEditor } from './LineEditor';
import { kindOf } from './rules';
import type { Kind, Line, LineEditorProps, LineLot } from './types';

export { LineEditor };
export type { HistoryResponse, ImportedLine, Kind, Line, LineEditorProps, LineLot, PriceTier, ProductHit, SerializedLine } from './types';

const KINDS: readonly Kind[] = ['sales', 'purchase', 'transfer', 'adjustment'];


function num(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function str(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return '';
}

function parseLine(value: unknown, index: number, taxType: number): Line {
  const r = wire<IslandLine>(value);
  const key = str(r.key);
  return {
    key: key === '' ? `line_${index}` : key,
    productId: num(r.productId),
    code: str(r.code),
    name: str(r.name),
    unit: str(r.unit),
    stock: num(r.stock),
    qty: str(r.qty),
    price: str(r.price),
    description: str(r.description),
    taxType: num(r.taxType) ?? taxType,
    inWarehouseQty: str(r.inWarehouseQty),
    inSystemQty: str(r.inSystemQty),
    classA: num(r.classA),
    costPrice: num(r.costPrice),
    dot: str(r.dot),
    dotTracked: r.dotTracked === true,
    lots: Array.isArray(r.lots) ? r.lots.map(parseLot) : [],
  };
}

function parseLot(value: unknown): LineLot {
  const r = wire<IslandLot>(value);
  return { dot: str(r.dot), age: str(r.age), qty: num(r.qty) ?? 0 };
}

/** Untyped props JSON → LineEditorProps. */
export function parseProps(raw: unknown): LineEditorProps {
  const r = wire<EditorProps>(raw);
  const orderType = num(r.orderType) ?? 1;
  const kind = KINDS.find((k) => k === r.kind) ?? kindOf(orderType);
  const taxType = num(r.taxType) ?? 3;
  const errors: Record<string, string> = {};
  for (const [k, v] of Object.entries(wire<Record<string, unknown>>(r.errors))) {
    if (typeof v === 'string') errors[k] = v;
    else if (Array.isArray(v) && typeof v[0] === 'string') errors[k] = v[0];
  }
  const fieldName = str(r.fieldName);
  return {
    kind,
    orderType,
    taxType,
    customerId: num(r.customerId),
    warehouseId: num(r.warehouseId),
    editable: typeof r.editable === 'boolean' ? r.editable : true,
    seesCost: r.seesCost === true,
    fieldName: fieldName === '' ? 'lines_json' : fieldName,
    lines: Array.isArray(r.lines) ? r.lines.map((l, i) => parseLine(l, i, taxType)) : [],
    errors,
  };
}

export const island = defineIsland(LineEditor, parseProps);

export const mount = createMount(island);
