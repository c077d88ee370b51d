/** Campaign rules: creation, edits and status moves, images, joining and enrollment decisions. */
import { createHash } from 'node:crypto';
import type { CampaignPatch, CampaignStatus, FieldCode } from '@pa/shared';
import type { AppContext } from '../../context';
import type { Db } from '../../db/types';
import { canMoveCampaign } from '../../domain/campaign-state';
import { sniffImage } from '../../domain/image-sniff';
import { audit } from '../../platform/audit';
import { AppError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { notify } from '../../platform/notifications';
import { execFor } from '../../platform/sql-exec';
import { insertLink } from '../links/repository';

export const IMAGE_MAX_BYTES = 2 * 1024 * 1024;

export interface CampaignValues {
  names: Record<string, string | undefined>;
  descriptions: Record<string, string | undefined>;
  landingUrl: string;
  allowedHosts: string[];
  startsAt: number | null;
  endsAt: number | null;
  leadReward: number;
  saleRewardType: 'bps' | 'fixed';
  saleReward: number;
  tiers: { minSales: number; bps: number }[];
  overrideBps: number;
  attributionWindowDays: number;
  holdDays: number;
  approvalMode: 'auto' | 'manual';
  joinMode: 'open' | 'approval';
  shareTexts: Record<string, string | undefined>;
}

const clean = (texts: Record<string, string | undefined>) => JSON.stringify(Object.fromEntries(Object.entries(texts).filter(([, v]) => v)));

function checkValues(v: Partial<CampaignValues>) {
  const fields: Record<string, FieldCode> = {};
  if (v.saleRewardType === 'bps' && v.saleReward !== undefined && v.saleReward > 10_000) fields.saleReward = 'too_large';
  if (v.startsAt != null && v.endsAt != null && v.endsAt <= v.startsAt) fields.endsAt = 'invalid';
  if (Object.keys(fields).length) throw new AppError('VALIDATION_FAILED', fields);
}

function columns(v: Partial<CampaignValues>) {
  return {
    ...(v.names !== undefined ? { names_json: clean(v.names) } : {}),
    ...(v.descriptions !== undefined ? { descriptions_json: clean(v.descriptions) } : {}),
    ...(v.landingUrl !== undefined ? { landing_url: v.landingUrl } : {}),
    ...(v.allowedHosts !== undefined ? { allowed_hosts_json: JSON.stringify([...new Set(v.allowedHosts)]) } : {}),
    ...(v.startsAt !== undefined ? { starts_at: v.startsAt } : {}),
    ...(v.endsAt !== undefined ? { ends_at: v.endsAt } : {}),
    ...(v.leadReward !== undefined ? { lead_reward: v.leadReward } : {}),
    ...(v.saleRewardType !== undefined ? { sale_reward_type: v.saleRewardType } : {}),
    ...(v.saleReward !== undefined ? { sale_reward: v.saleReward } : {}),
    ...(v.tiers !== undefined ? { tiers_json: JSON.stringify([...v.tiers].sort((a, b) => a.minSales - b.minSales)) } : {}),
    ...(v.overrideBps !== undefined ? { override_bps: v.overrideBps } : {}),
    ...(v.attributionWindowDays !== undefined ? { attribution_window_days: v.attributionWindowDays } : {}),
    ...(v.holdDays !== undefined ? { hold_days: v.holdDays } : {}),
    ...(v.approvalMode !== undefined ? { approval_mode: v.approvalMode } : {}),
    ...(v.joinMode !== undefined ? { join_mode: v.joinMode } : {}),
    ...(v.shareTexts !== undefined ? { share_texts_json: clean(v.shareTexts) } : {}),
  };
}

export async function createCampaign(ctx: AppContext, actorId: string, values: CampaignValues): Promise<string> {
  checkValues(values);
  const now = Date.now();
  const id = newId(now);
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('campaigns')
      .values({ id, status: 'draft', cover_image_id: null, created_at: now, updated_at: now, ...(columns(values) as Required<ReturnType<typeof columns>>) })
      .execute();
    await audit(trx, { actorId, action: 'campaign.create', entity: 'campaign', entityId: id, after: values });
  });
  return id;
}

export async function updateCampaign(ctx: AppContext, actorId: string, id: string, patch: Omit<CampaignPatch, 'status'> & { status?: CampaignStatus }) {
  await ctx.db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('campaigns').select(['status', 'starts_at', 'ends_at', 'sale_reward_type', 'sale_reward']).where('id', '=', id).executeTakeFirst();
    if (!row) throw new AppError('NOT_FOUND');
    const { status, ...rest } = patch;
    checkValues({
      saleRewardType: rest.saleRewardType ?? row.sale_reward_type,
      saleReward: rest.saleReward ?? row.sale_reward,
      startsAt: rest.startsAt !== undefined ? rest.startsAt : row.starts_at,
      endsAt: rest.endsAt !== undefined ? rest.endsAt : row.ends_at,
    });
    if (row.status === 'ended' && Object.keys(rest).length > 0) throw new AppError('INVALID_STATE_TRANSITION');
    if (status && status !== row.status && !canMoveCampaign(row.status, status)) throw new AppError('INVALID_STATE_TRANSITION', { status: 'invalid' });
    const updated = await trx
      .updateTable('campaigns')
      .set({ ...columns(rest as Partial<CampaignValues>), ...(status ? { status } : {}), updated_at: Date.now() })
      .where('id', '=', id)
      .where('status', '=', row.status) // a concurrent status move loses rather than overwrites
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) throw new AppError('INVALID_STATE_TRANSITION');
    await audit(trx, { actorId, action: status && status !== row.status ? `campaign.${status}` : 'campaign.update', entity: 'campaign', entityId: id, before: { status: row.status }, after: patch });
  });
  ctx.links.invalidateWhere((t) => t.campaignId === id);
}

export async function addImage(ctx: AppContext, actorId: string, campaignId: string, kind: 'cover' | 'poster', bytes: Buffer) {
  if (bytes.length > IMAGE_MAX_BYTES) throw new AppError('PAYLOAD_TOO_LARGE');
  const sniffed = sniffImage(bytes);
  if (!sniffed) throw new AppError('UNSUPPORTED_MEDIA_TYPE', { image: 'invalid' });
  const now = Date.now();
  const id = newId(now);
  await ctx.db.transaction().execute(async (trx) => {
    const campaign = await trx.selectFrom('campaigns').select(['id', 'cover_image_id']).where('id', '=', campaignId).executeTakeFirst();
    if (!campaign) throw new AppError('NOT_FOUND');
    await trx
      .insertInto('campaign_images')
      .values({
        id,
        campaign_id: campaignId,
        kind,
        content_type: sniffed.contentType,
        data: bytes,
        byte_size: bytes.length,
        sha256: createHash('sha256').update(bytes).digest('base64url'),
        width: sniffed.width,
        height: sniffed.height,
        created_at: now,
      })
      .execute();
    if (kind === 'cover') {
      await trx.updateTable('campaigns').set({ cover_image_id: id, updated_at: now }).where('id', '=', campaignId).execute();
      if (campaign.cover_image_id) await trx.deleteFrom('campaign_images').where('id', '=', campaign.cover_image_id).execute();
    }
    await audit(trx, { actorId, action: `campaign.image_add`, entity: 'campaign', entityId: campaignId, after: { imageId: id, kind, ...sniffed, bytes: bytes.length } });
  });
  return { id, ...sniffed };
}

export async function removeImage(ctx: AppContext, actorId: string, campaignId: string, imageId: string) {
  await ctx.db.transaction().execute(async (trx) => {
    const deleted = await trx.deleteFrom('campaign_images').where('id', '=', imageId).where('campaign_id', '=', campaignId).executeTakeFirst();
    if (Number(deleted.numDeletedRows) === 0) throw new AppError('NOT_FOUND');
    await trx.updateTable('campaigns').set({ cover_image_id: null }).where('id', '=', campaignId).where('cover_image_id', '=', imageId).execute();
    await audit(trx, { actorId, action: 'campaign.image_remove', entity: 'campaign', entityId: campaignId, before: { imageId } });
  });
}

/** Approving an enrollment gives the promoter a default link for the campaign. */
async function approveWithLink(db: Db, enrollment: { promoter_id: string; campaign_id: string }) {
  const existing = await db.selectFrom('links').select('id').where('promoter_id', '=', enrollment.promoter_id).where('campaign_id', '=', enrollment.campaign_id).where('is_default', '=', 1).executeTakeFirst();
  if (!existing) await insertLink(db, { promoterId: enrollment.promoter_id, campaignId: enrollment.campaign_id, isDefault: true });
}

export async function join(ctx: AppContext, promoterId: string, campaignId: string) {
  return ctx.db.transaction().execute(async (trx) => {
    const campaign = await trx.selectFrom('campaigns').select(['status', 'join_mode']).where('id', '=', campaignId).executeTakeFirst();
    if (!campaign || campaign.status === 'draft') throw new AppError('NOT_FOUND');
    const existing = await trx.selectFrom('enrollments').select(['id', 'status', 'created_at', 'coupon_code']).where('promoter_id', '=', promoterId).where('campaign_id', '=', campaignId).executeTakeFirst();
    if (existing) return { enrollment: existing, created: false };
    if (campaign.status !== 'active') throw new AppError('CAMPAIGN_NOT_ACTIVE');
    const now = Date.now();
    const status = campaign.join_mode === 'open' ? ('approved' as const) : ('pending' as const);
    const enrollment = { id: newId(now), promoter_id: promoterId, campaign_id: campaignId, status, coupon_code: null, created_at: now, decided_at: status === 'approved' ? now : null, decided_by: null };
    await trx.insertInto('enrollments').values(enrollment).onConflict((oc) => oc.columns(['promoter_id', 'campaign_id']).doNothing()).execute();
    if (status === 'approved') await approveWithLink(trx, enrollment);
    return { enrollment: { id: enrollment.id, status, created_at: now, coupon_code: null as string | null }, created: true };
  });
}

export async function decideEnrollment(ctx: AppContext, actorId: string, id: string, action: 'approve' | 'reject') {
  await ctx.db.transaction().execute(async (trx) => {
    const e = await trx.selectFrom('enrollments').select(['id', 'status', 'promoter_id', 'campaign_id']).where('id', '=', id).executeTakeFirst();
    if (!e) throw new AppError('NOT_FOUND');
    const to = action === 'approve' ? 'approved' : 'rejected';
    const updated = await trx.updateTable('enrollments').set({ status: to, decided_at: Date.now(), decided_by: actorId }).where('id', '=', id).where('status', '=', 'pending').executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) throw new AppError('INVALID_STATE_TRANSITION');
    if (to === 'approved') await approveWithLink(trx, e);
    await notify(execFor(ctx, trx), [{ userId: e.promoter_id, type: `enrollment.${to}`, params: { campaignId: e.campaign_id } }], Date.now());
    await audit(trx, { actorId, action: `enrollment.${action}`, entity: 'enrollment', entityId: id, before: { status: e.status }, after: { status: to } });
  });
}
