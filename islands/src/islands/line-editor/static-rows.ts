// The line table's rows as plain HTML, for the editor's first render (on the server and
// while the browser hydrates). React's server renderer costs about 1 ms a line in the
// embedded engine (QuickJS), so a 200-line sheet took 170 ms; this string costs a fraction
// of that. The rows look and read exactly like the live rows (same classes, values, labels
// and messages: the cell decisions come from cells.ts, and a test compares the two tables
// element by element). They are also a plain form before the island's code arrives: each
// field is named `lines.<index>.<field>` ([`plainFieldName`]), so what is typed is submitted
// with the sheet's form and read by the server as the island's lines would be; when the
// island runs, LineEditor adopts what was typed (adopt.ts) and swaps in its live rows.
import { errorIdOf } from '../../lib/form';
import {
  columnClass,
  DOT_PLACEHOLDER,
  INPUT_CLASS,
  lotsListId,
  lotsTitle,
  lotText,
  pickableLots,
  messageField,
  NUMBER_LABELS,
  needsPick,
  plainText,
  readOnlyText,
  SEARCH_LABELS,
  cellNotice,
  type Column,
} from './cells';
import { MSG_PICK_PRODUCT, TAX_TYPES } from './rules';
import type { Kind, Line, LineField } from './types';

export interface StaticRowsView {
  kind: Kind;
  orderType: number;
  editable: boolean;
  columns: Column[];
  lines: Line[];
  /** The message a line's field shows. */
  errorOf: (line: Line, field: LineField) => string | null;
  /** The id a line's field message is named from. */
  cellId: (line: Line, field: LineField) => string;
}

/** The name of a line's field in the plain form (the server reads `lines.<index>.<field>`). */
export function plainFieldName(index: number, field: PlainField): string {
  return `lines.${index}.${field}`;
}

/** The fields the plain rows submit. */
export type PlainField = 'code' | 'name' | 'qty' | 'price' | 'description' | 'taxType' | 'dot' | 'inWarehouseQty' | 'inSystemQty';

/** ` name="lines.<n - 1>.<field>"` of line `n` (1-based, as labelled). */
function named(n: number, field: PlainField): string {
  return ` name="${plainFieldName(n - 1, field)}"`;
}

/** Text or an attribute value, escaped for HTML (native splits: see vite.ssr.config.ts). */
export function esc(text: string): string {
  if (!/[&<>"']/.test(text)) return text;
  return text.split('&').join('&amp;').split('<').join('&lt;').split('>').join('&gt;').split('"').join('&quot;').split("'").join('&#x27;');
}

/** The tax type's options with `selected` on a value's own (written once, not per line). */
function taxOptions(selected: number | null): string {
  return TAX_TYPES.map((tt) => `<option value="${tt.value}"${tt.value === selected ? ' selected=""' : ''}>${esc(tt.label)}</option>`).join('');
}
const TAX_OPTIONS = new Map(TAX_TYPES.map((tt) => [tt.value, taxOptions(tt.value)]));
const TAX_OPTIONS_NONE = taxOptions(null);

/** A line's messages, each looked up once. */
type Messages = Partial<Record<LineField, string | null>>;

/** The `<tr>`s of the table body. */
export function staticRows(view: StaticRowsView): string {
  const out: string[] = [];
  const open = view.columns.map((c) => `<td class="${columnClass(c)}">`);
  const fields = view.columns.map(messageField).filter((f): f is LineField => f !== null);
  for (let i = 0; i < view.lines.length; i++) {
    const line = view.lines[i] as Line;
    const messages: Messages = {};
    for (const f of fields) messages[f] = view.errorOf(line, f);
    out.push('<tr data-key="', esc(line.key), '">');
    for (let c = 0; c < view.columns.length; c++) {
      out.push(open[c] as string);
      cell(out, view, view.columns[c] as Column, line, i + 1, messages);
      out.push('</td>');
    }
    out.push('</tr>');
  }
  return out.join('');
}

function cell(out: string[], view: StaticRowsView, column: Column, line: Line, n: number, messages: Messages): void {
  const text = plainText(column, line, n);
  if (text !== null) {
    out.push(esc(text));
    return;
  }
  if (!view.editable) {
    out.push(esc(readOnlyText(column, line)));
    message(out, view, line, messageField(column), messages);
    below(out, view, column, line);
    return;
  }
  switch (column) {
    case 'select':
      out.push(`<input type="checkbox" aria-label="Select line ${n}"/>`);
      return;
    case 'code':
    case 'name': {
      const error = column === 'code' ? (messages.product ?? null) : null;
      out.push(
        '<div class="le-search"><input role="combobox" autocomplete="off" aria-autocomplete="list" aria-expanded="false" type="text" aria-label="',
        SEARCH_LABELS[column],
        ` line ${n}"`,
        named(n, column),
        error ? invalid(view, line, 'product') : '',
        ` class="${INPUT_CLASS[column]}" value="`,
        esc(line[column]),
        '"/></div>',
      );
      if (column === 'code') {
        // What the system held when the product was picked: a count line submits it back.
        if (view.kind === 'adjustment') out.push(`<input type="hidden"${named(n, 'inSystemQty')} value="${esc(line.inSystemQty)}"/>`);
        message(out, view, line, 'product', messages);
        if (needsPick(line, true, false, error)) out.push(`<div class="muted le-msg le-hint">${esc(MSG_PICK_PRODUCT)}</div>`);
      }
      return;
    }
    case 'qty':
    case 'inWarehouseQty':
      numberInput(out, view, line, column, n, 'numeric', messages);
      message(out, view, line, column, messages);
      below(out, view, column, line);
      return;
    case 'dot': {
      const offered = pickableLots(line);
      const list = esc(lotsListId(view.cellId(line, 'dot')));
      const title = lotsTitle(line);
      out.push(
        `<input type="text" inputmode="numeric" autocomplete="off" aria-label="${NUMBER_LABELS.dot} line ${n}"`,
        named(n, 'dot'),
        messages.dot ? invalid(view, line, 'dot') : '',
        ` class="${INPUT_CLASS.dot}" value="`,
        esc(line.dot),
        `" maxlength="4" placeholder="${DOT_PLACEHOLDER}"`,
        title === '' ? '' : ` title="${esc(title)}"`,
        offered.length > 0 ? ` list="${list}"` : '',
        '/>',
      );
      if (offered.length > 0) {
        out.push(`<datalist id="${list}">`);
        for (const lot of offered) out.push(`<option value="${esc(lot.dot)}" label="${esc(lotText(lot))}"></option>`);
        out.push('</datalist>');
      }
      message(out, view, line, 'dot', messages);
      return;
    }
    case 'price':
      out.push('<div class="le-price-cell">');
      numberInput(out, view, line, 'price', n, 'decimal', messages);
      if (view.kind === 'sales') {
        out.push(
          `<span class="le-menu-anchor"><button type="button" class="btn small" aria-label="Prices line ${n}" aria-haspopup="menu" aria-expanded="false"`,
          line.productId === null ? ' disabled=""' : '',
          '>▾</button></span>',
        );
      }
      out.push('</div>');
      message(out, view, line, 'price', messages);
      below(out, view, column, line);
      return;
    case 'history':
      out.push(
        '<button type="button" class="btn small"',
        line.productId === null ? ' disabled=""' : '',
        ` aria-label="CHK history, line ${n}" aria-haspopup="dialog" aria-expanded="false" data-state="closed">CHK</button>`,
      );
      return;
    case 'taxType':
      out.push(`<select aria-label="Tax Type line ${n}"${named(n, 'taxType')} class="${INPUT_CLASS.taxType}">`, TAX_OPTIONS.get(line.taxType) ?? TAX_OPTIONS_NONE, '</select>');
      return;
    case 'description': {
      const text = esc(line.description);
      out.push(
        `<div class="desc-cell"><input type="text" autocomplete="off" aria-label="Description line ${n}"`,
        named(n, 'description'),
        text === '' ? '' : ` title="${text}"`,
        ` class="${INPUT_CLASS.description}" value="${text}"/></div>`,
      );
      return;
    }
    default:
      return;
  }
}

function numberInput(
  out: string[],
  view: StaticRowsView,
  line: Line,
  field: 'qty' | 'price' | 'inWarehouseQty',
  n: number,
  mode: 'numeric' | 'decimal',
  messages: Messages,
): void {
  out.push(
    `<input type="text" inputmode="${mode}" autocomplete="off" aria-label="${NUMBER_LABELS[field]} line ${n}"`,
    named(n, field),
    messages[field] ? invalid(view, line, field) : '',
    ` class="${INPUT_CLASS[field]}" value="`,
    esc(line[field]),
    '"/>',
  );
}

/** aria-invalid and aria-describedby of a control whose field has a message. */
function invalid(view: StaticRowsView, line: Line, field: LineField): string {
  return ` aria-invalid="true" aria-describedby="${esc(errorIdOf(view.cellId(line, field)))}"`;
}

function message(out: string[], view: StaticRowsView, line: Line, field: LineField | null, messages: Messages): void {
  const text = field === null ? null : messages[field];
  if (field === null || !text) return;
  out.push(`<div class="field-error le-msg" id="${esc(errorIdOf(view.cellId(line, field)))}" role="alert">`, esc(text), '</div>');
}

function below(out: string[], view: StaticRowsView, column: Column, line: Line): void {
  const notice = cellNotice(column, view.orderType, line);
  if (notice !== null) out.push(`<div role="status" class="le-notice">${esc(notice)}</div>`);
}
