// Money as the islands show it: the API speaks integer cents; inputs hold dollars with two
// decimals; the screen shows two decimals with thousands separators (en-AU). Pure and
// SSR-safe; every island formats through here.

function group(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
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
