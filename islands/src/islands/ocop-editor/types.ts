// OCOP (per-customer price) API shapes and their parsers (spec §2.4 OCOP list). Prices in
// cents. Parsers drop malformed entries instead of failing the whole answer.

/** `GET /api/ocops/{productId}` → `data.product`. */
export interface OcopProduct {
  id: number;
  code: string;
  name: string;
  classAPrice: number;
  standardPrice: number;
}

/** `GET /api/ocops/{productId}` → `data.csrs[]`: a customer with an OCOP price. */
export interface OcopCustomer {
  id: number;
  name: string;
  code: string;
  price: number;
}

/** `GET /api/ocops/{productId}` → `data`. */
export interface OcopAnswer {
  product: OcopProduct;
  csrs: OcopCustomer[];
}

/** `GET /api/customers?name=…` → `data[]` (the fields used here). */
export interface CustomerHit {
  id: number;
  name: string;
  code: string;
}

/** `GET /api/ocops?customerId=…` → `data[]`: one product's OCOP price for the customer. */
export interface CustomerPrice {
  id: number;
  code: string;
  name: string;
  price: number;
  classAPrice: number | null;
}

/** `PUT /api/ocops/{productId}` body: the complete list (absent customers are removed). */
export interface OcopUpdate {
  prices: Array<{ id: number; price: number }>;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isId = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v > 0;
const str = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
const cents = (v: unknown): number | null =>
  typeof v === 'number' && Number.isSafeInteger(v) ? v : null;

export function toOcopAnswer(raw: unknown): OcopAnswer | null {
  if (!isRecord(raw) || !isRecord(raw.product) || !isId(raw.product.id)) return null;
  const p = raw.product;
  const product: OcopProduct = {
    id: p.id as number,
    code: str(p.code),
    name: str(p.name),
    classAPrice: cents(p.classAPrice) ?? 0,
    standardPrice: cents(p.standardPrice) ?? 0,
  };
  const csrs: OcopCustomer[] = [];
  const seen = new Set<number>();
  for (const c of Array.isArray(raw.csrs) ? raw.csrs : []) {
    if (!isRecord(c) || !isId(c.id) || seen.has(c.id)) continue;
    seen.add(c.id);
    csrs.push({ id: c.id, name: str(c.name), code: str(c.code), price: cents(c.price) ?? 0 });
  }
  return { product, csrs };
}

export function toCustomerHits(raw: unknown): CustomerHit[] {
  if (!Array.isArray(raw)) return [];
  const hits: CustomerHit[] = [];
  for (const c of raw) {
    if (isRecord(c) && isId(c.id)) hits.push({ id: c.id, name: str(c.name), code: str(c.code) });
  }
  return hits;
}

export function toCustomerPrices(raw: unknown): CustomerPrice[] {
  if (!Array.isArray(raw)) return [];
  const rows: CustomerPrice[] = [];
  for (const r of raw) {
    if (!isRecord(r) || !isId(r.id)) continue;
    rows.push({
      id: r.id,
      code: str(r.code),
      name: str(r.name),
      price: cents(r.price) ?? 0,
      classAPrice: cents(r.classAPrice),
    });
  }
  return rows;
}

/** `meta.total` of a list answer, when the server sends it. */
export function metaTotal(raw: unknown): number | null {
  if (!isRecord(raw)) return null;
  const total = raw.total;
  return typeof total === 'number' && Number.isSafeInteger(total) ? total : null;
}
