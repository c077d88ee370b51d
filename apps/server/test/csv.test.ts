import { describe, expect, it } from 'vitest';
import { csvAmount, csvField, csvId, csvNumber, decimalAmount, toCsv } from '../src/platform/csv';

/** The cell a spreadsheet shows for one CSV field, as far as the start matters: unquoted, quotes undoubled. */
const unquote = (field: string) => (field.startsWith('"') ? field.slice(1, -1).replace(/""/g, '"') : field);

describe('CSV that a spreadsheet opens safely', () => {
  it('no text cell starts with a character that makes a formula (= + - @ tab CR), numbers-looking text included', () => {
    for (const v of ['=1+1', '+cmd|calc', '-2+3', '@SUM(A1)', '=HYPERLINK("x")', '\t=1+1', '\r=1+1', '-5.00', '+8613800138000', '+1e5']) {
      const cell = unquote(csvField(v));
      expect(cell, v).toBe(`'${v}`);
    }
    // Text that starts harmlessly is left as it is.
    expect(csvField('Lin Wei')).toBe('Lin Wei');
    expect(csvField('10.00%')).toBe('10.00%');
  });

  it('identifiers open as text, exactly: account numbers, phone numbers, references, ids and codes', () => {
    // A phone-number account and a 19-digit card number would otherwise become numbers (the card's last digits lost).
    expect(csvField(csvId('+8613800000000'))).toBe('"=""+8613800000000"""');
    expect(csvField(csvId('6222021234567890123'))).toBe('"=""6222021234567890123"""');
    expect(csvField(csvId('00123'))).toBe('"=""00123"""');
    // Inside the string literal nothing runs: quotes are doubled twice (formula, then CSV).
    expect(csvField(csvId('=HYPERLINK("http://x")'))).toBe('"=""=HYPERLINK(""""http://x"""")"""');
    // Too long for a formula's string literal (255 characters in Excel), or with a line break: plain text rules.
    expect(unquote(csvField(csvId(`=${'9'.repeat(300)}`)))).toMatch(/^'=9{300}$/);
    expect(csvField(csvId('=a\nb'))).toBe('"\'=a\nb"');
    expect(csvField(csvId(null))).toBe('');
    expect(csvField(csvId(''))).toBe('');
  });

  it('amounts stay numbers; anything else given as a number is text', () => {
    expect(csvField(csvAmount(-500, 2))).toBe('-5.00');
    expect(csvField(csvAmount(123456, 0))).toBe('123456');
    expect(csvField(csvNumber('+12'))).toBe("'+12");
    expect(csvField(csvNumber('=1+1'))).toBe("'=1+1");
    expect(csvField(-12)).toBe('-12');
  });

  it('quotes commas, quotes and line breaks; starts with a BOM; CRLF line ends', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(toCsv(['x', 'y'], [[1, 'line\nbreak']])).toBe('\uFEFFx,y\r\n1,"line\nbreak"\r\n');
    // One header style for every export (issue 28): snake_case, or the export is a programming error.
    expect(toCsv(['external_id', 'occurred_at', 'amount2'], [])).toBe('\uFEFFexternal_id,occurred_at,amount2\r\n');
    for (const bad of ['Order', 'order id', 'orderId', '订单号', '_id', 'id_', 'a__b', '']) expect(() => toCsv(['id', bad], []), bad).toThrow(/snake_case/);
    expect(decimalAmount(-5, 2)).toBe('-0.05');
    expect(decimalAmount(123456, 0)).toBe('123456');
  });
});
