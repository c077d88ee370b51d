import { describe, expect, it } from 'vitest';
import { csvField, decimalAmount, toCsv } from '../src/platform/csv';

describe('CSV that a spreadsheet opens safely', () => {
  it('neutralizes text a spreadsheet would run as a formula', () => {
    for (const v of ['=1+1', '+cmd|calc', '-2+3', '@SUM(A1)', '=HYPERLINK("x")']) expect(csvField(v).replace(/^"/, '')).toMatch(/^'/);
  });
  it('leaves plain signed numbers as numbers (negative amounts, phone-number accounts)', () => {
    expect(csvField('-5.00')).toBe('-5.00');
    expect(csvField('+8613800138000')).toBe('+8613800138000');
    expect(csvField('-12')).toBe('-12');
    expect(csvField('+1e5')).toBe("'+1e5");
  });
  it('quotes commas, quotes and line breaks; starts with a BOM; CRLF line ends', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(toCsv(['x', 'y'], [[1, 'line\nbreak']])).toBe('\uFEFFx,y\r\n1,"line\nbreak"\r\n');
    expect(decimalAmount(-5, 2)).toBe('-0.05');
    expect(decimalAmount(123456, 0)).toBe('123456');
  });
});
