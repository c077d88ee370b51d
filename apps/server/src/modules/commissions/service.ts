/**
 * The money engine's writes. Each business change and its ledger journal share one transaction:
 * recording a conversion (attribution, commissions, their journals), approving, rejecting and
 * reversing commissions. Status changes are conditional updates (`… WHERE status = 'pending'`),
 * so two instances doing the same work at once change each commission exactly once.
 */
import { createHash } from 'node:crypto';
import type { ConversionCreateSchema } from '@pa/shared';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import type { CampaignsTable, CommissionsTable, ConversionsTable, Db } from '../../db/types';
import { attribute, availableAt, isSelfReferral, level1Commission, overrideCommission, refundReversal, type AttributionCandidates } from '../../domain/commission';
import { audit } from '../../platform/audit';
import { AppError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { postJournal, postJournals, promoterAccount } from '../../platform/ledger';
import { dayKey } from '../../platform/time';
import { isUniqueViolation } from '../users/repository';

export type ConversionInput = z.output<typeof ConversionCreateSchema>;
type CommissionRow = CommissionsTable;
type ConversionRow = ConversionsTable;

const EXPENSE = 'platform:commissions';
/** The e-mail digest the merchant would send for this account (accounts are case-folded already). */
const emailDigest = (account: string) => (account.includes('@') ? createHash('sha256').update(account.trim().toLowerCase()).digest('hex') : null);

export interface RecordResult {
  created: boolean;
  conversionId: string;
}

/** Records a lead, sale or refund exactly once per (campaign, kind, externalId). */
export async function recordConversion(ctx: AppContext, apiKeyId: string | null, input: ConversionInput): Promise<RecordResult> {
  // A click id from a visit a moment ago may still be in this instance's write buffer.
  if (input.clickId && input.kind !== 'refund') {
    const known = await ctx.db.selectFrom('clicks').select('id').where('id', '=', input.clickId).executeTakeFirst();
    if (!known) await ctx.clicks.flush();
  }
  if (ctx.dialect === 'sqlite') return batcherFor(ctx).submit(apiKeyId, input);
  try {
    return await ctx.db.transaction().execute((trx) => processConversion(ctx, trx, apiKeyId, input, Date.now(), new Map()));
  } catch (error) {
    // The same delivery arrived concurrently and won the race: answer with its result.
    if (isUniqueViolation(error)) {
      const winner = await findConversion(ctx.db, input.campaignId, input.kind, input.externalId);
      if (winner) return { created: false, conversionId: winner.id };
    }
    throw error;
  }
}

/** One conversion inside a transaction: the idempotency check, the campaign's state, then the money. */
async function processConversion(ctx: AppContext, trx: Db, apiKeyId: string | null, input: ConversionInput, now: number, campaigns: Map<string, CampaignRow | null>): Promise<RecordResult> {
  const existing = await trx.selectFrom('conversions').select('id').where('campaign_id', '=', input.campaignId).where('kind', '=', input.kind).where('external_id', '=', input.externalId).executeTakeFirst();
  if (existing) return { created: false, conversionId: existing.id };
  let campaign = campaigns.get(input.campaignId);
  if (campaign === undefined) {
    campaign = (await trx.selectFrom('campaigns').selectAll().where('id', '=', input.campaignId).executeTakeFirst()) ?? null;
    campaigns.set(input.campaignId, campaign);
  }
  if (!campaign) throw new AppError('NOT_FOUND', { campaignId: 'not_found' });
  // Refunds are accepted whatever the campaign's state: money already earned must be taken back.
  if (input.kind !== 'refund' && campaign.status !== 'active') throw new AppError('CAMPAIGN_NOT_ACTIVE');
  const occurredAt = input.occurredAt ?? now;
  if (occurredAt > now + 5 * 60_000) throw new AppError('VALIDATION_FAILED', { occurredAt: 'invalid' });
  const id = input.kind === 'refund'
    ? await recordRefund(ctx, trx, apiKeyId, input, occurredAt, now)
    : await recordEarning(ctx, trx, apiKeyId, input, campaign, occurredAt, now);
  return { created: true, conversionId: id };
}

interface Pending {
  apiKeyId: string | null;
  input: ConversionInput;
  resolve: (r: RecordResult) => void;
  reject: (e: unknown) => void;
}

/**
 * Group commit for SQLite (one writer): conversions that arrive together are written in one
 * transaction, each inside its own savepoint, so one bad delivery rolls back alone. Nobody is
 * answered before the commit: an acknowledged conversion is on disk. Committing costs more than
 * all of one conversion's statements, so sharing it is what lets SQLite keep up under load.
 */
class ConversionBatcher {
  private queue: Pending[] = [];
  private running = false;
  constructor(private readonly ctx: AppContext, private readonly maxBatch = 200) {}

  submit(apiKeyId: string | null, input: ConversionInput): Promise<RecordResult> {
    return new Promise((resolve, reject) => {
      this.queue.push({ apiKeyId, input, resolve, reject });
      if (!this.running) void this.drain();
    });
  }

  private async drain() {
    this.running = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, this.maxBatch);
        await this.write(batch);
      }
    } finally {
      this.running = false;
    }
  }

  private async write(batch: Pending[]) {
    const outcomes: ({ ok: true; value: RecordResult } | { ok: false; error: unknown })[] = [];
    const now = Date.now();
    const campaigns = new Map<string, CampaignRow | null>();
    let trx;
    try {
      trx = await this.ctx.db.startTransaction().execute();
    } catch (error) {
      for (const p of batch) p.reject(error);
      return;
    }
    try {
      for (const p of batch) {
        const sp = await trx.savepoint('conversion').execute();
        try {
          outcomes.push({ ok: true, value: await processConversion(this.ctx, sp, p.apiKeyId, p.input, now, campaigns) });
          await sp.releaseSavepoint('conversion').execute();
        } catch (error) {
          await sp.rollbackToSavepoint('conversion').execute();
          await sp.releaseSavepoint('conversion').execute();
          outcomes.push({ ok: false, error });
        }
      }
      await trx.commit().execute();
    } catch (error) {
      await trx.rollback().execute().catch(() => undefined);
      for (const p of batch) p.reject(error);
      return;
    }
    batch.forEach((p, i) => {
      const o = outcomes[i]!;
      if (o.ok) p.resolve(o.value);
      else p.reject(o.error);
    });
  }
}

const batchers = new WeakMap<AppContext, ConversionBatcher>();
function batcherFor(ctx: AppContext): ConversionBatcher {
  let b = batchers.get(ctx);
  if (!b) {
    b = new ConversionBatcher(ctx);
    batchers.set(ctx, b);
  }
  return b;
}

export function findConversion(db: Db, campaignId: string, kind: string, externalId: string) {
  return db.selectFrom('conversions').selectAll().where('campaign_id', '=', campaignId).where('kind', '=', kind as ConversionRow['kind']).where('external_id', '=', externalId).executeTakeFirst();
}

type CampaignRow = CampaignsTable;

async function candidatesFor(trx: Db, input: ConversionInput, campaign: CampaignRow, occurredAt: number): Promise<AttributionCandidates> {
  const candidates: AttributionCandidates = {};
  if (input.couponCode) {
    const e = await trx.selectFrom('enrollments').select(['promoter_id']).where('campaign_id', '=', campaign.id).where('status', '=', 'approved').where('coupon_code', '=', input.couponCode.toUpperCase()).executeTakeFirst();
    if (e) {
      const link = await trx.selectFrom('links').select('id').where('promoter_id', '=', e.promoter_id).where('campaign_id', '=', campaign.id).where('is_default', '=', 1).executeTakeFirst();
      candidates.coupon = { promoterId: e.promoter_id, linkId: link?.id ?? null };
    }
  }
  if (input.clickId) {
    const c = await trx.selectFrom('clicks').select(['promoter_id', 'link_id', 'at', 'attributed', 'is_bot']).where('id', '=', input.clickId).where('campaign_id', '=', campaign.id).executeTakeFirst();
    // Clicks that earned nothing (disabled link, paused campaign, suspended promoter) or came from bots do not attribute.
    if (c && c.attributed && !c.is_bot) candidates.click = { promoterId: c.promoter_id, linkId: c.link_id, at: Number(c.at) };
  }
  if (input.customerExternalId) {
    const earlier = await trx
      .selectFrom('conversions')
      .select(['promoter_id', 'link_id', 'occurred_at'])
      .where('campaign_id', '=', campaign.id)
      .where('customer_external_id', '=', input.customerExternalId)
      .where('status', '=', 'attributed')
      .where('kind', 'in', ['lead', 'sale'])
      .where('occurred_at', '<=', occurredAt)
      .orderBy('occurred_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (earlier?.promoter_id) candidates.customer = { promoterId: earlier.promoter_id, linkId: earlier.link_id, at: Number(earlier.occurred_at) };
  }
  if (input.linkCode) {
    const l = await trx.selectFrom('links').select(['id', 'promoter_id', 'status']).where('code_key', '=', input.linkCode.toLowerCase()).where('campaign_id', '=', campaign.id).executeTakeFirst();
    if (l && l.status === 'active') candidates.link = { promoterId: l.promoter_id, linkId: l.id };
  }
  return candidates;
}

async function recordEarning(ctx: AppContext, trx: Db, apiKeyId: string | null, input: ConversionInput, campaign: CampaignRow, occurredAt: number, now: number): Promise<string> {
  const window = campaign.attribution_window_days;
  const found = attribute(await candidatesFor(trx, input, campaign, occurredAt), occurredAt, window);
  let status: ConversionRow['status'] = found ? 'attributed' : 'unattributed';
  let reason: string | null = found ? null : 'no_match';
  let promoter: { id: string; account: string; status: string; parent_id: string | null; inviter_status: string | null } | undefined;
  if (found) {
    const row = await trx
      .selectFrom('users')
      .leftJoin('enrollments', (j) => j.onRef('enrollments.promoter_id', '=', 'users.id').on('enrollments.campaign_id', '=', campaign.id))
      .leftJoin('users as inviter', 'inviter.id', 'users.parent_id')
      .select(['users.id', 'users.account', 'users.status', 'users.parent_id', 'enrollments.status as enrollment', 'inviter.status as inviter_status'])
      .where('users.id', '=', found.promoterId)
      .executeTakeFirst();
    promoter = row;
    if (!row || row.status !== 'active') [status, reason] = ['rejected', 'promoter_inactive'];
    else if (row.enrollment !== 'approved') [status, reason] = ['rejected', 'not_enrolled'];
    else if (isSelfReferral(input.customerEmailSha256, emailDigest(row.account))) [status, reason] = ['rejected', 'self_referral'];
  }
  const id = newId(now);
  await trx
    .insertInto('conversions')
    .values({
      id,
      campaign_id: campaign.id,
      kind: input.kind,
      external_id: input.externalId,
      amount: input.amount ?? 0,
      refunded_amount: 0,
      refund_of: null,
      customer_external_id: input.customerExternalId ?? null,
      customer_email_sha256: input.customerEmailSha256 ?? null,
      click_id: input.clickId ?? null,
      coupon_code: input.couponCode ?? null,
      link_code: input.linkCode ?? null,
      promoter_id: found?.promoterId ?? null,
      link_id: found?.linkId ?? null,
      attributed_by: found?.by ?? null,
      status,
      reason,
      occurred_at: occurredAt,
      received_at: now,
      api_key_id: apiKeyId,
    })
    .execute();
  if (status !== 'attributed' || !found || !promoter) return id;

  const kind = input.kind as 'lead' | 'sale';
  const month = dayKey(occurredAt, ctx.config.timeZone).slice(0, 7);
  const tiers = JSON.parse(campaign.tiers_json) as { minSales: number; bps: number }[];
  // Only volume tiers need this month's count of sales.
  const salesThisMonth = kind === 'sale' && tiers.length > 0
    ? Number((await trx
      .selectFrom('commissions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('promoter_id', '=', promoter.id)
      .where('campaign_id', '=', campaign.id)
      .where('month', '=', month)
      .where('level', '=', 1)
      .where('kind', '=', 'sale')
      .where('status', 'in', ['pending', 'approved'])
      .executeTakeFirst())?.n ?? 0)
    : 0;
  const terms = { leadReward: Number(campaign.lead_reward), saleRewardType: campaign.sale_reward_type, saleReward: Number(campaign.sale_reward), tiers };
  const level1 = level1Commission(terms, { kind, amount: input.amount ?? 0 }, salesThisMonth);
  if (!level1) return id;
  const due = availableAt(occurredAt, campaign.hold_days);
  const base = { conversion_id: id, campaign_id: campaign.id, kind, occurred_at: occurredAt, month, available_at: due, created_at: now, reversed_amount: 0, status: 'pending' as const, decided_at: null, decided_by: null, reason: null };
  const rows: CommissionRow[] = [{ ...base, id: newId(now), promoter_id: promoter.id, link_id: found.linkId, source_promoter_id: null, level: 1, rule: level1.rule, base: level1.base, rate_bps: level1.rateBps, amount: level1.amount }];
  // Level 2: the inviter earns the override while their account is active.
  const override = promoter.parent_id && promoter.inviter_status === 'active' ? overrideCommission(level1.amount, campaign.override_bps) : 0;
  if (promoter.parent_id && override > 0) {
    rows.push({ ...base, id: newId(now), promoter_id: promoter.parent_id, link_id: null, source_promoter_id: promoter.id, level: 2, rule: 'override', base: level1.amount, rate_bps: campaign.override_bps, amount: override });
  }
  await createCommissions(trx, rows, now);
  return id;
}

/** Inserts a sale's commissions with their journals (pending +, platform −) in one go. */
async function createCommissions(trx: Db, rows: CommissionRow[], now: number) {
  // A commission's creation is the first step of its timeline (its created_at); events record what follows.
  await trx.insertInto('commissions').values(rows).execute();
  await postJournals(trx, rows.map((row) => ({
    kind: 'commission_created',
    refType: 'commission',
    refId: row.id,
    promoterId: row.promoter_id,
    memo: { level: row.level, kind: row.kind, conversionId: row.conversion_id },
    entries: [{ account: promoterAccount(row.promoter_id, 'pending'), amount: row.amount }, { account: EXPENSE, amount: -row.amount }],
    at: now,
  })));
}

async function recordRefund(ctx: AppContext, trx: Db, apiKeyId: string | null, input: ConversionInput, occurredAt: number, now: number): Promise<string> {
  const amount = input.amount ?? 0;
  if (!Number.isSafeInteger(amount) || amount <= 0) throw new AppError('VALIDATION_FAILED', { amount: 'invalid' });
  const sale = await trx.selectFrom('conversions').selectAll().where('campaign_id', '=', input.campaignId).where('kind', '=', 'sale').where('external_id', '=', input.refundOf!).executeTakeFirst();
  if (!sale) throw new AppError('VALIDATION_FAILED', { refundOf: 'not_found' });
  const refundedBefore = Number(sale.refunded_amount);
  // Conditional update: concurrent refunds can never take back more than the sale.
  const updated = await trx
    .updateTable('conversions')
    .set((eb) => ({ refunded_amount: eb('refunded_amount', '+', amount) }))
    .where('id', '=', sale.id)
    .where('refunded_amount', '=', refundedBefore)
    .where((eb) => eb(eb('refunded_amount', '+', amount), '<=', eb.ref('amount')))
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1) throw new AppError('VALIDATION_FAILED', { amount: 'too_large' });
  const id = newId(now);
  await trx
    .insertInto('conversions')
    .values({
      id,
      campaign_id: input.campaignId,
      kind: 'refund',
      external_id: input.externalId,
      amount,
      refunded_amount: 0,
      refund_of: sale.id,
      customer_external_id: input.customerExternalId ?? sale.customer_external_id,
      customer_email_sha256: input.customerEmailSha256 ?? null,
      click_id: null,
      coupon_code: null,
      link_code: null,
      promoter_id: sale.promoter_id,
      link_id: sale.link_id,
      attributed_by: sale.attributed_by,
      status: sale.status,
      reason: sale.reason,
      occurred_at: occurredAt,
      received_at: now,
      api_key_id: apiKeyId,
    })
    .execute();
  const commissions = await trx.selectFrom('commissions').selectAll().where('conversion_id', '=', sale.id).where('status', 'in', ['pending', 'approved']).orderBy('level').execute();
  for (const c of commissions) {
    const { reversal } = refundReversal({ commissionAmount: Number(c.amount), saleAmount: Number(sale.amount), refundedBefore, refundAmount: amount, reversedBefore: Number(c.reversed_amount) });
    if (reversal <= 0) continue;
    await reverseCommission(ctx, trx, c, reversal, id, now);
  }
  return id;
}

/** Takes back part or all of a commission: from pending during the hold, from available after it. */
async function reverseCommission(_ctx: AppContext, trx: Db, c: CommissionRow, reversal: number, refundId: string, now: number) {
  const reversedAfter = Number(c.reversed_amount) + reversal;
  const full = reversedAfter === Number(c.amount);
  const updated = await trx
    .updateTable('commissions')
    .set({ reversed_amount: reversedAfter, ...(full ? { status: 'reversed' as const, decided_at: now } : {}) })
    .where('id', '=', c.id)
    .where('status', '=', c.status)
    .where('reversed_amount', '=', c.reversed_amount)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1) throw new Error(`commission ${c.id} changed during its reversal`);
  const bucket = c.status === 'pending' ? 'pending' : 'available';
  await trx.insertInto('commission_events').values({ id: newId(now), commission_id: c.id, status: full ? 'reversed' : 'partially_reversed', amount: reversal, actor_id: null, reason: 'refund', at: now }).execute();
  await postJournal(trx, {
    kind: 'commission_reversed',
    refType: 'commission',
    refId: c.id,
    promoterId: c.promoter_id,
    memo: { refundId, level: c.level },
    entries: [{ account: promoterAccount(c.promoter_id, bucket), amount: -reversal }, { account: EXPENSE, amount: reversal }],
    at: now,
  });
}

export type Decision = 'approve' | 'reject';

/**
 * Approves (pending → available) or rejects (pending → back to the program) one commission.
 * Returns false when it was no longer pending — someone else decided first; nothing changes.
 */
export async function decideCommission(ctx: AppContext, id: string, decision: Decision, actorId: string | null, reason: string | null, now = Date.now()): Promise<boolean> {
  return ctx.db.transaction().execute(async (trx) => {
    const c = await trx.selectFrom('commissions').selectAll().where('id', '=', id).executeTakeFirst();
    if (!c) throw new AppError('NOT_FOUND');
    if (c.status !== 'pending') return false;
    const updated = await trx
      .updateTable('commissions')
      .set({ status: decision === 'approve' ? 'approved' : 'rejected', decided_at: now, decided_by: actorId, reason })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) return false;
    const remaining = Number(c.amount) - Number(c.reversed_amount);
    await trx.insertInto('commission_events').values({ id: newId(now), commission_id: id, status: decision === 'approve' ? 'approved' : 'rejected', amount: remaining, actor_id: actorId, reason, at: now }).execute();
    if (remaining > 0) {
      await postJournal(trx, {
        kind: decision === 'approve' ? 'commission_approved' : 'commission_rejected',
        refType: 'commission',
        refId: id,
        promoterId: c.promoter_id,
        memo: { level: c.level, ...(reason ? { reason } : {}) },
        entries: decision === 'approve'
          ? [{ account: promoterAccount(c.promoter_id, 'pending'), amount: -remaining }, { account: promoterAccount(c.promoter_id, 'available'), amount: remaining }]
          : [{ account: promoterAccount(c.promoter_id, 'pending'), amount: -remaining }, { account: EXPENSE, amount: remaining }],
        at: now,
      });
    }
    if (actorId) await audit(trx, { actorId, action: `commission.${decision}`, entity: 'commission', entityId: id, before: { status: 'pending' }, after: { status: decision === 'approve' ? 'approved' : 'rejected', reason } }, now);
    return true;
  });
}

/**
 * The scheduler's pass: approves every pending commission whose hold has ended on campaigns that
 * approve automatically. Safe on several instances at once: each approval is conditional.
 */
export async function approveDue(ctx: AppContext, now = Date.now(), batch = 500): Promise<number> {
  let approved = 0;
  for (;;) {
    const due = await ctx.db
      .selectFrom('commissions')
      .innerJoin('campaigns', 'campaigns.id', 'commissions.campaign_id')
      .select('commissions.id')
      .where('commissions.status', '=', 'pending')
      .where('commissions.available_at', '<=', now)
      .where('campaigns.approval_mode', '=', 'auto')
      .orderBy('commissions.available_at')
      .limit(batch)
      .execute();
    for (const { id } of due) if (await decideCommission(ctx, id, 'approve', null, null, now)) approved++;
    if (due.length < batch) return approved;
  }
}


