import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../types';

/**
 * Promoter groups (issue 31): every promoter is in exactly one group, which reward rules and
 * bounties may be limited to. One group is the default (`id = 'default'`, `is_default = 1`): it
 * cannot be deleted, new promoters join it unless their invite link names another, and deleting
 * another group moves its promoters back to it. `users.group_id` defaults to it, so every existing
 * and every newly inserted account is in a group without any writer having to know; staff accounts
 * carry it too and nothing reads it for them. No foreign key: SQLite cannot add a column that
 * references another table with a non-null default; the groups service checks the id it writes.
 */
export function promoterGroups(dialect: Dialect): Migration {
  const time = dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('promoter_groups')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('updated_at', time, (c) => c.notNull())
        .addCheckConstraint('promoter_groups_default', sql`is_default in (0, 1)`)
        .execute();
      // At most one default group.
      await db.schema.createIndex('promoter_groups_one_default').on('promoter_groups').column('is_default').unique().where(sql.ref('is_default'), '=', 1).execute();
      const now = Date.now();
      await sql`insert into promoter_groups (id, name, description, is_default, created_at, updated_at) values ('default', 'Default', '', 1, ${now}, ${now})`.execute(db);
      await db.schema.alterTable('users').addColumn('group_id', 'text', (c) => c.notNull().defaultTo('default')).execute();
      await db.schema.createIndex('users_group_idx').on('users').columns(['group_id', 'id']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('users_group_idx').execute();
      await db.schema.alterTable('users').dropColumn('group_id').execute();
      await db.schema.dropTable('promoter_groups').execute();
    },
  };
}
