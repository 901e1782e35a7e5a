// The standard price dialog's data and rules (spec §5 "Standard price dialog"). Pure and
// SSR-safe; the component and the tests share them.
import { centsToInput } from '../../lib/money';
import { parsePrice } from '../../lib/PriceInput';
import { deriveTier } from './tiers';

export const MSG_SPECIAL_ZERO =
  'When "Special or not" is YES, "Monthly Special" price CANNOT be 0';
export const MSG_SPECIAL_NOT_YES =
  'When the "Monthly Special" price is set, "Special or not" MUST be YES';
export const MSG_SPECIAL_RESET = 'Special is off: the Monthly Special price was reset to 0.';
export const MSG_NO_PERMISSION = 'Sorry, no permission to modify the prices.';
export const MSG_SAVED = 'Operation successful';

/** Tier uplifts over Class A in basis points (500 = +5%). */
export interface Uplifts {
  b: number;
  c: number;
  d: number;
  e: number;
}

/** The server's defaults (DESIGN §5), used only when the page sends none. */
export const DEFAULT_UPLIFTS: Uplifts = { b: 500, c: 1000, d: 1500, e: 2000 };

export type Tier = keyof Uplifts;
export const TIERS: readonly Tier[] = ['b', 'c', 'd', 'e'];

export type PriceField =
  | 'standardPrice'
  | 'specialPrice'
  | 'classAPrice'
  | 'classBPrice'
  | 'classCPrice'
  | 'classDPrice'
  | 'classEPrice'
  | 'ref_pur';

export const TIER_FIELD: Record<Tier, PriceField> = {
  b: 'classBPrice',
  c: 'classCPrice',
  d: 'classDPrice',
  e: 'classEPrice',
};

/** `GET /api/products/{id}` → `data` (the fields this dialog uses; prices in cents). */
export interface ProductPrices {
  id: number;
  code: string;
  name: string;
  standardPrice: number;
  specialPrice: number;
  classAPrice: number;
  /** null: derived from Class A. */
  classBPrice: number | null;
  classCPrice: number | null;
  classDPrice: number | null;
  classEPrice: number | null;
  /** null: withheld from a viewer who may not see cost (the field is not shown or sent). */
  ref_pur: number | null;
  is_special: boolean;
  is_clearance: boolean;
  is_customer_show: boolean;
}

/**
 * `POST /api/products/{id}/price` body: the prices and flags (cents; a tier is null when not
 * overridden; `ref_pur` absent keeps the stored one).
 */
export type PriceUpdate = Omit<ProductPrices, 'id' | 'code' | 'name' | 'ref_pur'> & { ref_pur?: number };

/** What the dialog edits: price texts as typed, tier overrides and the three flags. */
export interface PriceForm {
  prices: Record<PriceField, string>;
  overrides: Record<Tier, boolean>;
  isSpecial: boolean;
  isClearance: boolean;
  isCustomerShow: boolean;
  /** Whether the reference purchase price is shown and edited (the viewer sees cost). */
  hasRefPur: boolean;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isCents = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);
const cents = (v: unknown): number => (isCents(v) ? v : 0);
const optionalCents = (v: unknown): number | null => (isCents(v) ? v : null);
/** Booleans may come as true/false or 1/0. */
const flag = (v: unknown): boolean => v === true || v === 1 || v === '1';

/** The API answer's `data` → the product, or null when it is not one. */
export function toProductPrices(raw: unknown): ProductPrices | null {
  if (!isRecord(raw) || typeof raw.id !== 'number') return null;
  return {
    id: raw.id,
    code: typeof raw.code === 'string' ? raw.code : '',
    name: typeof raw.name === 'string' ? raw.name : '',
    standardPrice: cents(raw.standardPrice),
    specialPrice: cents(raw.specialPrice),
    classAPrice: cents(raw.classAPrice),
    classBPrice: optionalCents(raw.classBPrice),
    classCPrice: optionalCents(raw.classCPrice),
    classDPrice: optionalCents(raw.classDPrice),
    classEPrice: optionalCents(raw.classEPrice),
    ref_pur: optionalCents(raw.ref_pur),
    is_special: flag(raw.is_special),
    is_clearance: flag(raw.is_clearance),
    is_customer_show: flag(raw.is_customer_show),
  };
}

/** Uplifts from untyped props: whole, non-negative basis points, else the default. */
export function toUplifts(raw: unknown): Uplifts {
  const src = isRecord(raw) ? raw : {};
  const pick = (tier: Tier): number => {
    const v = src[tier];
    return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : DEFAULT_UPLIFTS[tier];
  };
  return { b: pick('b'), c: pick('c'), d: pick('d'), e: pick('e') };
}

export function formFromProduct(p: ProductPrices): PriceForm {
  const text = (v: number | null) => (v === null ? '' : centsToInput(v));
  return {
    prices: {
      standardPrice: text(p.standardPrice),
      specialPrice: text(p.specialPrice),
      classAPrice: text(p.classAPrice),
      classBPrice: text(p.classBPrice),
      classCPrice: text(p.classCPrice),
      classDPrice: text(p.classDPrice),
      classEPrice: text(p.classEPrice),
      ref_pur: text(p.ref_pur),
    },
    overrides: {
      b: p.classBPrice !== null,
      c: p.classCPrice !== null,
      d: p.classDPrice !== null,
      e: p.classEPrice !== null,
    },
    isSpecial: p.is_special,
    isClearance: p.is_clearance,
    isCustomerShow: p.is_customer_show,
    hasRefPur: p.ref_pur !== null,
  };
}

/** The derived tier price from the Class A text, or null while Class A is invalid. */
export function derivedFrom(classAText: string, upliftBp: number): number | null {
  const a = parsePrice(classAText);
  return a.ok ? deriveTier(a.cents, upliftBp) : null;
}

/** The price fields that are edited (a tier only while overridden), in screen order. */
export function activeFields(form: PriceForm): PriceField[] {
  const fields: PriceField[] = ['standardPrice', 'specialPrice', 'classAPrice'];
  for (const tier of TIERS) if (form.overrides[tier]) fields.push(TIER_FIELD[tier]);
  if (form.hasRefPur) fields.push('ref_pur');
  return fields;
}

export type Validation =
  | { ok: true; update: PriceUpdate }
  | { ok: false; errors: Partial<Record<PriceField, string>>; first: PriceField; message: string };

/**
 * Checks the form: every edited price (≥ 0, at most 2 decimals), then the Special rules.
 * On success gives the request body.
 */
export function validateForm(form: PriceForm): Validation {
  const errors: Partial<Record<PriceField, string>> = {};
  const values: Partial<Record<PriceField, number>> = {};
  let first: PriceField | null = null;
  for (const field of activeFields(form)) {
    const parsed = parsePrice(form.prices[field]);
    if (parsed.ok) {
      values[field] = parsed.cents;
    } else {
      errors[field] = parsed.message;
      first ??= field;
    }
  }
  if (first !== null) return { ok: false, errors, first, message: errors[first] ?? '' };

  const special = values.specialPrice ?? 0;
  if (form.isSpecial && special === 0) {
    return {
      ok: false,
      errors: { specialPrice: MSG_SPECIAL_ZERO },
      first: 'specialPrice',
      message: MSG_SPECIAL_ZERO,
    };
  }
  if (!form.isSpecial && special > 0) {
    return {
      ok: false,
      errors: { specialPrice: MSG_SPECIAL_NOT_YES },
      first: 'specialPrice',
      message: MSG_SPECIAL_NOT_YES,
    };
  }

  const tier = (t: Tier): number | null =>
    form.overrides[t] ? (values[TIER_FIELD[t]] ?? null) : null;
  return {
    ok: true,
    update: {
      standardPrice: values.standardPrice ?? 0,
      specialPrice: special,
      classAPrice: values.classAPrice ?? 0,
      classBPrice: tier('b'),
      classCPrice: tier('c'),
      classDPrice: tier('d'),
      classEPrice: tier('e'),
      ...(form.hasRefPur ? { ref_pur: values.ref_pur ?? 0 } : {}),
      is_special: form.isSpecial,
      is_clearance: form.isClearance,
      is_customer_show: form.isCustomerShow,
    },
  };
}
