import { describe, expect, it } from 'vitest';
import { changeOf, formatChange, formatKpi, formatRate } from '../src/features/home/lib/figures';
import { isHomeRange } from '../src/features/home/lib/range';

describe('change against the previous period', () => {
  it('is "none" when both periods are zero and "new" when only the previous one is', () => {
    expect(changeOf(0, 0)).toEqual({ kind: 'none' });
    expect(changeOf(5, 0)).toEqual({ kind: 'new' });
  });

  it('is up, down or same with the relative change', () => {
    expect(changeOf(15, 10)).toEqual({ kind: 'up', ratio: 0.5 });
    expect(changeOf(5, 10)).toEqual({ kind: 'down', ratio: -0.5 });
    expect(changeOf(0, 10)).toEqual({ kind: 'down', ratio: -1 });
    expect(changeOf(7, 7)).toEqual({ kind: 'same', ratio: 0 });
    expect(changeOf(0.04, 0.02)).toEqual({ kind: 'up', ratio: 1 });
  });

  it('is written with a sign, per locale, with one decimal only below 10 %', () => {
    expect(formatChange(changeOf(15, 10), 'en')).toBe('+50%');
    expect(formatChange(changeOf(5, 10), 'en')).toBe('\u221250%');
    expect(formatChange(changeOf(1033, 1000), 'en')).toBe('+3.3%');
    expect(formatChange(changeOf(1033, 1000), 'fr').replace(/\s/g, ' ')).toBe('+3,3 %');
    expect(formatChange(changeOf(2, 1), 'zh-Hans')).toBe('+100%');
    expect(formatChange(changeOf(1, 1), 'en')).toBe('0%');
    expect(formatChange(changeOf(1, 0), 'en')).toBe('');
  });
});

describe('figures on the tiles', () => {
  it('writes money, rates and counts per locale', () => {
    expect(formatKpi('earnings', 2590, 'CNY', 'zh-Hans')).toBe('CN¥25.90');
    expect(formatKpi('epc', 13, 'CNY', 'en')).toBe('CN¥0.13');
    expect(formatKpi('clicks', 12345, 'CNY', 'fr').replace(/\s/g, ' ')).toBe('12 345');
    expect(formatRate(0.125, 'en')).toBe('12.5%');
    expect(formatKpi('conversionRate', 1 / 3, 'CNY', 'es').replace(/\s/g, ' ')).toBe('33,3 %');
  });

  it('knows the ranges Home offers', () => {
    expect(isHomeRange('7d')).toBe(true);
    expect(isHomeRange('yesterday')).toBe(false);
    expect(isHomeRange(null)).toBe(false);
  });
});
