import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../types';

/**
 * E-mail (issue 16): the mail outbox (a message is written, already in its reader's language, in
 * the transaction of the change that caused it, and sent with retries), the categories a person
 * turned off, and the daily mails already written (one per person, kind and day, whichever instance
 * gets there first).
 */
export function mailTables(dialect: Dialect): Migration {
  const time = dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('mail_messages')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.references('users.id'))
        .addColumn('recipient', 'text', (c) => c.notNull())
        .addColumn('locale', 'text', (c) => c.notNull())
        .addColumn('template', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        // { text, html }, sealed with the master key: a password link is a secret until used.
        .addColumn('body_sealed', 'text', (c) => c.notNull())
        // 'pending' (due at next_attempt_at), 'sent', 'failed' (every retry used, or refused for good).
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('next_attempt_at', time, (c) => c.notNull())
        .addColumn('claimed_until', time)
        .addColumn('last_error', 'text')
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('sent_at', time)
        .execute();
      await db.schema.createIndex('mail_messages_due_idx').on('mail_messages').columns(['status', 'next_attempt_at']).execute();
      await db.schema.createIndex('mail_messages_created_idx').on('mail_messages').columns(['created_at']).execute();

      await db.schema
        .createTable('mail_opt_outs')
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('category', 'text', (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .addPrimaryKeyConstraint('mail_opt_outs_pk', ['user_id', 'category'])
        .execute();

      await db.schema
        .createTable('mail_digests')
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('kind', 'text', (c) => c.notNull())
        // The local day (YYYY-MM-DD, TIME_ZONE) the mail covers.
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .addPrimaryKeyConstraint('mail_digests_pk', ['user_id', 'kind', 'day'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('mail_digests').execute();
      await db.schema.dropTable('mail_opt_outs').execute();
      await db.schema.dropTable('mail_messages').execute();
    },
  };
}
