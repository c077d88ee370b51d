/**
 * The webhook outbox (issue 16): an event is stored, with one delivery per enabled endpoint that
 * takes its type, by the transaction of the change that caused it — a collector of the unit of
 * work, so no event goes without its change and no change without its event. Sending is
 * modules/webhooks' dispatcher's (docs/webhooks.md).
 *
 * Which endpoints take which types (and where they are) is read at most every SUBSCRIBERS_CACHE_MS
 * per process (through the transaction asking), and at once after a change on this instance: with
 * no endpoint, a sale costs a map look-up. An endpoint registered on another instance gets this
 * instance's events from its next read on (as API keys do, platform/api-keys.ts).
 *
 * While this process runs a dispatcher (`local`), the deliveries it writes are written already
 * claimed by it (`claimed_until`, as a dispatcher's claim would) and handed to it after the commit:
 * no second query finds and claims them. If the process dies first, the claim runs out and any
 * dispatcher takes them from the table (at least once, never two at once).
 */
import type { WebhookEventType } from '@pa/shared';
import type { Db, WebhookDeliveriesTable, WebhookEventsTable } from '../../db/types';
import type { Collector, CollectorKind, Tx, TxInfo } from '../../db/unit-of-work';
import { writeRows } from '../../db/hot';
import { newId } from '../ids';

export const SUBSCRIBERS_CACHE_MS = 2000;

/** An enabled endpoint as the cache keeps it (what sending to it needs). */
export interface CachedEndpoint {
  id: string;
  url: string;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_until: number | null;
  failing_since: number | null;
}

/** A delivery written by this process and handed to its dispatcher after the commit. */
export interface HandedOff {
  id: string;
  eventId: string;
  endpointId: string;
  body: string;
  /** The claim it was written with: the dispatcher records its attempt only while this still holds. */
  claimedUntil: number;
}

/** This process's dispatcher, as the outbox sees it. */
export interface LocalDispatcher {
  /** How long a delivery written here stays claimed for the dispatcher (longer than an attempt can take). */
  claimMs: number;
  take(items: HandedOff[]): void;
}

export class WebhookSubscribers {
  private cached: { until: number; byType: Map<string, string[]>; endpoints: Map<string, CachedEndpoint> } | null = null;
  /** Set while this process runs a dispatcher. */
  local: LocalDispatcher | null = null;

  /** After an endpoint is added, removed, changed, enabled or disabled here. */
  forget() {
    this.cached = null;
  }

  private async read(q: Db) {
    const now = Date.now();
    if (!this.cached || this.cached.until <= now) {
      const byType = new Map<string, string[]>();
      const endpoints = new Map<string, CachedEndpoint>();
      const rows = await q
        .selectFrom('webhook_endpoints')
        .select(['id', 'events_json', 'url', 'secret_sealed', 'previous_secret_sealed', 'previous_until', 'failing_since'])
        .where('status', '=', 'enabled')
        .execute();
      for (const r of rows) {
        for (const t of JSON.parse(r.events_json) as string[]) byType.set(t, [...(byType.get(t) ?? []), r.id]);
        endpoints.set(r.id, { id: r.id, url: r.url, secret_sealed: r.secret_sealed, previous_secret_sealed: r.previous_secret_sealed, previous_until: r.previous_until === null ? null : Number(r.previous_until), failing_since: r.failing_since === null ? null : Number(r.failing_since) });
      }
      this.cached = { until: now + SUBSCRIBERS_CACHE_MS, byType, endpoints };
    }
    return this.cached;
  }

  async of(q: Db, type: string): Promise<string[]> {
    return (await this.read(q)).byType.get(type) ?? [];
  }

  /** An enabled endpoint (as of at most SUBSCRIBERS_CACHE_MS ago), or undefined. */
  async endpoint(q: Db, id: string): Promise<CachedEndpoint | undefined> {
    return (await this.read(q)).endpoints.get(id);
  }
}

/**
 * Adds an event to the transaction's outbox when an enabled endpoint takes its type; `data` (the
 * object in the API's shape) is made only then. Batchable work may call it: it only collects.
 */
export async function emitEvent(subscribers: WebhookSubscribers, tx: Tx, type: WebhookEventType, data: () => unknown): Promise<void> {
  const to = await subscribers.of(tx.q, type);
  if (to.length === 0) return;
  tx.collect(WEBHOOK_OUTBOX).events.push({ type, data: await data(), endpointIds: to, local: subscribers.local });
}

interface OutboxEvent {
  type: string;
  data: unknown;
  endpointIds: string[];
  /** This process's dispatcher, if it runs one: the deliveries are written claimed for it. */
  local?: LocalDispatcher | null;
}

/** Events of a transaction, written with their deliveries at its flush (writes only). */
export class WebhookOutbox implements Collector {
  readonly events: OutboxEvent[] = [];
  private handOff: { to: LocalDispatcher; items: HandedOff[] }[] = [];
  merge(other: WebhookOutbox) {
    this.events.push(...other.events);
  }
  async flush(q: Db, tx: TxInfo) {
    const events: WebhookEventsTable[] = [];
    const deliveries: WebhookDeliveriesTable[] = [];
    const handOff = new Map<LocalDispatcher, HandedOff[]>();
    const timestamp = new Date(tx.now).toISOString();
    for (const e of this.events) {
      const id = `msg_${newId(tx.now)}`;
      const body = JSON.stringify({ type: e.type, timestamp, data: e.data });
      events.push({ id, type: e.type, body, created_at: tx.now });
      // Whole seconds: the deliveries of a few commits share a claim, and their outcomes one statement.
      const claimedUntil = e.local ? Math.ceil((tx.now + e.local.claimMs) / 1000) * 1000 : null;
      for (const endpointId of e.endpointIds) {
        const delivery: WebhookDeliveriesTable = {
          id: newId(tx.now), event_id: id, endpoint_id: endpointId, status: 'pending', attempts: 0, next_attempt_at: tx.now,
          claimed_until: claimedUntil, last_status_code: null, last_attempt_at: null, last_duration_ms: null, created_at: tx.now, updated_at: tx.now,
        };
        deliveries.push(delivery);
        if (e.local && claimedUntil !== null) {
          const list = handOff.get(e.local) ?? [];
          list.push({ id: delivery.id, eventId: id, endpointId, body, claimedUntil });
          handOff.set(e.local, list);
        }
      }
    }
    // Through writeRows like the other collectors: on PostgreSQL they join the batch's one write
    // statement (a separate insert made the batch a transaction of several round trips).
    await writeRows(q, 'webhook_events', events);
    await writeRows(q, 'webhook_deliveries', deliveries);
    this.handOff = [...handOff].map(([to, items]) => ({ to, items }));
  }
  committed() {
    for (const { to, items } of this.handOff) to.take(items);
  }
}
/** After the business rows, journals, rollups and notifications. */
export const WEBHOOK_OUTBOX: CollectorKind<WebhookOutbox> = { order: 60, create: () => new WebhookOutbox() };
