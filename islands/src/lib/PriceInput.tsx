// The price input of the price dialogs (the standard one and OCOP, spec §5): dollars in a
// number input, checked with the dialogs' own messages. SSR-safe.
import { forwardRef, type ComponentPropsWithoutRef } from 'react';
import { errorAria } from './form';
import { parseMoney, type MoneyError } from './money';

export const MSG_PRICE_NEGATIVE = 'Prices cannot be negative.';
export const MSG_PRICE_DECIMALS = 'Prices can have at most 2 decimals.';
export const MSG_PRICE_EMPTY = 'Please enter';
export const MSG_PRICE_INVALID = 'Please enter a valid price.';
export const MSG_PRICE_TOO_BIG = 'The price is too large.';

const MESSAGES: Record<MoneyError, string> = {
  empty: MSG_PRICE_EMPTY,
  invalid: MSG_PRICE_INVALID,
  negative: MSG_PRICE_NEGATIVE,
  decimals: MSG_PRICE_DECIMALS,
  'too-large': MSG_PRICE_TOO_BIG,
};

export type PriceParse = { ok: true; cents: number } | { ok: false; message: string };

/**
 * A price input's text → cents, or the message that says why not. Read as `parseMoney`,
 * except that zeros after the second decimal do not count ("1.500" is 1.50).
 */
export function parsePrice(text: string): PriceParse {
  const parsed = parseMoney(text.trim().replace(/(\.\d{2})0+$/, '$1'));
  return parsed.ok ? parsed : { ok: false, message: MESSAGES[parsed.error] };
}

/** The message for a price input's text; undefined when it is a valid price. */
export function priceError(text: string): string | undefined {
  const parsed = parsePrice(text);
  return parsed.ok ? undefined : parsed.message;
}

export interface PriceInputProps extends Omit<ComponentPropsWithoutRef<'input'>, 'id' | 'type' | 'inputMode' | 'step' | 'min'> {
  id: string;
  /** The field's message (shown by a FieldError of this id), if any. */
  error: string | undefined;
  /** Describes the input while it has no message. */
  hintId?: string;
}

/**
 * Dollars and cents, not below 0, wired to the field's message. `forwardRef`, not a `ref`
 * prop: Preact (the islands' runtime) passes a function component no `ref`.
 */
export const PriceInput = forwardRef<HTMLInputElement, PriceInputProps>(function PriceInput({ id, error, hintId, ...input }, ref) {
  return <input ref={ref} id={id} type="number" inputMode="decimal" step="0.01" min="0" {...input} {...errorAria(id, error, hintId)} />;
});
