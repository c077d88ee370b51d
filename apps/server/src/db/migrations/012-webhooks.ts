import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../types';

/**
 * Webhooks (issue 16): the endpoints admins register, the outbox of events (written in the
 * transaction of the change that caused each), one delivery per event and endpoint, and every
 * attempt at it.
 */
export function webhookTables(dialect: Dialect): Migration {
  const time = dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('webhook_endpoints')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        // The event types it receives, a JSON array.
        .addColumn('events_json', 'text', (c) => c.notNull())
        // The signing secret, sealed with the master key; during a rotation the previous one too,
        // until `previous_until`.
        .addColumn('secret_sealed', 'text', (c) => c.notNull())
        .addColumn('previous_secret_sealed', 'text')
        .addColumn('previous_until', time)
        // 'enabled' or 'disabled' (by an admin, by a 410 answer, or after failing for days).
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('disabled_reason', 'text')
        .addColumn('failing_since', time)
        .addColumn('created_by', 'text', (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('updated_at', time, (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('webhook_events')
        // The Standard Webhooks message id (`webhook-id`), the same on every attempt.
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('type', 'text', (c) => c.notNull())
        // The exact body sent: { type, timestamp, data }.
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('webhook_deliveries')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('event_id', 'text', (c) => c.notNull().references('webhook_events.id'))
        .addColumn('endpoint_id', 'text', (c) => c.notNull().references('webhook_endpoints.id').onDelete('cascade'))
        // 'pending' (due at next_attempt_at), 'succeeded', 'failed' (every retry used).
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('next_attempt_at', time, (c) => c.notNull())
        // An instance sending it holds it until then (another may take it after a crash).
        .addColumn('claimed_until', time)
        .addColumn('last_status_code', 'integer')
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('updated_at', time, (c) => c.notNull())
        .addUniqueConstraint('webhook_deliveries_event_endpoint_uq', ['event_id', 'endpoint_id'])
        .execute();
      await db.schema.createIndex('webhook_deliveries_due_idx').on('webhook_deliveries').columns(['status', 'next_attempt_at']).execute();
      await db.schema.createIndex('webhook_deliveries_endpoint_idx').on('webhook_deliveries').columns(['endpoint_id', 'created_at']).execute();

      await db.schema
        .createTable('webhook_attempts')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('delivery_id', 'text', (c) => c.notNull().references('webhook_deliveries.id').onDelete('cascade'))
        .addColumn('at', time, (c) => c.notNull())
        .addColumn('status_code', 'integer')
        .addColumn('duration_ms', 'integer', (c) => c.notNull())
        .addColumn('error', 'text')
        .execute();
      await db.schema.createIndex('webhook_attempts_delivery_idx').on('webhook_attempts').columns(['delivery_id', 'at']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('webhook_attempts').execute();
      await db.schema.dropTable('webhook_deliveries').execute();
      await db.schema.dropTable('webhook_events').execute();
      await db.schema.dropTable('webhook_endpoints').execute();
    },
  };
}
