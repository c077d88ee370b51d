/**
 * Every CSV export's column names, in order, in one place (issue 30): the server's exports and the
 * console's list exports built in the browser (apps/web/src/lib/csv-export.ts) alike. They are the
 * catalogue's one set that is not translated: snake_case English, the same whatever the reader's
 * language, because spreadsheet formulas, import scripts and bank portals find a column by its name
 * (docs/api.md, "CSV exports"); the values a person reads in them (statuses, kinds, action names)
 * are in the reader's language. An export fills its rows by column name (`CsvRecord`), so the
 * compiler refuses a column missing or extra, and toCsv refuses a name that is not snake_case.
 */
import { toCsv, type CsvValue } from '../csv';

export const CSV_COLUMNS = {
  // The server's exports.
  /** GET api/commissions/export: a promoter's own commissions. */
  promoterCommissions: ['occurred_at', 'campaign', 'kind', 'level', 'external_id', 'base', 'rate', 'amount', 'reversed_amount', 'status', 'available_at', 'link_code', 'currency'],
  /** GET api/admin/audit/export. */
  audit: ['at', 'actor', 'actor_account', 'actor_role', 'action', 'action_name', 'entity_type', 'entity_id', 'before', 'after', 'ip', 'entry_id'],
  /** GET api/admin/promoters/export. */
  promoters: ['promoter_id', 'account', 'display_name', 'status', 'group', 'invite_code', 'created_at', 'inviter_account', 'available', 'pending', 'currency'],
  /** GET api/admin/withdrawals/export.csv: the approved withdrawals as a bank batch. */
  withdrawalBatch: ['withdrawal_id', 'requested_at', 'promoter_account', 'promoter_name', 'method', 'holder_name', 'account_number', 'amount', 'fee', 'net', 'currency'],

  // The console's lists, exported in the browser under the list's filters.
  commissions: ['occurred_at', 'promoter_name', 'promoter_account', 'campaign', 'kind', 'external_id', 'level', 'base', 'rate', 'amount', 'reversed_amount', 'currency', 'status', 'available_at', 'reason', 'id'],
  conversions: ['occurred_at', 'kind', 'external_id', 'campaign', 'promoter_name', 'status', 'outcome', 'amount', 'refunded_amount', 'currency', 'coupon_code', 'id'],
  withdrawals: ['promoter_name', 'promoter_account', 'amount', 'fee', 'net', 'currency', 'payout_account', 'status', 'requested_at', 'paid_at', 'payout_reference', 'reason', 'shared_account', 'id'],
  users: ['display_name', 'account', 'role', 'status', 'joined_at', 'inviter_name', 'group', 'application', 'id'],
  enrollments: ['promoter_name', 'promoter_account', 'campaign', 'status', 'requested_at', 'coupon_code', 'id'],
  campaigns: ['name', 'status', 'lead_reward', 'sale_reward', 'currency', 'starts_at', 'ends_at', 'created_at', 'id'],
  announcements: ['title', 'status', 'pinned', 'languages', 'created_at', 'published_at', 'id'],
  apiKeys: ['name', 'key_prefix', 'scopes', 'signature_required', 'created_at', 'last_used_at', 'revoked_at', 'id'],
} as const satisfies Record<string, readonly string[]>;

export type CsvExport = keyof typeof CSV_COLUMNS;
export type CsvColumnName<E extends CsvExport> = (typeof CSV_COLUMNS)[E][number];
/** One row of the export `E`: a value for each of its columns, by name. */
export type CsvRecord<E extends CsvExport> = Record<CsvColumnName<E>, CsvValue>;

/** The export `name` as CSV: its column names, then each record's values in the columns' order. */
export function csvOf<E extends CsvExport>(name: E, records: readonly CsvRecord<E>[]): string {
  const columns: readonly CsvColumnName<E>[] = CSV_COLUMNS[name];
  return toCsv(columns, records.map((record) => columns.map((column) => record[column])));
}
