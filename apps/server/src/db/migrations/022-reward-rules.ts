import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../types';

/**
 * Reward rules, line items and caps (issue 31, docs/rewards.md).
 *
 * - `campaigns.rules_json`: the ordered rules. Every existing campaign gets its fields as two base
 *   rules — `lead` (its fixed lead reward) and `sale` (its percentage or fixed sale reward) — so it
 *   earns exactly what it earned before (the old columns stay, kept equal to the base rules by the
 *   campaigns service). `budget_per_month`: the campaign's monthly budget (null: none).
 * - `conversions`: what the business sent that rules read — `items_json` (a sale's lines, each
 *   with the rule that decided it, its commission and what refunds took back of the line),
 *   `country`, `metadata_json`, `new_customer` — and `explanation_json`, how it was decided step
 *   by step (null for conversions recorded before).
 * - `reward_usage`: what caps have used — per rule, promoter and month (`scope` `rule:<id>:<promoter>`)
 *   and per campaign and month (`budget`); written in the transaction of the commission it counts.
 */
export function rewardRules(dialect: Dialect): Migration {
  const big = dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('campaigns').addColumn('rules_json', 'text', (c) => c.notNull().defaultTo('[]')).execute();
      await db.schema.alterTable('campaigns').addColumn('budget_per_month', big).execute();
      const campaigns = await sql<{ id: string; lead_reward: number | string; sale_reward_type: string; sale_reward: number | string }>`select id, lead_reward, sale_reward_type, sale_reward from campaigns`.execute(db);
      for (const c of campaigns.rows) {
        const base = { groupIds: [], conditions: [], label: null, capPerPromoterPerMonth: null };
        const rules = [
          { id: 'lead', event: 'lead', ...base, reward: { type: 'fixed', amount: Number(c.lead_reward) } },
          { id: 'sale', event: 'sale', ...base, reward: c.sale_reward_type === 'bps' ? { type: 'percent', bps: Number(c.sale_reward) } : { type: 'fixed', amount: Number(c.sale_reward) } },
        ];
        await sql`update campaigns set rules_json = ${JSON.stringify(rules)} where id = ${c.id}`.execute(db);
      }
      for (const column of ['items_json', 'country', 'metadata_json', 'explanation_json']) await db.schema.alterTable('conversions').addColumn(column, 'text').execute();
      await db.schema.alterTable('conversions').addColumn('new_customer', 'integer').execute();
      await db.schema
        .createTable('reward_usage')
        .addColumn('campaign_id', 'text', (c) => c.notNull().references('campaigns.id'))
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('month', 'text', (c) => c.notNull())
        .addColumn('used', big, (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('reward_usage_pk', ['campaign_id', 'scope', 'month'])
        .addCheckConstraint('reward_usage_used', sql`used >= 0`)
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('reward_usage').execute();
      for (const column of ['new_customer', 'explanation_json', 'metadata_json', 'country', 'items_json']) await db.schema.alterTable('conversions').dropColumn(column).execute();
      await db.schema.alterTable('campaigns').dropColumn('budget_per_month').execute();
      await db.schema.alterTable('campaigns').dropColumn('rules_json').execute();
    },
  };
}
