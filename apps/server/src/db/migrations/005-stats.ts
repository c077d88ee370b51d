import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../types';
import { fillStats } from './005-stats-fill';

/**
 * Figures that stay fast at scale (issue 6): per-day rollups by promoter, day, campaign and link
 * (link '' for what belongs to no link: level-2 overrides), and per-period totals by promoter for
 * the leaderboard — both written in the transactions that write the rows they count, and
 * recomputable from those rows (`npm run stats:rebuild`). They replace `link_daily_stats`, whose
 * figures they contain; they are filled from the rows already stored by 005's own frozen SQL
 * (005-stats-fill.ts), with the days of `timeZone`.
 * Also: announcements, and the promoter's leaderboard opt-out.
 */
export function stats(dialect: Dialect, timeZone: string): Migration {
  const time = dialect === 'postgres' ? 'bigint' : 'integer';
  const count = dialect === 'postgres' ? 'bigint' : 'integer';
  const clustered = <T extends { modifyEnd(s: unknown): T }>(b: T): T => (dialect === 'sqlite' ? b.modifyEnd(sql`without rowid`) : b);
  return {
    async up(db: Kysely<unknown>) {
      // Clustered by promoter (SQLite: WITHOUT ROWID, no secondary index): a promoter's figures for a range
      // are one range read, and a batch of sales dirties one page per promoter rather than one per index.
      let daily = db.schema
        .createTable('daily_stats')
        .addColumn('promoter_id', 'text', (c) => c.notNull())
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('campaign_id', 'text', (c) => c.notNull())
        .addColumn('link_id', 'text', (c) => c.notNull());
      for (const column of ['clicks', 'unique_clicks', 'bot_clicks', 'leads', 'sales', 'sale_amount', 'refund_amount', 'commission_pending', 'commission_approved', 'commission_rejected', 'commission_reversed']) {
        daily = daily.addColumn(column, count, (c) => c.notNull().defaultTo(0));
      }
      await clustered(daily.addPrimaryKeyConstraint('daily_stats_pk', ['promoter_id', 'day', 'campaign_id', 'link_id'])).execute();

      // Period totals for the leaderboard: 'w:<Monday>' and 'm:<YYYY-MM>'.
      await clustered(
        db.schema
          .createTable('period_stats')
          .addColumn('period', 'text', (c) => c.notNull())
          .addColumn('promoter_id', 'text', (c) => c.notNull())
          .addColumn('earnings', count, (c) => c.notNull().defaultTo(0))
          .addColumn('conversions', count, (c) => c.notNull().defaultTo(0))
          .addPrimaryKeyConstraint('period_stats_pk', ['period', 'promoter_id']),
      ).execute();

      await db.schema.dropTable('link_daily_stats').execute();

      await db.schema.alterTable('users').addColumn('leaderboard_opt_out', 'integer', (c) => c.notNull().defaultTo(0)).execute();

      await db.schema
        .createTable('announcements')
        .addColumn('id', 'text', (c) => c.primaryKey())
        // JSON { locale: { title, body } }; shown in the reader's language, else the first one written.
        .addColumn('texts_json', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull()) // draft | published | archived
        .addColumn('pinned', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('published_at', time)
        .addColumn('created_by', 'text', (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('updated_at', time, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('announcements_status_idx').on('announcements').columns(['status', 'published_at']).execute();

      await fillStats(db, dialect, timeZone);
    },
  };
}
