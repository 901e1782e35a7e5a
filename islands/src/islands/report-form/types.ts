// Props of the report-form island (built by app/crates/web/src/pages/reports.rs `ReportFormProps`) and
// their parser: props arrive as untyped JSON, malformed entries are dropped, never fatal.

import type {
  CodeOption as CodeOptionWire,
  IdOption as IdOptionWire,
  ReportFormProps as ReportFormWire,
  TabProps as TabWire,
} from '../../generated/island-props';
import { wire, type Wire } from '../../lib/island';

/** The report kinds of spec §2.9, as `POST /api/reports` names them (`type`). */
export const REPORT_TYPES = [
  'invoiceDetails',
  'saleSummary',
  'slowMoving',
  'purchaseDetails',
  'purchaseSummary',
  'transferDetails',
  'adjustmentDetails',
  'inventorySummary',
  'inventoryDetails',
  'tyreAge',
] as const;

export type ReportType = (typeof REPORT_TYPES)[number];

/** A tab of the screen: the kind it requests, and whether that kind has cost columns. */
export interface Tab {
  type: ReportType;
  title: string;
  canShowCost: boolean;
}

/** A record chosen by id (warehouse, brand). */
export interface IdOption {
  id: number;
  name: string;
}

/** A value of a coded enumeration (tag, area type, payment type, category path). */
export interface CodeOption {
  code: number;
  label: string;
}

export interface ReportFormProps {
  tabs: Tab[];
  warehouses: IdOption[];
  brands: IdOption[];
  categories: CodeOption[];
  tags: CodeOption[];
  areas: CodeOption[];
  payments: CodeOption[];
  /** The company's today, `yyyy-MM-dd`. */
  today: string;
  /** Whether "Include Cost" is offered at all. */
  maySeeCost: boolean;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isId = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v > 0;
const isReportType = (v: unknown): v is ReportType =>
  typeof v === 'string' && (REPORT_TYPES as readonly string[]).includes(v);
const DATE = /^\d{4}-\d{2}-\d{2}$/;

function list<W, T>(raw: unknown, read: (item: Wire<W>) => T | null): T[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((item) => {
    const value = isRecord(item) ? read(wire<W>(item)) : null;
    return value === null ? [] : [value];
  });
}

const idOptions = (raw: unknown) =>
  list<IdOptionWire, IdOption>(raw, (o) => (isId(o.id) && typeof o.name === 'string' ? { id: o.id, name: o.name } : null));
const codeOptions = (raw: unknown) =>
  list<CodeOptionWire, CodeOption>(raw, (o) =>
    typeof o.code === 'number' && Number.isSafeInteger(o.code) && typeof o.label === 'string'
      ? { code: o.code, label: o.label }
      : null,
  );

/** Reads the island's props; `fallbackToday` is used only when the server sent no date. */
export function parseReportFormProps(raw: unknown, fallbackToday = '1970-01-01'): ReportFormProps {
  const obj = wire<ReportFormWire>(raw);
  return {
    tabs: list<TabWire, Tab>(obj.tabs, (t) =>
      isReportType(t.type)
        ? { type: t.type, title: typeof t.title === 'string' ? t.title : t.type, canShowCost: t.canShowCost === true }
        : null,
    ),
    warehouses: idOptions(obj.warehouses),
    brands: idOptions(obj.brands),
    categories: codeOptions(obj.categories),
    tags: codeOptions(obj.tags),
    areas: codeOptions(obj.areas),
    payments: codeOptions(obj.payments),
    today: typeof obj.today === 'string' && DATE.test(obj.today) ? obj.today : fallbackToday,
    // Only a literal true offers cost.
    maySeeCost: obj.maySeeCost === true,
  };
}
