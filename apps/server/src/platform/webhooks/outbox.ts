/**
 * The webhook outbox (issue 16): what a transaction has to send is written by that transaction — a
 * collector of the unit of work, so no event goes without its change and no change without its
 * event. On PostgreSQL as one row, an envelope: its events (id, type, the exact body) and the
 * deliveries to make (one per enabled endpoint that takes the type), as JSON — a row per event and
 * per delivery made a sale's write statement twice as long there (docs/benchmarks-history.md); the
 * dispatcher writes the events and deliveries from it, with their first attempt's outcome, and
 * deletes it. On SQLite the transaction writes the events and deliveries themselves
 * (`Envelope.written`). Sending is modules/webhooks' dispatcher's (docs/webhooks.md).
 *
 * Which endpoints take which types (and where they are) is read at most every SUBSCRIBERS_CACHE_MS
 * per process (through the transaction asking), and at once after a change on this instance: with
 * no endpoint, a sale costs a map look-up. An endpoint registered on another instance gets this
 * instance's events from its next read on (as API keys do, platform/api-keys.ts).
 *
 * While this process runs a dispatcher (`local`), its envelopes are written already claimed by it
 * (`claimed_until`, as a dispatcher's claim would be) and handed to it after the commit: no query
 * finds and claims them. If the process dies first, the claim runs out and any dispatcher takes
 * the envelope from the table (at least once, never two at once).
 */
import type { WebhookEventType } from '@pa/shared';
import type { Db, ReadOnlyDb, WebhookDeliveriesTable, WebhookEventsTable } from '../../db/types';
import { COLLECTOR_ORDER, type BatchTx, type Collector, type CollectorKind, type TxInfo } from '../../db/unit-of-work';
import { writeRows } from '../../db/hot';
import { newId } from '../ids';

const SUBSCRIBERS_CACHE_MS = 2000;

/** An enabled endpoint as the cache keeps it (what sending to it needs). */
export interface CachedEndpoint {
  id: string;
  url: string;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_until: number | null;
  failing_since: number | null;
}

/** One event of an envelope, as stored in it. */
export interface EnvelopeEvent {
  id: string;
  type: string;
  body: string;
  createdAt: number;
  deliveries: { id: string; endpointId: string }[];
}

/** An envelope written by this process, handed to its dispatcher after the commit. */
export interface Envelope {
  id: string;
  /**
   * Its events and deliveries are rows already, written by the transaction instead of an envelope
   * row (SQLite: one thread does all the database work there, so the work itself is what counts,
   * and an envelope would write every body twice).
   */
  written: boolean;
  /** The claim it was written with: its dispatcher records what it sent only while this still holds. */
  claimedUntil: number;
  events: EnvelopeEvent[];
}

/** The event rows of envelopes' events. */
export const eventRows = (events: EnvelopeEvent[]): WebhookEventsTable[] => events.map((e) => ({ id: e.id, type: e.type, body: e.body, created_at: e.createdAt }));

/** A delivery not yet attempted, due since its event, held until `claimedUntil` (null: by nobody). */
export function pendingDelivery(event: EnvelopeEvent, delivery: { id: string; endpointId: string }, claimedUntil: number | null, updatedAt: number): WebhookDeliveriesTable {
  return {
    id: delivery.id, event_id: event.id, endpoint_id: delivery.endpointId, status: 'pending', attempts: 0, next_attempt_at: event.createdAt, claimed_until: claimedUntil,
    last_status_code: null, last_attempt_at: null, last_duration_ms: null, created_at: event.createdAt, updated_at: updatedAt,
  };
}

/** This process's dispatcher, as the outbox sees it. */
interface LocalDispatcher {
  /** How long an envelope written here stays claimed for the dispatcher (longer than an attempt can take). */
  claimMs: number;
  take(envelope: Envelope): void;
}

export class WebhookSubscribers {
  private cached: { until: number; byType: Map<string, string[]>; endpoints: Map<string, CachedEndpoint> } | null = null;
  /** Set while this process runs a dispatcher. */
  local: LocalDispatcher | null = null;

  /** After an endpoint is added, removed, changed, enabled or disabled here. */
  forget() {
    this.cached = null;
  }

  private async read(q: ReadOnlyDb) {
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

  async of(q: ReadOnlyDb, type: string): Promise<string[]> {
    return (await this.read(q)).byType.get(type) ?? [];
  }

  /** An enabled endpoint (as of at most SUBSCRIBERS_CACHE_MS ago), or undefined. */
  async endpoint(q: ReadOnlyDb, id: string): Promise<CachedEndpoint | undefined> {
    return (await this.read(q)).endpoints.get(id);
  }
}

/**
 * Adds an event to the transaction's outbox when an enabled endpoint takes its type; `data` (the
 * object in the API's shape) is made only then. Batchable work may call it: it only collects.
 */
export async function emitEvent(subscribers: WebhookSubscribers, tx: BatchTx, type: WebhookEventType, data: () => unknown): Promise<void> {
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

/** Events of a transaction, written as one envelope at its flush (writes only). */
class WebhookOutbox implements Collector {
  readonly events: OutboxEvent[] = [];
  private handOff: { to: LocalDispatcher; envelope: Envelope } | null = null;
  merge(other: WebhookOutbox) {
    this.events.push(...other.events);
  }
  async flush(q: Db, tx: TxInfo) {
    if (this.events.length === 0) return;
    const timestamp = new Date(tx.now).toISOString();
    const events: EnvelopeEvent[] = this.events.map((e) => ({
      id: `msg_${newId(tx.now)}`,
      type: e.type,
      body: JSON.stringify({ type: e.type, timestamp, data: e.data }),
      createdAt: tx.now,
      deliveries: e.endpointIds.map((endpointId) => ({ id: newId(tx.now), endpointId })),
    }));
    // Every event of a transaction comes from one instance's work: one dispatcher, or none.
    const local = this.events.find((e) => e.local)?.local ?? null;
    // Whole seconds: the envelopes of a few commits share a claim, and the statement that ends them.
    const claimedUntil = local ? Math.ceil((tx.now + local.claimMs) / 1000) * 1000 : null;
    const id = newId(tx.now);
    const written = tx.dialect === 'sqlite';
    if (written) {
      await writeRows(q, 'webhook_events', eventRows(events));
      await writeRows(q, 'webhook_deliveries', events.flatMap((e) => e.deliveries.map((d) => pendingDelivery(e, d, claimedUntil, tx.now))));
    } else {
      // Through writeRows like the other collectors: it joins the batch's one write statement, the
      // events as JSON inside it (a json column), not a string escaped twice.
      await writeRows(q, 'webhook_outbox', [{ id, events, claimed_until: claimedUntil, created_at: tx.now }]);
    }
    this.handOff = local && claimedUntil !== null ? { to: local, envelope: { id, written, claimedUntil, events } } : null;
  }
  committed() {
    this.handOff?.to.take(this.handOff.envelope);
  }
}
/** After the business rows, journals, rollups and notifications. */
export const WEBHOOK_OUTBOX: CollectorKind<WebhookOutbox> = { order: COLLECTOR_ORDER.webhookEvents, create: () => new WebhookOutbox() };
