import { describe, expect, it } from 'vitest';
import { currencyMark, dateTimeFormat, formatDate, formatDateTime, formatMoney, formatNumber, formatTime, minorUnitDigits, keepTogether, numberFormat } from '../src/lib/format';

const LOCALES = ['en', 'zh-Hans', 'zh-Hant', 'fr', 'es'];

describe('money, numbers and dates through Intl', () => {
  it('formats integer minor units exactly, per locale', () => {
    expect(formatMoney(123456, 'CNY', 'zh-Hans')).toBe('CN¥1,234.56');
    expect(formatMoney(123456, 'CNY', 'en')).toBe('CN¥1,234.56');
    expect(formatMoney(123456, 'EUR', 'fr').replace(/\s/g, ' ')).toBe('1 234,56 €');
    expect(formatMoney(123456, 'EUR', 'es').replace(/\s/g, ' ')).toBe('1234,56 €');
    expect(formatMoney(-5, 'USD', 'en')).toBe('-US$0.05');
    expect(formatMoney(0, 'CNY', 'zh-Hant')).toBe('CN¥0.00');
    expect(formatMoney(1500, 'JPY', 'en')).toBe('JP¥1,500');
  });

  it('marks each currency the same, unambiguous way in all five languages (only the side and separators follow the language)', () => {
    const all = (minor: number, currency: string) => LOCALES.map((l) => formatMoney(minor, currency, l).replace(/\s/g, ' '));
    expect(all(2710, 'CNY')).toEqual(['CN¥27.10', 'CN¥27.10', 'CN¥27.10', '27,10 CN¥', '27,10 CN¥']);
    expect(all(1500, 'JPY')).toEqual(['JP¥1,500', 'JP¥1,500', 'JP¥1,500', '1 500 JP¥', '1500 JP¥']);
    expect(all(2710, 'USD')).toEqual(['US$27.10', 'US$27.10', 'US$27.10', '27,10 US$', '27,10 US$']);
    expect(all(2710, 'TWD')).toEqual(['NT$27.10', 'NT$27.10', 'NT$27.10', '27,10 NT$', '27,10 NT$']);
    expect(currencyMark('CNY')).toBe('CN¥');
    expect(currencyMark('GBP')).toBe('£');
    for (const l of LOCALES) expect(formatMoney(-2710, 'CNY', l, { signed: true })).toMatch(/^\u2212|\u2212\d/);
  });

  it('keeps every cent of large amounts (no float rounding)', () => {
    expect(formatMoney(9007199254740991, 'USD', 'en')).toBe('US$90,071,992,547,409.91');
    expect(formatMoney(1, 'USD', 'en')).toBe('US$0.01');
  });

  it('refuses non-integer money', () => {
    expect(() => formatMoney(1.5, 'USD', 'en')).toThrow();
  });

  it('formats numbers and dates in the reader’s language', () => {
    expect(formatNumber(1234567, 'en')).toBe('1,234,567');
    expect(formatNumber(1234567, 'fr').replace(/\s/g, ' ')).toBe('1 234 567');
    const day = Date.UTC(2026, 10, 22, 12);
    expect(formatDate(day, 'zh-Hans', 'UTC')).toBe('2026年11月22日');
    expect(formatDate(day, 'en', 'UTC')).toBe('Nov 22, 2026');
    expect(formatDate(day, 'es', 'UTC')).toBe('22 nov 2026');
  });

  it('writes times of day in the reader’s language, 24-hour for Chinese readers', () => {
    const at = Date.UTC(2026, 10, 22, 17, 5);
    expect(formatTime(at, 'zh-Hans', 'UTC')).toBe('17:05');
    expect(formatTime(at, 'en', 'UTC').replace(/\s/g, ' ')).toBe('5:05 PM');
    expect(formatTime(at, 'fr', 'UTC')).toBe('17:05');
  });

  it('makes each formatter once per locale and options (a screen of figures does not pay for one per value)', () => {
    expect(numberFormat('en', { style: 'percent', maximumFractionDigits: 1 })).toBe(numberFormat('en', { style: 'percent', maximumFractionDigits: 1 }));
    expect(numberFormat('en', { style: 'percent' })).not.toBe(numberFormat('fr', { style: 'percent' }));
    expect(numberFormat('en', { style: 'percent', maximumFractionDigits: 0 })).not.toBe(numberFormat('en', { style: 'percent', maximumFractionDigits: 1 }));
    expect(dateTimeFormat('es', { dateStyle: 'medium' })).toBe(dateTimeFormat('es', { dateStyle: 'medium' }));
    expect(minorUnitDigits('CNY')).toBe(2);
    expect(minorUnitDigits('JPY')).toBe(0);
    expect(minorUnitDigits('BHD')).toBe(3);
    expect(formatMoney(1234, 'BHD', 'en').replace(/\s/g, ' ')).toBe('BHD 1.234');
  });
});

describe('keepTogether', () => {
  it('makes a date and time one unbreakable run', () => {
    expect(keepTogether('24 nov. 2026, 08:28')).toBe('24\u00a0nov.\u00a02026,\u00a008:28');
    expect(keepTogether('2026年11月24日')).toBe('2026年11月24日');
  });
});

describe('formatDateTime', () => {
  it('writes the date the same way with or without its time in Traditional Chinese', () => {
    const at = Date.UTC(2026, 10, 24, 1, 5);
    const date = formatDate(at, 'zh-Hant', 'Asia/Taipei');
    expect(date).toBe('2026年11月24日');
    expect(formatDateTime(at, 'zh-Hant', 'Asia/Taipei')).toBe(`${date} 09:05`);
    expect(formatDateTime(at, 'zh-Hans', 'Asia/Shanghai')).toBe('2026年11月24日 09:05');
  });
});
