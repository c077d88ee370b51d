import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../types';
import { rebuildSqlite } from './024-corrections';

/**
 * Bounties (issue 31 item 5; docs/bounties.md).
 *
 * - `bounties`: a campaign's reward for reaching a goal (`performance`, `goal_json`) or for proof of
 *   a task staff approve (`submission`), limited to groups (`group_ids_json`, empty: all) and dates.
 * - `bounty_submissions`: a promoter's proof; one pending per promoter and bounty at a time (a
 *   partial unique index, so two submissions sent together cannot both wait).
 * - `bounty_images`: images promoters upload as proof (read by staff and their owner only).
 * - `commissions`: a bounty's reward is a commission of kind `bounty` with no conversion
 *   (`conversion_id` becomes nullable), `bounty_id` and `bounty_period` (`YYYY-MM` for a monthly
 *   goal, `campaign` for a campaign-long one, `once` for a submission). The unique key
 *   (bounty_id, promoter_id, bounty_period) is what makes a bounty earned at most once per promoter
 *   and period on both databases, whatever races. Rows with a null bounty_id (every other
 *   commission) never collide. SQLite cannot drop a NOT NULL: the table is rebuilt as 024 does.
 */
const NOT_NULL = /"conversion_id" (text|varchar\(\d+\)) not null/i;

export function bounties(dialect: Dialect): Migration {
  const big = dialect === 'postgres' ? 'bigint' : 'integer';
  const blob = dialect === 'postgres' ? 'bytea' : 'blob';
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('bounties')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('campaign_id', 'text', (c) => c.notNull().references('campaigns.id'))
        .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('performance', 'submission')`))
        .addColumn('names_json', 'text', (c) => c.notNull())
        .addColumn('descriptions_json', 'text', (c) => c.notNull())
        .addColumn('reward', big, (c) => c.notNull().check(sql`reward > 0`))
        .addColumn('goal_json', 'text')
        .addColumn('group_ids_json', 'text', (c) => c.notNull())
        .addColumn('starts_at', big)
        .addColumn('ends_at', big)
        .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('active', 'archived')`))
        .addColumn('created_at', big, (c) => c.notNull())
        .addColumn('updated_at', big, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('bounties_campaign_idx').on('bounties').columns(['campaign_id', 'created_at']).execute();
      await db.schema
        .createTable('bounty_images')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('bounty_id', 'text', (c) => c.notNull().references('bounties.id'))
        .addColumn('promoter_id', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('content_type', 'text', (c) => c.notNull())
        .addColumn('data', blob, (c) => c.notNull())
        .addColumn('byte_size', 'integer', (c) => c.notNull())
        .addColumn('sha256', 'text', (c) => c.notNull())
        .addColumn('width', 'integer', (c) => c.notNull())
        .addColumn('height', 'integer', (c) => c.notNull())
        .addColumn('created_at', big, (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('bounty_submissions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('bounty_id', 'text', (c) => c.notNull().references('bounties.id'))
        .addColumn('promoter_id', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('url', 'text')
        .addColumn('text', 'text', (c) => c.notNull())
        .addColumn('image_id', 'text', (c) => c.references('bounty_images.id'))
        .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending', 'approved', 'rejected')`))
        .addColumn('reason', 'text')
        .addColumn('created_at', big, (c) => c.notNull())
        .addColumn('decided_at', big)
        .addColumn('decided_by', 'text')
        .addColumn('commission_id', 'text')
        .execute();
      await db.schema.createIndex('bounty_submissions_list_idx').on('bounty_submissions').columns(['status', 'created_at']).execute();
      await db.schema.createIndex('bounty_submissions_bounty_idx').on('bounty_submissions').columns(['bounty_id', 'promoter_id', 'created_at']).execute();
      await db.schema.createIndex('bounty_submissions_pending_uq').on('bounty_submissions').columns(['bounty_id', 'promoter_id']).unique().where(sql.ref('status'), '=', 'pending').execute();

      await db.schema.alterTable('commissions').addColumn('bounty_id', 'text').execute();
      await db.schema.alterTable('commissions').addColumn('bounty_period', 'text').execute();
      if (dialect === 'postgres') {
        await sql`alter table commissions alter column conversion_id drop not null`.execute(db);
      } else {
        await rebuildSqlite(db, 'commissions', (definition) => definition.replace(NOT_NULL, '"conversion_id" $1'));
      }
      await db.schema.createIndex('commissions_bounty_uq').on('commissions').columns(['bounty_id', 'promoter_id', 'bounty_period']).unique().execute();
    },
    async down(db: Kysely<unknown>) {
      // Refused (NOT NULL) while bounty commissions exist.
      await db.schema.dropIndex('commissions_bounty_uq').execute();
      if (dialect === 'postgres') {
        await sql`alter table commissions alter column conversion_id set not null`.execute(db);
      } else {
        await rebuildSqlite(db, 'commissions', (definition) => definition.replace(/"conversion_id" (text|varchar\(\d+\))(?! not null)/i, '"conversion_id" $1 not null'));
      }
      await db.schema.alterTable('commissions').dropColumn('bounty_period').execute();
      await db.schema.alterTable('commissions').dropColumn('bounty_id').execute();
      await db.schema.dropTable('bounty_submissions').execute();
      await db.schema.dropTable('bounty_images').execute();
      await db.schema.dropTable('bounties').execute();
    },
  };
}
