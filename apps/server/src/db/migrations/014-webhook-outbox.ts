import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../types';

/**
 * Webhook deliveries, cheaper per event (docs/webhooks.md, "How delivery is recorded"):
 * - `webhook_outbox`: what a transaction sends, written by it as one row (its events with their
 *   bodies and the deliveries to make, as JSON) instead of a row per event and per delivery. The
 *   dispatcher that sends them writes the events and deliveries (with the first attempt's outcome)
 *   and deletes the row, in one transaction of its own; off the sale's path;
 * - a delivery's successful attempt is kept on the delivery itself (`last_attempt_at`,
 *   `last_duration_ms` beside `last_status_code`); `webhook_attempts` holds the attempts that did
 *   not succeed. Most deliveries succeed at once, and then cost no second row;
 * - the due index holds pending deliveries only: a delivery leaves it when it ends, and the
 *   index stays as small as the backlog. The claim's query (platform/outbox-claims.ts) repeats its
 *   condition word for word, so both databases use it.
 */
export function webhookOutbox(dialect: Dialect): Migration {
  const time = dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('webhook_outbox')
        .addColumn('id', 'text', (c) => c.primaryKey())
        // [{ id, type, body, deliveries: [{ id, endpointId }] }]: json on PostgreSQL, so it travels
        // inside a batch's one write statement without being escaped again.
        .addColumn('events', dialect === 'postgres' ? 'json' : 'text', (c) => c.notNull())
        // Held by the instance that wrote it (to send it at once) until then; null: anyone's.
        .addColumn('claimed_until', time)
        .addColumn('created_at', time, (c) => c.notNull())
        .execute();
      await db.schema.alterTable('webhook_deliveries').addColumn('last_attempt_at', time).execute();
      await db.schema.alterTable('webhook_deliveries').addColumn('last_duration_ms', 'integer').execute();
      await sql`drop index webhook_deliveries_due_idx`.execute(db);
      await sql`create index webhook_deliveries_due_idx on webhook_deliveries (next_attempt_at) where status = 'pending'`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      await sql`drop index webhook_deliveries_due_idx`.execute(db);
      await sql`create index webhook_deliveries_due_idx on webhook_deliveries (status, next_attempt_at)`.execute(db);
      await db.schema.alterTable('webhook_deliveries').dropColumn('last_duration_ms').execute();
      await db.schema.alterTable('webhook_deliveries').dropColumn('last_attempt_at').execute();
      await db.schema.dropTable('webhook_outbox').execute();
    },
  };
}
