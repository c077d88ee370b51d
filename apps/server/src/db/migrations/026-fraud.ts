import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../types';

/**
 * Fraud rules, holds and the risk queue (issue 32; docs/fraud.md).
 *
 * - `fraud_rules`: an admin's setting of a rule (action, parameters as JSON). A rule without a row
 *   has its default (@pa/shared FRAUD_RULE_DEFAULTS), so the defaults can improve in a release.
 * - `risk_cases`: one case per promoter per rule while it is open — a partial unique index, so two
 *   writers opening the same case at once end with one (the second adds to the first, `on conflict`).
 *   `at_stake`: the commissions it concerns, in minor units.
 * - `risk_evidence`: what a case found, item by item (an insert per finding: concurrent findings
 *   never overwrite each other). JSON without raw network or e-mail addresses.
 * - `risk_holds`: commissions a case holds — they stay pending past their hold date (the
 *   scheduler's auto-approval skips them) until staff dismiss the case (the row goes, they continue)
 *   or reject it (they are rejected). A table of its own rather than a column of `commissions`, so
 *   the conversion path writes nothing more for the sales that are not held.
 * - `registration_addresses`: a keyed hash of the network address each registration came from
 *   (never the address), kept a day, for `registration_burst`.
 */
export function fraud(dialect: Dialect): Migration {
  const big = dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('fraud_rules')
        .addColumn('rule', 'text', (c) => c.primaryKey())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('params_json', 'text', (c) => c.notNull())
        .addColumn('updated_at', big, (c) => c.notNull())
        .addColumn('updated_by', 'text', (c) => c.references('users.id'))
        .addCheckConstraint('fraud_rules_action', sql`action in ('off', 'flag', 'hold', 'reject')`)
        .execute();
      await db.schema
        .createTable('risk_cases')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('promoter_id', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('rule', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('at_stake', big, (c) => c.notNull().defaultTo(0))
        .addColumn('opened_at', big, (c) => c.notNull())
        .addColumn('updated_at', big, (c) => c.notNull())
        .addColumn('decided_at', big)
        .addColumn('decided_by', 'text', (c) => c.references('users.id'))
        .addCheckConstraint('risk_cases_status', sql`status in ('open', 'dismissed', 'rejected')`)
        .addCheckConstraint('risk_cases_at_stake', sql`at_stake >= 0`)
        .execute();
      // One open case per promoter and rule; decided cases stay as the record.
      await db.schema.createIndex('risk_cases_open_uq').on('risk_cases').columns(['promoter_id', 'rule']).unique().where(sql.ref('status'), '=', 'open').execute();
      // The queue, newest first (filters by status, rule or promoter narrow it further).
      await db.schema.createIndex('risk_cases_opened_idx').on('risk_cases').columns(['opened_at', 'id']).execute();
      await db.schema
        .createTable('risk_evidence')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('case_id', 'text', (c) => c.notNull().references('risk_cases.id'))
        .addColumn('data_json', 'text', (c) => c.notNull())
        .addColumn('at', big, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('risk_evidence_case_idx').on('risk_evidence').columns(['case_id', 'at']).execute();
      await db.schema
        .createTable('risk_holds')
        .addColumn('commission_id', 'text', (c) => c.primaryKey().references('commissions.id'))
        .addColumn('case_id', 'text', (c) => c.notNull().references('risk_cases.id'))
        .addColumn('created_at', big, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('risk_holds_case_idx').on('risk_holds').column('case_id').execute();
      await db.schema
        .createTable('registration_addresses')
        .addColumn('address_key', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('at', big, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('registration_addresses_key_idx').on('registration_addresses').columns(['address_key', 'at']).execute();
      // Rows older than a day are removed as registrations come (by time).
      await db.schema.createIndex('registration_addresses_at_idx').on('registration_addresses').column('at').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('registration_addresses').execute();
      await db.schema.dropTable('risk_holds').execute();
      await db.schema.dropTable('risk_evidence').execute();
      await db.schema.dropTable('risk_cases').execute();
      await db.schema.dropTable('fraud_rules').execute();
    },
  };
}
