// Money and quantities as typed (lib/money.ts) and the price dialogs' price rules
// (lib/PriceInput.tsx).
import { describe, expect, it } from 'vitest';
import { MAX_CENTS, parseMoney, parseQty, parseSignedInt } from '../src/lib/money';
import { parsePrice, priceError } from '../src/lib/PriceInput';

describe('parseMoney', () => {
  it('reads what staff type, as the server does', () => {
    const cases: Array<[string, number]> = [
      ['0', 0],
      ['12', 1200],
      ['12.5', 1250],
      ['12.05', 1205],
      ['.5', 50],
      ['12.', 1200],
      ['  7.5  ', 750],
      ['$12', 1200],
      ['$ 7.50', 750],
      ['$1,234.56', 123_456],
      ['1,234,567.89', 123_456_789],
      ['-0', 0],
      ['-$0.00', 0],
      ['007', 700],
      ['999999999.99', 99_999_999_999],
      ['000000001.1', 110],
      ['189.00', 18_900],
    ];
    for (const [text, cents] of cases) expect(parseMoney(text), text).toEqual({ ok: true, cents });
  });

  it('gives the reason for a refusal', () => {
    const cases: Array<[string, string]> = [
      ['', 'empty'],
      ['   ', 'empty'],
      ['abc', 'invalid'],
      ['1.2.3', 'invalid'],
      ['1,50', 'invalid'],
      ['12,3456', 'invalid'],
      ['.', 'invalid'],
      ['$', 'invalid'],
      ['--5', 'invalid'],
      ['+5', 'invalid'],
      ['1e3', 'invalid'],
      ['-1', 'negative'],
      ['$-3.10', 'negative'],
      ['-0.01', 'negative'],
      ['12.345', 'decimals'],
      ['12.500', 'decimals'],
      [String(MAX_CENTS / 100 + 1), 'too-large'],
      ['99999999999999999999', 'too-large'],
    ];
    for (const [text, error] of cases) expect(parseMoney(text), text).toEqual({ ok: false, error });
  });

  it('accepts the largest amount itself', () => {
    expect(parseMoney(String(MAX_CENTS / 100))).toEqual({ ok: true, cents: MAX_CENTS });
  });
});

describe('price dialogs: parsePrice and priceError', () => {
  it('lets zeros after the second decimal pass, other decimals not', () => {
    expect(parsePrice('1.500')).toEqual({ ok: true, cents: 150 });
    expect(parsePrice('1.2300')).toEqual({ ok: true, cents: 123 });
    expect(parsePrice('1.0010')).toEqual({ ok: false, message: 'Prices can have at most 2 decimals.' });
  });

  it('says each refusal in the dialogs’ words', () => {
    expect(priceError('')).toBe('Please enter');
    expect(priceError('abc')).toBe('Please enter a valid price.');
    expect(priceError('-5')).toBe('Prices cannot be negative.');
    expect(priceError('5.125')).toBe('Prices can have at most 2 decimals.');
    expect(priceError('99999999999999999999')).toBe('The price is too large.');
    expect(priceError('12.50')).toBeUndefined();
  });
});

describe('quantities', () => {
  it('parseQty takes whole numbers ≥ 0 only', () => {
    expect(['0', '12', ' 7 ', '1.5', '-1', '+1', '1e2', '', '1,000'].map(parseQty)).toEqual([0, 12, 7, null, null, null, null, null, null]);
    expect(parseQty('9'.repeat(20))).toBeNull();
  });

  it('parseSignedInt also takes negative whole numbers', () => {
    expect(['-3', '0', '14', '-', '1.5', ' -2 '].map(parseSignedInt)).toEqual([-3, 0, 14, null, null, -2]);
  });
});
