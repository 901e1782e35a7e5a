// What each tab asks for, the form's state, the checks made before sending, and the body of
// `POST /api/reports` (spec §7 field names). Pure functions, tested in
// tests/report-form-rules.test.ts.
import { allOf, filterOf, type Choice } from './checks';
import type { ReportFormProps, ReportType } from './types';

/** A part of the form a tab may show. */
export type Section =
  | 'group'
  | 'dateType'
  | 'dateRange'
  | 'tags'
  | 'warehouses'
  | 'includeCost'
  | 'products'
  | 'csr'
  | 'slowMoving'
  | 'source'
  | 'suppliers'
  | 'outIn';

const SALES: readonly Section[] = ['group', 'dateType', 'dateRange', 'tags', 'warehouses', 'includeCost', 'products', 'csr'];
const PURCHASE: readonly Section[] = ['source', 'dateType', 'dateRange', 'tags', 'warehouses', 'products', 'suppliers'];

/** The sections of each tab (spec §2.9). Include Cost is further limited by `showsCost`. */
export const SECTIONS: Record<ReportType, readonly Section[]> = {
  invoiceDetails: SALES,
  saleSummary: SALES,
  slowMoving: ['slowMoving', 'warehouses', 'includeCost', 'products'],
  purchaseDetails: PURCHASE,
  purchaseSummary: PURCHASE,
  transferDetails: ['dateRange', 'outIn'],
  adjustmentDetails: ['dateRange', 'warehouses'],
  inventorySummary: ['dateRange', 'includeCost', 'products'],
  inventoryDetails: ['dateRange', 'warehouses', 'products'],
  // Ages on the company's today (the API takes `dueDate` for another day).
  tyreAge: ['warehouses', 'includeCost', 'products'],
};

export type Group = 'asCustomers' | 'asProducts';
export type DateType = 'date' | 'dueDate' | 'deliveryDate';
export type Source = 'blBcn' | 'po';

/** A product, customer or supplier chosen in a picker (shown as a chip). */
export interface Picked {
  id: number;
  label: string;
}

export interface FormState {
  group: Group;
  dateType: DateType;
  from: string;
  to: string;
  tags: Choice;
  warehouses: Choice;
  outWarehouse: Choice;
  inWarehouse: Choice;
  brands: Choice;
  categories: Choice;
  areas: Choice;
  payments: Choice;
  includeCost: boolean;
  products: Picked[];
  csrs: Picked[];
  suppliers: Picked[];
  csrFrom: string;
  csrTo: string;
  dueDate: string;
  unSoldDay: string;
  lessThan: string;
  /** Slow-moving: split tyres' stock by DOT age band (`byAge`). */
  byAge: boolean;
  source: Source;
}

/** The first day of `today`'s month (`yyyy-MM-dd` in, `yyyy-MM-dd` out). */
export function firstOfMonth(today: string): string {
  return `${today.slice(0, 8)}01`;
}

/** Default 'Unsolde days' and 'Qty Criterion' (the server's defaults too). */
export const UNSOLD_DAYS_DEFAULT = '90';
export const LESS_THAN_DEFAULT = '1';

/** How the form starts: this month to today, every group on ALL, cost not included. */
export function initialState(props: ReportFormProps): FormState {
  const wh = props.warehouses.map((w) => w.id);
  return {
    group: 'asCustomers',
    dateType: 'date',
    from: firstOfMonth(props.today),
    to: props.today,
    tags: allOf(props.tags.map((t) => t.code)),
    warehouses: allOf(wh),
    outWarehouse: allOf(wh),
    inWarehouse: allOf(wh),
    brands: allOf(props.brands.map((b) => b.id)),
    categories: allOf(props.categories.map((c) => c.code)),
    areas: allOf(props.areas.map((a) => a.code)),
    payments: allOf(props.payments.map((p) => p.code)),
    includeCost: false,
    products: [],
    csrs: [],
    suppliers: [],
    csrFrom: '',
    csrTo: '',
    dueDate: props.today,
    unSoldDay: UNSOLD_DAYS_DEFAULT,
    lessThan: LESS_THAN_DEFAULT,
    byAge: false,
    source: 'blBcn',
  };
}

/** Whether the tab shows Include Cost: the kind has cost columns and the user may see cost. */
export function showsCost(type: ReportType, canShowCost: boolean, maySeeCost: boolean): boolean {
  return maySeeCost && canShowCost && SECTIONS[type].includes('includeCost');
}

export const MSG_RANGE = 'Choose the date range.';
export const MSG_RANGE_ORDER = 'The range starts after it ends.';
export const MSG_BOTH_DATES = 'Choose both dates, or neither.';
export const MSG_WHOLE_NUMBER = 'Enter a whole number.';

const WHOLE = /^\d+$/;

/** A `from`–`to` pair: '' when fine; `optional` lets both be empty. */
function rangeError(from: string, to: string, optional: boolean): string {
  if (from === '' && to === '') return optional ? '' : MSG_RANGE;
  if (from === '' || to === '') return optional ? MSG_BOTH_DATES : MSG_RANGE;
  return from > to ? MSG_RANGE_ORDER : '';
}

/** Checks made before sending, by the payload field they concern (empty: send). */
export function validate(type: ReportType, s: FormState): Record<string, string> {
  const sections = SECTIONS[type];
  const errors: Record<string, string> = {};
  const put = (field: string, msg: string) => {
    if (msg !== '') errors[field] = msg;
  };
  if (sections.includes('dateRange')) put('dateRange', rangeError(s.from, s.to, false));
  if (sections.includes('csr')) put('csrCreated', rangeError(s.csrFrom, s.csrTo, true));
  if (sections.includes('slowMoving')) {
    // Unsolde days and Qty Criterion are numeric (spec §5); empty means the default.
    if (s.unSoldDay.trim() !== '' && !WHOLE.test(s.unSoldDay.trim())) put('unSoldDay', MSG_WHOLE_NUMBER);
    if (s.lessThan.trim() !== '' && !WHOLE.test(s.lessThan.trim())) put('lessThan', MSG_WHOLE_NUMBER);
  }
  return errors;
}

/** The body of `POST /api/reports` for the tab: only its sections, filters only when set. */
export function buildPayload(type: ReportType, s: FormState, withCost: boolean): Record<string, unknown> {
  const sections = SECTIONS[type];
  const has = (section: Section) => sections.includes(section);
  const body: Record<string, unknown> = { type };
  const filter = (field: string, choice: Choice) => {
    const values = filterOf(choice);
    if (values !== null) body[field] = values;
  };
  const picked = (field: string, chosen: Picked[]) => {
    if (chosen.length > 0) body[field] = chosen.map((p) => p.id);
  };
  if (has('source')) body.source = s.source;
  if (has('group')) body.group = s.group;
  if (has('dateType')) body.dateType = s.dateType;
  if (has('dateRange')) body.dateRange = [s.from, s.to];
  if (has('slowMoving')) {
    if (s.dueDate !== '') body.dueDate = s.dueDate;
    if (s.unSoldDay.trim() !== '') body.unSoldDay = Number(s.unSoldDay.trim());
    if (s.lessThan.trim() !== '') body.lessThan = Number(s.lessThan.trim());
    if (s.byAge) body.byAge = 'Yes';
  }
  if (has('tags')) filter('tags', s.tags);
  if (has('warehouses')) filter('warehouses', s.warehouses);
  if (has('outIn')) {
    filter('outWarehouse', s.outWarehouse);
    filter('inWarehouse', s.inWarehouse);
  }
  if (has('includeCost') && withCost) body.includeCost = s.includeCost ? 'Yes' : 'No';
  if (has('products')) {
    filter('brands', s.brands);
    filter('categories', s.categories);
    picked('products', s.products);
  }
  if (has('csr')) {
    if (s.csrFrom !== '' && s.csrTo !== '') body.csrCreated = [s.csrFrom, s.csrTo];
    filter('areas', s.areas);
    filter('payments', s.payments);
    picked('csrs', s.csrs);
  }
  if (has('suppliers')) picked('suppliers', s.suppliers);
  return body;
}
