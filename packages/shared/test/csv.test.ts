import { describe, expect, it } from 'vitest';
import { csvAmount, csvField, csvId, csvNumber, decimalAmount, toCsv } from '../src/csv';

/** The cell a spreadsheet shows for one CSV field, as far as the start matters: unquoted, quotes undoubled. */
const unquote = (field: string) => (field.startsWith('"') ? field.slice(1, -1).replace(/""/g, '"') : field);

// The one encoder of the server's exports and the console's (issue 30): tested here once.
describe('CSV that a spreadsheet opens safely', () => {
  it('no text cell starts with a character that makes a formula (= + - @ tab CR), numbers-looking text included', () => {
    for (const v of ['=1+1', '+cmd|calc', '-2+3', '@SUM(A1)', '@me', '=HYPERLINK("x")', '\t=1+1', '\r=1+1', '-5.00', '-1', '+8613800138000', '+1e5']) {
      const cell = unquote(csvField(v));
      expect(cell, JSON.stringify(v)).toBe(`'${v}`);
    }
    // Quoted where the text needs it, the apostrophe inside the quotes.
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvField('\r=1+1')).toBe(`"'\r=1+1"`);
    expect(csvField('\t=1+1')).toBe(`'\t=1+1`);
    // Text that starts harmlessly is left as it is, even with a formula character further on.
    expect(csvField('Lin Wei')).toBe('Lin Wei');
    expect(csvField('10.00%')).toBe('10.00%');
    expect(csvField('a=b+c')).toBe('a=b+c');
    expect(csvField('')).toBe('');
  });

  it('identifiers open as text, exactly: account numbers, phone numbers, references, ids and codes', () => {
    // A phone-number account and a 19-digit card number would otherwise become numbers (the card's last digits lost).
    expect(csvField(csvId('+8613800000000'))).toBe('"=""+8613800000000"""');
    expect(csvField(csvId('6222021234567890123'))).toBe('"=""6222021234567890123"""');
    expect(csvField(csvId('00123'))).toBe('"=""00123"""');
    // Inside the string literal nothing runs: quotes are doubled twice (formula, then CSV).
    expect(csvField(csvId('=HYPERLINK("http://x")'))).toBe('"=""=HYPERLINK(""""http://x"""")"""');
    expect(csvField(csvId('a"b'))).toBe('"=""a""""b"""');
    // Too long for a formula's string literal (255 characters in Excel), or with a line break: plain text rules.
    expect(csvField(csvId('x'.repeat(255)))).toBe(`"=""${'x'.repeat(255)}"""`);
    expect(csvField(csvId('x'.repeat(300)))).toBe('x'.repeat(300));
    expect(unquote(csvField(csvId(`=${'9'.repeat(300)}`)))).toMatch(/^'=9{300}$/);
    expect(csvField(csvId('=a\nb'))).toBe('"\'=a\nb"');
    expect(csvField(csvId('a\r\nb'))).toBe('"a\r\nb"');
    expect(csvField(csvId(null))).toBe('');
    expect(csvField(csvId(undefined))).toBe('');
    expect(csvField(csvId(''))).toBe('');
  });

  it('amounts stay numbers in the currency’s unit; anything else given as a number is text', () => {
    expect(csvField(csvAmount(-500, 'CNY'))).toBe('-5.00');
    expect(csvField(csvAmount(123_450, 'CNY'))).toBe('1234.50');
    expect(csvField(csvAmount(7, 'EUR'))).toBe('0.07');
    expect(csvField(csvAmount(-1200, 'USD'))).toBe('-12.00');
    expect(csvField(csvAmount(1500, 'JPY'))).toBe('1500');
    expect(csvField(csvAmount(1234, 'KWD'))).toBe('1.234');
    expect(csvField(csvAmount(null, 'CNY'))).toBe('');
    expect(csvField(csvAmount(undefined, 'CNY'))).toBe('');
    expect(() => csvAmount(1.5, 'CNY')).toThrow(/minor units/);
    expect(csvField(csvNumber('+12'))).toBe("'+12");
    expect(csvField(csvNumber('=1+1'))).toBe("'=1+1");
    expect(csvField(csvNumber('1e5'))).toBe('1e5');
    expect(csvField(csvNumber('12.5'))).toBe('12.5');
    expect(csvField(-12)).toBe('-12');
    expect(csvField(12)).toBe('12');
    expect(csvField(Number.NaN)).toBe('');
    expect(csvField(Number.POSITIVE_INFINITY)).toBe('');
    expect(csvField(null)).toBe('');
    expect(csvField(undefined)).toBe('');
  });

  it('decimal amounts are exact, by the digits given', () => {
    expect(decimalAmount(-5, 2)).toBe('-0.05');
    expect(decimalAmount(0, 2)).toBe('0.00');
    expect(decimalAmount(123456, 0)).toBe('123456');
    expect(decimalAmount(1250, 2)).toBe('12.50');
    expect(decimalAmount(Number.MAX_SAFE_INTEGER, 2)).toBe('90071992547409.91');
    expect(() => decimalAmount(Number.MAX_SAFE_INTEGER + 1, 2)).toThrow();
  });

  it('quotes commas, quotes and line breaks; starts with a BOM; CRLF line ends; snake_case column names', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('line\r\nbreak')).toBe('"line\r\nbreak"');
    expect(toCsv(['x', 'y'], [[1, 'line\nbreak']])).toBe('\uFEFFx,y\r\n1,"line\nbreak"\r\n');
    const csv = toCsv(['name', 'amount'], [['张三', csvAmount(123_450, 'CNY')], ['Zoë, "Z"', csvAmount(-5, 'CNY')]]);
    expect(csv).toBe('\uFEFFname,amount\r\n张三,1234.50\r\n"Zoë, ""Z""",-0.05\r\n');
    // The byte-order mark as UTF-8 bytes: spreadsheets then read Chinese.
    expect(new TextEncoder().encode(csv).slice(0, 3)).toEqual(new Uint8Array([0xef, 0xbb, 0xbf]));
    // One header style for every export (issue 28): snake_case, or the export is a programming error.
    expect(toCsv(['external_id', 'occurred_at', 'amount2'], [])).toBe('\uFEFFexternal_id,occurred_at,amount2\r\n');
    for (const bad of ['Order', 'order id', 'orderId', '订单号', '名字', 'Montant', '_id', 'id_', 'a__b', '']) expect(() => toCsv(['id', bad], []), bad).toThrow(/snake_case/);
  });
});
