import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../types';

/**
 * Stripe events that wait for their sale (issue 28): a `charge.refunded` or `invoice_payment.paid`
 * that arrives before the sale of its payment is kept here, once per payment reference it names,
 * with the fields it is acted on by; when a sale with one of those references is booked, the event
 * is acted on then (docs/integrations.md). The event itself stays in `stripe_events` as
 * `ignored: sale_unknown` until then.
 */
export function stripePending(dialect: Dialect): Migration {
  const time = dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('stripe_pending')
        .addColumn('campaign_id', 'text', (c) => c.notNull())
        // A payment intent, charge, invoice or checkout session id the waiting event names.
        .addColumn('ref', 'text', (c) => c.notNull())
        .addColumn('event_id', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        // The event's `created` (Unix seconds) and the fields of its object it is acted on by (JSON).
        .addColumn('created', time, (c) => c.notNull())
        .addColumn('object_json', 'text', (c) => c.notNull())
        .addColumn('received_at', time, (c) => c.notNull())
        .addPrimaryKeyConstraint('stripe_pending_pk', ['campaign_id', 'ref', 'event_id'])
        .execute();
      await db.schema.createIndex('stripe_pending_event_idx').on('stripe_pending').columns(['campaign_id', 'event_id']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('stripe_pending').execute();
    },
  };
}
