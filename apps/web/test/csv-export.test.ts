import { describe, expect, it } from 'vitest';
import { CSV_COLUMNS } from '@pa/shared/texts/csv-columns';
import { collectPages, csvFilename, csvOfRows, csvTime, type Page } from '../src/lib/csv-export';

// The encoder itself (cells, quoting, formulas, money) is tested once, in packages/shared/test/csv.test.ts.
describe('the console’s side of an export', () => {
  it('writes times as local YYYY-MM-DD HH:mm and names the file with today', () => {
    const at = new Date(2026, 0, 5, 9, 7).getTime();
    expect(csvTime(at)).toBe('2026-01-05 09:07');
    expect(csvTime(null)).toBe('');
    expect(csvFilename('commissions', at)).toBe('commissions-2026-01-05.csv');
  });
});

describe('walking the cursor pages', () => {
  const pages: Record<string, Page<number>> = {
    start: { items: [1, 2], nextCursor: 'p2' },
    p2: { items: [3, 4], nextCursor: 'p3' },
    p3: { items: [5], nextCursor: null },
  };

  it('collects every filtered row, not only the first page, asking with each cursor in turn', async () => {
    const asked: (string | null)[] = [];
    const progress: number[] = [];
    const rows = await collectPages(async (cursor) => {
      asked.push(cursor);
      return pages[cursor ?? 'start']!;
    }, { onProgress: (n) => progress.push(n) });
    expect(rows).toEqual([1, 2, 3, 4, 5]);
    expect(asked).toEqual([null, 'p2', 'p3']);
    expect(progress).toEqual([2, 4, 5]);
  });

  it('stops at the row bound and on a cursor that repeats', async () => {
    expect(await collectPages(async (cursor) => pages[cursor ?? 'start']!, { max: 3 })).toEqual([1, 2, 3]);
    let calls = 0;
    const looping = await collectPages(async () => {
      calls += 1;
      return { items: [calls], nextCursor: 'same' };
    });
    expect(looping).toEqual([1, 2]);
  });
});

describe('the console’s commissions export', () => {
  it('carries the order id (the conversion’s externalId) as text, under the catalogue’s column names in their order', async () => {
    const { commissionCsvColumns } = await import('../src/features/money/lib/commission-csv');
    const t = ((key: string) => key) as unknown as Parameters<typeof commissionCsvColumns>[0];
    const columns = commissionCsvColumns(t, 'CNY');
    const row = {
      id: 'c1', conversionId: 'v1', campaignId: 'k1', campaignName: 'Tea', promoterId: 'p1', linkId: null, linkCode: null, sourceName: null, level: 1, kind: 'sale', rule: 'sale_rate',
      base: 12_000, rateBps: 1000, amount: 1200, reversedAmount: 0, status: 'pending', occurredAt: 0, availableAt: 0, createdAt: 0, decidedAt: null, reason: null, recurring: null,
      promoterName: 'Lin', promoterAccount: '+8613800138000', externalId: '000123',
    } as const;
    const csv = csvOfRows(columns, [row]);
    const [header, line] = csv.replace(/^\uFEFF/, '').split('\r\n');
    const names = header!.split(',');
    expect(names).toEqual([...CSV_COLUMNS.commissions]);
    expect(names).toContain('external_id');
    expect(line!.split(',')[names.indexOf('external_id')]).toBe('"=""000123"""');
  });
});
