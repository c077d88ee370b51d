import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../types';

/**
 * Payout accounts (numbers sealed with the server key, compared by keyed digest), withdrawals
 * with their status timeline, and notifications (type + parameters, rendered by the reader).
 */
export function withdrawals(dialect: Dialect): Migration {
  const time = dialect === 'postgres' ? 'bigint' : 'integer';
  const amount = dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('payout_accounts')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('promoter_id', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('method', 'text', (c) => c.notNull())
        .addColumn('holder_name', 'text', (c) => c.notNull())
        // AES-256-GCM with the server key, bound to this row ("payout:<id>").
        .addColumn('number_sealed', 'text', (c) => c.notNull())
        // HMAC-SHA256 (key derived from the server key) of method + normalized number: equal numbers compare equal, nothing else leaks.
        .addColumn('number_digest', 'text', (c) => c.notNull())
        .addColumn('last4', 'text', (c) => c.notNull())
        .addColumn('is_default', 'integer', (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('payout_accounts_promoter_idx').on('payout_accounts').columns(['promoter_id', 'created_at']).execute();
      await db.schema.createIndex('payout_accounts_digest_idx').on('payout_accounts').columns(['number_digest']).execute();

      await db.schema
        .createTable('withdrawals')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('promoter_id', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('amount', amount, (c) => c.notNull())
        .addColumn('fee', amount, (c) => c.notNull())
        .addColumn('net', amount, (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('payout_account_id', 'text')
        // The account as it was when requested: method, holder, last four; the number sealed again for this withdrawal.
        .addColumn('account_method', 'text', (c) => c.notNull())
        .addColumn('account_holder', 'text', (c) => c.notNull())
        .addColumn('account_last4', 'text', (c) => c.notNull())
        .addColumn('account_sealed', 'text', (c) => c.notNull())
        .addColumn('account_digest', 'text', (c) => c.notNull())
        .addColumn('idempotency_key', 'text')
        .addColumn('request_hash', 'text', (c) => c.notNull())
        // The installation-time-zone day of the request, for the daily count.
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('requested_at', time, (c) => c.notNull())
        .addColumn('decided_at', time)
        .addColumn('decided_by', 'text')
        .addColumn('paid_at', time)
        .addColumn('payout_reference', 'text')
        .addColumn('reason', 'text')
        .addUniqueConstraint('withdrawals_idempotency_uq', ['promoter_id', 'idempotency_key'])
        .execute();
      await db.schema.createIndex('withdrawals_promoter_idx').on('withdrawals').columns(['promoter_id', 'requested_at']).execute();
      await db.schema.createIndex('withdrawals_status_idx').on('withdrawals').columns(['status', 'requested_at']).execute();
      await db.schema.createIndex('withdrawals_digest_idx').on('withdrawals').columns(['account_digest']).execute();

      await db.schema
        .createTable('withdrawal_events')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('withdrawal_id', 'text', (c) => c.notNull().references('withdrawals.id'))
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('actor_id', 'text')
        .addColumn('reason', 'text')
        .addColumn('reference', 'text')
        .addColumn('at', time, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('withdrawal_events_withdrawal_idx').on('withdrawal_events').columns(['withdrawal_id', 'at']).execute();

      // Clustered by reader (SQLite: WITHOUT ROWID): a reader's notifications sit together, and writing one
      // touches one page instead of a row page plus index pages (it is written with every commission).
      await db.schema
        .createTable('notifications')
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('params_json', 'text', (c) => c.notNull())
        .addColumn('read_at', time)
        .addColumn('created_at', time, (c) => c.notNull())
        .addPrimaryKeyConstraint('notifications_pk', ['user_id', 'id'])
        .$call((b) => (dialect === 'sqlite' ? b.modifyEnd(sql`without rowid`) : b))
        .execute();
      // No secondary index (each would cost every commission a random page write): the unread count scans
      // the reader's rows from `unread_from` on (every notification below it is read), kept here.
      await db.schema
        .createTable('notification_marks')
        .addColumn('user_id', 'text', (c) => c.primaryKey())
        .addColumn('unread_from', 'text', (c) => c.notNull())
        .execute();
    },
  };
}
