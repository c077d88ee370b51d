/** The Stripe receiver's tables: a campaign's sealed signing secret, the events received, the payments' sales, the events waiting for theirs. */
import type { Db, StripeEventsTable, StripePendingTable } from '../../db/types';

export async function campaignExists(q: Db, campaignId: string): Promise<boolean> {
  return !!(await q.selectFrom('campaigns').select('id').where('id', '=', campaignId).executeTakeFirst());
}

export function stripeEndpoint(q: Db, campaignId: string) {
  return q.selectFrom('stripe_endpoints').select(['campaign_id', 'secret_sealed', 'updated_at']).where('campaign_id', '=', campaignId).executeTakeFirst();
}

export async function upsertStripeEndpoint(q: Db, row: { campaign_id: string; secret_sealed: string; updated_by: string; now: number }): Promise<boolean> {
  const existed = await stripeEndpoint(q, row.campaign_id);
  if (existed) {
    await q.updateTable('stripe_endpoints').set({ secret_sealed: row.secret_sealed, updated_by: row.updated_by, updated_at: row.now }).where('campaign_id', '=', row.campaign_id).execute();
  } else {
    await q.insertInto('stripe_endpoints').values({ campaign_id: row.campaign_id, secret_sealed: row.secret_sealed, updated_by: row.updated_by, created_at: row.now, updated_at: row.now }).execute();
  }
  return !!existed;
}

export function stripeEvent(q: Db, campaignId: string, eventId: string) {
  return q.selectFrom('stripe_events').selectAll().where('campaign_id', '=', campaignId).where('event_id', '=', eventId).executeTakeFirst();
}

/** Records an event once; false when it was there already (another delivery of it won). */
export async function insertStripeEvent(q: Db, row: StripeEventsTable): Promise<boolean> {
  const r = await q.insertInto('stripe_events').values(row).onConflict((oc) => oc.columns(['campaign_id', 'event_id']).doNothing()).executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0n) > 0;
}

export function latestStripeEvents(q: Db, campaignId: string, limit: number) {
  return q.selectFrom('stripe_events').selectAll().where('campaign_id', '=', campaignId).orderBy('received_at', 'desc').orderBy('event_id', 'desc').limit(limit).execute();
}

/** Which sale a payment intent or invoice became. */
export async function saleOfRef(q: Db, campaignId: string, refs: string[]): Promise<string | undefined> {
  if (refs.length === 0) return undefined;
  return (await q.selectFrom('stripe_refs').select('external_id').where('campaign_id', '=', campaignId).where('ref', 'in', refs).executeTakeFirst())?.external_id;
}

export async function insertRefs(q: Db, campaignId: string, refs: string[], externalId: string) {
  for (const ref of refs) {
    await q.insertInto('stripe_refs').values({ campaign_id: campaignId, ref, external_id: externalId }).onConflict((oc) => oc.columns(['campaign_id', 'ref']).doNothing()).execute();
  }
}

/** Keeps an event for when its sale is booked (once per reference; a second keeping changes nothing). */
export async function insertPending(q: Db, rows: StripePendingTable[]) {
  if (rows.length === 0) return;
  await q.insertInto('stripe_pending').values(rows).onConflict((oc) => oc.columns(['campaign_id', 'ref', 'event_id']).doNothing()).execute();
}

/** The events waiting for a sale booked under one of `refs`, each once. */
export async function pendingFor(q: Db, campaignId: string, refs: string[]) {
  if (refs.length === 0) return [];
  const rows = await q.selectFrom('stripe_pending').select(['event_id', 'type', 'created']).where('campaign_id', '=', campaignId).where('ref', 'in', refs).orderBy('received_at').orderBy('event_id').execute();
  return [...new Map(rows.map((r) => [r.event_id, r])).values()];
}

/** Takes an event off the waiting list: its rows, none when another delivery took it first. */
export function takePending(q: Db, campaignId: string, eventId: string): Promise<StripePendingTable[]> {
  return q.deleteFrom('stripe_pending').where('campaign_id', '=', campaignId).where('event_id', '=', eventId).returningAll().execute();
}

/** Stores what came of an event that waited for its sale: only while it still says so (whoever settles it first). */
export async function resolveWaitingEvent(q: Db, campaignId: string, eventId: string, outcome: Pick<StripeEventsTable, 'outcome' | 'detail' | 'conversion_id'>): Promise<boolean> {
  const r = await q.updateTable('stripe_events').set(outcome)
    .where('campaign_id', '=', campaignId).where('event_id', '=', eventId).where('outcome', '=', 'ignored').where('detail', '=', 'sale_unknown')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}
