import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../types';

/**
 * The money engine: API keys, conversions, commissions with their status timeline, and the
 * double-entry ledger (journals whose entries sum to zero, and stored balances per account).
 */
export function money(dialect: Dialect): Migration {
  const time = dialect === 'postgres' ? 'bigint' : 'integer';
  const amount = dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('api_keys')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('prefix', 'text', (c) => c.notNull())
        .addColumn('secret_hash', 'text', (c) => c.notNull().unique())
        // The signing secret, AES-256-GCM-sealed with the master key: HMAC checks need the secret itself.
        .addColumn('secret_sealed', 'text', (c) => c.notNull())
        .addColumn('scopes_json', 'text', (c) => c.notNull())
        .addColumn('require_signature', 'integer', (c) => c.notNull())
        .addColumn('created_by', 'text', (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('last_used_at', time)
        .addColumn('revoked_at', time)
        .execute();

      await db.schema
        .createTable('conversions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('campaign_id', 'text', (c) => c.notNull().references('campaigns.id'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('external_id', 'text', (c) => c.notNull())
        .addColumn('amount', amount, (c) => c.notNull())
        .addColumn('refunded_amount', amount, (c) => c.notNull())
        .addColumn('refund_of', 'text')
        .addColumn('customer_external_id', 'text')
        .addColumn('customer_email_sha256', 'text')
        .addColumn('click_id', 'text')
        .addColumn('coupon_code', 'text')
        .addColumn('link_code', 'text')
        .addColumn('promoter_id', 'text')
        .addColumn('link_id', 'text')
        .addColumn('attributed_by', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('reason', 'text')
        .addColumn('occurred_at', time, (c) => c.notNull())
        .addColumn('received_at', time, (c) => c.notNull())
        .addColumn('api_key_id', 'text')
        .addUniqueConstraint('conversions_campaign_kind_external_uq', ['campaign_id', 'kind', 'external_id'])
        .execute();
      // Few secondary indexes on the write-heavy tables: each one costs every insert (bench:conversions).
      await db.schema.createIndex('conversions_status_idx').on('conversions').columns(['status', 'received_at']).execute();
      // Partial: most conversions carry no customer id, and then cost this index nothing.
      await db.schema.createIndex('conversions_customer_idx').on('conversions').columns(['campaign_id', 'customer_external_id', 'occurred_at']).where(sql.ref('customer_external_id'), 'is not', null).execute();

      await db.schema
        .createTable('commissions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('conversion_id', 'text', (c) => c.notNull().references('conversions.id'))
        .addColumn('campaign_id', 'text', (c) => c.notNull())
        .addColumn('promoter_id', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('link_id', 'text')
        .addColumn('source_promoter_id', 'text')
        .addColumn('level', 'integer', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('rule', 'text', (c) => c.notNull())
        .addColumn('base', amount, (c) => c.notNull())
        .addColumn('rate_bps', 'integer')
        .addColumn('amount', amount, (c) => c.notNull())
        .addColumn('reversed_amount', amount, (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('occurred_at', time, (c) => c.notNull())
        .addColumn('month', 'text', (c) => c.notNull())
        .addColumn('available_at', time, (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('decided_at', time)
        .addColumn('decided_by', 'text')
        .addColumn('reason', 'text')
        .addUniqueConstraint('commissions_conversion_level_uq', ['conversion_id', 'level'])
        .execute();
      await db.schema.createIndex('commissions_promoter_idx').on('commissions').columns(['promoter_id', 'created_at']).execute();
      await db.schema.createIndex('commissions_due_idx').on('commissions').columns(['status', 'available_at']).execute();

      await db.schema
        .createTable('commission_events')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('commission_id', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('amount', amount, (c) => c.notNull())
        .addColumn('actor_id', 'text')
        .addColumn('reason', 'text')
        .addColumn('at', time, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('commission_events_commission_idx').on('commission_events').columns(['commission_id', 'at']).execute();

      await db.schema
        .createTable('ledger_journals')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('ref_type', 'text', (c) => c.notNull())
        .addColumn('ref_id', 'text', (c) => c.notNull())
        .addColumn('promoter_id', 'text')
        .addColumn('memo_json', 'text', (c) => c.notNull())
        .addColumn('at', time, (c) => c.notNull())
        .execute();
      // No secondary indexes on journals: they are read through their entries (by account) or whole (the check).

      await db.schema
        .createTable('ledger_entries')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('journal_id', 'text', (c) => c.notNull().references('ledger_journals.id'))
        .addColumn('account', 'text', (c) => c.notNull())
        .addColumn('amount', amount, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('ledger_entries_journal_idx').on('ledger_entries').columns(['journal_id']).execute();
      await db.schema.createIndex('ledger_entries_account_idx').on('ledger_entries').columns(['account']).execute();

      await db.schema
        .createTable('ledger_balances')
        .addColumn('account', 'text', (c) => c.primaryKey())
        .addColumn('balance', amount, (c) => c.notNull())
        .addColumn('updated_at', time, (c) => c.notNull())
        .execute();
    },
  };
}
