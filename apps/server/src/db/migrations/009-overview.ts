import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../types';

const COLUMNS = ['clicks', 'unique_clicks', 'bot_clicks', 'leads', 'sales', 'sale_amount', 'refund_amount', 'commission_pending', 'commission_approved', 'commission_rejected', 'commission_reversed'];

/**
 * The operator's overview (issue 14), which reads program-wide figures at full scale in
 * milliseconds (docs/stats.md, docs/benchmarks.md):
 * - `program_daily_stats`: daily_stats summed over promoters and links, by day and campaign — the
 *   figures, the trend and the top campaigns of any range are a few hundred rows;
 * - `promoter_day_sales`: each promoter's sale amount per day, with an index by (day, amount) — the
 *   top promoters of a range start from each day's leaders (modules/overview/service.ts);
 * - indexes for the work queue's counts and the range's payouts.
 * Both tables are kept in the transactions that write daily_stats (platform/rollups.ts) and are
 * recomputed by the rollup rebuild; here they are filled from daily_stats as it stands.
 */
export function overviewTables(dialect: Dialect): Migration {
  const count = dialect === 'postgres' ? 'bigint' : 'integer';
  const clustered = <T extends { modifyEnd(s: unknown): T }>(b: T): T => (dialect === 'sqlite' ? b.modifyEnd(sql`without rowid`) : b);
  return {
    async up(db: Kysely<unknown>) {
      let program = db.schema
        .createTable('program_daily_stats')
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('campaign_id', 'text', (c) => c.notNull());
      for (const column of COLUMNS) program = program.addColumn(column, count, (c) => c.notNull().defaultTo(0));
      await clustered(program.addPrimaryKeyConstraint('program_daily_stats_pk', ['day', 'campaign_id'])).execute();

      await clustered(
        db.schema
          .createTable('promoter_day_sales')
          .addColumn('day', 'text', (c) => c.notNull())
          .addColumn('promoter_id', 'text', (c) => c.notNull())
          .addColumn('sale_amount', count, (c) => c.notNull().defaultTo(0))
          .addPrimaryKeyConstraint('promoter_day_sales_pk', ['day', 'promoter_id']),
      ).execute();
      await db.schema.createIndex('promoter_day_sales_rank_idx').on('promoter_day_sales').columns(['day', 'sale_amount']).execute();

      // The work queue: pending enrollments, pending commissions of the campaigns approved by hand.
      await db.schema.createIndex('enrollments_status_idx').on('enrollments').columns(['status', 'created_at']).execute();
      await db.schema.createIndex('commissions_campaign_status_idx').on('commissions').columns(['campaign_id', 'status']).execute();
      // Paid out in a range.
      await db.schema.createIndex('withdrawals_paid_idx').on('withdrawals').columns(['status', 'paid_at']).execute();

      await sql`insert into program_daily_stats (day, campaign_id, ${sql.raw(COLUMNS.join(', '))})
        select day, campaign_id, ${sql.raw(COLUMNS.map((c) => `sum(${c})`).join(', '))} from daily_stats group by day, campaign_id`.execute(db);
      await sql`insert into promoter_day_sales (day, promoter_id, sale_amount)
        select day, promoter_id, sum(sale_amount) from daily_stats group by day, promoter_id having sum(sale_amount) <> 0`.execute(db);
    },
  };
}
