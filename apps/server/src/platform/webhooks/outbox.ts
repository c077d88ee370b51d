/**
 * The webhook outbox (issue 16): an event is stored, with one delivery per enabled endpoint that
 * takes its type, by the transaction of the change that caused it — a collector of the unit of
 * work, so no event goes without its change and no change without its event. Sending is
 * modules/webhooks' dispatcher's (docs/webhooks.md).
 *
 * Which endpoints take which types is read at most every SUBSCRIBERS_CACHE_MS per process (through
 * the transaction asking), and at once after a change on this instance: with no endpoint, a sale
 * costs a map look-up. An endpoint registered on another instance gets this instance's events from
 * its next read on (as API keys do, platform/api-keys.ts).
 */
import type { WebhookEventType } from '@pa/shared';
import type { Db, WebhookDeliveriesTable, WebhookEventsTable } from '../../db/types';
import type { Collector, CollectorKind, Tx, TxInfo } from '../../db/unit-of-work';
import { writeRows } from '../../db/hot';
import { newId } from '../ids';

export const SUBSCRIBERS_CACHE_MS = 2000;

export class WebhookSubscribers {
  private cached: { until: number; byType: Map<string, string[]> } | null = null;

  /** After an endpoint is added, removed, enabled or disabled here. */
  forget() {
    this.cached = null;
  }

  async of(q: Db, type: string): Promise<string[]> {
    const now = Date.now();
    if (!this.cached || this.cached.until <= now) {
      const byType = new Map<string, string[]>();
      const rows = await q.selectFrom('webhook_endpoints').select(['id', 'events_json']).where('status', '=', 'enabled').execute();
      for (const r of rows) for (const t of JSON.parse(r.events_json) as string[]) byType.set(t, [...(byType.get(t) ?? []), r.id]);
      this.cached = { until: now + SUBSCRIBERS_CACHE_MS, byType };
    }
    return this.cached.byType.get(type) ?? [];
  }
}

/**
 * Adds an event to the transaction's outbox when an enabled endpoint takes its type; `data` (the
 * object in the API's shape) is made only then. Batchable work may call it: it only collects.
 */
export async function emitEvent(subscribers: WebhookSubscribers, tx: Tx, type: WebhookEventType, data: () => unknown): Promise<void> {
  const to = await subscribers.of(tx.q, type);
  if (to.length === 0) return;
  tx.collect(WEBHOOK_OUTBOX).events.push({ type, data: await data(), endpointIds: to });
}

/** Events of a transaction, written with their deliveries at its flush (writes only). */
export class WebhookOutbox implements Collector {
  readonly events: { type: string; data: unknown; endpointIds: string[] }[] = [];
  merge(other: WebhookOutbox) {
    this.events.push(...other.events);
  }
  async flush(q: Db, tx: TxInfo) {
    const events: WebhookEventsTable[] = [];
    const deliveries: WebhookDeliveriesTable[] = [];
    for (const e of this.events) {
      const id = `msg_${newId(tx.now)}`;
      events.push({ id, type: e.type, body: JSON.stringify({ type: e.type, timestamp: new Date(tx.now).toISOString(), data: e.data }), created_at: tx.now });
      for (const endpointId of e.endpointIds) {
        deliveries.push({ id: newId(tx.now), event_id: id, endpoint_id: endpointId, status: 'pending', attempts: 0, next_attempt_at: tx.now, claimed_until: null, last_status_code: null, created_at: tx.now, updated_at: tx.now });
      }
    }
    // Through writeRows like the other collectors: on PostgreSQL they join the batch's one write
    // statement (a separate insert made the batch a transaction of several round trips).
    await writeRows(q, 'webhook_events', events);
    await writeRows(q, 'webhook_deliveries', deliveries);
  }
}
/** After the business rows, journals, rollups and notifications. */
export const WEBHOOK_OUTBOX: CollectorKind<WebhookOutbox> = { order: 60, create: () => new WebhookOutbox() };
