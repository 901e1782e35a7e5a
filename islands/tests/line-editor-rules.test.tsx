// Pure line rules: parsing, cents formatting, GST rounding, dates, Enter stops.
import { describe, expect, it } from 'vitest';
import { divRoundHalfAway, gstOf, kindOf, nextStop, parsePrice } from '../src/islands/line-editor/rules';
import { centsToInput, formatCents, formatInt, parseQty } from '../src/lib/money';

describe('rules', () => {
  it('parses quantities as whole numbers ≥ 0', () => {
    expect(['0', '12', ' 7 ', '1.5', '-1', '+1', '1e2', '', '1,000'].map(parseQty)).toEqual([0, 12, 7, null, null, null, null, null, null]);
  });

  it('parses prices like the server (≥ 0, ≤ 2 decimals, grouped thousands, optional $)', () => {
    const cases: Array<[string, number | null]> = [
      ['0', 0],
      ['12', 1200],
      ['12.5', 1250],
      ['12.05', 1205],
      ['.5', 50],
      ['5.', 500],
      ['$1,234.56', 123_456],
      ['1234567.89', 123_456_789],
      ['12.345', null],
      ['-1', null],
      ['1,23', null],
      ['12,3456', null],
      ['.', null],
      ['', null],
      ['abc', null],
      ['1.2.3', null],
    ];
    for (const [text, cents] of cases) expect(parsePrice(text), text).toBe(cents);
  });

  it('formats cents with 2 decimals and thousands separators', () => {
    expect(formatCents(0)).toBe('0.00');
    expect(formatCents(5)).toBe('0.05');
    expect(formatCents(-5)).toBe('-0.05');
    expect(formatCents(123_456_789)).toBe('1,234,567.89');
    expect(formatCents(-100_000)).toBe('-1,000.00');
    expect(formatInt(1_234_567)).toBe('1,234,567');
    expect(formatInt(-1200)).toBe('-1,200');
    expect([999, 1000, 100_000, 1_000_000].map(formatInt)).toEqual(['999', '1,000', '100,000', '1,000,000']);
    expect(centsToInput(14_250)).toBe('142.50');
    expect(centsToInput(7)).toBe('0.07');
  });

  it('GST is 1/11 of the total rounded half away from zero, only for tax types 2 and 3', () => {
    expect(gstOf(1_100, 3)).toBe(100);
    expect(gstOf(10_000, 2)).toBe(909); // 909.09
    expect(gstOf(39_400, 3)).toBe(3_582); // 3581.8
    expect(gstOf(-39_400, 3)).toBe(-3_582);
    expect(gstOf(10_000, 1)).toBe(0);
    expect(divRoundHalfAway(5, 2)).toBe(3);
    expect(divRoundHalfAway(-5, 2)).toBe(-3);
    expect(divRoundHalfAway(4, 3)).toBe(1);
  });

  it('maps order types to kinds', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map(kindOf)).toEqual(['sales', 'sales', 'purchase', 'purchase', 'purchase', 'transfer', 'adjustment']);
  });

  it('Enter stops follow the row order', () => {
    expect(nextStop('sales', 'code')).toBe('qty');
    expect(nextStop('sales', 'name')).toBe('qty');
    expect(nextStop('sales', 'qty')).toBeNull(); // a sales line ends at its quantity
    expect(nextStop('sales', 'price')).toBeNull();
    expect(nextStop('purchase', 'price')).toBe('description');
    expect(nextStop('purchase', 'taxType')).toBe('description');
    expect(nextStop('purchase', 'description')).toBeNull();
    expect(nextStop('transfer', 'qty')).toBeNull();
    expect(nextStop('adjustment', 'code')).toBe('inWarehouseQty');
  });
});
