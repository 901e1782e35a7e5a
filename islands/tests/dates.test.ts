// The date field's parser and formatter: every accepted and refused form (issue 15).
import { describe, expect, it } from 'vitest';
import { dateValue, displayDate, formatDate, menuMove, parseDate, showDate, showRange } from '../src/lib/dates';

const YEAR = 2026;

describe('parseDate', () => {
  it.each([
    ['23/11/2026', '2026-11-23'],
    ['23/11/26', '2026-11-23'],
    ['23-11-2026', '2026-11-23'],
    ['23.11.2026', '2026-11-23'],
    ['23-11-26', '2026-11-23'],
    ['231126', '2026-11-23'],
    ['23112026', '2026-11-23'],
    ['23/11', '2026-11-23'],
    ['23.11', '2026-11-23'],
    ['2311', '2026-11-23'],
    ['3/2/2027', '2027-02-03'],
    ['03/02/27', '2027-02-03'],
    ['2026-11-23', '2026-11-23'],
    ['2026-1-5', '2026-01-05'],
    ['  23/11/2026 ', '2026-11-23'],
    ['29/02/2028', '2028-02-29'],
    ['31/12/99', '2099-12-31'],
    ['01/01/00', '2000-01-01'],
  ])('reads %j as %s', (text, want) => {
    expect(parseDate(text, YEAR)).toBe(want);
  });

  it('takes the current year for dd/mm and ddmm', () => {
    expect(parseDate('23/11', 2031)).toBe('2031-11-23');
    expect(parseDate('2311', 2031)).toBe('2031-11-23');
    expect(parseDate('23/11')).toBe(`${new Date().getFullYear()}-11-23`);
  });

  it.each([
    '31/02/2026',
    '29/02/2026',
    '00/01/2026',
    '32/01/2026',
    '15/13/2026',
    '15/00/2026',
    '310226',
    '2026-02-31',
    '2026-13-01',
    '0000-01-01',
    '23/11/2',
    '23/11/202',
    '23/11/20266',
    '23/11-2026',
    '23',
    '231',
    '23112',
    '2311202',
    '231120266',
    '23 11 2026',
    'today',
    '',
    '   ',
    '23/11/2026x',
  ])('refuses %j', (text) => {
    expect(parseDate(text, YEAR)).toBeNull();
  });
});

describe('formatDate and displayDate', () => {
  it('shows an ISO day as dd/mm/yyyy', () => {
    expect(formatDate('2026-11-23')).toBe('23/11/2026');
    expect(formatDate('2027-02-03')).toBe('03/02/2027');
    expect(formatDate('2026-1-5')).toBe('05/01/2026');
  });

  it('has no text for what is not a real ISO day', () => {
    expect(formatDate('')).toBeNull();
    expect(formatDate('23/11/2026')).toBeNull();
    expect(formatDate('2026-02-31')).toBeNull();
  });

  it('round-trips with parseDate', () => {
    for (const day of ['2026-11-23', '2028-02-29', '2000-01-01', '2099-12-31']) {
      expect(parseDate(formatDate(day) ?? '', YEAR)).toBe(day);
    }
  });

  it('shows a value the server sent back as it is when it is not a day', () => {
    expect(displayDate('2026-11-23')).toBe('23/11/2026');
    expect(displayDate('31/02/2026')).toBe('31/02/2026');
    expect(displayDate('')).toBe('');
  });
});

describe('dateValue', () => {
  it('posts the ISO day, nothing for nothing, and the raw text for a bad entry', () => {
    expect(dateValue('231126', YEAR)).toEqual({ value: '2026-11-23', valid: true });
    expect(dateValue('  ', YEAR)).toEqual({ value: '', valid: true });
    expect(dateValue(' 31/02/2026 ', YEAR)).toEqual({ value: '31/02/2026', valid: false });
  });
});

describe('menuMove', () => {
  it('moves through the menu with wrap-around, Home and End, and closes on Escape and Tab', () => {
    expect(menuMove('ArrowDown', 0, 3)).toEqual({ focus: 1 });
    expect(menuMove('ArrowDown', 2, 3)).toEqual({ focus: 0 });
    expect(menuMove('ArrowUp', 0, 3)).toEqual({ focus: 2 });
    expect(menuMove('Home', 2, 3)).toEqual({ focus: 0 });
    expect(menuMove('End', 0, 3)).toEqual({ focus: 2 });
    expect(menuMove('Escape', 1, 3)).toEqual({ close: 'refocus' });
    expect(menuMove('Tab', 1, 3)).toEqual({ close: 'leave' });
    expect(menuMove('a', 1, 3)).toBeNull();
  });
});

describe('showDate and showRange (the server rule, domain::dates)', () => {
  it('shows a day as dd MMM yyyy', () => {
    expect(showDate('2026-03-05')).toBe('05 Mar 2026');
    expect(showDate('2026-11-27')).toBe('27 Nov 2026');
    expect(showDate('2025-09-30T10:00:00')).toBe('30 Sep 2025');
    expect(showDate('2025-09-30 10:00:00')).toBe('30 Sep 2025');
  });

  it('leaves what is not a day as it is', () => {
    expect(showDate('soon')).toBe('soon');
    expect(showDate('2026-02-31')).toBe('2026-02-31');
    expect(showDate('2026-03-055')).toBe('2026-03-055');
    expect(showDate(null)).toBe('');
    expect(showDate(undefined)).toBe('');
  });

  it('shows a range with an en dash', () => {
    expect(showRange('2026-10-01', '2026-10-31')).toBe('01 Oct 2026 – 31 Oct 2026');
  });
});
