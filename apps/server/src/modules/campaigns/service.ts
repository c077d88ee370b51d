/** Campaign rules: creation, edits and status moves, images, joining and enrollment decisions. */
import { createHash } from 'node:crypto';
import type { CampaignPatch, CampaignStatus, FieldCode } from '@pa/shared';
import type { AppContext } from '../../context';
import type { Db } from '../../db/types';
import { canMoveCampaign } from '../../domain/campaign-state';
import { sniffImage } from '../../domain/image-sniff';
import { asActor, audit, type ActorArg } from '../../platform/audit';
import { AppError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { notify } from '../../platform/notifications';
import { insertLink } from '../links/repository';
import { CAMPAIGN_COLUMNS, campaignsDueToEnd, endCampaignIf, toAdminCampaign, type CampaignRow } from './repository';

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

/** The audit action of a status move (the scheduler's end at endsAt writes `campaign.end` too, with no actor). */
const STATUS_ACTIONS = { draft: null, active: 'campaign.activate', paused: 'campaign.pause', ended: 'campaign.end' } as const;

/** What the patched fields held before, in the patch's own terms, for the audit entry's before/after view. */
function beforeOf(row: CampaignRow, patch: Partial<CampaignValues>): Partial<CampaignValues> {
  const was = toAdminCampaign(row, []) as unknown as Record<string, unknown>;
  return Object.fromEntries(Object.keys(patch).filter((k) => k in was).map((k) => [k, was[k]])) as Partial<CampaignValues>;
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

export async function createCampaign(ctx: AppContext, by: ActorArg, values: CampaignValues): Promise<string> {
  const actor = asActor(by);
  checkValues(values);
  const now = Date.now();
  const id = newId(now);
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('campaigns')
      .values({ id, status: 'draft', cover_image_id: null, created_at: now, updated_at: now, ...(columns(values) as Required<ReturnType<typeof columns>>) })
      .execute();
    await audit(trx, { actorId: actor.userId, action: 'campaign.create', entity: 'campaign', entityId: id, after: values, ip: actor.ip });
  });
  return id;
}

export async function updateCampaign(ctx: AppContext, by: ActorArg, id: string, patch: Omit<CampaignPatch, 'status'> & { status?: CampaignStatus }) {
  const actor = asActor(by);
  await ctx.db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('campaigns').select(CAMPAIGN_COLUMNS).where('id', '=', id).executeTakeFirst();
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
    // Nothing to change (the status it has, no field): no write, no audit entry. An ended campaign's
    // updated_at stays the moment it ended, which the conversions' schedule rule reads.
    if (Object.keys(rest).length === 0 && (!status || status === row.status)) return;
    const updated = await trx
      .updateTable('campaigns')
      .set({ ...columns(rest as Partial<CampaignValues>), ...(status ? { status } : {}), updated_at: Date.now() })
      .where('id', '=', id)
      .where('status', '=', row.status) // a concurrent status move loses rather than overwrites
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) throw new AppError('INVALID_STATE_TRANSITION');
    const moved = status && status !== row.status ? STATUS_ACTIONS[status] : null;
    await audit(trx, { actorId: actor.userId, action: moved ?? 'campaign.update', entity: 'campaign', entityId: id, before: { status: row.status, ...beforeOf(row, rest) }, after: patch, ip: actor.ip });
  });
  ctx.links.invalidateWhere((t) => t.campaignId === id);
}

export async function addImage(ctx: AppContext, by: ActorArg, campaignId: string, kind: 'cover' | 'poster', bytes: Buffer) {
  const actor = asActor(by);
  if (bytes.length > IMAGE_MAX_BYTES) throw new AppError('PAYLOAD_TOO_LARGE');
  const sniffed = sniffImage(bytes);
  if (!sniffed) throw new AppError('UNSUPPORTED_MEDIA_TYPE', { image: 'invalid' });
  const now = Date.now();
  const id = newId(now);
  await ctx.db.transaction().execute(async (trx) => {
    const campaign = await trx.selectFrom('campaigns').select(['id', 'cover_image_id', 'status']).where('id', '=', campaignId).executeTakeFirst();
    if (!campaign) throw new AppError('NOT_FOUND');
    // An ended campaign is closed, images included (its updated_at is when it ended).
    if (campaign.status === 'ended') throw new AppError('INVALID_STATE_TRANSITION');
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
    await audit(trx, { actorId: actor.userId, action: 'campaign.image_add', entity: 'campaign', entityId: campaignId, after: { imageId: id, kind, ...sniffed, bytes: bytes.length }, ip: actor.ip });
  });
  return { id, ...sniffed };
}

export async function removeImage(ctx: AppContext, by: ActorArg, campaignId: string, imageId: string) {
  const actor = asActor(by);
  await ctx.db.transaction().execute(async (trx) => {
    const campaign = await trx.selectFrom('campaigns').select('status').where('id', '=', campaignId).executeTakeFirst();
    if (!campaign) throw new AppError('NOT_FOUND');
    if (campaign.status === 'ended') throw new AppError('INVALID_STATE_TRANSITION');
    const deleted = await trx.deleteFrom('campaign_images').where('id', '=', imageId).where('campaign_id', '=', campaignId).executeTakeFirst();
    if (Number(deleted.numDeletedRows) === 0) throw new AppError('NOT_FOUND');
    await trx.updateTable('campaigns').set({ cover_image_id: null }).where('id', '=', campaignId).where('cover_image_id', '=', imageId).execute();
    await audit(trx, { actorId: actor.userId, action: 'campaign.image_remove', entity: 'campaign', entityId: campaignId, before: { imageId }, ip: actor.ip });
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

export async function decideEnrollment(ctx: AppContext, by: ActorArg, id: string, action: 'approve' | 'reject') {
  const actor = asActor(by);
  await ctx.db.transaction().execute(async (trx) => {
    const e = await trx.selectFrom('enrollments').select(['id', 'status', 'promoter_id', 'campaign_id']).where('id', '=', id).executeTakeFirst();
    if (!e) throw new AppError('NOT_FOUND');
    const to = action === 'approve' ? 'approved' : 'rejected';
    const updated = await trx.updateTable('enrollments').set({ status: to, decided_at: Date.now(), decided_by: actor.userId }).where('id', '=', id).where('status', '=', 'pending').executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) throw new AppError('INVALID_STATE_TRANSITION');
    if (to === 'approved') await approveWithLink(trx, e);
    await notify(trx, [{ userId: e.promoter_id, type: `enrollment.${to}`, params: { campaignId: e.campaign_id } }], Date.now());
    await audit(trx, { actorId: actor.userId, action: `enrollment.${action}`, entity: 'enrollment', entityId: id, before: { status: e.status }, after: { status: to }, ip: actor.ip });
  });
}

/**
 * The scheduler's pass: ends every active or paused campaign whose endsAt has come. Safe on every
 * instance at once: each end is a conditional update (`… WHERE status = <as read>`), so exactly
 * one instance ends a campaign and writes its audit entry (`campaign.end`, no actor: the system).
 */
export async function endDueCampaigns(ctx: AppContext, now = Date.now(), batch = 100): Promise<number> {
  let ended = 0;
  for (;;) {
    const due = await campaignsDueToEnd(ctx.db, now, batch);
    for (const c of due) {
      const changed = await ctx.db.transaction().execute(async (trx) => {
        if (!(await endCampaignIf(trx, c.id, c.status, now))) return false;
        await audit(trx, { actorId: null, action: 'campaign.end', entity: 'campaign', entityId: c.id, before: { status: c.status }, after: { status: 'ended', endsAt: Number(c.ends_at) } }, now);
        return true;
      });
      if (changed) {
        ended++;
        // Its links stop redirecting to the campaign at once on this instance (others: their cache's own expiry, as for a status change by hand).
        ctx.links.invalidateWhere((t) => t.campaignId === c.id);
      }
    }
    if (due.length < batch) return ended;
  }
}
