/**
 * The one CSV encoder, for the server's exports and the console's alike: CSV that opens correctly
 * in a spreadsheet. UTF-8 with a byte-order mark (Excel needs it to read Chinese), CRLF line ends,
 * every field quoted when it must be. Each cell is one of three kinds, chosen by the export for its
 * column (docs/api.md, "CSV exports"):
 * - text (a plain string): never starts a formula — text starting with = + - @ tab or CR gets an
 *   apostrophe in front, whatever follows (so "+8613800000000" given as text is not a number either);
 * - identifier (`csvId`: account numbers, phone numbers, references, ids, codes): written as
 *   `="…"`, a formula whose only content is a string literal, so the spreadsheet shows exactly the
 *   text and keeps it text — no number conversion (a 19-digit card number keeps its digits, a
 *   phone number its +, a code its leading zeros) and nothing inside can run;
 * - number (`csvAmount`, `csvNumber`, a JS number): a plain decimal that stays a number.
 */
import { decimalAmount, minorUnitDigits } from './format';

const BOM = '\uFEFF';
/** Excel refuses a string literal longer than this in a formula. */
const LITERAL_MAX = 255;

class CsvCell {
  constructor(readonly kind: 'id' | 'number', readonly text: string) {}
}

export type CsvValue = string | number | null | undefined | CsvCell;

/** An identifier that must open as text, exactly as written (see above). */
export const csvId = (value: string | null | undefined): CsvValue => (value === null || value === undefined ? null : new CsvCell('id', value));
/** A decimal written as a number; anything that is not a plain decimal is written as text. */
export const csvNumber = (text: string): CsvValue => new CsvCell('number', text);
/** An amount of minor units of `currency` as a number cell in the currency's unit ("-5.00", "1500" yen, "1.234" dinar). */
export const csvAmount = (minor: number | null | undefined, currency: string): CsvValue =>
  minor === null || minor === undefined ? null : csvNumber(decimalAmount(minor, minorUnitDigits(currency)));

const FORMULA_START = /^[=+\-@\t\r]/;
const quoted = (s: string) => (/[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
const asText = (s: string) => quoted(FORMULA_START.test(s) ? `'${s}` : s);

export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'string') return asText(value);
  if (value.kind === 'number') return /^-?\d+(\.\d+)?$/.test(value.text) ? value.text : asText(value.text);
  if (value.text === '') return '';
  // A line break or a long value cannot sit in a formula's string literal: plain text rules then.
  if (value.text.length > LITERAL_MAX || /[\r\n]/.test(value.text)) return asText(value.text);
  return quoted(`="${value.text.replace(/"/g, '""')}"`);
}

/**
 * Column names: one style for every export, server's and console's — snake_case English
 * (`external_id`, `occurred_at`), the same whatever the reader's language, so a spreadsheet
 * formula or an import script keeps working (docs/api.md, CSV exports). Anything else is a
 * programming error.
 */
const CSV_HEADER = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;

export function toCsv(header: readonly string[], rows: CsvValue[][]): string {
  const bad = header.find((h) => !CSV_HEADER.test(h));
  if (bad !== undefined) throw new Error(`CSV column name "${bad}" is not snake_case`);
  return BOM + [header, ...rows].map((r) => r.map(csvField).join(',')).join('\r\n') + '\r\n';
}

export { decimalAmount };
