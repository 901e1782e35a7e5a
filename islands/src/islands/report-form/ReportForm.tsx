// The report request form of the Sales, Purchase and Inventory Reports screens (spec §2.9):
// one tab per report kind, the sections that kind uses, and Submit, which queues the report
// (`POST /api/reports`) and says 'Preparing for the report, please check it later' with a
// link to the Download Center; a 422 shows the server's message next to the named field.
// SSR-safe: every initial value comes from props; the DOM is touched only in handlers/effects.
import { useId, useLayoutEffect, useRef, useState, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';
import { LiveFieldset, useLive } from '../../lib/live';
import { ApiError, apiFetch } from '../../lib/api';
import { DateInput } from '../../lib/DateInput';
import { SubmitButton } from '../../lib/form';
import type { Choice } from './checks';
import { CheckGroup, type CheckOption } from './CheckGroup';
import {
  SECTIONS,
  buildPayload,
  initialState,
  showsCost,
  validate,
  type FormState,
  type Picked,
  type Section,
} from './payload';
import { CODE_DEBOUNCE_MS, Chips, NAME_DEBOUNCE_MS, SEARCH_PAGE_SIZE, SearchBox, addPicked, nameLabel, productLabel } from './Picker';
import * as css from './styles';
import type { ReportFormProps } from './types';

/** Spec §2.9: what Submit answers (the server sends the same words). */
export const PREPARING = 'Preparing for the report, please check it later';
export const DOWNLOAD_CENTER = '/reports_download';

/** The section whose controls show a server error on each payload field. */
const FIELD_SECTION: Record<string, Section> = {
  group: 'group',
  dateType: 'dateType',
  dateRange: 'dateRange',
  tags: 'tags',
  warehouses: 'warehouses',
  includeCost: 'includeCost',
  brands: 'products',
  categories: 'products',
  products: 'products',
  csrCreated: 'csr',
  areas: 'csr',
  payments: 'csr',
  csrs: 'csr',
  dueDate: 'slowMoving',
  unSoldDay: 'slowMoving',
  lessThan: 'slowMoving',
  byAge: 'slowMoving',
  source: 'source',
  suppliers: 'suppliers',
  outWarehouse: 'outIn',
  inWarehouse: 'outIn',
};

const FOCUSABLE = 'input,select,textarea,button';

/** The fields of the form that are checkbox groups. */
type ChoiceField = { [K in keyof FormState]: FormState[K] extends Choice ? K : never }[keyof FormState];
/** The fields chosen from a fixed list of words. */
type SelectField = 'source' | 'group' | 'dateType';

const perPage = `&per_page=${SEARCH_PAGE_SIZE}`;

export function ReportForm(props: ReportFormProps) {
  const live = useLive();
  const [tabIndex, setTabIndex] = useState(0);
  const [form, setForm] = useState<FormState>(() => initialState(props));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState('');
  const [done, setDone] = useState('');
  const [pending, setPending] = useState(false);
  // Bumped when errors should take the focus (after a refused Submit).
  const [focusErrors, setFocusErrors] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);
  const tabRefs = useRef<Array<HTMLButtonElement | null>>([]);
  const id = useId();

  // A layout effect: the focus moves as the render is committed, before the next key.
  useLayoutEffect(() => {
    if (focusErrors === 0) return;
    const invalid = formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    const target = invalid?.matches(FOCUSABLE) ? invalid : invalid?.querySelector<HTMLElement>(FOCUSABLE);
    target?.focus();
  }, [focusErrors]);

  const tab = props.tabs[tabIndex];
  if (!tab) return <p className="muted">No report can be requested here.</p>;
  const sections = SECTIONS[tab.type];
  const has = (s: Section) => sections.includes(s);
  const withCost = showsCost(tab.type, tab.canShowCost, props.maySeeCost);

  const set = <K extends keyof FormState>(key: K, value: FormState[K]) => setForm((f) => ({ ...f, [key]: value }));
  const errId = (field: string) => `${id}-${field}-error`;
  /** aria attributes of the control(s) of `field`. */
  const invalid = (field: string) =>
    errors[field] ? { 'aria-invalid': true as const, 'aria-describedby': errId(field) } : {};
  const fieldError = (field: string) =>
    errors[field] ? (
      <span id={errId(field)} className="field-error">
        {errors[field]}
      </span>
    ) : null;
  const fieldClass = (field: string, base = 'field') => (errors[field] ? `${base} has-error` : base);

  const chooseTab = (n: number) => {
    setTabIndex(n);
    setErrors({});
    setFormError('');
    setDone('');
  };

  const onTabKey = (e: KeyboardEvent<HTMLButtonElement>) => {
    const count = props.tabs.length;
    const next =
      e.key === 'ArrowRight' ? (tabIndex + 1) % count
      : e.key === 'ArrowLeft' ? (tabIndex - 1 + count) % count
      : e.key === 'Home' ? 0
      : e.key === 'End' ? count - 1
      : null;
    if (next === null) return;
    e.preventDefault();
    chooseTab(next);
    tabRefs.current[next]?.focus();
  };

  const showErrors = (found: Record<string, string>, message: string) => {
    const shown: Record<string, string> = {};
    const elsewhere: string[] = [];
    for (const [field, msg] of Object.entries(found)) {
      const section = FIELD_SECTION[field];
      if (section !== undefined && has(section)) shown[field] = msg;
      else elsewhere.push(msg);
    }
    setErrors(shown);
    setFormError(elsewhere.length > 0 || Object.keys(shown).length === 0 ? (elsewhere[0] ?? message) : '');
    setFocusErrors((n) => n + 1);
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (pending) return;
    setDone('');
    const local = validate(tab.type, form);
    if (Object.keys(local).length > 0) {
      showErrors(local, '');
      return;
    }
    setErrors({});
    setFormError('');
    setPending(true);
    apiFetch<{ message?: unknown }>('/reports', { method: 'POST', json: buildPayload(tab.type, form, withCost) }).then(
      (body) => {
        setPending(false);
        setDone(typeof body?.message === 'string' && body.message !== '' ? body.message : PREPARING);
      },
      (err: unknown) => {
        setPending(false);
        // apiFetch has already shown the error as a toast; a 422 also marks its field.
        if (err instanceof ApiError && err.status === 422) showErrors(err.errors, err.message);
      },
    );
  };

  const group = (legend: string, field: ChoiceField, options: CheckOption[]) => (
    <CheckGroup
      legend={legend}
      options={options}
      choice={form[field]}
      onChange={(next) => set(field, next)}
      error={errors[field]}
    />
  );
  const byId = (list: { id: number; name: string }[]) => list.map((o) => ({ value: o.id, label: o.name }));
  const byCode = (list: { code: number; label: string }[]) => list.map((o) => ({ value: o.code, label: o.label }));
  const pickTo = (field: 'products' | 'csrs' | 'suppliers') => (hit: Picked) => set(field, addPicked(form[field], hit));
  const unpick = (field: 'products' | 'csrs' | 'suppliers') => (pid: number) =>
    set(field, form[field].filter((p) => p.id !== pid));

  const dateRange = (legend: string, field: string, from: 'from' | 'csrFrom', to: 'to' | 'csrTo') => (
    <fieldset className={fieldClass(field, 'field wide')} style={css.checkGroup}>
      <legend style={css.legend}>{legend}</legend>
      <div style={css.pair}>
        <DateInput aria-label={`${legend} from`} value={form[from]} onChange={(v) => set(from, v)} {...invalid(field)} />
        <span aria-hidden="true">~</span>
        <DateInput aria-label={`${legend} to`} value={form[to]} onChange={(v) => set(to, v)} {...invalid(field)} />
      </div>
      {fieldError(field)}
    </fieldset>
  );

  const select = <F extends SelectField>(label: string, field: F, options: [FormState[F], string][]): ReactNode => (
    <div className={fieldClass(field)}>
      <label htmlFor={`${id}-${field}`}>{label}</label>
      <select id={`${id}-${field}`} value={form[field]} onChange={(e) => set(field, e.target.value as FormState[F])} {...invalid(field)}>
        {options.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
      {fieldError(field)}
    </div>
  );

  const text = (label: string, field: 'dueDate' | 'unSoldDay' | 'lessThan', type: 'date' | 'numeric') => (
    <div className={fieldClass(field)}>
      <label htmlFor={`${id}-${field}`}>{label}</label>
      {type === 'date' ? (
        <DateInput id={`${id}-${field}`} value={form[field]} onChange={(v) => set(field, v)} {...invalid(field)} />
      ) : (
        <input id={`${id}-${field}`} type="text" inputMode="numeric" value={form[field]} onChange={(e) => set(field, e.target.value)} {...invalid(field)} />
      )}
      {fieldError(field)}
    </div>
  );

  const panelId = `${id}-panel`;
  return (
    <div className="report-form">
      <LiveFieldset live={live}>
      <div role="tablist" aria-label="Reports" style={css.tabList}>
        {props.tabs.map((t, n) => (
          <button
            key={t.type}
            ref={(el) => {
              tabRefs.current[n] = el;
            }}
            id={`${id}-tab-${t.type}`}
            type="button"
            role="tab"
            className={n === tabIndex ? 'btn primary' : 'btn'}
            aria-selected={n === tabIndex}
            aria-controls={panelId}
            tabIndex={n === tabIndex ? 0 : -1}
            onClick={() => chooseTab(n)}
            onKeyDown={onTabKey}
          >
            {t.title}
          </button>
        ))}
      </div>
      {/* The panel is a div around the form: a form may not take the tabpanel role. */}
      <div id={panelId} role="tabpanel" aria-labelledby={`${id}-tab-${tab.type}`}>
      <form ref={formRef} noValidate onSubmit={submit}>
        <section className="card" aria-labelledby={`${id}-basic`}>
          <h2 id={`${id}-basic`}>Basic setting</h2>
          <div className="form-grid">
            {has('source') ? select('Source', 'source', [['blBcn', 'Bills and Credit Notes'], ['po', 'Purchase Orders']]) : null}
            {has('group') ? select('Group by', 'group', [['asCustomers', 'Customers'], ['asProducts', 'Products']]) : null}
            {has('dateType')
              ? select('Date Range type', 'dateType', [['date', 'Date'], ['dueDate', 'Due Date'], ['deliveryDate', 'ETA Date']])
              : null}
            {has('dateRange') ? dateRange('Date Range', 'dateRange', 'from', 'to') : null}
            {has('slowMoving') ? (
              <>
                {text('Due date', 'dueDate', 'date')}
                {text('Unsolde days', 'unSoldDay', 'numeric')}
                {text('Qty Criterion', 'lessThan', 'numeric')}
                <div className={fieldClass('byAge')}>
                  <label htmlFor={`${id}-byAge`}>By DOT age</label>
                  <select id={`${id}-byAge`} value={form.byAge ? 'Yes' : 'No'} onChange={(e) => set('byAge', e.target.value === 'Yes')} {...invalid('byAge')}>
                    <option value="No">No</option>
                    <option value="Yes">Yes</option>
                  </select>
                  {fieldError('byAge')}
                </div>
              </>
            ) : null}
            {withCost ? (
              <div className={fieldClass('includeCost')}>
                <label htmlFor={`${id}-includeCost`}>Include Cost</label>
                <select
                  id={`${id}-includeCost`}
                  value={form.includeCost ? 'Yes' : 'No'}
                  onChange={(e) => set('includeCost', e.target.value === 'Yes')}
                  {...invalid('includeCost')}
                >
                  <option value="No">No</option>
                  <option value="Yes">Yes</option>
                </select>
                {fieldError('includeCost')}
              </div>
            ) : null}
            {has('tags') && props.tags.length > 0 ? group('Sheet Tag', 'tags', byCode(props.tags)) : null}
            {has('warehouses') ? group('Warehouse', 'warehouses', byId(props.warehouses)) : null}
            {has('outIn') ? (
              <>
                {group('Out Warehouse', 'outWarehouse', byId(props.warehouses))}
                {group('In Warehouse', 'inWarehouse', byId(props.warehouses))}
              </>
            ) : null}
          </div>
        </section>
        {has('products') ? (
          <section className="card" aria-labelledby={`${id}-products`}>
            <h2 id={`${id}-products`}>Products filter</h2>
            <div className="form-grid">
              {group('Brand', 'brands', byId(props.brands))}
              {group('Category', 'categories', byCode(props.categories))}
              <SearchBox
                label="Item Code"
                placeholder="Search by code"
                path={(q) => `/products?code=${q}${perPage}`}
                toLabel={productLabel}
                debounceMs={CODE_DEBOUNCE_MS}
                onPick={pickTo('products')}
                describedBy={errors.products ? errId('products') : undefined}
              />
              <SearchBox
                label="Item Name"
                placeholder="Search by name"
                path={(q) => `/products?name=${q}${perPage}`}
                toLabel={productLabel}
                debounceMs={NAME_DEBOUNCE_MS}
                onPick={pickTo('products')}
                describedBy={errors.products ? errId('products') : undefined}
              />
              <div className={fieldClass('products', 'field wide')}>
                <Chips name="Chosen products" chosen={form.products} onRemove={unpick('products')} />
                {fieldError('products')}
              </div>
            </div>
          </section>
        ) : null}
        {has('csr') ? (
          <section className="card" aria-labelledby={`${id}-csr`}>
            <h2 id={`${id}-csr`}>CSR filter</h2>
            <div className="form-grid">
              {dateRange('Create Date', 'csrCreated', 'csrFrom', 'csrTo')}
              <SearchBox
                label="Customer"
                placeholder="Search by name"
                path={(q) => `/customers?name=${q}${perPage}`}
                toLabel={nameLabel}
                debounceMs={NAME_DEBOUNCE_MS}
                onPick={pickTo('csrs')}
                describedBy={errors.csrs ? errId('csrs') : undefined}
              />
              <div className={fieldClass('csrs')}>
                <Chips name="Chosen customers" chosen={form.csrs} onRemove={unpick('csrs')} />
                {fieldError('csrs')}
              </div>
              {group('Area Type', 'areas', byCode(props.areas))}
              {group('Payment Type', 'payments', byCode(props.payments))}
            </div>
          </section>
        ) : null}
        {has('suppliers') ? (
          <section className="card" aria-labelledby={`${id}-suppliers`}>
            <h2 id={`${id}-suppliers`}>Supplier filter</h2>
            <div className="form-grid">
              <SearchBox
                label="Supplier"
                placeholder="Search by name"
                path={(q) => `/suppliers?name=${q}${perPage}`}
                toLabel={nameLabel}
                debounceMs={NAME_DEBOUNCE_MS}
                onPick={pickTo('suppliers')}
                describedBy={errors.suppliers ? errId('suppliers') : undefined}
              />
              <div className={fieldClass('suppliers', 'field wide')}>
                <Chips name="Chosen suppliers" chosen={form.suppliers} onRemove={unpick('suppliers')} />
                {fieldError('suppliers')}
              </div>
            </div>
          </section>
        ) : null}
        {formError ? (
          <div className="alert alert-error" role="alert">
            {formError}
          </div>
        ) : null}
        {done ? (
          <div className="alert alert-success" role="status">
            {done} <a href={DOWNLOAD_CENTER}>Open the Reports Download Center</a>
          </div>
        ) : null}
        <div className="form-actions">
          <SubmitButton label="Submit" busyLabel="Submitting…" busy={pending} />
        </div>
      </form>
      </div>
      </LiveFieldset>
    </div>
  );
}
