/**
 * The money engine's writes. Each business change and its ledger journal share one transaction:
 * recording a conversion (attribution, commissions, their journals), approving, rejecting and
 * reversing commissions. Status changes are conditional updates (`… WHERE status = 'pending'`),
 * so two instances doing the same work at once change each commission exactly once.
 */
import { createHash } from 'node:crypto';
import type { ConversionCreateSchema, ConversionReason } from '@pa/shared';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import type { CampaignsTable, CommissionsTable, ConversionsTable, Db } from '../../db/types';
import { outsideSchedule, takesConversions } from '../../domain/campaign-state';
import { attribute, availableAt, isSelfReferral, level1Commission, overrideCommission, refundReversal, type AttributionCandidates } from '../../domain/commission';
import { asActor, audit, type ActorArg } from '../../platform/audit';
import { AppError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { applyBalanceDeltas, postJournal, postJournals, promoterAccount, type BalanceDeltas } from '../../platform/ledger';
import { notify, type NotificationInput } from '../../platform/notifications';
import { applyRollups, commissionColumn, commissionLink, Rollups } from '../../platform/rollups';
import { execFor, sqliteExec, valueRows, type Exec } from '../../platform/sql-exec';
import { dayKey } from '../../platform/time';
import { zoneOf } from '../../platform/settings';
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
  /** For a new lead or sale: what was written (so the answer needs no second read). */
  written?: { conversion: ConversionRow; commissions: CommissionRow[]; campaignNamesJson: string; linkCode: string | null; promoterName: string | null };
}

/** Records a lead, sale or refund exactly once per (campaign, kind, externalId). */
export async function recordConversion(ctx: AppContext, apiKeyId: string | null, input: ConversionInput): Promise<RecordResult> {
  // A click id from a visit a moment ago may still be in this instance's write buffer: write it
  // first (no query needed to know — only whether anything is buffered).
  if (input.clickId && input.kind !== 'refund' && ctx.clicks.pending > 0) await ctx.clicks.flush();
  if (ctx.dialect === 'sqlite') return batcherFor(ctx).submit(apiKeyId, input);
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      const rollups = new Rollups();
      const result = await processConversion(ctx, trx, apiKeyId, input, Date.now(), new Map(), rollups);
      await applyRollups(execFor(ctx, trx), rollups);
      return result;
    });
  } catch (error) {
    // The same delivery arrived concurrently and won the race: answer with its result.
    if (isUniqueViolation(error)) {
      const winner = await findConversion(ctx.db, input.campaignId, input.kind, input.externalId);
      if (winner) return { created: false, conversionId: winner.id };
    }
    throw error;
  }
}

/**
 * One conversion inside a transaction: the idempotency check, the campaign's state, then the
 * money. The hot statements are hand-written SQL run through `execFor` (prepared statements on
 * SQLite); refunds, rarer, use Kysely.
 */
async function processConversion(ctx: AppContext, trx: Db, apiKeyId: string | null, input: ConversionInput, now: number, campaigns: Map<string, CampaignRow | null>, rollups: Rollups, deltas?: BalanceDeltas, notes?: NotificationInput[]): Promise<RecordResult> {
  const exec = execFor(ctx, trx);
  const existing = await exec.one<{ id: string }>('select id from conversions where campaign_id = ? and kind = ? and external_id = ?', [input.campaignId, input.kind, input.externalId]);
  if (existing) return { created: false, conversionId: existing.id };
  let campaign = campaigns.get(input.campaignId);
  if (campaign === undefined) {
    campaign = (await exec.one<CampaignRow>('select * from campaigns where id = ?', [input.campaignId])) ?? null;
    campaigns.set(input.campaignId, campaign);
  }
  if (!campaign) throw new AppError('NOT_FOUND', { campaignId: 'not_found' });
  // Refunds are accepted whatever the campaign's state: money already earned must be taken back.
  if (input.kind !== 'refund' && !takesConversions(campaign)) throw new AppError('CAMPAIGN_NOT_ACTIVE');
  const occurredAt = input.occurredAt ?? now;
  if (occurredAt > now + 5 * 60_000) throw new AppError('VALIDATION_FAILED', { occurredAt: 'invalid' });
  if (input.kind === 'refund') return { created: true, conversionId: await recordRefund(ctx, trx, apiKeyId, input, occurredAt, now, rollups) };
  const written = await recordEarning(ctx, exec, apiKeyId, input, campaign, occurredAt, now, rollups, deltas, notes);
  return { created: true, conversionId: written.conversion.id, written };
}

/** Hand-written SQL inside `trx`: better-sqlite3 prepared statements on SQLite (same connection), Kysely's raw path on PostgreSQL. */
interface Pending {
  apiKeyId: string | null;
  input: ConversionInput;
  resolve: (r: RecordResult) => void;
  reject: (e: unknown) => void;
}

/**
 * Group commit for SQLite (one writer): conversions that arrive together are written in one
 * transaction (on the raw connection, while Kysely's connection is held), each inside its own
 * savepoint, so one bad delivery rolls back alone. Nobody is
 * answered before the commit: an acknowledged conversion is on disk. Committing costs more than
 * all of one conversion's statements, so sharing it is what lets SQLite keep up under load.
 */
class ConversionBatcher {
  private queue: Pending[] = [];
  private running = false;
  private drained: Promise<void> = Promise.resolve();
  private statements: Record<'begin' | 'commit' | 'rollback' | 'savepoint' | 'release' | 'rollbackTo', { run(): unknown }> | undefined;
  /** Batches written and conversions in them (for the benchmark's report). */
  batches = 0;
  items = 0;
  /** Batches written again with a savepoint per delivery, after one of their deliveries failed. */
  retried = 0;
  constructor(private readonly ctx: AppContext, private readonly maxBatch = 200) {}

  submit(apiKeyId: string | null, input: ConversionInput): Promise<RecordResult> {
    return new Promise((resolve, reject) => {
      this.queue.push({ apiKeyId, input, resolve, reject });
      // Start on the next turn of the event loop, so requests already received join this batch.
      if (!this.running) {
        this.running = true;
        this.drained = new Promise((done) => setImmediate(() => void this.drain().finally(done)));
      }
    });
  }

  /** Resolves once every conversion submitted so far has been written (or has failed). */
  async idle() {
    while (this.running) await this.drained;
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
    // Optimistic pass: the whole batch without savepoints. A delivery that fails (a refund of an
    // unknown sale, say) rolls the whole batch back, which is then written again with a savepoint
    // around each delivery, so that one rolls back alone. Nobody has been answered before either commit.
    let outcomes = await this.attempt(batch, false);
    if (outcomes === 'retry') outcomes = await this.attempt(batch, true);
    if (outcomes === 'retry' || outcomes === 'failed') return;
    batch.forEach((p, i) => {
      const o = outcomes[i]!;
      if (o.ok) p.resolve(o.value);
      else p.reject(o.error);
    });
  }

  /**
   * One transaction for the batch. Without savepoints it gives up at the first failing delivery
   * (rolls back, 'retry'); with them it records each failure and goes on. A failure of the
   * transaction itself rejects every delivery of the batch ('failed'; none was acknowledged).
   */
  private async attempt(batch: Pending[], savepoints: boolean): Promise<Outcome[] | 'retry' | 'failed'> {
    const outcomes: Outcome[] = [];
    const now = Date.now();
    const campaigns = new Map<string, CampaignRow | null>();
    const sqlite = this.ctx.sqlite!;
    const tx = (this.statements ??= {
      begin: sqlite.prepare('begin'),
      commit: sqlite.prepare('commit'),
      rollback: sqlite.prepare('rollback'),
      savepoint: sqlite.prepare('savepoint conversion'),
      release: sqlite.prepare('release conversion'),
      rollbackTo: sqlite.prepare('rollback to conversion'),
    });
    if (!savepoints) {
      this.batches++;
      this.items += batch.length;
    } else this.retried++;
    let gaveUp = false;
    try {
      // Hold Kysely's one connection for the whole batch, so nothing else runs inside this transaction.
      await this.ctx.db.connection().execute(async (conn) => {
        tx.begin.run();
        try {
          const balances: BalanceDeltas = new Map();
          const rollups = new Rollups();
          const notes: NotificationInput[] = [];
          for (const p of batch) {
            if (savepoints) tx.savepoint.run();
            const noted = notes.length;
            const mine: BalanceDeltas = new Map();
            const figures = new Rollups();
            try {
              outcomes.push({ ok: true, value: await processConversion(this.ctx, conn, p.apiKeyId, p.input, now, campaigns, figures, mine, notes) });
              if (savepoints) tx.release.run();
              for (const [account, amount] of mine) balances.set(account, (balances.get(account) ?? 0) + amount);
              rollups.merge(figures);
            } catch (error) {
              if (!savepoints) {
                gaveUp = true;
                tx.rollback.run();
                return;
              }
              tx.rollbackTo.run();
              tx.release.run();
              notes.length = noted;
              outcomes.push({ ok: false, error });
            }
          }
          // Each balance and rollup the batch moved is written once, and the batch's notifications in one insert, just before the commit.
          await applyBalanceDeltas(sqliteExec(sqlite), balances, now);
          await applyRollups(sqliteExec(sqlite), rollups);
          await notify(sqliteExec(sqlite), notes, now);
          tx.commit.run();
        } catch (error) {
          if (sqlite.inTransaction) sqlite.exec('rollback');
          throw error;
        }
      });
    } catch (error) {
      for (const p of batch) p.reject(error);
      return 'failed';
    }
    return gaveUp ? 'retry' : outcomes;
  }
}

type Outcome = { ok: true; value: RecordResult } | { ok: false; error: unknown };

const batchers = new WeakMap<AppContext, ConversionBatcher>();
/** How the SQLite group commit has gone in this process: batches, deliveries, batches written again one by one. */
export function conversionBatchStats(ctx: AppContext) {
  const b = batchers.get(ctx);
  return { batches: b?.batches ?? 0, items: b?.items ?? 0, retried: b?.retried ?? 0 };
}

/** Resolves once the SQLite group commit has written every conversion submitted to it (shutdown). */
export async function conversionsWritten(ctx: AppContext) {
  await batchers.get(ctx)?.idle();
}

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

/** The attribution candidates, and the codes of the links they name (for the answer). */
async function candidatesFor(exec: Exec, input: ConversionInput, campaign: CampaignRow, occurredAt: number): Promise<AttributionCandidates & { codes: Map<string, string> }> {
  const candidates: AttributionCandidates & { codes: Map<string, string> } = { codes: new Map() };
  if (input.couponCode) {
    const e = await exec.one<{ promoter_id: string; link_id: string | null; code: string | null }>(
      `select e.promoter_id, l.id as link_id, l.code from enrollments e left join links l on l.promoter_id = e.promoter_id and l.campaign_id = e.campaign_id and l.is_default = 1
       where e.campaign_id = ? and e.status = 'approved' and e.coupon_code = ?`,
      [campaign.id, input.couponCode.toUpperCase()],
    );
    if (e) candidates.coupon = { promoterId: e.promoter_id, linkId: e.link_id };
    if (e?.link_id && e.code) candidates.codes.set(e.link_id, e.code);
  }
  if (input.clickId) {
    const c = await exec.one<{ promoter_id: string; link_id: string; at: number; attributed: number; is_bot: number; code: string | null }>(
      'select c.promoter_id, c.link_id, c.at, c.attributed, c.is_bot, l.code from clicks c left join links l on l.id = c.link_id where c.id = ? and c.campaign_id = ?',
      [input.clickId, campaign.id],
    );
    if (c?.code) candidates.codes.set(c.link_id, c.code);
    // Clicks that earned nothing (disabled link, paused campaign, suspended promoter) or came from bots do not attribute.
    if (c && c.attributed && !c.is_bot) candidates.click = { promoterId: c.promoter_id, linkId: c.link_id, at: Number(c.at) };
  }
  if (input.customerExternalId) {
    const earlier = await exec.one<{ promoter_id: string | null; link_id: string | null; occurred_at: number; code: string | null }>(
      `select v.promoter_id, v.link_id, v.occurred_at, l.code from conversions v left join links l on l.id = v.link_id
       where v.campaign_id = ? and v.customer_external_id = ? and v.status = 'attributed' and v.kind in ('lead', 'sale') and v.occurred_at <= ?
       order by v.occurred_at desc limit 1`,
      [campaign.id, input.customerExternalId, occurredAt],
    );
    if (earlier?.promoter_id) candidates.customer = { promoterId: earlier.promoter_id, linkId: earlier.link_id, at: Number(earlier.occurred_at) };
    if (earlier?.link_id && earlier.code) candidates.codes.set(earlier.link_id, earlier.code);
  }
  if (input.linkCode) {
    const l = await exec.one<{ id: string; promoter_id: string; status: string; code: string }>('select id, promoter_id, status, code from links where code_key = ? and campaign_id = ?', [input.linkCode.toLowerCase(), campaign.id]);
    if (l && l.status === 'active') candidates.link = { promoterId: l.promoter_id, linkId: l.id };
    if (l) candidates.codes.set(l.id, l.code);
  }
  return candidates;
}

const CONVERSION_COLUMNS = ['id', 'campaign_id', 'kind', 'external_id', 'amount', 'refunded_amount', 'refund_of', 'customer_external_id', 'customer_email_sha256', 'click_id', 'coupon_code', 'link_code', 'promoter_id', 'link_id', 'attributed_by', 'status', 'reason', 'occurred_at', 'received_at', 'api_key_id'] as const;
const COMMISSION_COLUMNS = ['id', 'conversion_id', 'campaign_id', 'promoter_id', 'link_id', 'source_promoter_id', 'level', 'kind', 'rule', 'base', 'rate_bps', 'amount', 'reversed_amount', 'status', 'occurred_at', 'month', 'available_at', 'created_at', 'decided_at', 'decided_by', 'reason'] as const;

async function recordEarning(ctx: AppContext, exec: Exec, apiKeyId: string | null, input: ConversionInput, campaign: CampaignRow, occurredAt: number, now: number, rollups: Rollups, deltas?: BalanceDeltas, notes?: NotificationInput[]): Promise<NonNullable<RecordResult['written']>> {
  // Outside the campaign's schedule nothing is attributed: stored for the operators with its reason.
  const offSchedule = outsideSchedule(campaign, occurredAt);
  const candidates = offSchedule ? { codes: new Map<string, string>() } : await candidatesFor(exec, input, campaign, occurredAt);
  const found = offSchedule ? null : attribute(candidates, occurredAt, campaign.attribution_window_days);
  let status: ConversionRow['status'] = found ? 'attributed' : 'unattributed';
  let reason: ConversionReason | null = found ? null : (offSchedule ?? 'no_match');
  let promoter: { id: string; account: string; display_name: string; status: string; parent_id: string | null; enrollment: string | null; inviter_status: string | null } | undefined;
  if (found) {
    promoter = await exec.one(
      `select u.id, u.account, u.display_name, u.status, u.parent_id, e.status as enrollment, i.status as inviter_status
       from users u left join enrollments e on e.promoter_id = u.id and e.campaign_id = ? left join users i on i.id = u.parent_id
       where u.id = ?`,
      [campaign.id, found.promoterId],
    );
    if (!promoter || promoter.status !== 'active') [status, reason] = ['rejected', 'promoter_inactive'];
    else if (promoter.enrollment !== 'approved') [status, reason] = ['rejected', 'not_enrolled'];
    else if (isSelfReferral(input.customerEmailSha256, emailDigest(promoter.account))) [status, reason] = ['rejected', 'self_referral'];
  }
  const id = newId(now);
  const conversion: ConversionRow = {
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
  };
  await exec.run(`insert into conversions (${CONVERSION_COLUMNS.join(', ')}) values ${valueRows(1, CONVERSION_COLUMNS.length)}`, CONVERSION_COLUMNS.map((c) => conversion[c]));
  const written = { conversion, commissions: [] as CommissionRow[], campaignNamesJson: campaign.names_json, linkCode: found?.linkId ? (candidates.codes.get(found.linkId) ?? null) : null, promoterName: promoter?.display_name ?? null };
  if (status !== 'attributed' || !found || !promoter) return written;

  const kind = input.kind as 'lead' | 'sale';
  const day = dayKey(occurredAt, zoneOf(ctx));
  rollups.add(promoter.id, day, campaign.id, found.linkId, kind === 'lead' ? { leads: 1 } : { sales: 1, sale_amount: input.amount ?? 0 });
  const month = day.slice(0, 7);
  const tiers = JSON.parse(campaign.tiers_json) as { minSales: number; bps: number }[];
  // Only volume tiers need this month's count of sales.
  const salesThisMonth = kind === 'sale' && tiers.length > 0
    ? Number((await exec.one<{ n: number }>(
      `select count(*) as n from commissions where promoter_id = ? and campaign_id = ? and month = ? and level = 1 and kind = 'sale' and status in ('pending', 'approved')`,
      [promoter.id, campaign.id, month],
    ))?.n ?? 0)
    : 0;
  const terms = { leadReward: Number(campaign.lead_reward), saleRewardType: campaign.sale_reward_type, saleReward: Number(campaign.sale_reward), tiers };
  const level1 = level1Commission(terms, { kind, amount: input.amount ?? 0 }, salesThisMonth);
  if (!level1) return written;
  const due = availableAt(occurredAt, campaign.hold_days);
  const base = { conversion_id: id, campaign_id: campaign.id, kind, occurred_at: occurredAt, month, available_at: due, created_at: now, reversed_amount: 0, status: 'pending' as const, decided_at: null, decided_by: null, reason: null };
  const rows: CommissionRow[] = [{ ...base, id: newId(now), promoter_id: promoter.id, link_id: found.linkId, source_promoter_id: null, level: 1, rule: level1.rule, base: level1.base, rate_bps: level1.rateBps, amount: level1.amount }];
  // Level 2: the inviter earns the override while their account is active.
  const override = promoter.parent_id && promoter.inviter_status === 'active' ? overrideCommission(level1.amount, campaign.override_bps) : 0;
  if (promoter.parent_id && override > 0) {
    rows.push({ ...base, id: newId(now), promoter_id: promoter.parent_id, link_id: null, source_promoter_id: promoter.id, level: 2, rule: 'override', base: level1.amount, rate_bps: campaign.override_bps, amount: override });
  }
  await createCommissions(exec, rows, now, deltas, notes);
  for (const r of rows) rollups.add(r.promoter_id, day, r.campaign_id, commissionLink(r), { commission_pending: r.amount });
  written.commissions = rows;
  return written;
}

/** Inserts a sale's commissions with their journals (pending +, platform −) in one go. */
/**
 * Inserts a sale's commissions with their journals (pending +, platform −) and their notifications.
 * With `deltas` and `notes` (the SQLite group commit), balances and notifications are collected for
 * the batch to write once before its commit.
 */
async function createCommissions(exec: Exec, rows: CommissionRow[], now: number, deltas?: BalanceDeltas, notes?: NotificationInput[]) {
  // A commission's creation is the first step of its timeline (its created_at); events record what follows.
  await exec.run(`insert into commissions (${COMMISSION_COLUMNS.join(', ')}) values ${valueRows(rows.length, COMMISSION_COLUMNS.length)}`, rows.flatMap((r) => COMMISSION_COLUMNS.map((c) => r[c])));
  await postJournals(exec, rows.map((row) => ({
    kind: 'commission_created',
    refType: 'commission',
    refId: row.id,
    promoterId: row.promoter_id,
    memo: { level: row.level, kind: row.kind, conversionId: row.conversion_id },
    entries: [{ account: promoterAccount(row.promoter_id, 'pending'), amount: row.amount }, { account: EXPENSE, amount: -row.amount }],
    at: now,
  })), deltas);
  const created = rows.map((r) => ({ userId: r.promoter_id, type: 'commission.created' as const, params: { commissionId: r.id, amount: r.amount, level: r.level, kind: r.kind, campaignId: r.campaign_id } }));
  if (notes) notes.push(...created);
  else await notify(exec, created, now);
}

async function recordRefund(ctx: AppContext, trx: Db, apiKeyId: string | null, input: ConversionInput, occurredAt: number, now: number, rollups: Rollups): Promise<string> {
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
  // The refund counts on the sale's day, against the sale's promoter and link.
  const saleDay = dayKey(Number(sale.occurred_at), zoneOf(ctx));
  if (sale.status === 'attributed' && sale.promoter_id) rollups.add(sale.promoter_id, saleDay, sale.campaign_id, sale.link_id, { refund_amount: amount });
  const commissions = await trx.selectFrom('commissions').selectAll().where('conversion_id', '=', sale.id).where('status', 'in', ['pending', 'approved']).orderBy('level').execute();
  for (const c of commissions) {
    const { reversal } = refundReversal({ commissionAmount: Number(c.amount), saleAmount: Number(sale.amount), refundedBefore, refundAmount: amount, reversedBefore: Number(c.reversed_amount) });
    if (reversal <= 0) continue;
    await reverseCommission(ctx, trx, c, reversal, id, now);
    rollups.add(c.promoter_id, dayKey(Number(c.occurred_at), zoneOf(ctx)), c.campaign_id, commissionLink(c), { [commissionColumn(c.status as 'pending' | 'approved')]: -reversal, commission_reversed: reversal });
  }
  return id;
}

/** Takes back part or all of a commission: from pending during the hold, from available after it. */
async function reverseCommission(ctx: AppContext, trx: Db, c: CommissionRow, reversal: number, refundId: string, now: number) {
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
  await postJournal(execFor(ctx, trx), {
    kind: 'commission_reversed',
    refType: 'commission',
    refId: c.id,
    promoterId: c.promoter_id,
    memo: { refundId, level: c.level },
    entries: [{ account: promoterAccount(c.promoter_id, bucket), amount: -reversal }, { account: EXPENSE, amount: reversal }],
    at: now,
  });
  await notifyCommission(ctx, trx, c, 'commission.reversed', reversal, null, now);
}

/** A commission's decision or reversal, told to its promoter. */
async function notifyCommission(ctx: AppContext, trx: Db, c: Pick<CommissionRow, 'id' | 'promoter_id' | 'campaign_id' | 'level' | 'kind'>, type: 'commission.approved' | 'commission.rejected' | 'commission.reversed', amount: number, reason: string | null, now: number) {
  await notify(execFor(ctx, trx), [{ userId: c.promoter_id, type, params: { commissionId: c.id, amount, level: c.level, kind: c.kind, campaignId: c.campaign_id, ...(reason ? { reason } : {}) } }], now);
}

export type Decision = 'approve' | 'reject';

/**
 * Approves (pending → available) or rejects (pending → back to the program) one commission.
 * Returns false when it was no longer pending — someone else decided first; nothing changes.
 */
export async function decideCommission(ctx: AppContext, id: string, decision: Decision, by: ActorArg | null, reason: string | null, now = Date.now()): Promise<boolean> {
  const actor = by === null ? null : asActor(by);
  const actorId = actor?.userId ?? null;
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
    const figures = new Rollups();
    figures.add(c.promoter_id, dayKey(Number(c.occurred_at), zoneOf(ctx)), c.campaign_id, commissionLink(c), { commission_pending: -remaining, [commissionColumn(decision === 'approve' ? 'approved' : 'rejected')]: remaining });
    await applyRollups(execFor(ctx, trx), figures);
    await trx.insertInto('commission_events').values({ id: newId(now), commission_id: id, status: decision === 'approve' ? 'approved' : 'rejected', amount: remaining, actor_id: actorId, reason, at: now }).execute();
    if (remaining > 0) {
      await postJournal(execFor(ctx, trx), {
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
    await notifyCommission(ctx, trx, c, decision === 'approve' ? 'commission.approved' : 'commission.rejected', remaining, reason, now);
    if (actor) await audit(trx, { actorId: actor.userId, action: `commission.${decision}`, entity: 'commission', entityId: id, before: { status: 'pending' }, after: { status: decision === 'approve' ? 'approved' : 'rejected', reason }, ip: actor.ip }, now);
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


