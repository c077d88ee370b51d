import { describe, expect, it } from 'vitest';
import { axisTicks, barLayout, labelIndexes, niceStep } from '../src/lib/chart-scale';

describe('trend chart scales', () => {
  it('rounds steps up to 1, 2, 2.5 or 5 × 10ⁿ in whole numbers', () => {
    expect(niceStep(0)).toBe(1);
    expect(niceStep(0.4)).toBe(1);
    expect(niceStep(3.3)).toBe(5);
    expect(niceStep(17)).toBe(20);
    expect(niceStep(21)).toBe(25);
    expect(niceStep(863)).toBe(1000);
    expect(niceStep(1000)).toBe(1000);
  });

  it('makes ticks from zero to a rounded top that holds the maximum', () => {
    expect(axisTicks(0)).toEqual([0, 1]);
    expect(axisTicks(1)).toEqual([0, 1]);
    expect(axisTicks(10)).toEqual([0, 5, 10]);
    expect(axisTicks(2590)).toEqual([0, 1000, 2000, 3000]);
    for (const max of [3, 7, 99, 101, 12_345, 9_999_999]) {
      const ticks = axisTicks(max);
      expect(ticks[0]).toBe(0);
      expect(ticks[ticks.length - 1]).toBeGreaterThanOrEqual(max);
      expect(ticks.length).toBeLessThanOrEqual(5);
      expect(ticks.every(Number.isInteger)).toBe(true);
    }
  });

  it('lays out bars bottom-up, keeps small values visible and clips to the top', () => {
    const bars = barLayout([0, 1, 50, 100, 200, -3], 300, 100, 100);
    expect(bars).toHaveLength(6);
    expect(bars[0]).toMatchObject({ height: 0, y: 100 });
    expect(bars[1]!.height).toBe(1);
    expect(bars[2]).toMatchObject({ height: 50, y: 50 });
    expect(bars[3]).toMatchObject({ height: 100, y: 0 });
    expect(bars[4]!.height).toBe(100);
    expect(bars[5]!.height).toBe(0);
    expect(bars[1]!.x).toBeCloseTo(50 + 7.5);
    expect(bars[1]!.width).toBeCloseTo(35);
    expect(barLayout([], 300, 100, 10)).toEqual([]);
  });

  it('labels every day of a week, and first, last and evenly spaced days of a month', () => {
    expect(labelIndexes(7, 7)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(labelIndexes(30, 5)).toEqual([0, 7, 15, 22, 29]);
    expect(labelIndexes(0, 5)).toEqual([]);
    expect(labelIndexes(3, 1)).toEqual([2]);
  });
});
