/**
 * Bounties (issue 31 item 5; docs/bounties.md): staff make and change a campaign's bounties and
 * decide promoters' proof; promoters see what is open to them with their progress and send proof.
 * Rewards are written by earning.ts.
 */
import { createHash } from 'node:crypto';
import type { AdminBounty, BountyCreate, BountyImage, BountyPatch, BountySubmission, BountySubmissionCreate, Locale, PromoterBounty, PromoterBountyList } from '@pa/shared';
import type { AppContext } from '../../context';
import { sniffImage } from '../../domain/image-sniff';
import { asActor, audit, type ActorArg } from '../../platform/audit';
import { AppError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { pickLocalized } from '../../platform/localized';
import { notify } from '../../platform/notifications';
import { readSettings, zoneOf } from '../../platform/settings';
import { dayKey } from '../../platform/time';
import { isUniqueViolation } from '../users/repository';
import { awardBounty, forGroup, goalOf, groupsOf, ONCE, openAt, periodOf, periodRange } from '../commissions/bounty-earning';
import { bountyProgress } from '../commissions/repository';
import * as repo from './repository';
import type { BountyRow, SubmissionRow, SubmissionView } from './repository';

const IMAGE_MAX_BYTES = 2 * 1024 * 1024;
export const bountyImageUrl = (id: string) => `api/bounty-images/${id}`;

const clean = (texts: Partial<Record<string, string>>) => Object.fromEntries(Object.entries(texts).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1].length > 0));

function toAdminBounty(r: BountyRow, counts: { earned: number; pending: number }): AdminBounty {
  return {
    id: r.id, campaignId: r.campaign_id, kind: r.kind, names: JSON.parse(r.names_json) as Record<string, string>, descriptions: JSON.parse(r.descriptions_json) as Record<string, string>,
    reward: Number(r.reward), goal: goalOf(r), groupIds: groupsOf(r), startsAt: r.starts_at === null ? null : Number(r.starts_at), endsAt: r.ends_at === null ? null : Number(r.ends_at),
    status: r.status, createdAt: Number(r.created_at), earnedCount: counts.earned, pendingSubmissions: counts.pending,
  };
}

/** `locale`: the reader's, for the bounty's and the campaign's names. */
const toSubmission = (s: SubmissionView, locale = 'en'): BountySubmission => ({
  id: s.id, bountyId: s.bounty_id, bountyName: pickLocalized(s.bounty_names, locale), campaignName: pickLocalized(s.campaign_names, locale), promoterId: s.promoter_id, promoterName: s.display_name, url: s.url, text: s.text, imageUrl: s.image_id ? bountyImageUrl(s.image_id) : null,
  status: s.status, reason: s.reason, createdAt: Number(s.created_at), decidedAt: s.decided_at === null ? null : Number(s.decided_at), commissionId: s.commission_id,
});

function checkDates(startsAt: number | null, endsAt: number | null) {
  if (startsAt !== null && endsAt !== null && endsAt <= startsAt) throw new AppError('VALIDATION_FAILED', { endsAt: 'invalid' });
}

async function checkGroups(ctx: AppContext, groupIds: string[]) {
  if (groupIds.length === 0) return;
  const found = await repo.existingGroups(ctx.db, groupIds);
  if (found.length !== new Set(groupIds).size) throw new AppError('VALIDATION_FAILED', { groupIds: 'not_found' });
}

// ——— Staff ———

export async function createBounty(ctx: AppContext, by: ActorArg, campaignId: string, input: BountyCreate): Promise<AdminBounty> {
  const actor = asActor(by);
  const startsAt = input.startsAt ?? null;
  const endsAt = input.endsAt ?? null;
  checkDates(startsAt, endsAt);
  const groupIds = [...new Set(input.groupIds ?? [])];
  await checkGroups(ctx, groupIds);
  const now = Date.now();
  const row: BountyRow = {
    id: newId(now), campaign_id: campaignId, kind: input.kind, names_json: JSON.stringify(clean(input.names)), descriptions_json: JSON.stringify(clean(input.descriptions ?? {})),
    reward: input.reward, goal_json: input.kind === 'performance' ? JSON.stringify(input.goal) : null, group_ids_json: JSON.stringify(groupIds),
    starts_at: startsAt, ends_at: endsAt, status: 'active', created_at: now, updated_at: now,
  };
  await ctx.uow.run(async (tx) => {
    const campaign = await repo.campaignOf(tx.q, campaignId);
    if (!campaign) throw new AppError('NOT_FOUND');
    if (campaign.status === 'ended') throw new AppError('INVALID_STATE_TRANSITION');
    await repo.insertBounty(tx.q, row);
    await audit(tx.q, { actorId: actor.userId, action: 'bounty.create', entity: 'bounty', entityId: row.id, after: toAdminBounty(row, { earned: 0, pending: 0 }), ip: actor.ip }, now);
  });
  return toAdminBounty(row, { earned: 0, pending: 0 });
}

export async function adminBounties(ctx: AppContext, campaignId: string): Promise<AdminBounty[]> {
  if (!(await repo.campaignOf(ctx.db, campaignId))) throw new AppError('NOT_FOUND');
  const rows = await repo.campaignBounties(ctx.db, campaignId);
  return rows.map((r) => toAdminBounty(r, { earned: Number(r.earned_count ?? 0), pending: Number(r.pending_submissions ?? 0) }));
}

export async function adminBounty(ctx: AppContext, id: string): Promise<AdminBounty> {
  const row = await repo.bountyById(ctx.db, id);
  if (!row) throw new AppError('NOT_FOUND');
  return toAdminBounty(row, await repo.bountyCounts(ctx.db, id));
}

/** Changes a bounty; its goal stays once it has been earned (what was earned was earned for that goal), a submission bounty has none. */
export async function updateBounty(ctx: AppContext, by: ActorArg, id: string, patch: BountyPatch): Promise<AdminBounty> {
  const actor = asActor(by);
  const now = Date.now();
  if (patch.groupIds) await checkGroups(ctx, patch.groupIds);
  await ctx.uow.run(async (tx) => {
    const row = await repo.bountyById(tx.q, id);
    if (!row) throw new AppError('NOT_FOUND');
    const counts = await repo.bountyCounts(tx.q, id);
    if (patch.goal !== undefined) {
      if (row.kind !== 'performance') throw new AppError('VALIDATION_FAILED', { goal: 'not_allowed' });
      if (counts.earned > 0 && JSON.stringify(patch.goal) !== row.goal_json) throw new AppError('INVALID_STATE_TRANSITION');
    }
    const startsAt = patch.startsAt !== undefined ? patch.startsAt : row.starts_at === null ? null : Number(row.starts_at);
    const endsAt = patch.endsAt !== undefined ? patch.endsAt : row.ends_at === null ? null : Number(row.ends_at);
    checkDates(startsAt, endsAt);
    const change: Partial<BountyRow> = { updated_at: now };
    if (patch.names) change.names_json = JSON.stringify(clean(patch.names));
    if (patch.descriptions) change.descriptions_json = JSON.stringify(clean(patch.descriptions));
    if (patch.reward !== undefined) change.reward = patch.reward;
    if (patch.groupIds) change.group_ids_json = JSON.stringify([...new Set(patch.groupIds)]);
    if (patch.startsAt !== undefined) change.starts_at = patch.startsAt;
    if (patch.endsAt !== undefined) change.ends_at = patch.endsAt;
    if (patch.goal) change.goal_json = JSON.stringify(patch.goal);
    if (patch.status) change.status = patch.status;
    await repo.updateBounty(tx.q, id, change);
    const after = { ...row, ...change };
    await audit(tx.q, { actorId: actor.userId, action: 'bounty.update', entity: 'bounty', entityId: id, before: toAdminBounty(row, counts), after: toAdminBounty(after, counts), ip: actor.ip }, now);
  });
  return adminBounty(ctx, id);
}

export async function listSubmissions(ctx: AppContext, query: { status?: SubmissionRow['status'] | undefined; bountyId?: string | undefined; limit: number; cursor?: string | undefined }, locale: string) {
  const page = await repo.submissionsPage(ctx.db, query, query);
  return { items: page.rows.map((r) => toSubmission(r, locale)), nextCursor: page.nextCursor };
}

/**
 * Approves a pending submission and pays the bounty, in one transaction: the status moves only
 * from pending (a second approval at the same time finds it decided: INVALID_STATE_TRANSITION and
 * pays nothing), the reward under the commissions' unique key.
 */
export async function approveSubmission(ctx: AppContext, by: ActorArg, id: string): Promise<BountySubmission> {
  const actor = asActor(by);
  const zone = zoneOf(ctx);
  await ctx.uow.run(async (tx) => {
    const now = tx.now;
    const s = await repo.submissionById(tx.q, id);
    if (!s) throw new AppError('NOT_FOUND');
    if (!(await repo.decideSubmissionIf(tx.q, id, 'approved', { decided_at: now, decided_by: actor.userId, reason: null }))) throw new AppError('INVALID_STATE_TRANSITION');
    const b = (await repo.bountyById(tx.q, s.bounty_id))!;
    const campaign = (await repo.campaignOf(tx.q, b.campaign_id))!;
    const commission = await awardBounty(ctx, tx, b, campaign, s.promoter_id, ONCE, now, zone, s.id);
    // Earned already (by an earlier approval): nothing is paid twice.
    if (!commission) throw new AppError('INVALID_STATE_TRANSITION');
    await repo.setSubmissionCommission(tx.q, id, commission.id);
    await audit(tx.q, { actorId: actor.userId, action: 'bounty_submission.approve', entity: 'bounty_submission', entityId: id, before: { status: 'pending' }, after: { status: 'approved', commissionId: commission.id, amount: commission.amount }, ip: actor.ip }, now);
  });
  return toSubmission((await repo.submissionById(ctx.db, id))!);
}

export async function rejectSubmission(ctx: AppContext, by: ActorArg, id: string, reason: string): Promise<BountySubmission> {
  const actor = asActor(by);
  await ctx.uow.run(async (tx) => {
    const now = tx.now;
    const s = await repo.submissionById(tx.q, id);
    if (!s) throw new AppError('NOT_FOUND');
    if (!(await repo.decideSubmissionIf(tx.q, id, 'rejected', { decided_at: now, decided_by: actor.userId, reason }))) throw new AppError('INVALID_STATE_TRANSITION');
    const b = (await repo.bountyById(tx.q, s.bounty_id))!;
    await notify(tx.q, [{ userId: s.promoter_id, type: 'bounty.submission_rejected', params: { bountyId: b.id, submissionId: id, reason, campaignId: b.campaign_id } }], now);
    await audit(tx.q, { actorId: actor.userId, action: 'bounty_submission.reject', entity: 'bounty_submission', entityId: id, before: { status: 'pending' }, after: { status: 'rejected', reason }, ip: actor.ip }, now);
  });
  return toSubmission((await repo.submissionById(ctx.db, id))!);
}

// ——— The promoter's ———

/** A bounty the promoter may see: active, of a campaign they are approved in, for their group. Otherwise NOT_FOUND. */
async function visibleBounty(ctx: AppContext, promoterId: string, bountyId: string) {
  const b = await repo.bountyById(ctx.db, bountyId);
  if (!b || b.status !== 'active') throw new AppError('NOT_FOUND');
  const standing = await repo.promoterStanding(ctx.db, b.campaign_id, promoterId);
  if (!standing || standing.role !== 'promoter' || standing.enrollment !== 'approved' || !forGroup(b, standing.group_id)) throw new AppError('NOT_FOUND');
  if (standing.status !== 'active') throw new AppError('FORBIDDEN');
  return b;
}

/** A submission bounty open now, not earned, with no submission waiting. */
async function checkSubmittable(ctx: AppContext, b: BountyRow, promoterId: string, now: number) {
  if (b.kind !== 'submission') throw new AppError('VALIDATION_FAILED', { bountyId: 'invalid' });
  const campaign = await repo.campaignOf(ctx.db, b.campaign_id);
  if (!openAt(b, now) || campaign?.status !== 'active') throw new AppError('INVALID_STATE_TRANSITION');
  if (await repo.hasEarned(ctx.db, b.id, promoterId, ONCE)) throw new AppError('INVALID_STATE_TRANSITION');
}

export async function submitProof(ctx: AppContext, promoterId: string, bountyId: string, input: BountySubmissionCreate): Promise<BountySubmission> {
  const now = Date.now();
  const b = await visibleBounty(ctx, promoterId, bountyId);
  await checkSubmittable(ctx, b, promoterId, now);
  if (input.imageId) {
    const image = await repo.imageById(ctx.db, input.imageId);
    if (!image || image.promoter_id !== promoterId || image.bounty_id !== bountyId) throw new AppError('VALIDATION_FAILED', { imageId: 'not_found' });
  }
  if (await repo.pendingSubmissionOf(ctx.db, bountyId, promoterId)) throw new AppError('INVALID_STATE_TRANSITION');
  const id = newId(now);
  try {
    await repo.insertSubmission(ctx.db, { id, bounty_id: bountyId, promoter_id: promoterId, url: input.url ?? null, text: input.text, image_id: input.imageId ?? null, status: 'pending', reason: null, created_at: now, decided_at: null, decided_by: null, commission_id: null });
  } catch (error) {
    // Another submission of theirs became pending meanwhile (one at a time: a partial unique index).
    if (isUniqueViolation(error)) throw new AppError('INVALID_STATE_TRANSITION');
    throw error;
  }
  return toSubmission((await repo.submissionById(ctx.db, id))!);
}

/** A proof image (PNG, JPEG or WebP, at most 2 MiB), as a campaign's images are checked. */
export async function addProofImage(ctx: AppContext, promoterId: string, bountyId: string, bytes: Buffer): Promise<BountyImage> {
  if (bytes.length > IMAGE_MAX_BYTES) throw new AppError('PAYLOAD_TOO_LARGE');
  const sniffed = sniffImage(bytes);
  if (!sniffed) throw new AppError('UNSUPPORTED_MEDIA_TYPE', { image: 'invalid' });
  const now = Date.now();
  const b = await visibleBounty(ctx, promoterId, bountyId);
  await checkSubmittable(ctx, b, promoterId, now);
  const id = newId(now);
  await repo.insertImage(ctx.db, {
    id, bounty_id: bountyId, promoter_id: promoterId, content_type: sniffed.contentType, data: bytes, byte_size: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('base64url'), width: sniffed.width, height: sniffed.height, created_at: now,
  });
  return { id, url: bountyImageUrl(id) };
}

/** A proof image: its promoter's, or staff's. */
export async function proofImage(ctx: AppContext, viewer: { userId: string; role: string }, id: string) {
  const image = await repo.imageById(ctx.db, id);
  if (!image || (viewer.role === 'promoter' && image.promoter_id !== viewer.userId)) throw new AppError('NOT_FOUND');
  return image;
}

/** `GET api/bounties`: the bounties open to the promoter, in their language, with progress. */
export async function promoterBounties(ctx: AppContext, promoterId: string, locale: Locale, now = Date.now()): Promise<PromoterBountyList> {
  const { currency } = await readSettings(ctx.db);
  const standing = await repo.groupOf(ctx.db, promoterId);
  if (!standing) throw new AppError('NOT_FOUND');
  const zone = zoneOf(ctx);
  const rows = (await repo.bountiesOpenTo(ctx.db, promoterId)).filter((b) => b.campaign_status === 'active' && forGroup(b, standing.group_id) && openAt(b, now));
  const ids = rows.map((r) => r.id);
  const earned = await repo.earnedPeriods(ctx.db, promoterId, ids);
  const submissions = await repo.latestSubmissions(ctx.db, promoterId, ids);
  const items: PromoterBounty[] = [];
  for (const b of rows) {
    const goal = goalOf(b);
    let progress: PromoterBounty['progress'] = null;
    let done: boolean;
    if (goal) {
      const period = periodOf(goal, dayKey(now, zone));
      const range = periodRange(b, period, zone);
      const current = await bountyProgress(ctx.db, b.campaign_id, promoterId, goal.metric, range.from, range.before);
      progress = { current, periodEndsAt: goal.period === 'month' ? range.before : b.ends_at === null ? null : Number(b.ends_at) };
      done = earned.get(b.id)?.has(period) ?? false;
    } else done = earned.get(b.id)?.has(ONCE) ?? false;
    const s = submissions.get(b.id);
    items.push({
      id: b.id, campaignId: b.campaign_id, campaignName: pickLocalized(b.campaign_names_json, locale), kind: b.kind, name: pickLocalized(b.names_json, locale), description: pickLocalized(b.descriptions_json, locale),
      reward: Number(b.reward), goal, endsAt: b.ends_at === null ? null : Number(b.ends_at), progress, earned: done,
      submission: s ? { id: s.id, status: s.status, reason: s.reason, createdAt: Number(s.created_at) } : null,
    });
  }
  return { currency, items };
}
