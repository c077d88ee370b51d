import { describe, expect, it } from 'vitest';
import { ADJUSTMENT_REASON_MAX, AdjustmentCreateSchema, MAX_AMOUNT } from '@pa/shared';
import { attemptFor, goesNegative, outcomeUnknown, parseAdjustmentAmount, reasonError, splitSign } from '../src/features/promoters/lib/adjust-form';
import { csvRowCount, readFilters, writeFilters } from '../src/features/promoters/lib/promoter-list';

const ok = (amount: number) => ({ ok: true, amount });
const fail = (error: string, digits = 2) => ({ ok: false, error, digits });

describe('parseAdjustmentAmount: typed major units → signed integer minor units, exactly', () => {
  it.each([
    ['12.34', 'credit', 1234],
    ['12.34', 'debit', -1234],
    ['0.01', 'credit', 1],
    ['0.01', 'debit', -1],
    ['12', 'credit', 1200],
    ['12,5', 'debit', -1250],
    ['.5', 'credit', 50],
    ['  7.10 ', 'credit', 710],
    ['１２．３４', 'credit', 1234],
    ['12.340', 'credit', 1234],
  ] as const)('CNY %j as a %s → %i', (text, direction, minor) => {
    expect(parseAdjustmentAmount(text, direction, 'CNY')).toEqual(ok(minor));
  });

  it('never goes through a float (values a float multiply gets wrong)', () => {
    // 0.29 * 100 = 28.999999999999996, 4.35 * 100 = 434.99999999999994, 1.13 * 100 = 112.99999999999999
    expect(parseAdjustmentAmount('0.29', 'credit', 'CNY')).toEqual(ok(29));
    expect(parseAdjustmentAmount('4.35', 'debit', 'CNY')).toEqual(ok(-435));
    expect(parseAdjustmentAmount('1.13', 'credit', 'CNY')).toEqual(ok(113));
    expect(parseAdjustmentAmount('9999999999.99', 'debit', 'CNY')).toEqual(ok(-999_999_999_999));
  });

  it('a sign typed in front wins over the chosen direction', () => {
    expect(parseAdjustmentAmount('-12.34', 'credit', 'CNY')).toEqual(ok(-1234));
    expect(parseAdjustmentAmount('\u221212.34', 'credit', 'CNY')).toEqual(ok(-1234));
    expect(parseAdjustmentAmount('－5', 'credit', 'CNY')).toEqual(ok(-500));
    expect(parseAdjustmentAmount('+5', 'debit', 'CNY')).toEqual(ok(500));
    expect(parseAdjustmentAmount(' - 5', 'credit', 'CNY')).toEqual(ok(-500));
  });

  it('refuses zero in every spelling', () => {
    for (const text of ['0', '0.00', '-0', '+0.0', '.0', '0,']) expect(parseAdjustmentAmount(text, 'credit', 'CNY'), text).toEqual(fail('zero'));
  });

  it('refuses junk, a second sign, grouping and exponents', () => {
    for (const text of ['abc', '12a', '1e3', '1,234.56', '--5', '+-5', '12.3.4', '¥12', '12 34', 'NaN', 'Infinity', '0x10']) {
      expect(parseAdjustmentAmount(text, 'credit', 'CNY'), text).toEqual(fail('invalid'));
    }
  });

  it('asks for an amount when nothing is typed', () => {
    expect(parseAdjustmentAmount('', 'credit', 'CNY')).toEqual(fail('required'));
    expect(parseAdjustmentAmount('   ', 'debit', 'CNY')).toEqual(fail('required'));
    expect(parseAdjustmentAmount('-', 'debit', 'CNY')).toEqual(fail('required'));
  });

  it('refuses more decimals than the currency has (2 for CNY, 0 for JPY, 3 for KWD)', () => {
    expect(parseAdjustmentAmount('12.345', 'credit', 'CNY')).toEqual(fail('decimals'));
    expect(parseAdjustmentAmount('-0.001', 'credit', 'CNY')).toEqual(fail('decimals'));
    expect(parseAdjustmentAmount('1500', 'debit', 'JPY')).toEqual(ok(-1500));
    expect(parseAdjustmentAmount('1500.5', 'credit', 'JPY')).toEqual(fail('decimals', 0));
    expect(parseAdjustmentAmount('1.005', 'credit', 'KWD')).toEqual(ok(1005));
  });

  it('stops at the server’s largest amount, on both sides', () => {
    expect(parseAdjustmentAmount('10000000000', 'credit', 'CNY')).toEqual(ok(MAX_AMOUNT));
    expect(parseAdjustmentAmount('10000000000', 'debit', 'CNY')).toEqual(ok(-MAX_AMOUNT));
    expect(parseAdjustmentAmount('10000000000.01', 'credit', 'CNY')).toEqual(fail('too_large'));
    expect(parseAdjustmentAmount('-99999999999999999999', 'credit', 'CNY')).toEqual(fail('too_large'));
  });

  it('what it accepts, the server’s own schema accepts too', () => {
    for (const [text, direction] of [['12.34', 'credit'], ['0.01', 'debit'], ['10000000000', 'debit']] as const) {
      const parsed = parseAdjustmentAmount(text, direction, 'CNY');
      if (!parsed.ok) throw new Error(text);
      expect(AdjustmentCreateSchema.safeParse({ amount: parsed.amount, reason: 'x' }).success).toBe(true);
    }
  });
});

describe('the rest of the adjustment form', () => {
  it('splits a leading sign into the direction', () => {
    expect(splitSign('-12')).toEqual({ direction: 'debit', rest: '12' });
    expect(splitSign('+12')).toEqual({ direction: 'credit', rest: '12' });
    expect(splitSign('12')).toEqual({ direction: null, rest: '12' });
    expect(splitSign('1-2')).toEqual({ direction: null, rest: '1-2' });
  });

  it('wants a reason, trimmed, at most the server’s length', () => {
    expect(reasonError('')).toBe('required');
    expect(reasonError(' \n ')).toBe('required');
    expect(reasonError('Launch bonus')).toBeNull();
    expect(reasonError(` ${'x'.repeat(ADJUSTMENT_REASON_MAX)} `)).toBeNull();
    expect(reasonError('x'.repeat(ADJUSTMENT_REASON_MAX + 1))).toBe('too_long');
    expect(AdjustmentCreateSchema.safeParse({ amount: 1, reason: 'x'.repeat(ADJUSTMENT_REASON_MAX + 1) }).success).toBe(false);
  });

  it('knows when a debit takes the balance below zero', () => {
    expect(goesNegative(1000, -1000)).toBe(false);
    expect(goesNegative(1000, -1001)).toBe(true);
    expect(goesNegative(-50, 10)).toBe(false);
    expect(goesNegative(-50, -1)).toBe(true);
  });

  it('keeps the Idempotency-Key for a retry of the same request only', () => {
    let n = 0;
    const key = () => `k${++n}`;
    const req = { promoterId: 'p1', amount: 1234, reason: 'Bonus', allowNegative: false };
    const first = attemptFor(null, req, key);
    expect(first.key).toBe('k1');
    expect(attemptFor(first, { ...req, reason: ' Bonus ' }, key)).toBe(first);
    expect(attemptFor(first, { ...req, amount: -1234 }, key).key).toBe('k2');
    expect(attemptFor(first, { ...req, promoterId: 'p2' }, key).key).toBe('k3');
    expect(attemptFor(first, { ...req, allowNegative: true }, key).key).toBe('k4');
    expect([0, 500, 503].map(outcomeUnknown)).toEqual([true, true, true]);
    expect([400, 409, 422].map(outcomeUnknown)).toEqual([false, false, false]);
  });
});

describe('the promoters list’s filters in the address', () => {
  it('reads what it wrote, leaving defaults out', () => {
    const f = { q: 'wen', status: 'active' as const, campaignId: 'c1', groupId: 'g1', sort: 'available' as const, dir: 'asc' as const };
    const qs = writeFilters(f);
    expect(readFilters(new URLSearchParams(qs))).toEqual(f);
    expect(qs).toContain('groupId=g1');
    expect(writeFilters({ q: '', status: null, campaignId: null, groupId: null, sort: 'createdAt', dir: 'desc' }, new URLSearchParams('tab=x'))).toBe('tab=x');
  });

  it('falls back to the defaults for anything unknown', () => {
    expect(readFilters(new URLSearchParams('status=boss&sort=password&dir=up&q=%20%20'))).toEqual({ q: '', status: null, campaignId: null, groupId: null, sort: 'createdAt', dir: 'desc' });
    expect(readFilters(new URLSearchParams(`q=${'a'.repeat(300)}`)).q).toHaveLength(100);
  });

  it('counts the rows of an exported CSV, line ends inside quotes included', () => {
    expect(csvRowCount('\uFEFFa,b\r\n')).toBe(0);
    expect(csvRowCount('\uFEFFa,b\r\n1,2\r\n3,4\r\n')).toBe(2);
    expect(csvRowCount('a,b\r\n"x\r\ny",2\r\n"say ""hi""",3\r\n')).toBe(2);
    expect(csvRowCount('a,b\n1,2')).toBe(1);
    expect(csvRowCount('')).toBe(0);
  });
});
