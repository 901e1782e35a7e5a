// Tier prices of the standard price dialog (spec §5): derived from Class A by an uplift in
// basis points. Pure; the parsing and formatting of money is lib/money.ts.

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
