/** Data for benchmarks, written with the app's own repository functions. */
import type { Db } from '../apps/server/src/db/types';
import { insertLink as insertLinkRow } from '../apps/server/src/modules/links/repository';
import { insertUser as insertUserRow } from '../apps/server/src/modules/users/repository';
import { newId } from '../apps/server/src/platform/ids';

export async function insertUser(db: Db): Promise<string> {
  return insertUserRow(db, { account: `bench-${newId()}@example.com`, displayName: 'Bench Promoter', passwordHash: 'scrypt$unusable', role: 'promoter', status: 'active', locale: 'en', parentId: null });
}

/** An active campaign (fixture data, never product data); returns its id. */
export async function insertCampaign(db: Db, names: Record<string, string> = { en: 'Bench campaign' }, descriptions: Record<string, string> = {}): Promise<string> {
  const now = Date.now();
  const campaignId = newId(now);
  await db.insertInto('campaigns').values({
    id: campaignId, status: 'active', names_json: JSON.stringify(names), descriptions_json: JSON.stringify(descriptions),
    landing_url: 'https://shop.example.com/tea', allowed_hosts_json: '[]', starts_at: null, ends_at: null, lead_reward: 0,
    sale_reward_type: 'bps', sale_reward: 1000, tiers_json: '[]', override_bps: 0, attribution_window_days: 30, hold_days: 7,
    approval_mode: 'auto', join_mode: 'open', share_texts_json: '{}', cover_image_id: null, created_at: now, updated_at: now,
  }).execute();
  return campaignId;
}

/** An active campaign, the promoter enrolled, and one link; returns the link code. */
export async function insertLink(db: Db, promoterId: string): Promise<string> {
  const now = Date.now();
  const campaignId = await insertCampaign(db);
  await db.insertInto('enrollments').values({ id: newId(now), promoter_id: promoterId, campaign_id: campaignId, status: 'approved', coupon_code: null, created_at: now, decided_at: now, decided_by: null }).execute();
  const link = await insertLinkRow(db, { promoterId, campaignId, code: `bench${now.toString(36)}` });
  if (!link) throw new Error('bench link code taken');
  return link.code;
}

/**
 * The sales fixture of bench:conversions: one campaign paying 10 % per sale with a 10 % level-2
 * override, `promoters` promoters in (inviter, member) pairs, each enrolled with one link; returns
 * the campaign and the link codes.
 */
export async function insertSalesFixture(db: Db, promoters: number): Promise<{ campaignId: string; codes: string[] }> {
  const campaignId = await insertCampaign(db, { en: 'Bench campaign' });
  await db.updateTable('campaigns').set({ override_bps: 1000 }).where('id', '=', campaignId).execute();
  const codes: string[] = [];
  let inviter: string | null = null;
  for (let i = 0; i < promoters; i++) {
    const id = await insertUser(db);
    if (i % 2 === 1 && inviter) await db.updateTable('users').set({ parent_id: inviter }).where('id', '=', id).execute();
    else inviter = id;
    const now = Date.now();
    await db.insertInto('enrollments').values({ id: newId(now), promoter_id: id, campaign_id: campaignId, status: 'approved', coupon_code: null, created_at: now, decided_at: now, decided_by: null }).execute();
    const link = await insertLinkRow(db, { promoterId: id, campaignId, code: `b${i.toString(36)}x${now.toString(36)}` });
    if (!link) throw new Error('bench link code taken');
    codes.push(link.code);
  }
  return { campaignId, codes };
}

/** An API key row for a secret made by the app's `newApiKeySecret`. */
export async function insertApiKey(db: Db, key: { prefix: string; hash: string; sealed: string }, scopes: string[]): Promise<void> {
  await db.insertInto('api_keys').values({ id: newId(), name: 'bench', prefix: key.prefix, secret_hash: key.hash, secret_sealed: key.sealed, scopes_json: JSON.stringify(scopes), require_signature: 0, created_by: 'bench', created_at: Date.now(), last_used_at: null, revoked_at: null }).execute();
}
