// Money helpers for the price dialogs (spec §5): the API speaks integer cents; inputs hold
// dollars with at most 2 decimals; the screen shows 2 decimals with thousands separators
// (en-AU). Pure functions with no browser globals, so they are SSR-safe and shared by the
// standard price dialog and the OCOP editor.

import { centsToInput, formatCents, formatInt } from '../../lib/money';
export { centsToInput, formatCents, formatInt };

export const MSG_PRICE_NEGATIVE = 'Prices cannot be negative.';
export const MSG_PRICE_DECIMALS = 'Prices can have at most 2 decimals.';
export const MSG_PRICE_EMPTY = 'Please enter';
export const MSG_PRICE_INVALID = 'Please enter a valid price.';
export const MSG_PRICE_TOO_BIG = 'The price is too large.';

/** The largest price accepted (one trillion dollars, as the server). */
export const MAX_CENTS = 100_000_000_000_000;

export type PriceParse = { ok: true; cents: number } | { ok: false; message: string };

/**
 * A price input's text → cents. Accepts "12", "12.5", "12.50", ".5" (what an
 * `<input type=number>` yields). Refuses empty text, negatives and more than 2 decimals,
 * each with its own message.
 */
export function parsePrice(text: string): PriceParse {
  const t = text.trim();
  if (t === '') return { ok: false, message: MSG_PRICE_EMPTY };
  const m = /^(-)?(\d*)(?:\.(\d*))?$/.exec(t);
  if (!m || ((m[2] ?? '') === '' && (m[3] ?? '') === '')) {
    return { ok: false, message: MSG_PRICE_INVALID };
  }
  const negative = m[1] === '-';
  const whole = m[2] ?? '';
  const fraction = m[3] ?? '';
  const isZero = /^0*$/.test(whole) && /^0*$/.test(fraction);
  if (negative && !isZero) return { ok: false, message: MSG_PRICE_NEGATIVE };
  // "1.50" and "1.500" are both fine: only significant decimals count.
  if (fraction.replace(/0+$/, '').length > 2) return { ok: false, message: MSG_PRICE_DECIMALS };
  const cents = Number(whole || '0') * 100 + Number((fraction + '00').slice(0, 2));
  if (!Number.isSafeInteger(cents) || cents > MAX_CENTS) {
    return { ok: false, message: MSG_PRICE_TOO_BIG };
  }
  return { ok: true, cents };
}

/**
 * Class A raised by `upliftBp` basis points, rounded to the cent half away from zero —
 * the server's `derive_tier` (DESIGN §5). BigInt keeps large prices exact.
 */
export function deriveTier(classA: number, upliftBp: number): number {
  const numer = BigInt(Math.trunc(classA)) * (10_000n + BigInt(Math.trunc(upliftBp)));
  const negative = numer < 0n;
  const abs = negative ? -numer : numer;
  let q = abs / 10_000n;
  if ((abs % 10_000n) * 2n >= 10_000n) q += 1n;
  return Number(negative ? -q : q);
}

/** Basis points → "+5%" / "+2.5%". */
export function formatUplift(bp: number): string {
  const pct = bp / 100;
  return `${pct >= 0 ? '+' : ''}${Number.isInteger(pct) ? pct : pct.toFixed(2).replace(/0+$/, '')}%`;
}
