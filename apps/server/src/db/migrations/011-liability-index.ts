import { sql, type Kysely, type Migration } from 'kysely';

/**
 * The overview at full scale (docs/benchmarks.md):
 * - its liability (what promoters are owed: available, plus withdrawing and payable) is a sum over
 *   the promoter accounts of those buckets only. Without these partial covering indexes it read
 *   every balance row and matched its account name: 20 ms at 100,000 promoters, most of the
 *   overview's time; with them, 2 ms. The queries (modules/overview/repository.ts) repeat each
 *   index's condition word for word, so both databases can use it;
 * - the range's payouts sum `net` from the index itself (it replaces 009's (status, paid_at)).
 */
export function liabilityIndexes(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await sql`create index ledger_balances_available_idx on ledger_balances (account, balance) where account like '%:available'`.execute(db);
      await sql`create index ledger_balances_withdrawing_idx on ledger_balances (account, balance) where account like '%:withdrawing' or account like '%:payable'`.execute(db);
      await sql`create index withdrawals_paid_net_idx on withdrawals (status, paid_at, net)`.execute(db);
      await sql`drop index withdrawals_paid_idx`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      await sql`create index withdrawals_paid_idx on withdrawals (status, paid_at)`.execute(db);
      await sql`drop index withdrawals_paid_net_idx`.execute(db);
      await sql`drop index ledger_balances_withdrawing_idx`.execute(db);
      await sql`drop index ledger_balances_available_idx`.execute(db);
    },
  };
}
