import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../types';

/**
 * Recurring commissions and the Stripe receiver (issue 17; docs/integrations.md):
 * - `campaigns.binding_months`: how long a customer stays bound to the promoter who brought them —
 *   0 (the attribution window only, as before), n months, or null for a lifetime;
 * - `customer_bindings`: one per campaign and customer, from their first attributed lead or sale;
 *   `ended_at` when the subscription ended (Stripe's customer.subscription.deleted);
 * - `commissions.binding_month` / `binding_months`: where a commission earned through a binding
 *   stands ("month 3 of 12"; binding_months null: lifetime);
 * - `stripe_endpoints`: a campaign's Stripe signing secret, sealed; `stripe_events`: every event
 *   received, once (idempotent on its id), with what came of it;
 * - `stripe_refs`: which sale a Stripe payment (payment intent, invoice) became, for its refunds.
 */
export function stripeRecurring(dialect: Dialect): Migration {
  const time = dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('campaigns').addColumn('binding_months', 'integer', (c) => c.defaultTo(0)).execute();
      await db.schema.alterTable('commissions').addColumn('binding_month', 'integer').execute();
      await db.schema.alterTable('commissions').addColumn('binding_months', 'integer').execute();
      await db.schema
        .createTable('customer_bindings')
        .addColumn('campaign_id', 'text', (c) => c.notNull())
        .addColumn('customer_external_id', 'text', (c) => c.notNull())
        .addColumn('promoter_id', 'text', (c) => c.notNull())
        .addColumn('link_id', 'text')
        .addColumn('conversion_id', 'text', (c) => c.notNull())
        .addColumn('started_at', time, (c) => c.notNull())
        // null: for the customer's lifetime.
        .addColumn('months', 'integer')
        .addColumn('ended_at', time)
        .addColumn('created_at', time, (c) => c.notNull())
        .addPrimaryKeyConstraint('customer_bindings_pk', ['campaign_id', 'customer_external_id'])
        .execute();
      await db.schema
        .createTable('stripe_endpoints')
        .addColumn('campaign_id', 'text', (c) => c.primaryKey())
        .addColumn('secret_sealed', 'text', (c) => c.notNull())
        .addColumn('updated_by', 'text', (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('updated_at', time, (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('stripe_events')
        .addColumn('campaign_id', 'text', (c) => c.notNull())
        .addColumn('event_id', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        // 'recorded' (a conversion, a refund, a binding ended), 'ignored' (not ours to act on),
        // 'rejected' (ours, but refused: another currency, an unknown sale).
        .addColumn('outcome', 'text', (c) => c.notNull())
        // The catalogue code of a rejection, or what was ignored and why.
        .addColumn('detail', 'text')
        .addColumn('conversion_id', 'text')
        .addColumn('received_at', time, (c) => c.notNull())
        .addPrimaryKeyConstraint('stripe_events_pk', ['campaign_id', 'event_id'])
        .execute();
      await db.schema.createIndex('stripe_events_received_idx').on('stripe_events').columns(['campaign_id', 'received_at']).execute();
      await db.schema
        .createTable('stripe_refs')
        .addColumn('campaign_id', 'text', (c) => c.notNull())
        .addColumn('ref', 'text', (c) => c.notNull())
        .addColumn('external_id', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('stripe_refs_pk', ['campaign_id', 'ref'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('stripe_refs').execute();
      await db.schema.dropTable('stripe_events').execute();
      await db.schema.dropTable('stripe_endpoints').execute();
      await db.schema.dropTable('customer_bindings').execute();
      await db.schema.alterTable('commissions').dropColumn('binding_months').execute();
      await db.schema.alterTable('commissions').dropColumn('binding_month').execute();
      await db.schema.alterTable('campaigns').dropColumn('binding_months').execute();
    },
  };
}
