import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../types';

/**
 * What the console's desk needs (issue 28, item 16):
 * - `users.name_folded`: the display name lower-cased and without accents ("María" → "maria"), kept
 *   on every write of the name, so that the promoter search ignores accents on both databases
 *   without an extension (PostgreSQL's `unaccent` may not be installable);
 * - an index on `users (role, created_at)` for the overview's "new promoters" of a period.
 * Existing rows are filled here with the same folding rule as `domain/search.ts` (copied: a
 * migration uses no application code).
 */
const fold = (s: string) => s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();

export function desk(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('users').addColumn('name_folded', 'text', (c) => c.notNull().defaultTo('')).execute();
      const rows = await sql<{ id: string; display_name: string }>`select id, display_name from users`.execute(db);
      for (const r of rows.rows) {
        const folded = fold(r.display_name);
        if (folded !== '') await sql`update users set name_folded = ${folded} where id = ${r.id}`.execute(db);
      }
      await db.schema.createIndex('users_role_created_idx').on('users').columns(['role', 'created_at']).execute();
      void dialect;
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('users_role_created_idx').execute();
      await db.schema.alterTable('users').dropColumn('name_folded').execute();
    },
  };
}
