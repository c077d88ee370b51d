import { describe, expect, it } from 'vitest';
import { amountStyle, bpsToPercentText, minorToInputText, parseMoneyInput, parsePercentToBps } from '../src/lib/money-input';

const ok = (value: number) => ({ ok: true, value });
const fail = (error: string, digits: number) => ({ ok: false, error, digits });

describe('parseMoneyInput: typed decimals → integer minor units, by string arithmetic', () => {
  it.each([
    ['12.5', 1250],
    ['12.50', 1250],
    ['12', 1200],
    ['12.', 1200],
    ['.5', 50],
    ['0.01', 1],
    ['0', 0],
    ['0.00', 0],
    ['007.10', 710],
    ['12,5', 1250],
    [',05', 5],
    ['  3.99 ', 399],
    ['12.500', 1250],
    ['12.5000000000', 1250],
    ['１２．５', 1250],
    ['１２，３４', 1234],
    ['1000000', 100_000_000],
  ])('USD %j → %i', (input, minor) => {
    expect(parseMoneyInput(input, 'USD')).toEqual(ok(minor));
  });

  it('never goes through a float (values that float multiply gets wrong)', () => {
    // 0.29 * 100 = 28.999999999999996, 1.005 * 100 = 100.49999999999999, 4.35 * 100 = 434.99999999999994
    expect(parseMoneyInput('0.29', 'EUR')).toEqual(ok(29));
    expect(parseMoneyInput('4.35', 'EUR')).toEqual(ok(435));
    expect(parseMoneyInput('1.13', 'CNY')).toEqual(ok(113));
    expect(parseMoneyInput('1.005', 'KWD')).toEqual(ok(1005));
    expect(parseMoneyInput('90071992547409.91', 'USD')).toEqual(ok(9007199254740991));
  });

  it('follows the currency’s own number of decimals', () => {
    expect(parseMoneyInput('1500', 'JPY')).toEqual(ok(1500));
    expect(parseMoneyInput('1500.', 'JPY')).toEqual(ok(1500));
    expect(parseMoneyInput('1500.0', 'JPY')).toEqual(ok(1500));
    expect(parseMoneyInput('1500.5', 'JPY')).toEqual(fail('decimals', 0));
    expect(parseMoneyInput('.5', 'KRW')).toEqual(fail('decimals', 0));
    expect(parseMoneyInput('1.234', 'KWD')).toEqual(ok(1234));
    expect(parseMoneyInput('1.2345', 'KWD')).toEqual(fail('decimals', 3));
    expect(parseMoneyInput('1.5', 'CNY')).toEqual(ok(150));
  });

  it('refuses more decimals than the currency has', () => {
    expect(parseMoneyInput('12.345', 'USD')).toEqual(fail('decimals', 2));
    expect(parseMoneyInput('0.001', 'EUR')).toEqual(fail('decimals', 2));
    expect(parseMoneyInput('12.3450', 'USD')).toEqual(fail('decimals', 2));
    expect(parseMoneyInput('1,234', 'USD')).toEqual(fail('decimals', 2)); // a comma is the decimal separator, not grouping
  });

  it('refuses negative amounts', () => {
    expect(parseMoneyInput('-1', 'USD')).toEqual(fail('negative', 2));
    expect(parseMoneyInput('-0.5', 'USD')).toEqual(fail('negative', 2));
    expect(parseMoneyInput(' - 3', 'USD')).toEqual(fail('negative', 2));
    expect(parseMoneyInput('-0', 'USD')).toEqual(fail('negative', 2));
  });

  it('asks for a value when there is none', () => {
    expect(parseMoneyInput('', 'USD')).toEqual(fail('required', 2));
    expect(parseMoneyInput('   ', 'USD')).toEqual(fail('required', 2));
    expect(parseMoneyInput('\u3000', 'USD')).toEqual(fail('required', 2)); // ideographic space
  });

  it.each(['abc', '12a', '1e3', '1e-2', '0x10', '+5', '--5', '-', '-abc', '.', ',', '1.2.3', '1,2.3', '1 234', '1_000', 'Infinity', 'NaN', '$12', '12 €', '12..5', '١٢'])('refuses garbage %j', (input) => {
    expect(parseMoneyInput(input, 'USD')).toEqual(fail('invalid', 2));
  });

  it('refuses amounts above the limit, however long', () => {
    expect(parseMoneyInput('1000000', 'USD', 100_000_000)).toEqual(ok(100_000_000));
    expect(parseMoneyInput('1000000.01', 'USD', 100_000_000)).toEqual(fail('too_large', 2));
    expect(parseMoneyInput('90071992547409.92', 'USD')).toEqual(fail('too_large', 2));
    expect(parseMoneyInput('9'.repeat(400), 'USD')).toEqual(fail('too_large', 2));
  });
});

describe('parsePercentToBps: percentages → basis points', () => {
  it.each([
    ['10.5', 1050],
    ['10,5', 1050],
    ['10', 1000],
    ['0', 0],
    ['0.01', 1],
    ['.25', 25],
    ['100', 10_000],
    ['100.00', 10_000],
    ['12.5%', 1250],
    ['12.5 %', 1250],
    ['  7 ', 700],
    ['１５％', 1500],
    ['33.330', 3333],
    ['0.29', 29],
    ['4.35', 435],
  ])('%j → %i', (input, bps) => {
    expect(parsePercentToBps(input)).toEqual(ok(bps));
  });

  it('refuses what is not a percentage with at most two decimals, between 0 and 100', () => {
    expect(parsePercentToBps('10.555')).toEqual(fail('decimals', 2));
    expect(parsePercentToBps('0.001')).toEqual(fail('decimals', 2));
    expect(parsePercentToBps('100.01')).toEqual(fail('too_large', 2));
    expect(parsePercentToBps('250')).toEqual(fail('too_large', 2));
    expect(parsePercentToBps('-5')).toEqual(fail('negative', 2));
    expect(parsePercentToBps('')).toEqual(fail('required', 2));
    expect(parsePercentToBps('%')).toEqual(fail('required', 2));
    expect(parsePercentToBps('ten')).toEqual(fail('invalid', 2));
    expect(parsePercentToBps('10%%')).toEqual(fail('invalid', 2));
    expect(parsePercentToBps('%10')).toEqual(fail('invalid', 2));
    expect(parsePercentToBps('1e2')).toEqual(fail('invalid', 2));
  });

  it('takes another ceiling when given one', () => {
    expect(parsePercentToBps('150', 20_000)).toEqual(ok(15_000));
    expect(parsePercentToBps('50.01', 5_000)).toEqual(fail('too_large', 2));
  });
});

describe('bpsToPercentText: basis points → editable percentage text', () => {
  it.each([
    [1050, '10.5'],
    [1000, '10'],
    [1005, '10.05'],
    [1, '0.01'],
    [10, '0.1'],
    [0, '0'],
    [10_000, '100'],
    [3333, '33.33'],
    [123_456, '1234.56'],
    [-50, '-0.5'],
    [-1, '-0.01'],
  ])('%i → %j', (bps, text) => {
    expect(bpsToPercentText(bps)).toBe(text);
  });

  it('round-trips with parsePercentToBps', () => {
    for (let bps = 0; bps <= 10_000; bps += 7) expect(parsePercentToBps(bpsToPercentText(bps))).toEqual(ok(bps));
  });

  it('refuses non-integers', () => {
    expect(() => bpsToPercentText(10.5)).toThrow();
    expect(() => bpsToPercentText(Number.NaN)).toThrow();
    expect(() => bpsToPercentText(Number.POSITIVE_INFINITY)).toThrow();
  });
});

describe('minorToInputText: minor units → editable money text', () => {
  it.each([
    [1250, 'USD', '12.50'],
    [1200, 'USD', '12'],
    [1205, 'EUR', '12.05'],
    [1, 'CNY', '0.01'],
    [10, 'CNY', '0.10'],
    [0, 'USD', '0'],
    [99, 'USD', '0.99'],
    [-250, 'USD', '-2.50'],
    [1500, 'JPY', '1500'],
    [0, 'JPY', '0'],
    [7, 'KRW', '7'],
    [1234, 'KWD', '1.234'],
    [1000, 'KWD', '1'],
    [1200, 'KWD', '1.200'],
    [9007199254740991, 'USD', '90071992547409.91'],
  ])('%i %s → %j', (minor, currency, text) => {
    expect(minorToInputText(minor, currency)).toBe(text);
  });

  it('round-trips with parseMoneyInput', () => {
    for (const currency of ['USD', 'JPY', 'KWD']) {
      for (let minor = 0; minor <= 5000; minor += 13) expect(parseMoneyInput(minorToInputText(minor, currency), currency)).toEqual(ok(minor));
    }
  });

  it('refuses non-integers', () => {
    expect(() => minorToInputText(12.5, 'USD')).toThrow();
    expect(() => minorToInputText(Number.MAX_SAFE_INTEGER + 1, 'USD')).toThrow();
  });
});

describe('amountStyle (the amount fields of the withdrawal and the balance adjustment)', () => {
  it('puts the currency mark on the side the locale writes it, with its decimal separator', () => {
    expect(amountStyle('CNY', 'en')).toEqual({ mark: 'CN¥', after: false, decimal: '.' });
    expect(amountStyle('CNY', 'zh-Hans')).toEqual({ mark: 'CN¥', after: false, decimal: '.' });
    expect(amountStyle('CNY', 'fr')).toEqual({ mark: 'CN¥', after: true, decimal: ',' });
    expect(amountStyle('EUR', 'es')).toMatchObject({ after: true, decimal: ',' });
  });
});
