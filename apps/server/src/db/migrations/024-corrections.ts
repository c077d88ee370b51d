import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../types';

/**
 * Operators' corrections (issue 31, item 7; docs/rewards.md "Corrections").
 *
 * - `commissions.assignment`: 0 for a commission the engine made when the conversion was recorded;
 *   n for one made by the conversion's n-th assignment by staff. A misattributed conversion's
 *   commissions are reversed and new ones made for the promoter staff name, so a conversion may
 *   now hold a level-1 commission per assignment: the unique key (conversion, level) becomes
 *   (conversion, level, assignment) — the same one index, so recording a conversion costs what it
 *   did. SQLite cannot change a table's constraint: the table is rebuilt from its stored
 *   definition, as migration 020 does (its rows copied, its indexes made again, in one transaction
 *   with foreign keys off, refused if `foreign_key_check` then finds anything new).
 * - `customer_bindings.id`: a binding's own id, for the operators' end and move. Existing bindings
 *   take the id of the conversion that started them (unique: a conversion starts one binding at
 *   most); new ones get a new id, and a binding replaced or moved gets another, so a writer that
 *   read the old one cannot replace the new one (repository `upsertBindings`).
 *
 * - Two indexes for the operators' look-ups: a promoter's bindings, and a sale's refunds (partial:
 *   only refunds carry `refund_of`, so recording leads and sales pays nothing for it).
 *
 * Nothing else changes: `attributed_by` has no CHECK constraint (migration 020 checks statuses and
 * kinds only), so `staff` needs none.
 */
const OLD_UNIQUE = 'constraint "commissions_conversion_level_uq" unique ("conversion_id", "level")';
const NEW_UNIQUE = 'constraint "commissions_conversion_level_uq" unique ("conversion_id", "level", "assignment")';

export function corrections(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('commissions').addColumn('assignment', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      if (dialect === 'postgres') {
        await sql`alter table commissions drop constraint commissions_conversion_level_uq`.execute(db);
        await sql`alter table commissions add constraint commissions_conversion_level_uq unique (conversion_id, level, assignment)`.execute(db);
      } else {
        await rebuildSqlite(db, 'commissions', (definition) => definition.replace(OLD_UNIQUE, NEW_UNIQUE));
      }
      await db.schema.alterTable('customer_bindings').addColumn('id', 'text', (c) => c.notNull().defaultTo('')).execute();
      await sql`update customer_bindings set id = conversion_id`.execute(db);
      await db.schema.createIndex('customer_bindings_id_uq').on('customer_bindings').column('id').unique().execute();
      // The operators' list of a promoter's bindings.
      await db.schema.createIndex('customer_bindings_promoter_idx').on('customer_bindings').columns(['promoter_id', 'started_at']).execute();
      // A sale's refunds (its detail, and an assignment updating them). Partial: leads and sales,
      // the busy inserts, never carry refund_of and cost this index nothing.
      await db.schema.createIndex('conversions_refund_of_idx').on('conversions').column('refund_of').where(sql.ref('refund_of'), 'is not', null).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('conversions_refund_of_idx').execute();
      await db.schema.dropIndex('customer_bindings_promoter_idx').execute();
      await db.schema.dropIndex('customer_bindings_id_uq').execute();
      await db.schema.alterTable('customer_bindings').dropColumn('id').execute();
      // Refused (the unique key again) while a conversion holds commissions of several assignments.
      if (dialect === 'postgres') {
        await sql`alter table commissions drop constraint commissions_conversion_level_uq`.execute(db);
        await sql`alter table commissions add constraint commissions_conversion_level_uq unique (conversion_id, level)`.execute(db);
      } else {
        await rebuildSqlite(db, 'commissions', (definition) => definition.replace(NEW_UNIQUE, OLD_UNIQUE));
      }
      await db.schema.alterTable('commissions').dropColumn('assignment').execute();
    },
  };
}

/** Rebuilds one table (SQLite) with the definition `change` makes of its stored one. */
export async function rebuildSqlite(db: Kysely<unknown>, table: string, change: (definition: string) => string) {
  // Foreign keys cannot be switched inside a transaction; migrations on SQLite run outside one.
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await sql`begin immediate`.execute(db);
    try {
      const before = new Set((await sql`pragma foreign_key_check`.execute(db)).rows.map((r) => JSON.stringify(r)));
      const stored = await sql<{ sql: string }>`select sql from sqlite_master where type = 'table' and name = ${table}`.execute(db);
      const definition = stored.rows[0]?.sql;
      if (!definition) throw new Error(`no table ${table}`);
      const indexes = await sql<{ sql: string }>`select sql from sqlite_master where type = 'index' and tbl_name = ${table} and sql is not null`.execute(db);
      const changed = change(definition);
      if (changed === definition) throw new Error(`table ${table}: its definition is not the one expected`);
      const renamed = changed.replace(/^create table\s+("?)(\w+)\1/i, `create table "${table}_rebuilt"`);
      if (renamed === changed) throw new Error(`table ${table}: unexpected definition ${definition.slice(0, 40)}`);
      await sql.raw(renamed).execute(db);
      // The same definition, so the same columns in the same order.
      await sql.raw(`insert into "${table}_rebuilt" select * from "${table}"`).execute(db);
      await sql.raw(`drop table "${table}"`).execute(db);
      await sql.raw(`alter table "${table}_rebuilt" rename to "${table}"`).execute(db);
      for (const index of indexes.rows) await sql.raw(index.sql).execute(db);
      const after = (await sql`pragma foreign_key_check`.execute(db)).rows.map((r) => JSON.stringify(r));
      const broken = after.filter((r) => !before.has(r));
      if (broken.length > 0) throw new Error(`foreign keys broken by the rebuild: ${broken.slice(0, 3).join(', ')}`);
      await sql`commit`.execute(db);
    } catch (error) {
      await sql`rollback`.execute(db);
      throw error;
    }
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
  }
}
