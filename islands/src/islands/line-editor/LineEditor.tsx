// The order line editor (spec §2.5, DESIGN §6): an editable line table inside the sheet's
// HTML form. Lines are serialized into one hidden input, so the normal form submit carries
// them and the server validates one way for both. Keyboard-first: Enter moves to the next
// cell, Enter on the last cell adds a line, Ctrl+Enter submits, Esc closes a suggestion.
//
// SSR-safe: initial state comes from props only; the DOM and the API are used in effects
// and event handlers.
import { useEffect, useId, useRef, useState, type ChangeEvent, type KeyboardEvent } from 'react';
import { apiFetch, toast, TOAST_LONG_MS, TOAST_SHORT_MS } from '../../lib/api';
import { errorAria, errorIdOf, FieldError } from '../../lib/form';
import { LiveFieldset, useLive } from '../../lib/live';
import { centsToInput, formatCents, formatInt } from '../../lib/money';
import {
  columnClass,
  columnsFor,
  HEADERS,
  INPUT_CLASS,
  messageField,
  NUMBER_LABELS,
  needsPick,
  plainText,
  readOnlyText,
  SEARCH_LABELS,
  cellNotice,
  type Column,
} from './cells';
import { HistoryButton, HistoryDialog } from './HistoryDialog';
import { PricesMenu } from './PricesMenu';
import { ProductSearch } from './ProductSearch';
import {
  CODE_DEBOUNCE_MS,
  MSG_CUSTOMER_CHANGED,
  MSG_PICK_PRODUCT,
  NAME_DEBOUNCE_MS,
  TAX_TYPES,
  clientError,
  emptyLine,
  gstLabel,
  hasPrice,
  isBlank,
  isTaxable,
  maxNewKey,
  nextStop,
  serializeLines,
  totals,
  type CellField,
} from './rules';
import { staticRows } from './static-rows';
import { importLines } from './upload';
import type { ImportedLine, Kind, Line, LineEditorProps, LineField, PriceTier, ProductHit } from './types';

export const MSG_IMPORTED = 'Operation successful';

export { columnHeaders, columnsFor, type Column } from './cells';

type ServerErrors = Record<string, Partial<Record<LineField, string>>>;

const LINE_FIELDS: readonly LineField[] = ['product', 'qty', 'price', 'inWarehouseQty'];

/** Initial lines (one empty line when none) and the server messages keyed by line key. */
function initialState(props: LineEditorProps): { lines: Line[]; errors: ServerErrors; table: string | null } {
  const lines = props.lines.length > 0 ? props.lines : [emptyLine('new_1', props.taxType)];
  const errors: ServerErrors = {};
  for (const [name, message] of Object.entries(props.errors)) {
    const m = /^lines\.(\d+)\.(\w+)$/.exec(name);
    if (!m) continue;
    const line = lines[Number(m[1])];
    const field = m[2] as LineField;
    if (!line || !LINE_FIELDS.includes(field)) continue;
    errors[line.key] = { ...errors[line.key], [field]: message };
  }
  return { lines, errors, table: props.errors['lines'] ?? null };
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
  };
}

function detailOf(e: Event): Record<string, unknown> {
  const d = (e as CustomEvent<unknown>).detail;
  return typeof d === 'object' && d !== null ? (d as Record<string, unknown>) : {};
}

const idOrNull = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

export function LineEditor(props: LineEditorProps) {
  const { kind, orderType, editable, fieldName } = props;
  const [initial] = useState(() => initialState(props));
  const [lines, setLines] = useState<Line[]>(initial.lines);
  const [serverErrors, setServerErrors] = useState<ServerErrors>(initial.errors);
  const [tableError, setTableError] = useState<string | null>(initial.table);
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set());
  const [customerId, setCustomerId] = useState(props.customerId);
  const [warehouseId, setWarehouseId] = useState(props.warehouseId);
  const [taxType, setTaxType] = useState(props.taxType);
  // The last hit's tier prices per line key (not serialized).
  const [prices, setPrices] = useState<Record<string, PriceTier[]>>({});
  const [loadingPrices, setLoadingPrices] = useState<ReadonlySet<string>>(() => new Set());
  const [activeRow, setActiveRow] = useState<string | null>(null);
  // The line whose price history (CHK) is showing.
  const [historyOf, setHistoryOf] = useState<string | null>(null);
  const [importing, setImporting] = useState(false);
  const [, setFocusTick] = useState(0);

  const uid = useId();
  // Until the island runs, the rows are plain HTML (static-rows.ts).
  const live = useLive();
  const root = useRef<HTMLDivElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const cells = useRef(new Map<string, HTMLElement>());
  const pendingFocus = useRef<{ key: string; field: CellField } | null>(null);
  const keyCounter = useRef(maxNewKey(initial.lines));
  const linesRef = useRef(lines);
  const customerRef = useRef(props.customerId);

  useEffect(() => {
    linesRef.current = lines;
  });

  // Moves the focus once the row it targets has rendered.
  useEffect(() => {
    const target = pendingFocus.current;
    if (!target) return;
    pendingFocus.current = null;
    const el = cells.current.get(`${target.key}:${target.field}`);
    if (!el) return;
    el.focus();
    if (el instanceof HTMLInputElement) el.select();
  });

  // The page's header fields talk to the island with DOM events.
  useEffect(() => {
    const onCustomer = (e: Event) => {
      const id = idOrNull(detailOf(e).id);
      if (id === customerRef.current) return;
      customerRef.current = id;
      setCustomerId(id);
      setPrices({}); // tier prices (OCOP) depend on the customer
      if (editable && linesRef.current.some((l) => l.productId !== null)) {
        toast(MSG_CUSTOMER_CHANGED, 'warning', TOAST_LONG_MS);
      }
    };
    const onWarehouse = (e: Event) => setWarehouseId(idOrNull(detailOf(e).id));
    const onTaxType = (e: Event) => {
      const t = idOrNull(detailOf(e).taxType);
      if (t !== null) setTaxType(t);
    };
    document.addEventListener('customer-changed', onCustomer);
    document.addEventListener('warehouse-changed', onWarehouse);
    document.addEventListener('tax-type-changed', onTaxType);
    return () => {
      document.removeEventListener('customer-changed', onCustomer);
      document.removeEventListener('warehouse-changed', onWarehouse);
      document.removeEventListener('tax-type-changed', onTaxType);
    };
  }, [editable]);

  const newKey = () => `new_${++keyCounter.current}`;

  const focusCell = (key: string, field: CellField) => {
    pendingFocus.current = { key, field };
    setFocusTick((t) => t + 1);
  };

  const cellRef = (key: string, field: CellField) => (el: HTMLElement | null) => {
    if (el) cells.current.set(`${key}:${field}`, el);
    else cells.current.delete(`${key}:${field}`);
  };

  const dismiss = (key: string, ...fields: LineField[]) =>
    setServerErrors((prev) => {
      const own = prev[key];
      if (!own || !fields.some((f) => own[f] !== undefined)) return prev;
      const rest = { ...own };
      for (const f of fields) delete rest[f];
      return { ...prev, [key]: rest };
    });

  const update = (key: string, patch: Partial<Line>) =>
    setLines((prev) => prev.map((l) => (l.key === key ? { ...l, ...patch } : l)));

  const addLine = () => {
    const key = newKey();
    setLines((prev) => [...prev, emptyLine(key, taxType)]);
    focusCell(key, 'code');
  };

  const moveNext = (key: string, field: CellField) => {
    const stop = nextStop(kind, field);
    if (stop) {
      focusCell(key, stop);
      return;
    }
    const next = lines[lines.findIndex((l) => l.key === key) + 1];
    if (next) focusCell(next.key, 'code');
    else addLine();
  };

  const searchProducts = (param: 'code' | 'name') => async (text: string, signal: AbortSignal) => {
    const query = new URLSearchParams({ [param]: text, per_page: '20' });
    if (customerId !== null) query.set('customerId', String(customerId));
    if (warehouseId !== null) query.set('warehouseId', String(warehouseId));
    const body = await apiFetch<{ data?: unknown }>(`/products?${query.toString()}`, { signal });
    return Array.isArray(body?.data) ? (body.data as ProductHit[]) : [];
  };

  const typeProduct = (key: string, field: 'code' | 'name', text: string) => {
    // The typed text no longer names the picked product: the line waits for a new pick.
    update(key, { [field]: text, productId: null, unit: '', stock: null, classA: null, costPrice: null, inSystemQty: '' });
    setPrices((prev) => {
      if (!(key in prev)) return prev;
      const rest = { ...prev };
      delete rest[key];
      return rest;
    });
    dismiss(key, 'product');
  };

  const pick = (line: Line, hit: ProductHit) => {
    // A purchase line starts from the average cost, for those who see it; others type the price.
    const cost = typeof hit.costPrice === 'number' ? hit.costPrice : null;
    const price = kind === 'sales' ? centsToInput(hit.unitPrice) : kind === 'purchase' ? (cost === null ? line.price : centsToInput(cost)) : line.price;
    const next: Line = {
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
    };
    setLines((prev) => prev.map((l) => (l.key === line.key ? next : l)));
    setPrices((prev) => ({ ...prev, [line.key]: Array.isArray(hit.prices) ? hit.prices : [] }));
    dismiss(line.key, 'product', 'price');
    setTableError(null);
    focusCell(line.key, kind === 'adjustment' ? 'inWarehouseQty' : 'qty');
  };

  const loadPrices = (line: Line) => {
    if (line.productId === null || prices[line.key] || loadingPrices.has(line.key)) return;
    const key = line.key;
    const query = new URLSearchParams({ ids: String(line.productId) });
    if (customerId !== null) query.set('customerId', String(customerId));
    setLoadingPrices((prev) => new Set(prev).add(key));
    const done = () =>
      setLoadingPrices((prev) => {
        const rest = new Set(prev);
        rest.delete(key);
        return rest;
      });
    apiFetch<{ data?: unknown }>(`/products?${query.toString()}`).then(
      (body) => {
        const hits = Array.isArray(body?.data) ? (body.data as ProductHit[]) : [];
        const hit = hits.find((h) => h.id === line.productId) ?? hits[0];
        setPrices((prev) => ({ ...prev, [key]: hit && Array.isArray(hit.prices) ? hit.prices : [] }));
        done();
      },
      done,
    );
  };

  const toggle = (key: string) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });

  const allSelected = lines.length > 0 && lines.every((l) => selected.has(l.key));
  const anySelected = lines.some((l) => selected.has(l.key));

  const deleteSelected = () => {
    const rest = lines.filter((l) => !selected.has(l.key));
    setLines(rest.length > 0 ? rest : [emptyLine(newKey(), taxType)]);
    setSelected(new Set());
  };

  const copySelected = () => {
    const last = lines.reduce((at, l, i) => (selected.has(l.key) ? i : at), -1);
    if (last < 0) return;
    const pairs = lines.filter((l) => selected.has(l.key)).map((l) => [l.key, { ...l, key: newKey() }] as const);
    setLines([...lines.slice(0, last + 1), ...pairs.map(([, copy]) => copy), ...lines.slice(last + 1)]);
    setPrices((prev) => {
      const next = { ...prev };
      for (const [from, copy] of pairs) if (prev[from]) next[copy.key] = prev[from];
      return next;
    });
    setSelected(new Set());
  };

  const onFile = async (input: HTMLInputElement) => {
    const file = input.files?.[0];
    input.value = ''; // the same file can be chosen again
    if (!file || importing) return;
    setImporting(true);
    const rows = await importLines(file, orderType);
    setImporting(false);
    if (!rows) return; // reported; nothing changes
    const imported = rows.map((row) => fromImported(row, newKey(), kind, taxType));
    setLines((prev) => {
      const kept = [...prev];
      while (kept.length > 0 && isBlank(kept[kept.length - 1] as Line)) kept.pop();
      const next = [...kept, ...imported];
      return next.length > 0 ? next : prev;
    });
    if (imported.length > 0) setTableError(null);
    toast(MSG_IMPORTED, 'success', TOAST_SHORT_MS);
  };

  // Enter never submits the form by itself; Ctrl+Enter (Cmd+Enter) does.
  const onRootKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key !== 'Enter') return;
    const target = e.target as Element;
    if (!root.current?.contains(target)) return; // e.g. inside a dialog portal
    if (e.ctrlKey || e.metaKey) {
      e.preventDefault();
      root.current.closest('form')?.requestSubmit();
      return;
    }
    if (target instanceof HTMLSelectElement || (target instanceof HTMLInputElement && target.type !== 'file')) {
      e.preventDefault();
    }
  };

  const onCellKeyDown = (key: string, field: CellField) => (e: KeyboardEvent<HTMLElement>) => {
    if (e.key !== 'Enter' || e.ctrlKey || e.metaKey || e.altKey || e.shiftKey) return;
    e.preventDefault();
    moveNext(key, field);
  };

  const t = totals(kind, orderType, taxType, lines);
  const columns = columnsFor(kind, editable, props.seesCost);

  const errorOf = (line: Line, field: LineField): string | null =>
    serverErrors[line.key]?.[field] ?? clientError(kind, line, field);

  /** The id a cell's message is named from. */
  const cellId = (line: Line, field: LineField) => `${uid}-${line.key}-${field}`;

  const message = (line: Line, field: LineField | null) =>
    field === null ? null : <FieldError of={cellId(line, field)} message={errorOf(line, field)} className="le-msg" />;

  const inputProps = (line: Line, field: keyof typeof NUMBER_LABELS, n: number) => {
    return {
      ref: cellRef(line.key, field),
      type: 'text' as const,
      inputMode: 'numeric' as const,
      autoComplete: 'off',
      'aria-label': `${NUMBER_LABELS[field]} line ${n}`,
      ...errorAria(cellId(line, field), errorOf(line, field)),
      className: INPUT_CLASS[field],
      value: line[field],
      onChange: (e: ChangeEvent<HTMLInputElement>) => {
        update(line.key, { [field]: e.target.value });
        dismiss(line.key, field);
      },
      onKeyDown: onCellKeyDown(line.key, field),
    };
  };

  // The cells of the live rows; what each shows is decided in cells.ts, which the first
  // render's plain rows (static-rows.ts) follow too.
  const renderCell = (column: Column, line: Line, index: number) => {
    const n = index + 1;
    const key = line.key;
    const text = plainText(column, line, n);
    if (text !== null) return text;
    const notice = cellNotice(column, orderType, line);
    const below = notice === null ? null : (
      <div role="status" className="le-notice">
        {notice}
      </div>
    );
    if (!editable) {
      return (
        <>
          {readOnlyText(column, line)}
          {message(line, messageField(column))}
          {below}
        </>
      );
    }
    switch (column) {
      case 'select':
        return <input type="checkbox" aria-label={`Select line ${n}`} checked={selected.has(key)} onChange={() => toggle(key)} />;
      case 'code':
      case 'name': {
        const productError = column === 'code' ? errorOf(line, 'product') : null;
        const label = `${SEARCH_LABELS[column]} line ${n}`;
        return (
          <>
            <ProductSearch
              value={line[column]}
              label={label}
              delayMs={column === 'code' ? CODE_DEBOUNCE_MS : NAME_DEBOUNCE_MS}
              picked={line.productId !== null}
              invalid={productError !== null}
              describedBy={productError ? errorIdOf(cellId(line, 'product')) : undefined}
              className={INPUT_CLASS[column]}
              search={searchProducts(column)}
              onType={(text) => typeProduct(key, column, text)}
              onPick={(hit) => pick(line, hit)}
              onEnter={() => moveNext(key, column)}
              inputRef={cellRef(key, column)}
            />
            {message(line, messageField(column))}
            {column === 'code' && needsPick(line, editable, activeRow === key, productError) ? (
              <div className="muted le-msg le-hint">{MSG_PICK_PRODUCT}</div>
            ) : null}
          </>
        );
      }
      case 'qty':
      case 'inWarehouseQty':
        return (
          <>
            <input {...inputProps(line, column, n)} />
            {message(line, column)}
            {below}
          </>
        );
      case 'price':
        return (
          <>
            <div className="le-price-cell">
              <input {...inputProps(line, 'price', n)} inputMode="decimal" />
              {kind === 'sales' ? (
                <PricesMenu
                  label={`Prices line ${n}`}
                  disabled={line.productId === null}
                  prices={prices[key]}
                  loading={loadingPrices.has(key)}
                  onOpen={() => loadPrices(line)}
                  onChoose={(cents) => {
                    update(key, { price: centsToInput(cents) });
                    dismiss(key, 'price');
                    focusCell(key, 'price');
                  }}
                />
              ) : null}
            </div>
            {message(line, 'price')}
            {below}
          </>
        );
      case 'history':
        return <HistoryButton lineNo={n} productId={line.productId} open={historyOf === key} onOpen={() => setHistoryOf(key)} />;
      case 'taxType':
        return (
          <select
            ref={cellRef(key, 'taxType')}
            aria-label={`Tax Type line ${n}`}
            className={INPUT_CLASS.taxType}
            value={line.taxType}
            onChange={(e) => update(key, { taxType: Number(e.target.value) })}
            onKeyDown={onCellKeyDown(key, 'taxType')}
          >
            {TAX_TYPES.map((tt) => (
              <option key={tt.value} value={tt.value}>
                {tt.label}
              </option>
            ))}
          </select>
        );
      case 'description':
        return (
          <div className="desc-cell">
            <input
              ref={cellRef(key, 'description')}
              type="text"
              autoComplete="off"
              aria-label={`Description line ${n}`}
              title={line.description || undefined}
              className={INPUT_CLASS.description}
              value={line.description}
              onChange={(e) => update(key, { description: e.target.value })}
              onKeyDown={onCellKeyDown(key, 'description')}
            />
          </div>
        );
      default:
        return null;
    }
  };

  return (
    <div ref={root} className="line-editor" onKeyDown={onRootKeyDown}>
      <input type="hidden" name={fieldName} value={serializeLines(lines)} />
      <LiveFieldset live={live}>
      {tableError ? (
        <div className="field-error" role="alert" style={{ marginBottom: 6 }}>
          {tableError}
        </div>
      ) : null}
      <div className="table-fit">
      <table className="data-table">
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c} scope="col" className={columnClass(c)}>
                {c === 'select' ? (
                  <input
                    type="checkbox"
                    aria-label="Select all lines"
                    checked={allSelected}
                    onChange={() => setSelected(allSelected ? new Set() : new Set(lines.map((l) => l.key)))}
                  />
                ) : (
                  HEADERS[c]
                )}
              </th>
            ))}
          </tr>
        </thead>
        {live ? (
          <tbody key="live">
            {lines.map((line, i) => (
              <tr
                key={line.key}
                data-key={line.key}
                onFocus={() => setActiveRow(line.key)}
                onBlur={(e) => {
                  if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setActiveRow(null);
                }}
              >
                {columns.map((c) => (
                  <td key={c} className={columnClass(c)}>
                    {renderCell(c, line, i)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        ) : (
          // The first render: the same rows as plain HTML (see static-rows.ts).
          <tbody
            key="first"
            dangerouslySetInnerHTML={{ __html: staticRows({ kind, orderType, editable, columns, lines, errorOf, cellId }) }}
          />
        )}
      </table>
      </div>
      {(() => {
        const at = historyOf === null ? -1 : lines.findIndex((l) => l.key === historyOf);
        const line = lines[at];
        return line && line.productId !== null ? (
          <HistoryDialog lineNo={at + 1} productId={line.productId} customerId={customerId} onClose={() => setHistoryOf(null)} />
        ) : null;
      })()}
      <div style={{ display: 'flex', flexWrap: 'wrap', alignItems: 'flex-start', gap: 6, marginTop: 8 }}>
        {editable ? (
          <>
            <button type="button" className="btn small" onClick={addLine}>
              + Add Line
            </button>
            <button type="button" className="btn small" disabled={!anySelected} onClick={deleteSelected}>
              Delete Line
            </button>
            <button type="button" className="btn small" disabled={!anySelected} onClick={copySelected}>
              Copy Line
            </button>
            <button type="button" className="btn small" disabled={importing} onClick={() => fileInput.current?.click()}>
              {importing ? 'Importing…' : 'Import Lines'}
            </button>
            <input
              ref={fileInput}
              type="file"
              accept=".xls,.xlsx"
              aria-label="Import Lines file"
              hidden
              onChange={(e) => void onFile(e.currentTarget)}
            />
          </>
        ) : null}
        {kind !== 'transfer' ? (
          <dl className="line-totals" style={{ display: 'flex', flexWrap: 'wrap', gap: '4px 18px', margin: '0 0 0 auto' }}>
            <Total label="Total Qty" value={formatInt(t.qty)} />
            {kind !== 'adjustment' || props.seesCost ? <Total label="Total Amount" value={formatCents(t.amount)} /> : null}
            {kind !== 'adjustment' && isTaxable(orderType) ? (
              <>
                <Total label={`Total Tax ${gstLabel(taxType)}`} value={formatCents(t.tax)} />
                <Total label="SubTotal" value={formatCents(t.subtotal)} />
              </>
            ) : null}
          </dl>
        ) : null}
      </div>
      </LiveFieldset>
    </div>
  );
}

function Total({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt className="muted" style={{ display: 'inline' }}>
        {label}
      </dt>{' '}
      <dd className="num" style={{ display: 'inline', margin: 0, fontWeight: 600 }}>
        {value}
      </dd>
    </div>
  );
}
