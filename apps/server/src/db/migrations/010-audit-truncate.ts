import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../types';

/**
 * The audit log's append-only rule (008) covered updates and deletes row by row; on PostgreSQL a
 * TRUNCATE skips row triggers, so a statement-level trigger refuses it too. SQLite has no TRUNCATE
 * (its `delete from` without a condition fires the row trigger of 008).
 */
export function auditTruncate(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect !== 'postgres') return;
      await sql`create trigger audit_entries_no_truncate before truncate on audit_entries
        for each statement execute function audit_entries_append_only()`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      if (dialect !== 'postgres') return;
      await sql`drop trigger audit_entries_no_truncate on audit_entries`.execute(db);
    },
  };
}
