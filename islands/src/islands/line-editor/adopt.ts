// What the plain rows (static-rows.ts) and the sheet's header hold when the island goes
// live: the user may have typed, tabbed and put the caret anywhere before the code arrived.
// Read from the DOM just before the live rows replace the plain ones (FirstRows in
// LineEditor.tsx), then applied to the state (editor-state.ts 'adopt') and the focus handed
// to the same cell of the live rows.
import type { TypedHeader, TypedLines } from './editor-state';

/** The control that had the focus inside the plain rows, and its caret. */
export interface FocusSnapshot {
  /** The control's label ('Quantity line 1'): the live cell carries the same. */
  label: string;
  start: number | null;
  end: number | null;
  direction: 'forward' | 'backward' | 'none' | null;
}

/** What the plain rows held: their fields by line index (`lines.<index>.<field>`). */
export interface FirstRowsSnapshot {
  typed: TypedLines;
  header: TypedHeader | null;
  focus: FocusSnapshot | null;
}

const FIELD_NAME = /^lines\.(\d+)\.(\w+)$/;

/** The named fields of the plain rows in `rows`, by line index. */
export function readTyped(rows: ParentNode): TypedLines {
  const typed = new Map<number, Record<string, string>>();
  for (const el of rows.querySelectorAll<HTMLInputElement | HTMLSelectElement>('input[name], select[name]')) {
    const m = FIELD_NAME.exec(el.name);
    if (!m) continue;
    const index = Number(m[1]);
    const fields = typed.get(index) ?? {};
    fields[m[2] as string] = el.value;
    typed.set(index, fields);
  }
  return typed;
}

function idOf(form: HTMLFormElement, name: string): number | null | undefined {
  const field = form.elements.namedItem(name);
  if (!(field instanceof HTMLInputElement || field instanceof HTMLSelectElement)) return undefined;
  const text = field.value.trim();
  if (text === '') return null;
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : null;
}

/**
 * The header fields the lines are priced, stocked and taxed by, as `form` holds them (null
 * without a form). The page's scripts announce their changes with events (usePageEvents.ts),
 * but a change made before the island listened was announced to no one.
 */
export function readHeader(form: HTMLFormElement | null, current: TypedHeader): TypedHeader | null {
  if (form === null) return null;
  const customerId = idOf(form, 'customer_id');
  const warehouseId = idOf(form, 'warehouse_id');
  const taxType = idOf(form, 'tax_type');
  return {
    customerId: customerId === undefined ? current.customerId : customerId,
    warehouseId: warehouseId === undefined ? current.warehouseId : warehouseId,
    taxType: taxType === undefined ? null : taxType,
  };
}

/** The focused control inside `rows` and its caret, or null when the focus is elsewhere. */
export function readFocus(rows: Element, doc: Document = rows.ownerDocument): FocusSnapshot | null {
  const active = doc.activeElement;
  if (!(active instanceof HTMLElement) || !rows.contains(active)) return null;
  const label = active.getAttribute('aria-label');
  if (label === null) return null;
  if (active instanceof HTMLInputElement && active.type === 'text') {
    return { label, start: active.selectionStart, end: active.selectionEnd, direction: active.selectionDirection };
  }
  return { label, start: null, end: null, direction: null };
}

/** Focuses the control labelled as the snapshot's inside `rows`, caret where it was. */
export function restoreFocus(rows: Element, focus: FocusSnapshot): void {
  const target = [...rows.querySelectorAll<HTMLElement>('[aria-label]')].find((el) => el.getAttribute('aria-label') === focus.label);
  if (!target) return;
  target.focus({ preventScroll: true });
  if (target instanceof HTMLInputElement && focus.start !== null && focus.end !== null) {
    target.setSelectionRange(focus.start, focus.end, focus.direction ?? undefined);
  }
}
