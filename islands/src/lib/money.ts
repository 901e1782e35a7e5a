// Money and quantities as the islands take and show them: the API speaks integer cents;
// inputs hold dollars with two decimals; the screen shows two decimals with thousands
// separators (en-AU). Pure and SSR-safe; every island parses and formats through here.

/** "1234567" → "1,234,567". A loop: the server renders with QuickJS, whose look-ahead
 *  regular expressions cost several times this. */
function group(digits: string): string {
  const head = digits.length % 3 || 3;
  let out = digits.slice(0, head);
  for (let i = head; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
  return out;
}

/** Cents → the text put into a price input, e.g. 123456 → "1234.56". */
export function centsToInput(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(cents));
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** Cents → "1,234.56" (2 decimals, thousands separators). */
export function formatCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(cents));
  return `${sign}${group(String(Math.floor(abs / 100)))}.${String(abs % 100).padStart(2, '0')}`;
}

/** A whole number with thousands separators, e.g. 1234 → "1,234". */
export function formatInt(n: number): string {
  return (n < 0 ? '-' : '') + group(String(Math.abs(Math.trunc(n))));
}

/**
 * The largest amount an input accepts, in cents: just under one billion dollars, the
 * server's own limit (`Cents::MAX_INPUT` in app/crates/domain/src/money.rs), so an amount the
 * island lets through is never refused by the server for its size.
 */
export const MAX_CENTS = 99_999_999_999;

/** Why a typed amount was refused. */
export type MoneyError = 'empty' | 'invalid' | 'negative' | 'decimals' | 'too-large';

export type MoneyParse = { ok: true; cents: number } | { ok: false; error: MoneyError };

// A sign before or after the dollar sign, whole dollars (commas only between groups of
// three, so "1,50" is not read as 150 dollars), then the decimals.
const AMOUNT = /^(-)?\$?\s*(-)?(\d{1,3}(?:,\d{3})+|\d*)(?:\.(\d*))?$/;

/** Up to 9 whole dollars and up to 2 decimals: never more than MAX_CENTS. */
const PLAIN = /^(\d{1,9})(?:\.(\d{1,2}))?$/;

/**
 * Dollars as typed → cents, 0 or more, read as the server reads them: "12", "12.5", ".5",
 * "12.", "$1,234.56"; "-0" is 0. Refuses an empty text, a negative amount, more than 2
 * decimals and more than MAX_CENTS, each with its own reason.
 */
export function parseMoney(text: string): MoneyParse {
  // Most amounts are plain ("189", "189.5", "189.00"): read without the full pattern, whose
  // backtracking costs the server's engine (QuickJS) a few microseconds each time.
  const plain = PLAIN.exec(text);
  if (plain) return { ok: true, cents: Number(plain[1]) * 100 + Number((plain[2] ?? '').padEnd(2, '0')) };
  const t = text.trim();
  if (t === '') return { ok: false, error: 'empty' };
  const m = AMOUNT.exec(t);
  const whole = (m?.[3] ?? '').replace(/,/g, '');
  const fraction = m?.[4] ?? '';
  if (!m || (m[1] && m[2]) || (whole === '' && fraction === '')) return { ok: false, error: 'invalid' };
  if ((m[1] || m[2]) && /[1-9]/.test(whole + fraction)) return { ok: false, error: 'negative' };
  if (fraction.length > 2) return { ok: false, error: 'decimals' };
  const cents = Number(whole || '0') * 100 + Number(fraction.padEnd(2, '0'));
  if (!Number.isSafeInteger(cents) || cents > MAX_CENTS) return { ok: false, error: 'too-large' };
  return { ok: true, cents };
}

/** A quantity as typed: a whole number ≥ 0 ("12"), else null. */
export function parseQty(text: string): number | null {
  const t = text.trim();
  if (!/^\d+$/.test(t)) return null;
  const n = Number(t);
  return Number.isSafeInteger(n) ? n : null;
}

/** A whole number, possibly negative (in-system stock may be below 0), else null. */
export function parseSignedInt(text: string): number | null {
  const t = text.trim();
  if (!/^-?\d+$/.test(t)) return null;
  const n = Number(t);
  return Number.isSafeInteger(n) ? n : null;
}
