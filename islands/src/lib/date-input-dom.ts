// The behaviour of the server-rendered date field (templates/partials/date_input.html):
//
//   <span class="date-input" data-date-input>
//     <input type="text" class="date-input-text" id="f-date" value="23/11/2026" …>  shown
//     <input type="hidden" class="date-input-value" name="date" value="2026-11-23">  posted
//     <button type="button" class="date-input-btn" aria-haspopup="menu" …>          menu
//     <span class="date-menu" role="menu" hidden>
//       <button role="menuitem" data-date="2026-11-24">Tomorrow</button> …
//       <button role="menuitem" data-calendar>Pick on calendar…</button>
//     </span>
//     <input type="date" class="date-input-picker" tabindex="-1" aria-hidden="true">
//   </span>
//
// (a field without shortcuts has `<button … data-calendar>` and no menu). The hidden input
// follows the text on every keystroke, so a submit at any moment posts what is shown; on
// blur or Enter the text is rewritten as dd/mm/yyyy, or marked invalid with a message. A
// `change` event fires on the hidden input when its value was committed (blur, Enter, a
// shortcut, the calendar) and differs from the last one, like a native input's `change`,
// so listeners do not see half-typed days. Scripts that set the hidden input fire `change`
// on it and the text follows. Listeners are delegated from the document, so fields that
// htmx swaps in work with no extra code. The React DateInput has no `data-date-input`.
import { DATE_MESSAGE, dateValue, displayDate, formatDate, onDateMenuKey } from './dates';

const ROOT = '[data-date-input]';

// The value each field last announced with `change` (first: the server-rendered one).
const committed = new WeakMap<HTMLInputElement, string>();

interface Parts {
  root: HTMLElement;
  text: HTMLInputElement;
  value: HTMLInputElement;
  toggle: HTMLButtonElement | null;
  menu: HTMLElement | null;
  picker: HTMLInputElement | null;
}

function parts(root: HTMLElement): Parts | null {
  const text = root.querySelector<HTMLInputElement>('input.date-input-text');
  const value = root.querySelector<HTMLInputElement>('input.date-input-value');
  if (!text || !value) return null;
  // A hidden input has no separate default value: remember the server's before any edit.
  if (!committed.has(value)) committed.set(value, value.value);
  return {
    root,
    text,
    value,
    toggle: root.querySelector<HTMLButtonElement>('button.date-input-btn'),
    menu: root.querySelector<HTMLElement>('.date-menu'),
    picker: root.querySelector<HTMLInputElement>('input.date-input-picker'),
  };
}

function fieldOf(target: EventTarget | null): Parts | null {
  const root = target instanceof Element ? target.closest<HTMLElement>(ROOT) : null;
  return root ? parts(root) : null;
}

// Set while this module dispatches `change`, so its own listener ignores the event.
let dispatching = false;
let messageIds = 0;

function announce(p: Parts): void {
  if (p.value.value === committed.get(p.value)) return;
  committed.set(p.value, p.value.value);
  dispatching = true;
  try {
    p.value.dispatchEvent(new Event('change', { bubbles: true }));
  } finally {
    dispatching = false;
  }
}

function message(p: Parts): HTMLElement | null {
  const next = p.root.nextElementSibling;
  return next instanceof HTMLElement && next.matches('.date-input-msg') ? next : null;
}

function setInvalid(p: Parts, invalid: boolean): void {
  let msg = message(p);
  if (!invalid) {
    if (!msg) return;
    p.text.removeAttribute('aria-invalid');
    const ids = (p.text.getAttribute('aria-describedby') ?? '').split(/\s+/).filter((id) => id && id !== msg?.id);
    if (ids.length > 0) p.text.setAttribute('aria-describedby', ids.join(' '));
    else p.text.removeAttribute('aria-describedby');
    msg.remove();
    return;
  }
  p.text.setAttribute('aria-invalid', 'true');
  if (msg) return;
  msg = p.root.ownerDocument.createElement('span');
  msg.className = 'date-input-msg field-error';
  msg.id = `date-input-msg-${++messageIds}`;
  msg.textContent = DATE_MESSAGE;
  p.root.after(msg);
  const ids = p.text.getAttribute('aria-describedby');
  p.text.setAttribute('aria-describedby', ids ? `${ids} ${msg.id}` : msg.id);
}

/** Keystroke: the posted value follows; a field marked invalid clears once it reads. */
function follow(p: Parts): void {
  const { value, valid } = dateValue(p.text.value);
  p.value.value = value;
  if (valid) setInvalid(p, false);
}

/** Blur or Enter: rewrite the text as dd/mm/yyyy, or mark it invalid. */
function commit(p: Parts): void {
  const { value, valid } = dateValue(p.text.value);
  p.value.value = value;
  if (valid) p.text.value = displayDate(value);
  setInvalid(p, !valid);
  announce(p);
}

/** A day chosen from the menu or the calendar ('' clears). */
function choose(p: Parts, day: string): void {
  p.text.value = formatDate(day) ?? '';
  p.value.value = formatDate(day) === null ? '' : day;
  setInvalid(p, false);
  announce(p);
}

function items(menu: HTMLElement): HTMLElement[] {
  return [...menu.querySelectorAll<HTMLElement>('[role="menuitem"]')];
}

function openMenu(p: Parts): void {
  if (!p.menu || !p.toggle) return;
  closeMenus(p.root.ownerDocument, p.root);
  p.menu.hidden = false;
  p.toggle.setAttribute('aria-expanded', 'true');
  items(p.menu)[0]?.focus();
}

function closeMenu(p: Parts, refocus: boolean): void {
  if (!p.menu || p.menu.hidden) return;
  p.menu.hidden = true;
  p.toggle?.setAttribute('aria-expanded', 'false');
  if (refocus) p.toggle?.focus();
}

function closeMenus(doc: Document, except?: Element): void {
  for (const menu of doc.querySelectorAll<HTMLElement>(`${ROOT} .date-menu:not([hidden])`)) {
    const p = fieldOf(menu);
    if (p && p.root !== except) closeMenu(p, false);
  }
}

/** Opens the browser's calendar on the hidden date input, at the field's day. */
function openCalendar(p: Parts): void {
  const picker = p.picker;
  if (!picker) return;
  picker.value = formatDate(p.value.value) === null ? '' : p.value.value;
  try {
    picker.showPicker();
  } catch {
    // No showPicker (older browsers) or no user activation: the text field still works.
    p.text.focus();
  }
}

function onMenuKey(e: KeyboardEvent, p: Parts): void {
  if (!p.menu) return;
  onDateMenuKey(e, items(p.menu), (refocus) => closeMenu(p, refocus));
}

/**
 * Wires every date field of `doc`, now and later (delegated listeners). Returns a function
 * that removes the listeners (tests).
 */
export function enhanceDateInputs(doc: Document): () => void {
  const listeners = new AbortController();
  const { signal } = listeners;
  const on = <K extends keyof DocumentEventMap>(type: K, fn: (e: DocumentEventMap[K]) => void) =>
    doc.addEventListener(type, fn, { signal });

  on('input', (e) => {
    const p = fieldOf(e.target);
    if (!p) return;
    if (e.target === p.text) follow(p);
  });
  on('change', (e) => {
    const p = fieldOf(e.target);
    if (!p) return;
    if (p.picker && e.target === p.picker) {
      // A day, or '' from the calendar's Clear.
      choose(p, p.picker.value);
      p.text.focus();
    } else if (e.target === p.value && !dispatching) {
      // Another script set the posted value (e.g. the sheet form's due date): show it.
      committed.set(p.value, p.value.value);
      p.text.value = displayDate(p.value.value);
      setInvalid(p, false);
    }
  });
  on('focusout', (e) => {
    const p = fieldOf(e.target);
    if (!p) return;
    if (e.target === p.text) commit(p);
    const to = e.relatedTarget;
    if (p.menu && !p.menu.hidden && !(to instanceof Node && p.root.contains(to))) closeMenu(p, false);
  });
  on('keydown', (e) => {
    const p = fieldOf(e.target);
    if (!p) return;
    if (e.target === p.text) {
      if (e.key === 'Enter') commit(p);
      else if (e.key === 'ArrowDown' && e.altKey && p.menu) {
        e.preventDefault();
        openMenu(p);
      }
    } else if (p.menu?.contains(e.target as Node)) onMenuKey(e, p);
  });
  on('click', (e) => {
    const p = fieldOf(e.target);
    if (!p) {
      closeMenus(doc);
      return;
    }
    const target = e.target as Element;
    const item = target.closest<HTMLElement>('[data-date],[data-calendar]');
    if (item && (p.menu?.contains(item) || item === p.toggle)) {
      closeMenu(p, false);
      if (item.hasAttribute('data-calendar')) {
        openCalendar(p);
      } else {
        choose(p, item.dataset.date ?? '');
        p.text.focus();
      }
      return;
    }
    if (p.toggle && p.menu && p.toggle.contains(target)) {
      if (p.menu.hidden) openMenu(p);
      else closeMenu(p, false);
      return;
    }
    closeMenus(doc);
  });
  return () => listeners.abort();
}
