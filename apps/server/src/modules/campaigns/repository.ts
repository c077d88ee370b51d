/** Campaign, image and enrollment queries, and campaign rows ↔ API shapes. Explicit columns only. */
import type { AdminCampaign, Campaign, Image } from '@pa/shared';
import type { Insertable, Updateable } from 'kysely';
import type { CampaignImagesTable, CampaignsTable, Db, EnrollmentsTable } from '../../db/types';
import { likePattern, olderThan } from '../../platform/listing';
import { pickLocalized } from '../../platform/localized';

const CAMPAIGN_COLUMNS = [
  'campaigns.id', 'campaigns.status', 'campaigns.names_json', 'campaigns.descriptions_json', 'campaigns.landing_url',
  'campaigns.allowed_hosts_json', 'campaigns.starts_at', 'campaigns.ends_at', 'campaigns.lead_reward', 'campaigns.sale_reward_type',
  'campaigns.sale_reward', 'campaigns.tiers_json', 'campaigns.override_bps', 'campaigns.attribution_window_days', 'campaigns.hold_days',
  'campaigns.approval_mode', 'campaigns.join_mode', 'campaigns.share_texts_json', 'campaigns.cover_image_id', 'campaigns.created_at',
  'campaigns.updated_at', 'campaigns.binding_months', 'campaigns.rules_json',
] as const;

export type CampaignRow = Pick<CampaignsTable, 'id' | 'status' | 'names_json' | 'descriptions_json' | 'landing_url' | 'allowed_hosts_json' | 'starts_at' | 'ends_at' | 'lead_reward' | 'sale_reward_type' | 'sale_reward' | 'tiers_json' | 'override_bps' | 'attribution_window_days' | 'hold_days' | 'approval_mode' | 'join_mode' | 'share_texts_json' | 'cover_image_id' | 'created_at' | 'updated_at' | 'binding_months'> & { rules_json: string };

export const imageUrl = (id: string) => `api/images/${id}`;

interface ImageRow {
  id: string;
  campaign_id: string;
  kind: 'cover' | 'poster';
  content_type: string;
  width: number;
  height: number;
}

export async function imagesOf(db: Db, campaignIds: string[]): Promise<Map<string, ImageRow[]>> {
  const map = new Map<string, ImageRow[]>();
  if (campaignIds.length === 0) return map;
  const rows = await db
    .selectFrom('campaign_images')
    .select(['id', 'campaign_id', 'kind', 'content_type', 'width', 'height'])
    .where('campaign_id', 'in', campaignIds)
    .orderBy('created_at')
    .execute();
  for (const r of rows) map.set(r.campaign_id, [...(map.get(r.campaign_id) ?? []), r]);
  return map;
}

const toImage = (r: ImageRow): Image => ({ id: r.id, url: imageUrl(r.id), width: r.width, height: r.height, contentType: r.content_type });

/** The fields the admin and the promoter views share (see `campaignTerms` in the schemas). */
function terms(row: CampaignRow, images: ImageRow[]) {
  const cover = images.find((i) => i.id === row.cover_image_id);
  return {
    id: row.id,
    status: row.status,
    landingUrl: row.landing_url,
    startsAt: row.starts_at,
    endsAt: row.ends_at,
    leadReward: row.lead_reward,
    saleRewardType: row.sale_reward_type,
    saleReward: row.sale_reward,
    tiers: JSON.parse(row.tiers_json) as { minSales: number; bps: number }[],
    overrideBps: row.override_bps,
    attributionWindowDays: row.attribution_window_days,
    customerBinding: row.binding_months === null ? ('lifetime' as const) : Number(row.binding_months),
    holdDays: row.hold_days,
    joinMode: row.join_mode,
    cover: cover ? toImage(cover) : null,
    posters: images.filter((i) => i.kind === 'poster').map(toImage),
  };
}

export function toAdminCampaign(row: CampaignRow, images: ImageRow[]): AdminCampaign {
  return {
    ...terms(row, images),
    names: JSON.parse(row.names_json),
    descriptions: JSON.parse(row.descriptions_json),
    allowedHosts: JSON.parse(row.allowed_hosts_json),
    approvalMode: row.approval_mode,
    shareTexts: JSON.parse(row.share_texts_json),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function toCampaign(
  row: CampaignRow,
  images: ImageRow[],
  locale: string,
  enrollment: { id: string; status: 'pending' | 'approved' | 'rejected'; created_at: number; coupon_code: string | null } | null,
  currency: string,
): Campaign {
  return {
    ...terms(row, images),
    name: pickLocalized(row.names_json, locale),
    description: pickLocalized(row.descriptions_json, locale),
    shareText: pickLocalized(row.share_texts_json, locale),
    enrollment: enrollment ? { id: enrollment.id, campaignId: row.id, status: enrollment.status, createdAt: enrollment.created_at, couponCode: enrollment.coupon_code } : null,
    currency,
  };
}

/** Active or paused campaigns whose end date has come (the scheduler ends them). */
export async function campaignsDueToEnd(db: Db, now: number, limit: number): Promise<Pick<CampaignsTable, 'id' | 'status' | 'ends_at'>[]> {
  return db
    .selectFrom('campaigns')
    .select(['id', 'status', 'ends_at'])
    .where('status', 'in', ['active', 'paused'])
    .where('ends_at', 'is not', null)
    .where('ends_at', '<=', now)
    .orderBy('ends_at')
    .limit(limit)
    .execute();
}

/** Ends one campaign if it is still in the status read: true for the one caller that changed it. */
export async function endCampaignIf(db: Db, id: string, status: CampaignsTable['status'], now: number): Promise<boolean> {
  const updated = await db
    .updateTable('campaigns')
    .set({ status: 'ended', updated_at: now })
    .where('id', '=', id)
    .where('status', '=', status)
    .where('ends_at', '<=', now)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1;
}

export async function findCampaign(db: Db, id: string): Promise<CampaignRow | undefined> {
  return db.selectFrom('campaigns').select(CAMPAIGN_COLUMNS).where('id', '=', id).executeTakeFirst();
}

/** Every campaign (or those in `status`), newest first, one more than `limit` to tell whether another page follows. */
export async function listCampaigns(db: Db, filter: { status?: CampaignsTable['status'] }, page: { limit: number; cursor?: string }): Promise<CampaignRow[]> {
  let q = db.selectFrom('campaigns').select(CAMPAIGN_COLUMNS).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit + 1);
  if (filter.status) q = q.where('status', '=', filter.status);
  if (page.cursor) q = q.where(olderThan(page.cursor, 'campaigns.created_at', 'campaigns.id'));
  return q.execute();
}

/** A campaign row as a promoter sees it: with their own enrollment, if any. */
export type VisibleCampaignRow = CampaignRow & {
  enrollment_id: string | null;
  enrollment_status: EnrollmentsTable['status'] | null;
  enrolled_at: number | null;
  coupon_code: string | null;
};

/** Promoters see active campaigns, and every non-draft campaign they have joined. */
function selectVisible(db: Db, promoterId: string) {
  return db
    .selectFrom('campaigns')
    .leftJoin('enrollments', (j) => j.onRef('enrollments.campaign_id', '=', 'campaigns.id').on('enrollments.promoter_id', '=', promoterId))
    .select([...CAMPAIGN_COLUMNS, 'enrollments.id as enrollment_id', 'enrollments.status as enrollment_status', 'enrollments.created_at as enrolled_at', 'enrollments.coupon_code'])
    .where((eb) => eb.or([eb('campaigns.status', '=', 'active'), eb.and([eb('campaigns.status', '!=', 'draft'), eb('enrollments.id', 'is not', null)])]));
}

/**
 * The campaigns the promoter sees, newest first, one more than `limit`: `joined` true only those they
 * joined, false only the others; `q` matches a name or description in any language.
 */
export async function listVisibleCampaigns(
  db: Db,
  promoterId: string,
  filters: { joined?: boolean; q?: string },
  page: { limit: number; cursor?: string },
): Promise<VisibleCampaignRow[]> {
  let query = selectVisible(db, promoterId).orderBy('campaigns.created_at', 'desc').orderBy('campaigns.id', 'desc').limit(page.limit + 1);
  if (filters.joined === true) query = query.where('enrollments.id', 'is not', null);
  if (filters.joined === false) query = query.where('enrollments.id', 'is', null);
  if (filters.q) {
    const like = likePattern(filters.q);
    query = query.where((eb) => eb.or([eb(eb.fn('lower', ['campaigns.names_json']), 'like', like), eb(eb.fn('lower', ['campaigns.descriptions_json']), 'like', like)]));
  }
  if (page.cursor) query = query.where(olderThan(page.cursor, 'campaigns.created_at', 'campaigns.id'));
  return query.execute();
}

export async function findVisibleCampaign(db: Db, promoterId: string, id: string): Promise<VisibleCampaignRow | undefined> {
  return selectVisible(db, promoterId).where('campaigns.id', '=', id).executeTakeFirst();
}

export async function insertCampaign(db: Db, row: Insertable<CampaignsTable>): Promise<void> {
  await db.insertInto('campaigns').values(row).execute();
}

/** Applies `changes` if the campaign is still in status `from` (a concurrent status move loses rather than overwrites). */
export async function updateCampaignIf(db: Db, id: string, from: CampaignsTable['status'], changes: Updateable<CampaignsTable>): Promise<boolean> {
  const updated = await db.updateTable('campaigns').set(changes).where('id', '=', id).where('status', '=', from).executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1;
}

export async function findCampaignState(db: Db, id: string): Promise<Pick<CampaignsTable, 'id' | 'status' | 'join_mode' | 'cover_image_id'> | undefined> {
  return db.selectFrom('campaigns').select(['id', 'status', 'join_mode', 'cover_image_id']).where('id', '=', id).executeTakeFirst();
}

/** An image's bytes, to serve. */
export async function findImageData(db: Db, id: string): Promise<Pick<CampaignImagesTable, 'content_type' | 'data' | 'sha256'> | undefined> {
  return db.selectFrom('campaign_images').select(['content_type', 'data', 'sha256']).where('id', '=', id).executeTakeFirst();
}

export async function insertImage(db: Db, row: CampaignImagesTable): Promise<void> {
  await db.insertInto('campaign_images').values(row).execute();
}

export async function setCoverImage(db: Db, campaignId: string, imageId: string, now: number): Promise<void> {
  await db.updateTable('campaigns').set({ cover_image_id: imageId, updated_at: now }).where('id', '=', campaignId).execute();
}

/** Deletes an image (of `campaignId` only, when given); false when there was none. */
export async function deleteImage(db: Db, imageId: string, campaignId?: string): Promise<boolean> {
  let q = db.deleteFrom('campaign_images').where('id', '=', imageId);
  if (campaignId !== undefined) q = q.where('campaign_id', '=', campaignId);
  return Number((await q.executeTakeFirst()).numDeletedRows) > 0;
}

/** Forgets the campaign's cover if it is this image. */
export async function clearCoverIf(db: Db, campaignId: string, imageId: string): Promise<void> {
  await db.updateTable('campaigns').set({ cover_image_id: null }).where('id', '=', campaignId).where('cover_image_id', '=', imageId).execute();
}

/** Enrollments to review, newest first, with the promoter and the campaign's names; one more than `limit`. */
export async function listEnrollments(db: Db, filter: { status?: EnrollmentsTable['status'] }, page: { limit: number; cursor?: string }) {
  let q = db
    .selectFrom('enrollments')
    .innerJoin('users', 'users.id', 'enrollments.promoter_id')
    .innerJoin('campaigns', 'campaigns.id', 'enrollments.campaign_id')
    .select(['enrollments.id', 'enrollments.campaign_id', 'enrollments.status', 'enrollments.created_at', 'enrollments.coupon_code', 'enrollments.promoter_id', 'users.display_name', 'users.account', 'campaigns.names_json'])
    .orderBy('enrollments.created_at', 'desc')
    .orderBy('enrollments.id', 'desc')
    .limit(page.limit + 1);
  if (filter.status) q = q.where('enrollments.status', '=', filter.status);
  if (page.cursor) q = q.where(olderThan(page.cursor, 'enrollments.created_at', 'enrollments.id'));
  return q.execute();
}

export async function findEnrollment(db: Db, id: string): Promise<Pick<EnrollmentsTable, 'id' | 'status' | 'promoter_id' | 'campaign_id' | 'coupon_code' | 'created_at' | 'decided_at'> | undefined> {
  return db.selectFrom('enrollments').select(['id', 'status', 'promoter_id', 'campaign_id', 'coupon_code', 'created_at', 'decided_at']).where('id', '=', id).executeTakeFirst();
}

export async function findEnrollmentOf(db: Db, promoterId: string, campaignId: string): Promise<Pick<EnrollmentsTable, 'id' | 'status' | 'created_at' | 'coupon_code'> | undefined> {
  return db.selectFrom('enrollments').select(['id', 'status', 'created_at', 'coupon_code']).where('promoter_id', '=', promoterId).where('campaign_id', '=', campaignId).executeTakeFirst();
}

/** Inserts an enrollment unless the promoter already has one for the campaign. */
export async function insertEnrollment(db: Db, row: EnrollmentsTable): Promise<void> {
  await db.insertInto('enrollments').values(row).onConflict((oc) => oc.columns(['promoter_id', 'campaign_id']).doNothing()).execute();
}

/** Throws the unique index's error when another enrollment has the code. */
export async function setCouponCode(db: Db, id: string, couponCode: string | null): Promise<void> {
  await db.updateTable('enrollments').set({ coupon_code: couponCode }).where('id', '=', id).execute();
}

/** Decides a pending enrollment; false when it was no longer pending. */
export async function decideEnrollmentIf(db: Db, id: string, to: 'approved' | 'rejected', now: number, by: string): Promise<boolean> {
  const updated = await db.updateTable('enrollments').set({ status: to, decided_at: now, decided_by: by }).where('id', '=', id).where('status', '=', 'pending').executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1;
}

export async function hasDefaultLink(db: Db, promoterId: string, campaignId: string): Promise<boolean> {
  return (await db.selectFrom('links').select('id').where('promoter_id', '=', promoterId).where('campaign_id', '=', campaignId).where('is_default', '=', 1).executeTakeFirst()) !== undefined;
}

// ——— Reward rules (issue 31) ———

export function findCampaignRewards(q: Db, id: string) {
  return q.selectFrom('campaigns').select(['status', 'rules_json', 'budget_per_month', 'lead_reward', 'sale_reward_type', 'sale_reward']).where('id', '=', id).executeTakeFirst();
}

export async function updateCampaignRewards(q: Db, id: string, values: Pick<Updateable<CampaignsTable>, 'rules_json' | 'budget_per_month' | 'lead_reward' | 'sale_reward_type' | 'sale_reward' | 'updated_at'>): Promise<void> {
  await q.updateTable('campaigns').set(values).where('id', '=', id).execute();
}

/** Which of these group ids exist. */
export async function existingGroupIds(q: Db, ids: string[]): Promise<Set<string>> {
  return new Set((await q.selectFrom('promoter_groups').select('id').where('id', 'in', ids).execute()).map((r) => r.id));
}
