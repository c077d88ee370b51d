/** Campaign rows ↔ API shapes; images by campaign. Explicit columns only. */
import type { AdminCampaign, Campaign, Image } from '@pa/shared';
import type { CampaignsTable, Db } from '../../db/types';
import { pickLocalized } from '../../platform/localized';

export const CAMPAIGN_COLUMNS = [
  'campaigns.id', 'campaigns.status', 'campaigns.names_json', 'campaigns.descriptions_json', 'campaigns.landing_url',
  'campaigns.allowed_hosts_json', 'campaigns.starts_at', 'campaigns.ends_at', 'campaigns.lead_reward', 'campaigns.sale_reward_type',
  'campaigns.sale_reward', 'campaigns.tiers_json', 'campaigns.override_bps', 'campaigns.attribution_window_days', 'campaigns.hold_days',
  'campaigns.approval_mode', 'campaigns.join_mode', 'campaigns.share_texts_json', 'campaigns.cover_image_id', 'campaigns.created_at',
  'campaigns.updated_at',
] as const;

export type CampaignRow = Pick<CampaignsTable, 'id' | 'status' | 'names_json' | 'descriptions_json' | 'landing_url' | 'allowed_hosts_json' | 'starts_at' | 'ends_at' | 'lead_reward' | 'sale_reward_type' | 'sale_reward' | 'tiers_json' | 'override_bps' | 'attribution_window_days' | 'hold_days' | 'approval_mode' | 'join_mode' | 'share_texts_json' | 'cover_image_id' | 'created_at' | 'updated_at'>;

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
