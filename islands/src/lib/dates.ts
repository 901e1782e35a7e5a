// Dates as people in Australia type and read them: the date field shows dd/mm/yyyy whatever
// the browser's locale; forms and the API carry yyyy-MM-dd. The one parser and formatter of
// the date field, used by the page enhancer (src/date-input.ts) and the React DateInput.
// Shown dates (not typed ones) follow the server's rule (`domain::dates`): `05 Mar 2026`,
// ranges `01 Oct 2026 – 31 Oct 2026` (showDate, showRange).
// Pure and SSR-safe (the current year is a parameter; its default is read only when called).

/** What the date field says under a text it cannot read. */
export const DATE_MESSAGE = 'Enter the date as dd/mm/yyyy';
/** The placeholder of the date field. */
export const DATE_PLACEHOLDER = 'dd/mm/yyyy';
/** The menu item that opens the browser's calendar. */
export const PICK_ON_CALENDAR = 'Pick on calendar…';

const ISO = /^(\d{4})-(\d{1,2})-(\d{1,2})$/;
// Day and month, then an optional year, with one separator used throughout.
const SEPARATED = /^(\d{1,2})([/.-])(\d{1,2})(?:\2(\d{2}|\d{4}))?$/;
const DIGITS = /^\d+$/;

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** `yyyy-MM-dd` of a real calendar day, or null. */
function iso(year: number, month: number, day: number): string | null {
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return null;
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
}

/** A two-digit year is this century's; a missing one is `currentYear`. */
function fullYear(text: string | undefined, currentYear: number): number {
  if (text === undefined || text === '') return currentYear;
  return text.length === 2 ? 2000 + Number(text) : Number(text);
}

/**
 * Reads a typed date as `yyyy-MM-dd`, or null when it is not a real day. Accepts dd/mm/yyyy,
 * dd/mm/yy, dd/mm (this year) with `/`, `-` or `.`; digits only as ddmmyyyy, ddmmyy or ddmm;
 * and yyyy-MM-dd itself, so code that fills ISO still works.
 */
export function parseDate(text: string, currentYear: number = new Date().getFullYear()): string | null {
  const t = text.trim();
  const isoMatch = ISO.exec(t);
  if (isoMatch) return iso(Number(isoMatch[1]), Number(isoMatch[2]), Number(isoMatch[3]));
  const sep = SEPARATED.exec(t);
  if (sep) return iso(fullYear(sep[4], currentYear), Number(sep[3]), Number(sep[1]));
  if (!DIGITS.test(t) || ![4, 6, 8].includes(t.length)) return null;
  return iso(fullYear(t.slice(4), currentYear), Number(t.slice(2, 4)), Number(t.slice(0, 2)));
}

/** `yyyy-MM-dd` → `dd/mm/yyyy`; null when the value is not a real ISO day. */
export function formatDate(value: string): string | null {
  const m = ISO.exec(value.trim());
  if (!m) return null;
  const day = iso(Number(m[1]), Number(m[2]), Number(m[3]));
  return day === null ? null : `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const ISO_START = /^(\d{4})-(\d{2})-(\d{2})(?:$|T| )/;

/**
 * A date as shown (the server's `domain::dates::date`): "2026-03-05" → "05 Mar 2026". A
 * value that only starts with a day (an API date-time) shows that day, as written: the
 * server sends days already in the company's zone. '' for nothing; anything else as it is.
 */
export function showDate(value: string | null | undefined): string {
  if (!value) return '';
  const m = ISO_START.exec(value);
  const day = m ? iso(Number(m[1]), Number(m[2]), Number(m[3])) : null;
  return m && day ? `${m[3]} ${MONTHS[Number(m[2]) - 1]} ${m[1]}` : value;
}

/** A range of days as shown: "01 Oct 2026 – 31 Oct 2026". */
export function showRange(from: string, to: string): string {
  return `${showDate(from)} – ${showDate(to)}`;
}

/** The text the field shows for a value: dd/mm/yyyy for a day, anything else as it is. */
export function displayDate(value: string): string {
  return formatDate(value) ?? value;
}

/**
 * What the field posts for what was typed: '' for nothing, the ISO day when it parses,
 * otherwise the raw text, so the server refuses it rather than keeping an old value.
 */
export function dateValue(text: string, currentYear?: number): { value: string; valid: boolean } {
  const t = text.trim();
  if (t === '') return { value: '', valid: true };
  const day = parseDate(t, currentYear);
  return day === null ? { value: t, valid: false } : { value: day, valid: true };
}

/** What a key does in the date field's menu: focus an item, close it (Escape: focus returns to
 * the field's button; Tab: focus moves on), or nothing. Shared by the page enhancer and the
 * React field so the two menus answer keys alike. */
export type MenuMove = { focus: number } | { close: 'refocus' | 'leave' } | null;

export function menuMove(key: string, at: number, count: number): MenuMove {
  const wrap = (n: number) => ({ focus: (n + count) % count });
  switch (key) {
    case 'ArrowDown':
      return wrap(at + 1);
    case 'ArrowUp':
      return wrap(at - 1);
    case 'Home':
      return { focus: 0 };
    case 'End':
      return { focus: count - 1 };
    case 'Escape':
      return { close: 'refocus' };
    case 'Tab':
      return { close: 'leave' };
    default:
      return null;
  }
}

/** Answers a key pressed in a date menu whose items are `list`: moves focus, or closes the
 * menu through `close(refocus)`. Takes a DOM or a React keyboard event. */
export function onDateMenuKey(
  e: { key: string; target: EventTarget | null; preventDefault(): void },
  list: HTMLElement[],
  close: (refocus: boolean) => void,
): void {
  const move = menuMove(e.key, list.indexOf(e.target as HTMLElement), list.length);
  if (!move) return;
  if ('focus' in move) {
    e.preventDefault();
    list[move.focus]?.focus();
  } else {
    if (move.close === 'refocus') e.preventDefault();
    close(move.close === 'refocus');
  }
}
