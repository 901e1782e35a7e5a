// The report form's pure rules: the checkbox groups of spec §5, what each tab sends (spec §7
// field names, filters only when not ALL and non-empty), the checks before sending, props.
import { describe, expect, it } from 'vitest';
import { allOf, filterOf, toggleAll, toggleOption } from '../src/islands/report-form/checks';
import {
  MSG_BOTH_DATES,
  MSG_RANGE,
  MSG_RANGE_ORDER,
  MSG_WHOLE_NUMBER,
  SECTIONS,
  buildPayload,
  firstOfMonth,
  initialState,
  showsCost,
  validate,
} from '../src/islands/report-form/payload';
import { REPORT_TYPES, parseReportFormProps } from '../src/islands/report-form/types';

const OPTIONS = [1, 2, 3];

describe('checkbox groups (spec §5)', () => {
  it('start on ALL with every option ticked, and do not filter', () => {
    const c = allOf(OPTIONS);
    expect(c).toEqual({ all: true, selected: [1, 2, 3] });
    expect(filterOf(c)).toBeNull();
  });

  it('unticking one option turns ALL off and filters by the rest', () => {
    const c = toggleOption(allOf(OPTIONS), OPTIONS, 2, false);
    expect(c).toEqual({ all: false, selected: [1, 3] });
    expect(filterOf(c)).toEqual([1, 3]);
  });

  it('ticking every option turns ALL on', () => {
    let c = toggleAll(OPTIONS, false);
    c = toggleOption(c, OPTIONS, 3, true);
    c = toggleOption(c, OPTIONS, 1, true);
    expect(c.all).toBe(false);
    expect(filterOf(c)).toEqual([1, 3]);
    c = toggleOption(c, OPTIONS, 2, true);
    expect(c).toEqual({ all: true, selected: [1, 2, 3] });
    expect(filterOf(c)).toBeNull();
  });

  it('unticking ALL clears the selection; ticking ALL ticks all', () => {
    const cleared = toggleAll(OPTIONS, false);
    expect(cleared).toEqual({ all: false, selected: [] });
    expect(filterOf(cleared)).toBeNull();
    expect(toggleAll(OPTIONS, true)).toEqual({ all: true, selected: [1, 2, 3] });
  });

  it('keeps the options order and never repeats a value', () => {
    let c = toggleAll(OPTIONS, false);
    c = toggleOption(c, OPTIONS, 3, true);
    c = toggleOption(c, OPTIONS, 3, true);
    c = toggleOption(c, OPTIONS, 1, true);
    expect(c.selected).toEqual([1, 3]);
  });

  it('a group without options stays on ALL', () => {
    expect(filterOf(allOf([]))).toBeNull();
    expect(toggleOption(allOf([]), [], 1, false).all).toBe(false);
  });
});

const PROPS = parseReportFormProps({
  tabs: [
    { type: 'invoiceDetails', title: 'Invoices & Credit Notes Detail', canShowCost: true },
    { type: 'nope', title: 'dropped' },
  ],
  warehouses: [
    { id: 5, name: 'Main' },
    { id: 6, name: 'North' },
    { id: 'x', name: 'bad' },
  ],
  brands: [{ id: 8, name: 'Bridgestone' }],
  categories: [
    { code: 1, label: 'Batteries' },
    { code: 11, label: 'Batteries/AGM' },
  ],
  tags: [
    { code: 1, label: 'Normal' },
    { code: 2, label: 'Adjustment' },
  ],
  areas: [{ code: 1, label: 'North' }],
  payments: [
    { code: 10, label: 'CBD' },
    { code: 14, label: 'Monthly' },
  ],
  today: '2026-11-20',
  maySeeCost: true,
});

describe('props', () => {
  it('keep what is well formed and drop the rest', () => {
    expect(PROPS.tabs.map((t) => t.type)).toEqual(['invoiceDetails']);
    expect(PROPS.warehouses.map((w) => w.id)).toEqual([5, 6]);
    expect(PROPS.maySeeCost).toBe(true);
    const empty = parseReportFormProps(null, '2026-01-31');
    expect(empty).toMatchObject({ tabs: [], warehouses: [], today: '2026-01-31', maySeeCost: false });
    expect(parseReportFormProps({ maySeeCost: 'yes' }).maySeeCost).toBe(false);
  });
});

describe('what each tab sends', () => {
  it('every kind has sections, and the range defaults to this month up to today', () => {
    for (const t of REPORT_TYPES) expect(SECTIONS[t].length).toBeGreaterThan(0);
    expect(firstOfMonth('2026-11-20')).toBe('2026-11-01');
    const s = initialState(PROPS);
    expect([s.from, s.to, s.dueDate]).toEqual(['2026-11-01', '2026-11-20', '2026-11-20']);
  });

  it('a sales detail with every group on ALL sends no filter at all', () => {
    const body = buildPayload('invoiceDetails', initialState(PROPS), true);
    expect(body).toEqual({
      type: 'invoiceDetails',
      group: 'asCustomers',
      dateType: 'date',
      dateRange: ['2026-11-01', '2026-11-20'],
      includeCost: 'No',
    });
  });

  it('sends each chosen filter under its spec §7 name', () => {
    const s = initialState(PROPS);
    const body = buildPayload(
      'saleSummary',
      {
        ...s,
        group: 'asProducts',
        dateType: 'deliveryDate',
        tags: toggleOption(s.tags, [1, 2], 2, false),
        warehouses: toggleOption(toggleAll([5, 6], false), [5, 6], 6, true),
        includeCost: true,
        brands: toggleOption(toggleAll([8], false), [8], 8, true), // every brand ticked: ALL
        categories: toggleOption(toggleAll([1, 11], false), [1, 11], 11, true),
        products: [{ id: 40, label: 'P-40' }],
        csrFrom: '2025-01-01',
        csrTo: '2025-06-30',
        areas: toggleAll([1], false), // ALL unticked, nothing ticked: no filter
        payments: toggleOption(s.payments, [10, 14], 10, false),
        csrs: [
          { id: 3, label: 'Acme' },
          { id: 4, label: 'Bravo' },
        ],
      },
      true,
    );
    expect(body).toEqual({
      type: 'saleSummary',
      group: 'asProducts',
      dateType: 'deliveryDate',
      dateRange: ['2026-11-01', '2026-11-20'],
      tags: [1],
      warehouses: [6],
      includeCost: 'Yes',
      categories: [11],
      products: [40],
      csrCreated: ['2025-01-01', '2025-06-30'],
      payments: [14],
      csrs: [3, 4],
    });
  });

  it('slow-moving sends its as-of date and numbers, and no range', () => {
    const s = { ...initialState(PROPS), dueDate: '2026-10-31', unSoldDay: ' 30 ', lessThan: '2' };
    expect(buildPayload('slowMoving', s, false)).toEqual({ type: 'slowMoving', dueDate: '2026-10-31', unSoldDay: 30, lessThan: 2 });
    expect(buildPayload('slowMoving', { ...s, unSoldDay: '', lessThan: '' }, false)).toEqual({ type: 'slowMoving', dueDate: '2026-10-31' });
  });

  it('purchase reports send source, tags, warehouses and suppliers, never cost or customers', () => {
    const s = { ...initialState(PROPS), source: 'po' as const, suppliers: [{ id: 9, label: 'Supplier' }], csrs: [{ id: 1, label: 'x' }], includeCost: true };
    expect(buildPayload('purchaseDetails', s, false)).toEqual({
      type: 'purchaseDetails',
      source: 'po',
      dateType: 'date',
      dateRange: ['2026-11-01', '2026-11-20'],
      suppliers: [9],
    });
  });

  it('transfers send out- and in-warehouses; adjustments only warehouses', () => {
    const s = initialState(PROPS);
    const t = { ...s, outWarehouse: toggleOption(s.outWarehouse, [5, 6], 5, false), inWarehouse: toggleAll([5, 6], false), warehouses: toggleOption(s.warehouses, [5, 6], 6, false) };
    expect(buildPayload('transferDetails', t, false)).toEqual({ type: 'transferDetails', dateRange: ['2026-11-01', '2026-11-20'], outWarehouse: [6] });
    expect(buildPayload('adjustmentDetails', t, false)).toEqual({ type: 'adjustmentDetails', dateRange: ['2026-11-01', '2026-11-20'], warehouses: [5] });
    expect(buildPayload('inventoryDetails', { ...t, products: [{ id: 2, label: 'p' }] }, false)).toEqual({
      type: 'inventoryDetails',
      dateRange: ['2026-11-01', '2026-11-20'],
      warehouses: [5],
      products: [2],
    });
  });

  it('the tyre age report sends warehouses, products and cost, and no dates (it ages stock today)', () => {
    const s = initialState(PROPS);
    const t = { ...s, warehouses: toggleOption(s.warehouses, [5, 6], 5, false), products: [{ id: 2, label: 'p' }], includeCost: true };
    expect(buildPayload('tyreAge', t, true)).toEqual({ type: 'tyreAge', warehouses: [6], includeCost: 'Yes', products: [2] });
    expect(buildPayload('tyreAge', t, false)).toEqual({ type: 'tyreAge', warehouses: [6], products: [2] });
    expect(showsCost('tyreAge', true, true)).toBe(true);
    expect(showsCost('tyreAge', true, false)).toBe(false);
  });

  it('slow-moving sends By DOT age only when chosen', () => {
    const s = initialState(PROPS);
    expect(buildPayload('slowMoving', s, false)).not.toHaveProperty('byAge');
    expect(buildPayload('slowMoving', { ...s, byAge: true }, false)).toMatchObject({ type: 'slowMoving', byAge: 'Yes' });
    expect(buildPayload('saleSummary', { ...s, byAge: true }, false)).not.toHaveProperty('byAge');
  });

  it('Include Cost is offered only where the kind has cost and the user may see it', () => {
    expect(showsCost('invoiceDetails', true, true)).toBe(true);
    expect(showsCost('invoiceDetails', true, false)).toBe(false);
    expect(showsCost('inventorySummary', true, true)).toBe(true);
    expect(showsCost('purchaseDetails', true, true)).toBe(false);
    expect(showsCost('saleSummary', false, true)).toBe(false);
    expect(buildPayload('inventorySummary', { ...initialState(PROPS), includeCost: true }, false)).not.toHaveProperty('includeCost');
  });
});

describe('checks before sending', () => {
  const s = initialState(PROPS);

  it('the date range is required and in order', () => {
    expect(validate('invoiceDetails', s)).toEqual({});
    expect(validate('invoiceDetails', { ...s, from: '' })).toEqual({ dateRange: MSG_RANGE });
    expect(validate('transferDetails', { ...s, from: '2026-12-01' })).toEqual({ dateRange: MSG_RANGE_ORDER });
    expect(validate('slowMoving', { ...s, from: '' })).toEqual({});
  });

  it('the customer create range is optional but needs both ends', () => {
    expect(validate('saleSummary', { ...s, csrFrom: '2026-01-01' })).toEqual({ csrCreated: MSG_BOTH_DATES });
    expect(validate('saleSummary', { ...s, csrFrom: '2026-02-01', csrTo: '2026-01-01' })).toEqual({ csrCreated: MSG_RANGE_ORDER });
    expect(validate('purchaseSummary', { ...s, csrFrom: '2026-01-01' })).toEqual({});
  });

  it('Unsolde days and Qty Criterion are whole numbers (spec §5)', () => {
    expect(validate('slowMoving', { ...s, unSoldDay: '3O', lessThan: '-1' })).toEqual({ unSoldDay: MSG_WHOLE_NUMBER, lessThan: MSG_WHOLE_NUMBER });
    expect(validate('slowMoving', { ...s, unSoldDay: '1.5' })).toEqual({ unSoldDay: MSG_WHOLE_NUMBER });
    expect(validate('slowMoving', { ...s, unSoldDay: '', lessThan: '0' })).toEqual({});
  });
});
