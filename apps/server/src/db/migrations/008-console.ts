import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../types';

/**
 * The operator console (issue 14): one-time password links (staff invites and resets, stored as
 * digests), manual adjustments (one per idempotency key), and the audit log's client address plus
 * the indexes its filters read by.
 */
export function consoleTables(dialect: Dialect): Migration {
  const time = dialect === 'postgres' ? 'bigint' : 'integer';
  const amount = dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('password_tokens')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
        // SHA-256 of the token (hex); the token itself is shown once and never stored.
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        // 'reset' (staff resets a promoter's password) or 'invite' (a new staff member sets theirs).
        .addColumn('purpose', 'text', (c) => c.notNull())
        .addColumn('created_by', 'text')
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('expires_at', time, (c) => c.notNull())
        .addColumn('used_at', time)
        .execute();
      await db.schema.createIndex('password_tokens_user_idx').on('password_tokens').columns(['user_id', 'created_at']).execute();

      await db.schema
        .createTable('adjustments')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('promoter_id', 'text', (c) => c.notNull().references('users.id'))
        // Signed minor units: positive credits the promoter's available balance, negative debits it.
        .addColumn('amount', amount, (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('allow_negative', 'integer', (c) => c.notNull())
        .addColumn('idempotency_key', 'text')
        .addColumn('request_hash', 'text', (c) => c.notNull())
        .addColumn('journal_id', 'text', (c) => c.notNull())
        .addColumn('created_by', 'text', (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .addUniqueConstraint('adjustments_idempotency_uq', ['promoter_id', 'idempotency_key'])
        .execute();
      await db.schema.createIndex('adjustments_promoter_idx').on('adjustments').columns(['promoter_id', 'created_at']).execute();

      await db.schema.alterTable('audit_entries').addColumn('ip', 'text').execute();
      await db.schema.createIndex('audit_at_idx').on('audit_entries').columns(['at', 'id']).execute();
      await db.schema.createIndex('audit_actor_idx').on('audit_entries').columns(['actor_id', 'at']).execute();
      await db.schema.createIndex('audit_action_idx').on('audit_entries').columns(['action', 'at']).execute();
      // Append-only, enforced by the database itself: an update or delete of an entry fails,
      // whatever code (or person at a database shell using the application's role) tries it.
      if (dialect === 'postgres') {
        await sql`create function audit_entries_append_only() returns trigger language plpgsql as $$
          begin raise exception 'audit entries are append-only'; end $$`.execute(db);
        await sql`create trigger audit_entries_no_change before update or delete on audit_entries
          for each row execute function audit_entries_append_only()`.execute(db);
      } else {
        await sql`create trigger audit_entries_no_update before update on audit_entries
          begin select raise(abort, 'audit entries are append-only'); end`.execute(db);
        await sql`create trigger audit_entries_no_delete before delete on audit_entries
          begin select raise(abort, 'audit entries are append-only'); end`.execute(db);
      }
    },
    async down(db: Kysely<unknown>) {
      if (dialect === 'postgres') {
        await sql`drop trigger audit_entries_no_change on audit_entries`.execute(db);
        await sql`drop function audit_entries_append_only()`.execute(db);
      } else {
        await sql`drop trigger audit_entries_no_update`.execute(db);
        await sql`drop trigger audit_entries_no_delete`.execute(db);
      }
      await db.schema.dropIndex('audit_action_idx').execute();
      await db.schema.dropIndex('audit_actor_idx').execute();
      await db.schema.dropIndex('audit_at_idx').execute();
      await db.schema.alterTable('audit_entries').dropColumn('ip').execute();
      await db.schema.dropTable('adjustments').execute();
      await db.schema.dropTable('password_tokens').execute();
    },
  };
}
