/** The Stripe receiver's tables: a campaign's sealed signing secret, the events received, the payments' sales. */
import type { Db, StripeEventsTable } from '../../db/types';

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
