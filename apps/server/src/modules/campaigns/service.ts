/** Campaign rules: creation, edits and status moves, images, joining and enrollment decisions; the staff's and the promoter's views. */
import { alertStaff } from '../staff-alerts/service';
import { createHash } from 'node:crypto';
import type {
  AdminCampaign, AdminCampaignListSchema, AdminEnrollmentListSchema, Campaign, CampaignListSchema, CampaignPatch, CampaignStatus, EnrollmentSchema, FieldCode, Image,
} from '@pa/shared';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import { baseRules, withFields } from './rewards';
import type { RewardRule } from '@pa/shared';
import type { Db } from '../../db/types';
import { canMoveCampaign } from '../../domain/campaign-state';
import { sniffImage } from '../../domain/image-sniff';
import { asActor, audit, type ActorArg } from '../../platform/audit';
import { AppError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { emitEvent } from '../../platform/webhooks/outbox';
import { pageOf } from '../../platform/listing';
import { pickLocalized } from '../../platform/localized';
import { notify } from '../../platform/notifications';
import { readSettings } from '../../platform/settings';
import { insertLink } from '../links/repository';
import { isUniqueViolation } from '../users/repository';
import {
  campaignsDueToEnd, clearCoverIf, decideEnrollmentIf, deleteImage, endCampaignIf, findCampaign, findCampaignState, findEnrollment, findEnrollmentOf,
  findImageData, findVisibleCampaign, hasDefaultLink, imagesOf, imageUrl, insertCampaign, insertEnrollment, insertImage, listCampaigns, listEnrollments,
  listVisibleCampaigns, setCouponCode, setCoverImage, toAdminCampaign, toCampaign, updateCampaignIf, type CampaignRow, type VisibleCampaignRow,
} from './repository';

const IMAGE_MAX_BYTES = 2 * 1024 * 1024;

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
  customerBinding: number | 'lifetime';
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
    ...(v.customerBinding !== undefined ? { binding_months: v.customerBinding === 'lifetime' ? null : v.customerBinding } : {}),
    ...(v.holdDays !== undefined ? { hold_days: v.holdDays } : {}),
    ...(v.approvalMode !== undefined ? { approval_mode: v.approvalMode } : {}),
    ...(v.joinMode !== undefined ? { join_mode: v.joinMode } : {}),
    ...(v.shareTexts !== undefined ? { share_texts_json: clean(v.shareTexts) } : {}),
  };
}

/** One campaign, every field (NOT_FOUND when there is none). */
export async function adminCampaign(ctx: AppContext, id: string): Promise<AdminCampaign> {
  const row = await findCampaign(ctx.db, id);
  if (!row) throw new AppError('NOT_FOUND');
  return toAdminCampaign(row, (await imagesOf(ctx.db, [id])).get(id) ?? []);
}

/** Every campaign (or those in `status`), newest first. */
export async function adminCampaigns(
  ctx: AppContext,
  query: { limit: number; cursor?: string; status?: CampaignStatus },
): Promise<z.infer<typeof AdminCampaignListSchema>> {
  const { limit, cursor, status } = query;
  const { rows, nextCursor } = pageOf(await listCampaigns(ctx.db, status ? { status } : {}, { limit, ...(cursor ? { cursor } : {}) }), limit);
  const images = await imagesOf(ctx.db, rows.map((r) => r.id));
  return { items: rows.map((r) => toAdminCampaign(r, images.get(r.id) ?? [])), nextCursor };
}

/** A promoter's view of campaign rows: images, their enrollment, texts in their language, the currency. */
async function present(ctx: AppContext, rows: VisibleCampaignRow[], locale: string): Promise<Campaign[]> {
  const images = await imagesOf(ctx.db, rows.map((r) => r.id));
  const { currency } = await readSettings(ctx.db);
  return rows.map((r) =>
    toCampaign(r, images.get(r.id) ?? [], locale, r.enrollment_id && r.enrollment_status && r.enrolled_at !== null ? { id: r.enrollment_id, status: r.enrollment_status, created_at: r.enrolled_at, coupon_code: r.coupon_code } : null, currency),
  );
}

/** The campaigns a promoter can promote: active ones and every non-draft one they joined, newest first. */
export async function promoterCampaigns(
  ctx: AppContext,
  promoterId: string,
  query: { limit: number; cursor?: string; q?: string; joined?: 'true' | 'false' },
  locale: string,
): Promise<z.infer<typeof CampaignListSchema>> {
  const { limit, cursor, q, joined } = query;
  const filters = { ...(joined ? { joined: joined === 'true' } : {}), ...(q ? { q } : {}) };
  const { rows, nextCursor } = pageOf(await listVisibleCampaigns(ctx.db, promoterId, filters, { limit, ...(cursor ? { cursor } : {}) }), limit);
  return { items: await present(ctx, rows, locale), nextCursor };
}

/** One campaign as the promoter sees it; one they cannot see is NOT_FOUND. */
export async function promoterCampaign(ctx: AppContext, promoterId: string, id: string, locale: string): Promise<Campaign> {
  const row = await findVisibleCampaign(ctx.db, promoterId, id);
  if (!row) throw new AppError('NOT_FOUND');
  return (await present(ctx, [row], locale))[0]!;
}

/** An image's bytes with its type and digest (the ETag); NOT_FOUND when there is none. */
export async function campaignImage(ctx: AppContext, id: string): Promise<{ contentType: string; data: Buffer; sha256: string }> {
  const row = await findImageData(ctx.db, id);
  if (!row) throw new AppError('NOT_FOUND');
  return { contentType: row.content_type, data: Buffer.from(row.data), sha256: row.sha256 };
}

export async function createCampaign(ctx: AppContext, by: ActorArg, values: CampaignValues): Promise<string> {
  const actor = asActor(by);
  checkValues(values);
  const now = Date.now();
  const id = newId(now);
  await ctx.uow.run(async ({ q: trx }) => {
    await insertCampaign(trx, { id, status: 'draft', cover_image_id: null, created_at: now, updated_at: now, ...(columns(values) as Required<ReturnType<typeof columns>>), rules_json: JSON.stringify(baseRules(values)) });
    await audit(trx, { actorId: actor.userId, action: 'campaign.create', entity: 'campaign', entityId: id, after: values, ip: actor.ip });
  });
  return id;
}

export async function updateCampaign(ctx: AppContext, by: ActorArg, id: string, patch: Omit<CampaignPatch, 'status'> & { status?: CampaignStatus }) {
  const actor = asActor(by);
  await ctx.uow.run(async ({ q: trx }) => {
    const row = await findCampaign(trx, id);
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
    // Conditional on the status read: a concurrent status move loses rather than overwrites.
    // The reward fields are the base rules: editing one edits its rule (issue 31, ./rewards.ts).
    const rewardFields = rest.leadReward !== undefined || rest.saleRewardType !== undefined || rest.saleReward !== undefined;
    const rules = rewardFields
      ? { rules_json: JSON.stringify(withFields(JSON.parse(row.rules_json) as RewardRule[], { leadReward: rest.leadReward ?? row.lead_reward, saleRewardType: rest.saleRewardType ?? row.sale_reward_type, saleReward: rest.saleReward ?? row.sale_reward })) }
      : {};
    const updated = await updateCampaignIf(trx, id, row.status, { ...columns(rest as Partial<CampaignValues>), ...rules, ...(status ? { status } : {}), updated_at: Date.now() });
    if (!updated) throw new AppError('INVALID_STATE_TRANSITION');
    const moved = status && status !== row.status ? STATUS_ACTIONS[status] : null;
    await audit(trx, { actorId: actor.userId, action: moved ?? 'campaign.update', entity: 'campaign', entityId: id, before: { status: row.status, ...beforeOf(row, rest) }, after: patch, ip: actor.ip });
  });
  ctx.links.invalidateWhere((t) => t.campaignId === id);
}

export async function addImage(ctx: AppContext, by: ActorArg, campaignId: string, kind: 'cover' | 'poster', bytes: Buffer): Promise<Image> {
  const actor = asActor(by);
  if (bytes.length > IMAGE_MAX_BYTES) throw new AppError('PAYLOAD_TOO_LARGE');
  const sniffed = sniffImage(bytes);
  if (!sniffed) throw new AppError('UNSUPPORTED_MEDIA_TYPE', { image: 'invalid' });
  const now = Date.now();
  const id = newId(now);
  await ctx.uow.run(async ({ q: trx }) => {
    const campaign = await findCampaignState(trx, campaignId);
    if (!campaign) throw new AppError('NOT_FOUND');
    // An ended campaign is closed, images included (its updated_at is when it ended).
    if (campaign.status === 'ended') throw new AppError('INVALID_STATE_TRANSITION');
    await insertImage(trx, {
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
    });
    if (kind === 'cover') {
      await setCoverImage(trx, campaignId, id, now);
      if (campaign.cover_image_id) await deleteImage(trx, campaign.cover_image_id);
    }
    await audit(trx, { actorId: actor.userId, action: 'campaign.image_add', entity: 'campaign', entityId: campaignId, after: { imageId: id, kind, ...sniffed, bytes: bytes.length }, ip: actor.ip });
  });
  return { id, url: imageUrl(id), width: sniffed.width, height: sniffed.height, contentType: sniffed.contentType };
}

export async function removeImage(ctx: AppContext, by: ActorArg, campaignId: string, imageId: string) {
  const actor = asActor(by);
  await ctx.uow.run(async ({ q: trx }) => {
    const campaign = await findCampaignState(trx, campaignId);
    if (!campaign) throw new AppError('NOT_FOUND');
    if (campaign.status === 'ended') throw new AppError('INVALID_STATE_TRANSITION');
    if (!(await deleteImage(trx, imageId, campaignId))) throw new AppError('NOT_FOUND');
    await clearCoverIf(trx, campaignId, imageId);
    await audit(trx, { actorId: actor.userId, action: 'campaign.image_remove', entity: 'campaign', entityId: campaignId, before: { imageId }, ip: actor.ip });
  });
}

/** Enrollments to review (or those in `status`), newest first, with the campaign's name in the reader's language. */
export async function adminEnrollments(
  ctx: AppContext,
  query: { limit: number; cursor?: string; status?: 'pending' | 'approved' | 'rejected' },
  locale: string,
): Promise<z.infer<typeof AdminEnrollmentListSchema>> {
  const { limit, cursor, status } = query;
  const { rows, nextCursor } = pageOf(await listEnrollments(ctx.db, status ? { status } : {}, { limit, ...(cursor ? { cursor } : {}) }), limit);
  return {
    items: rows.map((r) => ({ id: r.id, campaignId: r.campaign_id, status: r.status, createdAt: r.created_at, couponCode: r.coupon_code, promoterId: r.promoter_id, promoterName: r.display_name, promoterAccount: r.account, campaignName: pickLocalized(r.names_json, locale) })),
    nextCursor,
  };
}

/**
 * Gives an approved enrollment a coupon code, or takes it away (null, whatever the status). A code
 * another enrollment has is VALIDATION_FAILED `couponCode: taken` (the unique index decides).
 */
export async function setEnrollmentCoupon(ctx: AppContext, by: ActorArg, id: string, couponCode: string | null): Promise<void> {
  const actor = asActor(by);
  const now = Date.now();
  try {
    await ctx.uow.run(async ({ q: trx }) => {
      const row = await findEnrollment(trx, id);
      if (!row) throw new AppError('NOT_FOUND');
      if (row.status !== 'approved' && couponCode !== null) throw new AppError('INVALID_STATE_TRANSITION');
      await setCouponCode(trx, row.id, couponCode);
      await audit(trx, { actorId: actor.userId, action: 'enrollment.coupon', entity: 'enrollment', entityId: row.id, before: { couponCode: row.coupon_code }, after: { couponCode }, ip: actor.ip }, now);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('VALIDATION_FAILED', { couponCode: 'taken' });
    throw error;
  }
}

/** Approving an enrollment gives the promoter a default link for the campaign. */
/** An enrollment in a webhook event: as the promoter's API shows it, with its promoter. */
const enrollmentData = (e: { id: string; campaign_id: string; promoter_id: string; status: string; coupon_code: string | null; created_at: number; decided_at: number | null }) => ({
  id: e.id, campaignId: e.campaign_id, promoterId: e.promoter_id, status: e.status, couponCode: e.coupon_code, createdAt: Number(e.created_at), decidedAt: e.decided_at === null ? null : Number(e.decided_at),
});

async function approveWithLink(db: Db, enrollment: { promoter_id: string; campaign_id: string }) {
  if (!(await hasDefaultLink(db, enrollment.promoter_id, enrollment.campaign_id))) await insertLink(db, { promoterId: enrollment.promoter_id, campaignId: enrollment.campaign_id, isDefault: true });
}

/**
 * The promoter joins a campaign (approved at once when it is open to all, else pending); joining
 * again answers the enrollment they have (`created` false). A draft is NOT_FOUND.
 */
export async function join(ctx: AppContext, promoterId: string, campaignId: string): Promise<{ enrollment: z.infer<typeof EnrollmentSchema>; created: boolean }> {
  const { enrollment, created } = await ctx.uow.run(async (tx) => {
    const trx = tx.q;
    const campaign = await findCampaignState(trx, campaignId);
    if (!campaign || campaign.status === 'draft') throw new AppError('NOT_FOUND');
    const existing = await findEnrollmentOf(trx, promoterId, campaignId);
    if (existing) return { enrollment: existing, created: false };
    if (campaign.status !== 'active') throw new AppError('CAMPAIGN_NOT_ACTIVE');
    const now = Date.now();
    const status = campaign.join_mode === 'open' ? ('approved' as const) : ('pending' as const);
    const enrollment = { id: newId(now), promoter_id: promoterId, campaign_id: campaignId, status, coupon_code: null, created_at: now, decided_at: status === 'approved' ? now : null, decided_by: null };
    await insertEnrollment(trx, enrollment);
    if (status === 'approved') await approveWithLink(trx, enrollment);
    await emitEvent(ctx.webhooks, tx, 'enrollment.created', () => enrollmentData(enrollment));
    if (status === 'pending') await alertStaff(ctx.mail, tx, { type: 'staff.enrollment' });
    return { enrollment: { id: enrollment.id, status, created_at: now, coupon_code: null as string | null }, created: true };
  });
  return { enrollment: { id: enrollment.id, campaignId, status: enrollment.status, createdAt: enrollment.created_at, couponCode: enrollment.coupon_code }, created };
}

export async function decideEnrollment(ctx: AppContext, by: ActorArg, id: string, action: 'approve' | 'reject') {
  const actor = asActor(by);
  await ctx.uow.run(async (tx) => {
    const trx = tx.q;
    const e = await findEnrollment(trx, id);
    if (!e) throw new AppError('NOT_FOUND');
    const to = action === 'approve' ? 'approved' : 'rejected';
    if (!(await decideEnrollmentIf(trx, id, to, Date.now(), actor.userId))) throw new AppError('INVALID_STATE_TRANSITION');
    if (to === 'approved') await approveWithLink(trx, e);
    await notify(trx, [{ userId: e.promoter_id, type: `enrollment.${to}`, params: { campaignId: e.campaign_id } }], Date.now());
    await emitEvent(ctx.webhooks, tx, `enrollment.${to}`, async () => enrollmentData((await findEnrollment(trx, id))!));
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
      const changed = await ctx.uow.run(async ({ q: trx }) => {
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
