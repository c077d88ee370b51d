import { describe, expect, it } from 'vitest';
import { collectPages, csvAmount, csvField, csvFilename, csvId, csvTime, decimalAmount, toCsv, type Page } from '../src/lib/csv-export';

describe('CSV cells, as the server’s exports write them', () => {
  it('starts with a byte-order mark and ends lines with CRLF, so spreadsheets read Chinese', () => {
    const csv = toCsv(['name', 'amount'], [['张三', csvAmount(123_450, 'CNY')], ['Zoë, "Z"', csvAmount(-5, 'CNY')]]);
    expect(csv.startsWith('\uFEFFname,amount\r\n')).toBe(true);
    expect(csv).toBe('\uFEFFname,amount\r\n张三,1234.50\r\n"Zoë, ""Z""",-0.05\r\n');
    // One header style for every export, the server's too (issue 28): snake_case English in every language.
    for (const bad of ['名字', 'Montant', 'orderId', 'order id']) expect(() => toCsv(['id', bad], []), bad).toThrow(/snake_case/);
    expect(new TextEncoder().encode(csv).slice(0, 3)).toEqual(new Uint8Array([0xef, 0xbb, 0xbf]));
  });

  it('writes money as a plain decimal by the currency’s minor units', () => {
    expect(decimalAmount(1234, 'CNY')).toBe('12.34');
    expect(decimalAmount(7, 'EUR')).toBe('0.07');
    expect(decimalAmount(-1200, 'USD')).toBe('-12.00');
    expect(decimalAmount(1500, 'JPY')).toBe('1500');
    expect(decimalAmount(1234, 'KWD')).toBe('1.234');
    expect(() => decimalAmount(1.5, 'CNY')).toThrow();
    expect(csvField(csvAmount(null, 'CNY'))).toBe('');
  });

  it('never lets text start a formula, and keeps identifiers as text', () => {
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvField('+8613800000000')).toBe("'+8613800000000");
    expect(csvField('-1')).toBe("'-1");
    expect(csvField('@me')).toBe("'@me");
    // ="00123" is a formula whose only content is a string literal; the field quotes its quotes.
    expect(csvField(csvId('00123'))).toBe('"=""00123"""');
    expect(csvField(csvId('+8613800000000'))).toBe('"=""+8613800000000"""');
    expect(csvField(csvId('a"b'))).toBe('"=""a""""b"""');
    expect(csvField(csvId('x'.repeat(300)))).toBe('x'.repeat(300));
    expect(csvField(csvId(null))).toBe('');
    expect(csvField(12)).toBe('12');
    expect(csvField(null)).toBe('');
  });

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
  it('carries the order id (the conversion’s externalId) as text, under snake_case column names', async () => {
    const { commissionCsvColumns } = await import('../src/features/money/lib/commission-csv');
    const t = ((key: string) => key) as unknown as Parameters<typeof commissionCsvColumns>[0];
    const columns = commissionCsvColumns(t, 'CNY');
    const row = {
      id: 'c1', conversionId: 'v1', campaignId: 'k1', campaignName: 'Tea', promoterId: 'p1', linkId: null, linkCode: null, sourceName: null, level: 1, kind: 'sale', rule: 'sale_rate',
      base: 12_000, rateBps: 1000, amount: 1200, reversedAmount: 0, status: 'pending', occurredAt: 0, availableAt: 0, createdAt: 0, decidedAt: null, reason: null, recurring: null,
      promoterName: 'Lin', promoterAccount: '+8613800138000', externalId: '000123',
    } as const;
    const csv = toCsv(columns.map((c) => c.header), [columns.map((c) => c.value(row))]);
    const [header, line] = csv.replace(/^\uFEFF/, '').split('\r\n');
    const names = header!.split(',');
    expect(names).toContain('external_id');
    expect(line!.split(',')[names.indexOf('external_id')]).toBe('"=""000123"""');
  });
});
