/**
 * CSV export of what a console list shows under its filters: every matching row, not only the
 * loaded ones. Where the server has an export for the list, the page uses it; otherwise this walks
 * the list API's cursor pages with the same filters and builds the file here, by the rules of the
 * server's exports (apps/server/src/platform/csv.ts, docs/api.md "CSV exports"): UTF-8 with a
 * byte-order mark (spreadsheets then read Chinese), CRLF line ends, text that can never start a
 * formula, identifiers that stay text, and money as a plain decimal from the currency's minor units.
 */
import type { Page } from '@pa/shared';
import { api } from './api-client';
import { minorUnitDigits } from './format';
import { downloadBlob } from './share';

const BOM = '\uFEFF';
/** Excel refuses a string literal longer than this in a formula. */
const LITERAL_MAX = 255;
/** The list API's largest page. */
export const PAGE_LIMIT = 100;
/** A bound on one export (the server's own exports stop at 50,000 rows too). */
export const EXPORT_MAX_ROWS = 50_000;

class CsvCell {
  constructor(readonly kind: 'id' | 'number', readonly text: string) {}
}
export type CsvValue = string | number | null | undefined | CsvCell;

/** An identifier (account, phone, code, reference, id) that must open as text, exactly as written. */
export const csvId = (value: string | null | undefined): CsvValue => (value === null || value === undefined ? null : new CsvCell('id', value));

/** An amount of minor units as a plain decimal number in the currency's unit ("1234.50", "-5", "0.005"). */
export function decimalAmount(minor: number, currency: string): string {
  if (!Number.isSafeInteger(minor)) throw new Error('money must be an integer of minor units');
  const digits = minorUnitDigits(currency);
  const abs = String(Math.abs(minor)).padStart(digits + 1, '0');
  const text = digits ? `${abs.slice(0, -digits)}.${abs.slice(-digits)}` : abs;
  return minor < 0 ? `-${text}` : text;
}

/** A money cell: a number a spreadsheet can add up. */
export const csvAmount = (minor: number | null | undefined, currency: string): CsvValue =>
  minor === null || minor === undefined ? null : new CsvCell('number', decimalAmount(minor, currency));

/** A moment as the reader's local "YYYY-MM-DD HH:mm" (sorts as text, reads in every language). */
export function csvTime(epochMs: number | null | undefined): string {
  if (epochMs === null || epochMs === undefined) return '';
  const d = new Date(epochMs);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

const FORMULA_START = /^[=+\-@\t\r]/;
const quoted = (s: string) => (/[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
const asText = (s: string) => quoted(FORMULA_START.test(s) ? `'${s}` : s);

export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'string') return asText(value);
  if (value.kind === 'number') return /^-?\d+(\.\d+)?$/.test(value.text) ? value.text : asText(value.text);
  if (value.text === '') return '';
  if (value.text.length > LITERAL_MAX || /[\r\n]/.test(value.text)) return asText(value.text);
  return quoted(`="${value.text.replace(/"/g, '""')}"`);
}

/**
 * Column names: one style for every export, server's and console's — snake_case English
 * (`external_id`, `occurred_at`), the same whatever the reader's language, so a spreadsheet
 * formula or an import script keeps working (docs/api.md, CSV exports). Anything else is a
 * programming error.
 */
export const CSV_HEADER = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;

export function toCsv(header: string[], rows: CsvValue[][]): string {
  const bad = header.find((h) => !CSV_HEADER.test(h));
  if (bad !== undefined) throw new Error(`CSV column name "${bad}" is not snake_case`);
  return BOM + [header, ...rows].map((r) => r.map(csvField).join(',')).join('\r\n') + '\r\n';
}

export interface CsvColumn<Row> {
  header: string;
  value: (row: Row) => CsvValue;
}

export type { Page };

/** Every row of a cursor-paged list, page after page, up to `max` rows. */
export async function collectPages<Row>(
  fetchPage: (cursor: string | null) => Promise<Page<Row>>,
  { max = EXPORT_MAX_ROWS, onProgress }: { max?: number; onProgress?: (rows: number) => void } = {},
): Promise<Row[]> {
  const rows: Row[] = [];
  let cursor: string | null = null;
  const seen = new Set<string>();
  do {
    const page: Page<Row> = await fetchPage(cursor);
    rows.push(...page.items);
    onProgress?.(rows.length);
    cursor = page.nextCursor;
    // A cursor that comes back again would loop for ever.
    if (cursor !== null) {
      if (seen.has(cursor)) break;
      seen.add(cursor);
    }
  } while (cursor !== null && rows.length < max);
  return rows.slice(0, max);
}

/**
 * A list API's pages with the filters in `params` (empty ones left out), PAGE_LIMIT rows a page.
 * `path` is relative to api/ (e.g. "admin/users").
 */
export function listPages<Row>(path: string, params: Record<string, string | null | undefined>) {
  return (cursor: string | null) => {
    const query = new URLSearchParams({ limit: String(PAGE_LIMIT) });
    for (const [k, v] of Object.entries(params)) if (v) query.set(k, v);
    if (cursor) query.set('cursor', cursor);
    return api<Page<Row>>('GET', `${path}?${query.toString()}`);
  };
}

/** `name-YYYY-MM-DD.csv` with today's local date. */
export function csvFilename(name: string, now = Date.now()): string {
  return `${name}-${csvTime(now).slice(0, 10)}.csv`;
}

/** Builds the file from every row the list's filters match and downloads it; returns how many rows it has. */
export async function exportList<Row>({ filename, columns, fetchPage, onProgress }: {
  filename: string;
  columns: CsvColumn<Row>[];
  fetchPage: (cursor: string | null) => Promise<Page<Row>>;
  onProgress?: (rows: number) => void;
}): Promise<number> {
  const rows = await collectPages(fetchPage, { onProgress });
  const csv = toCsv(columns.map((c) => c.header), rows.map((r) => columns.map((c) => c.value(r))));
  downloadBlob(new Blob([csv], { type: 'text/csv;charset=utf-8' }), filename);
  return rows.length;
}
