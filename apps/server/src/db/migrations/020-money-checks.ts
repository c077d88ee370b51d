import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../types';

/**
 * The database holds the money tables' single-row invariants itself (issue 30), whatever writes to
 * them: `CHECK` constraints for amounts that are never negative, statuses and kinds in their known
 * sets (as the code's state machines have them: domain/commission-lifecycle.ts, packages/shared's
 * WITHDRAWAL_STATUSES, db/types.ts — copied here, as migrations use no application code), a
 * withdrawal's fee and net making its amount, and the ledger balances that may not go below zero:
 * a promoter's pending, withdrawing, payable and paid-out buckets (domain/ledger.ts
 * NON_NEGATIVE_BUCKETS). A promoter's available balance may go negative (a refund of a commission
 * already withdrawn, an adjustment with `allowNegative`), and platform accounts are negative by the
 * ledger's sign convention: neither is constrained.
 *
 * PostgreSQL adds the constraints (each validated against the rows there). SQLite cannot add one
 * to a table: each table is rebuilt — created again from its stored definition with the
 * constraints added, its rows copied, the old table dropped and the new one renamed, its indexes
 * made again — in one transaction with foreign keys off (SQLite's own recipe), and refused if
 * `foreign_key_check` then finds anything. `down` removes them the same way.
 */
export const MONEY_CHECKS: Record<string, [name: string, check: string][]> = {
  ledger_balances: [
    ['ledger_balances_non_negative', `balance >= 0 or account like 'platform:%' or account like 'promoter:%:available'`],
  ],
  conversions: [
    ['conversions_amounts', 'amount >= 0 and refunded_amount >= 0 and refunded_amount <= amount'],
    ['conversions_kind', `kind in ('lead', 'sale', 'refund')`],
    ['conversions_status', `status in ('attributed', 'unattributed', 'rejected')`],
  ],
  commissions: [
    ['commissions_amounts', 'amount >= 0 and base >= 0 and reversed_amount >= 0 and reversed_amount <= amount'],
    // Not its kind: rows written by earlier versions may name a level-2 override's kind 'override'.
    ['commissions_level', 'level in (1, 2)'],
    ['commissions_status', `status in ('pending', 'approved', 'rejected', 'reversed')`],
  ],
  withdrawals: [
    ['withdrawals_amounts', 'amount >= 0 and fee >= 0 and net >= 0 and fee + net = amount'],
    ['withdrawals_status', `status in ('requested', 'approved', 'paid', 'failed', 'rejected', 'cancelled')`],
  ],
};

export function moneyChecks(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect === 'postgres') {
        for (const [table, checks] of Object.entries(MONEY_CHECKS)) {
          for (const [name, check] of checks) await sql`alter table ${sql.table(table)} add constraint ${sql.ref(name)} check (${sql.raw(check)})`.execute(db);
        }
        return;
      }
      await rebuildSqlite(db, (table, definition) => {
        const close = definition.lastIndexOf(')');
        return definition.slice(0, close) + MONEY_CHECKS[table]!.map(([name, check]) => `, constraint "${name}" check (${check})`).join('') + definition.slice(close);
      });
    },
    async down(db: Kysely<unknown>) {
      if (dialect === 'postgres') {
        for (const [table, checks] of Object.entries(MONEY_CHECKS)) {
          for (const [name] of checks) await sql`alter table ${sql.table(table)} drop constraint ${sql.ref(name)}`.execute(db);
        }
        return;
      }
      await rebuildSqlite(db, (table, definition) => {
        let out = definition;
        for (const [name, check] of MONEY_CHECKS[table]!) out = out.replace(`, constraint "${name}" check (${check})`, '');
        return out;
      });
    },
  };
}

/** Rebuilds each of MONEY_CHECKS' tables (SQLite) with the definition `change` makes of its stored one. */
async function rebuildSqlite(db: Kysely<unknown>, change: (table: string, definition: string) => string) {
  // Foreign keys cannot be switched inside a transaction; migrations on SQLite run outside one.
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await sql`begin immediate`.execute(db);
    try {
      const before = new Set((await sql`pragma foreign_key_check`.execute(db)).rows.map((r) => JSON.stringify(r)));
      for (const table of Object.keys(MONEY_CHECKS)) {
        const stored = await sql<{ sql: string }>`select sql from sqlite_master where type = 'table' and name = ${table}`.execute(db);
        const definition = stored.rows[0]?.sql;
        if (!definition) throw new Error(`no table ${table}`);
        const indexes = await sql<{ sql: string }>`select sql from sqlite_master where type = 'index' and tbl_name = ${table} and sql is not null`.execute(db);
        const changed = change(table, definition);
        if (changed === definition) throw new Error(`table ${table}: its definition is not the one expected`);
        const renamed = changed.replace(/^create table\s+("?)(\w+)\1/i, `create table "${table}_rebuilt"`);
        if (renamed === changed) throw new Error(`table ${table}: unexpected definition ${definition.slice(0, 40)}`);
        await sql.raw(renamed).execute(db);
        // The same definition, so the same columns in the same order.
        await sql.raw(`insert into "${table}_rebuilt" select * from "${table}"`).execute(db);
        await sql.raw(`drop table "${table}"`).execute(db);
        await sql.raw(`alter table "${table}_rebuilt" rename to "${table}"`).execute(db);
        for (const index of indexes.rows) await sql.raw(index.sql).execute(db);
      }
      // What the rebuild broke, not what was broken before (rows written with foreign keys off).
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
