/**
 * CSV export of what a console list shows under its filters: every matching row, not only the
 * loaded ones. Where the server has an export for the list, the page uses it; otherwise this walks
 * the list API's cursor pages with the same filters and builds the file here with the server's own
 * encoder (packages/shared/src/csv.ts, docs/api.md "CSV exports"): UTF-8 with a byte-order mark
 * (spreadsheets then read Chinese), CRLF line ends, text that can never start a formula,
 * identifiers that stay text, and money as a plain decimal from the currency's minor units — under
 * the column names the catalogue gives the export (packages/shared/src/texts/csv-columns.ts, one
 * snake_case English set for every language). What is here is the browser's part: the cursor walk,
 * local times, the file name and the download.
 */
import type { Page } from '@pa/shared';
import type { CsvValue } from '@pa/shared/csv';
import { csvOf, type CsvColumnName, type CsvExport, type CsvRecord } from '@pa/shared/texts/csv-columns';
import { api } from './api-client';
import { downloadBlob } from './share';

/** The list API's largest page. */
const PAGE_LIMIT = 100;
/** A bound on one export (the server's own exports stop at 50,000 rows too). */
const EXPORT_MAX_ROWS = 50_000;

/** A moment as the reader's local "YYYY-MM-DD HH:mm" (sorts as text, reads in every language). */
export function csvTime(epochMs: number | null | undefined): string {
  if (epochMs === null || epochMs === undefined) return '';
  const d = new Date(epochMs);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

/** How a row fills each column of the export `E` (the columns' names and order are the catalogue's). */
export type CsvFill<E extends CsvExport, Row> = Record<CsvColumnName<E>, (row: Row) => CsvValue>;

/** Which export of the catalogue (`csv`), and how a row fills each of its columns. */
export type CsvColumns<Row> = { [E in CsvExport]: { csv: E; columns: CsvFill<E, Row> } }[CsvExport];

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

/** The CSV of `rows` under the export's columns. */
export function csvOfRows<Row>({ csv, columns }: CsvColumns<Row>, rows: readonly Row[]): string {
  const fills = Object.entries(columns) as [string, (row: Row) => CsvValue][];
  return csvOf(csv, rows.map((row) => Object.fromEntries(fills.map(([name, fill]) => [name, fill(row)])) as CsvRecord<typeof csv>));
}

/** Builds the file from every row the list's filters match and downloads it; returns how many rows it has. */
export async function exportList<Row>({ filename, fetchPage, onProgress, ...columns }: {
  filename: string;
  fetchPage: (cursor: string | null) => Promise<Page<Row>>;
  onProgress?: (rows: number) => void;
} & CsvColumns<Row>): Promise<number> {
  const rows = await collectPages(fetchPage, { onProgress });
  const csv = csvOfRows(columns as CsvColumns<Row>, rows);
  downloadBlob(new Blob([csv], { type: 'text/csv;charset=utf-8' }), filename);
  return rows.length;
}
