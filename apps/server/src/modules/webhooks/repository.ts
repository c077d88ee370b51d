/** Webhook queries: endpoints, the outbox of events, deliveries and their attempts. */
import type { Db, WebhookAttemptsTable, WebhookDeliveriesTable, WebhookEndpointsTable, WebhookEventsTable } from '../../db/types';
import { sql } from 'kysely';
import { onPostgres, writeRows } from '../../db/hot';
import { olderThan, pageOf } from '../../platform/listing';

const ENDPOINT_COLUMNS = ['id', 'url', 'description', 'events_json', 'status', 'disabled_reason', 'failing_since', 'created_at', 'updated_at'] as const;
export type EndpointRow = Pick<WebhookEndpointsTable, (typeof ENDPOINT_COLUMNS)[number]>;

export function listEndpoints(db: Db, limit: number): Promise<EndpointRow[]> {
  return db.selectFrom('webhook_endpoints').select(ENDPOINT_COLUMNS).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

export function endpointById(db: Db, id: string): Promise<EndpointRow | undefined> {
  return db.selectFrom('webhook_endpoints').select(ENDPOINT_COLUMNS).where('id', '=', id).executeTakeFirst();
}

/**
 * The latest failed attempt to an endpoint: among its 20 newest deliveries (the index on
 * (endpoint_id, created_at)), their attempts that did not succeed (webhook_attempts holds only
 * those), the newest.
 */
export async function lastFailedAttempt(db: Db, endpointId: string): Promise<{ at: number; status_code: number | null; error: string | null } | undefined> {
  const recent = db.selectFrom('webhook_deliveries').select('id').where('endpoint_id', '=', endpointId).orderBy('created_at', 'desc').limit(20);
  return db
    .selectFrom('webhook_attempts')
    .select(['at', 'status_code', 'error'])
    .where('delivery_id', 'in', recent)
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export async function insertEndpoint(db: Db, row: WebhookEndpointsTable): Promise<void> {
  await db.insertInto('webhook_endpoints').values(row).execute();
}

export async function deleteEndpoint(db: Db, id: string): Promise<boolean> {
  return Number((await db.deleteFrom('webhook_endpoints').where('id', '=', id).executeTakeFirst()).numDeletedRows) === 1;
}

/** What sending deliveries needs: each one's event body, its endpoint's address and secrets. */
export function deliveriesToSend(db: Db, ids: string[]) {
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
    .innerJoin('webhook_endpoints as p', 'p.id', 'd.endpoint_id')
    .select(['d.id', 'd.attempts', 'd.status', 'd.endpoint_id', 'e.id as event_id', 'e.body', 'p.url', 'p.status as endpoint_status', 'p.secret_sealed', 'p.previous_secret_sealed', 'p.previous_until'])
    .where('d.id', 'in', ids)
    .execute();
}

/** Deletes the envelopes of `list` that still hold the claim they were read with (null: none); returns the ids it deleted. */
export async function takeEnvelopes(db: Db, list: { id: string; claimed_until: number | null }[]): Promise<string[]> {
  if (list.length === 0) return [];
  const rows = await db
    .deleteFrom('webhook_outbox')
    .where((eb) => eb.or(list.map((e) => eb.and([eb('id', '=', e.id), e.claimed_until === null ? eb('claimed_until', 'is', null) : eb('claimed_until', '=', e.claimed_until)]))))
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

/** Gives up a claim on deliveries (they are due for any dispatcher at once). */
export async function releaseDeliveries(db: Db, ids: string[], claim: number): Promise<void> {
  if (ids.length > 0) await db.updateTable('webhook_deliveries').set({ claimed_until: null }).where('id', 'in', ids).where('claimed_until', '=', claim).execute();
}

/** Envelopes no dispatcher holds: never claimed, or their claim ran out (oldest first). */
export function dueEnvelopes(db: Db, now: number, limit: number) {
  return db
    .selectFrom('webhook_outbox')
    .select(['id', 'events', 'claimed_until'])
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Which of `ids` are endpoints (enabled or not). */
export async function endpointIdsAmong(db: Db, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  return (await db.selectFrom('webhook_endpoints').select('id').where('id', 'in', ids).execute()).map((r) => r.id);
}

export async function insertEvents(db: Db, rows: WebhookEventsTable[]): Promise<void> {
  await writeRows(db, 'webhook_events', rows);
}

export async function insertDeliveries(db: Db, rows: WebhookDeliveriesTable[]): Promise<void> {
  await writeRows(db, 'webhook_deliveries', rows);
}

export async function insertAttempts(db: Db, rows: WebhookAttemptsTable[]): Promise<void> {
  if (rows.length > 0) await db.insertInto('webhook_attempts').values(rows).execute();
}

/** One attempt's outcome for `settleAttempts`. */
export interface Settled {
  id: string;
  /** The claim the attempt was made under. */
  claim: number;
  status: WebhookDeliveriesTable['status'];
  next: number;
  code: number | null;
  /** A successful attempt's time and duration (kept on the delivery); null otherwise (the attempt is a row of webhook_attempts). */
  at: number | null;
  ms: number | null;
}

/**
 * Records one attempt on each delivery of `rows`, in one statement whatever their outcomes, while
 * the claim each was sent under still holds; returns the ids it recorded (a delivery whose claim
 * ran out and that another instance took is not among them). The rows travel as one JSON
 * parameter, so the statement's text is the same for any number of them.
 */
export async function settleAttempts(db: Db, rows: Settled[], updatedAt: number): Promise<string[]> {
  if (rows.length === 0) return [];
  const json = JSON.stringify(rows);
  const result = onPostgres(db)
    ? await sql<{ id: string }>`update webhook_deliveries as d
        set status = j.status, attempts = d.attempts + 1, next_attempt_at = j.next, last_status_code = j.code,
            last_attempt_at = j.at, last_duration_ms = j.ms, claimed_until = null, updated_at = ${updatedAt}
        from json_to_recordset(${json}::json) as j(id text, claim bigint, status text, next bigint, code integer, at bigint, ms integer)
        where d.id = j.id and d.claimed_until = j.claim
        returning d.id`.execute(db)
    : await sql<{ id: string }>`update webhook_deliveries
        set status = j.status, attempts = attempts + 1, next_attempt_at = j.next, last_status_code = j.code,
            last_attempt_at = j.at, last_duration_ms = j.ms, claimed_until = null, updated_at = ${updatedAt}
        from (select value ->> 'id' as id, value ->> 'claim' as claim, value ->> 'status' as status, value ->> 'next' as next,
                     value ->> 'code' as code, value ->> 'at' as at, value ->> 'ms' as ms from json_each(${json})) as j
        where webhook_deliveries.id = j.id and webhook_deliveries.claimed_until = j.claim
        returning webhook_deliveries.id`.execute(db);
  return result.rows.map((r) => r.id);
}

/** An endpoint's deliveries, newest first, with their event's type. */
export async function deliveriesPage(db: Db, endpointId: string, page: { limit: number; cursor?: string | undefined }) {
  let query = db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
    .select(['d.id', 'd.event_id', 'e.type', 'd.status', 'd.next_attempt_at', 'd.last_attempt_at', 'd.last_status_code', 'd.last_duration_ms', 'd.created_at'])
    .where('d.endpoint_id', '=', endpointId)
    .orderBy('d.created_at', 'desc')
    .orderBy('d.id', 'desc')
    .limit(page.limit + 1);
  if (page.cursor) query = query.where(olderThan(page.cursor, 'd.created_at', 'd.id'));
  return pageOf(await query.execute(), page.limit, (r) => [Number(r.created_at), r.id]);
}

export function attemptsOf(db: Db, deliveryIds: string[]) {
  if (deliveryIds.length === 0) return Promise.resolve([]);
  return db.selectFrom('webhook_attempts').select(['delivery_id', 'at', 'status_code', 'duration_ms', 'error']).where('delivery_id', 'in', deliveryIds).orderBy('at').orderBy('id').execute();
}

export async function updateEndpoint(db: Db, id: string, set: Partial<Pick<WebhookEndpointsTable, 'url' | 'events_json' | 'description' | 'status' | 'disabled_reason' | 'failing_since' | 'secret_sealed' | 'previous_secret_sealed' | 'previous_until' | 'updated_at'>>): Promise<void> {
  await db.updateTable('webhook_endpoints').set(set).where('id', '=', id).execute();
}

export function endpointSecrets(db: Db, id: string) {
  return db.selectFrom('webhook_endpoints').select(['id', 'secret_sealed']).where('id', '=', id).executeTakeFirst();
}

export function deliveryState(db: Db, id: string) {
  return db.selectFrom('webhook_deliveries').select(['id', 'status', 'endpoint_id', 'last_attempt_at', 'last_status_code', 'last_duration_ms']).where('id', '=', id).executeTakeFirst();
}

/**
 * Sends a delivery that has ended (failed, or succeeded) again from now: one more attempt, then the
 * schedule anew. Its successful attempt, if it had one, has been moved to webhook_attempts first.
 */
export async function requeueDelivery(db: Db, id: string, now: number): Promise<void> {
  await db.updateTable('webhook_deliveries').set({ status: 'pending', attempts: 0, next_attempt_at: now, claimed_until: null, last_attempt_at: null, last_duration_ms: null, updated_at: now }).where('id', '=', id).execute();
}

/** Marks an endpoint failing from `now` unless it already is; clears the mark on a success. */
export async function markEndpointHealth(db: Db, id: string, failing: boolean, now: number): Promise<void> {
  if (failing) await db.updateTable('webhook_endpoints').set({ failing_since: now }).where('id', '=', id).where('failing_since', 'is', null).execute();
  else await db.updateTable('webhook_endpoints').set({ failing_since: null }).where('id', '=', id).where('failing_since', 'is not', null).execute();
}

export function failingSince(db: Db, id: string) {
  return db.selectFrom('webhook_endpoints').select(['failing_since', 'status']).where('id', '=', id).executeTakeFirst();
}

export function activeAdmins(db: Db) {
  return db.selectFrom('users').select('id').where('role', '=', 'admin').where('status', '=', 'active').execute();
}

/**
 * What waits to be sent (for /metrics): pending deliveries (the partial index on pending ones, on
 * PostgreSQL) and envelopes not yet made into deliveries (each holds one or more events).
 */
export async function queueDepth(db: Db): Promise<{ deliveries: number; envelopes: number }> {
  const [deliveries, envelopes] = await Promise.all([
    db.selectFrom('webhook_deliveries').select((eb) => eb.fn.countAll<number>().as('n')).where('status', '=', 'pending').executeTakeFirstOrThrow(),
    db.selectFrom('webhook_outbox').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { deliveries: Number(deliveries.n), envelopes: Number(envelopes.n) };
}
