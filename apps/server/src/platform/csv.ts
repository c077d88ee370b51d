/**
 * CSV that opens correctly in a spreadsheet: UTF-8 with a byte-order mark (Excel needs it to read
 * Chinese), CRLF line ends, every field quoted when it must be, and text that a spreadsheet would
 * run as a formula (= + - @ at the start, unless it is a plain signed number) prefixed with an apostrophe.
 */
const BOM = '\uFEFF';

export function csvField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  // A plain signed number ("-5.00", "+8613800138000") is not a formula: left as it is, so it stays a number.
  const safe = /^[=+\-@\t\r]/.test(value) && !/^[+-]?\d+(\.\d+)?$/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function toCsv(header: string[], rows: (string | number | null | undefined)[][]): string {
  return BOM + [header, ...rows].map((r) => r.map(csvField).join(',')).join('\r\n') + '\r\n';
}

/** An amount of minor units as a plain decimal ("1234.50") that a spreadsheet reads as a number. */
export function decimalAmount(minor: number, digits: number): string {
  const negative = minor < 0;
  const abs = String(Math.abs(minor)).padStart(digits + 1, '0');
  const text = digits ? `${abs.slice(0, -digits)}.${abs.slice(-digits)}` : abs;
  return negative ? `-${text}` : text;
}

export function currencyDigits(currency: string): number {
  return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
}
