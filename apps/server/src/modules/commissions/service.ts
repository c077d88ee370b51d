/**
 * The money engine's writes, through the unit of work (db/unit-of-work.ts) on both databases.
 *
 * - Leads and sales are batchable: each is decided in the group commit's transaction (reads through
 *   `tx.q`) and writes only through collectors — the conversion and commission rows (multi-row
 *   inserts), journals and balances, rollups and notifications, flushed once per batch. Deliveries of
 *   one batch see each other: a repeat, a known customer, a volume tier.
 * - Refunds run alone, serialized on their sale (locked `for update` on PostgreSQL; SQLite has one
 *   writer): every refund that fits is accepted, a repeated one answers with the stored result.
 * - Approving, rejecting and reversing follow the lifecycle table (domain/commission-lifecycle.ts),
 *   each a conditional update (`… WHERE status = from`), so two instances doing the same work at
 *   once change each commission exactly once.
 */
import type { ConversionCreateSchema, ConversionReason } from '@pa/shared';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import type { CustomerBindingsTable } from '../../db/types';
import { COLLECTOR_ORDER, type BatchTx, type Collector, type CollectorKind, type Preloader, type Tx } from '../../db/unit-of-work';
import { outsideSchedule, takesConversions } from '../../domain/campaign-state';
import { applyRate, attribute, availableAt, bindingMonth, isSelfReferral, reachedTier, refundReversal, type Attribution, type AttributionCandidates, type Binding } from '../../domain/commission';
import { stepEffect, type CommissionStatus, type EntrySide, type StepEffect } from '../../domain/commission-lifecycle';
import { asActor, audit, type ActorArg } from '../../platform/audit';
import { emailSha256 } from '../../platform/email-digest';
import { AppError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { emitEvent } from '../../platform/webhooks/outbox';
import { promoterAccount, type JournalInput } from '../../domain/ledger';
import { JOURNALS } from '../../platform/ledger';
import { NOTIFICATIONS } from '../../platform/notifications';
import { commissionLink, ROLLUPS } from '../../platform/rollups';
import { dayKey } from '../../platform/time';
import { zoneOf } from '../../platform/settings';
import { isUniqueViolation } from '../users/repository';
import * as repo from './repository';
import type { CampaignTerms, CommissionRow, ConversionRow, ReadAheadRequest, StoredConversion } from './repository';
import { toCommission, toConversion } from './views';
import { checkPerformanceBounties } from './bounty-earning';
import { applyCaps, legacyRuleName, type CapCut } from '../../domain/rewards';
import { decideLines, isBaseRule, type RewardFacts } from '@pa/shared/reward-rules';
import { capScope, explainAttribution, explainEarning, isCapped, OwnTransaction, rulesOf, type ExplanationStep, type StoredLine } from './rewards';

export { findConversion } from './repository';
type ConversionInput = z.output<typeof ConversionCreateSchema>;

const EXPENSE = 'platform:commissions';
/** The e-mail digest the merchant would send for this account (accounts are case-folded already). */
export const emailDigest = (account: string) => (account.includes('@') ? emailSha256(account) : null);

export interface RecordResult {
  created: boolean;
  conversionId: string;
  /** For a new lead or sale: what was written (so the answer needs no second read). */
  written?: { conversion: ConversionRow; commissions: CommissionRow[]; campaignNamesJson: string; linkCode: string | null; promoterName: string | null };
  /** For a repeat, when the batch's read-ahead brought it: the stored conversion as it is answered. */
  stored?: StoredConversion;
}

/** Records a lead, sale or refund exactly once per (campaign, kind, externalId); counted by kind and outcome (/metrics). */
export async function recordConversion(ctx: AppContext, apiKeyId: string | null, input: ConversionInput): Promise<RecordResult> {
  const counted = ctx.metrics.conversions[input.kind];
  try {
    const result = await recordOnce(ctx, apiKeyId, input);
    counted[result.created ? 'created' : 'repeat'].n++;
    return result;
  } catch (error) {
    counted[error instanceof AppError ? 'refused' : 'failed'].n++;
    throw error;
  }
}

async function recordOnce(ctx: AppContext, apiKeyId: string | null, input: ConversionInput): Promise<RecordResult> {
  try {
    if (input.kind === 'refund') return await ctx.uow.run((tx) => recordRefund(ctx, tx, apiKeyId, input));
    try {
      return await ctx.uow.run((tx) => recordEarning(ctx, tx, apiKeyId, input), { batchable: true, preload: { loader: READ_AHEAD, input } });
    } catch (error) {
      if (!(error instanceof OwnTransaction)) throw error;
      return await ctx.uow.run((tx) => recordEarning(ctx, tx, apiKeyId, input, tx));
    }
  } catch (error) {
    // The same delivery was committed meanwhile by another writer: answer with its result.
    if (isUniqueViolation(error)) {
      const winner = await repo.conversionIdByKey(ctx.db, input.campaignId, input.kind, input.externalId);
      if (winner) return { created: false, conversionId: winner };
    }
    throw error;
  }
}

/** How the group commit has gone in this process (for the benchmark's report). */
export function conversionBatchStats(ctx: AppContext) {
  return { ...ctx.uow.stats };
}

/** The conversion and commission rows of a unit of work, inserted first at its flush. */
class MoneyRows implements Collector {
  readonly conversions: ConversionRow[] = [];
  readonly commissions: CommissionRow[] = [];
  /** Customers bound to the promoter who brought them (recurring campaigns), each replacing the binding that started with `replaces` (null: none). */
  readonly bindings: { row: CustomerBindingsTable; replaces: string | null }[] = [];
  merge(other: MoneyRows) {
    this.conversions.push(...other.conversions);
    this.commissions.push(...other.commissions);
    this.bindings.push(...other.bindings);
  }
  async flush(q: Tx['q']) {
    await repo.insertConversions(q, this.conversions);
    await repo.insertCommissions(q, this.commissions);
    if (this.bindings.length > 0) await repo.upsertBindings(q, this.bindings);
  }
}
export const MONEY_ROWS: CollectorKind<MoneyRows> = { order: COLLECTOR_ORDER.moneyRows, create: () => new MoneyRows() };

/** What the deliveries of one transaction have decided so far (they are not in the tables until the flush). */
interface BatchState {
  campaigns: Map<string, CampaignTerms | null>;
  /** Read ahead (preload): keys looked up, and the stored conversions among them. */
  looked: Set<string>;
  stored: Map<string, string>;
  /** Read ahead (PostgreSQL): the stored conversions as a repeat is answered with. */
  answers: Map<string, StoredConversion>;
  /** Read ahead: campaign|code key → link (null: looked up, none). */
  links: Map<string, { id: string; promoter_id: string; status: string; code: string } | null>;
  /** Read ahead: campaign|promoter → the promoter as attribution needs them. */
  promoters: Map<string, Awaited<ReturnType<typeof repo.attributedPromoter>>>;
  /** campaign|kind|externalId → conversion id. */
  keys: Map<string, string>;
  /** campaign|customer → attributed leads and sales. */
  customers: Map<string, { promoterId: string; linkId: string | null; at: number; code: string | null }[]>;
  /** promoter|campaign|month → level-1 sales counting towards a tier. */
  tierSales: Map<string, number>;
  /** campaign|customer → the customer's binding (recurring campaigns; null: looked up, none). */
  bindings: Map<string, StoredBinding | null>;
}
type StoredBinding = Binding & { id: string; promoterId: string; linkId: string | null; code: string | null; conversionId: string };
const STATE = Symbol('commissions');
function stateOf(tx: BatchTx): BatchState {
  let state = tx.shared.get(STATE) as BatchState | undefined;
  if (!state) {
    state = { campaigns: new Map(), looked: new Set(), stored: new Map(), answers: new Map(), links: new Map(), promoters: new Map(), keys: new Map(), customers: new Map(), tierSales: new Map(), bindings: new Map() };
    tx.shared.set(STATE, state);
  }
  return state;
}

async function campaignOf(tx: BatchTx, state: BatchState, campaignId: string): Promise<CampaignTerms> {
  let campaign = state.campaigns.get(campaignId);
  if (campaign === undefined) {
    campaign = (await repo.campaignTerms(tx.q, campaignId)) ?? null;
    state.campaigns.set(campaignId, campaign);
  }
  if (!campaign) throw new AppError('NOT_FOUND', { campaignId: 'not_found' });
  return campaign;
}

function checkOccurredAt(input: ConversionInput, now: number): number {
  const occurredAt = input.occurredAt ?? now;
  if (occurredAt > now + 5 * 60_000) throw new AppError('VALIDATION_FAILED', { occurredAt: 'invalid' });
  return occurredAt;
}

/** The attribution candidates, and the codes of the links they name (for the answer). */
async function candidatesFor(tx: BatchTx, state: BatchState, input: ConversionInput, campaign: CampaignTerms, occurredAt: number): Promise<AttributionCandidates & { codes: Map<string, string> }> {
  const candidates: AttributionCandidates & { codes: Map<string, string> } = { codes: new Map() };
  if (input.couponCode) {
    const e = await repo.couponOwner(tx.q, campaign.id, input.couponCode.toUpperCase());
    if (e) candidates.coupon = { promoterId: e.promoter_id, linkId: e.link_id };
    if (e?.link_id && e.code) candidates.codes.set(e.link_id, e.code);
  }
  if (input.clickId) {
    const c = await repo.clickOf(tx.q, campaign.id, input.clickId);
    if (c?.code) candidates.codes.set(c.link_id, c.code);
    // Clicks that earned nothing (disabled link, paused campaign, suspended promoter) or came from bots do not attribute.
    if (c && c.attributed && !c.is_bot) candidates.click = { promoterId: c.promoter_id, linkId: c.link_id, at: Number(c.at) };
  }
  if (input.customerExternalId) {
    const stored = await repo.customerEarlier(tx.q, campaign.id, input.customerExternalId, occurredAt);
    let earlier = stored?.promoter_id ? { promoterId: stored.promoter_id, linkId: stored.link_id, at: Number(stored.occurred_at), code: stored.code } : null;
    // The same customer may have converted earlier in this very batch.
    for (const c of state.customers.get(`${campaign.id}|${input.customerExternalId}`) ?? []) {
      if (c.at <= occurredAt && (!earlier || c.at >= earlier.at)) earlier = c;
    }
    if (earlier) candidates.customer = { promoterId: earlier.promoterId, linkId: earlier.linkId, at: earlier.at };
    if (earlier?.linkId && earlier.code) candidates.codes.set(earlier.linkId, earlier.code);
  }
  if (input.linkCode) {
    const codeKey = input.linkCode.toLowerCase();
    const cached = state.links.get(`${campaign.id}|${codeKey}`);
    const l = cached !== undefined ? cached : await repo.linkByCode(tx.q, campaign.id, codeKey);
    if (l && l.status === 'active') candidates.link = { promoterId: l.promoter_id, linkId: l.id };
    if (l) candidates.codes.set(l.id, l.code);
  }
  return candidates;
}

/**
 * What the deliveries of a batch will read, read once for all of them: whether their keys are
 * stored, their campaigns, the links their codes name and those links' promoters.
 */
const READ_AHEAD: Preloader<ConversionInput> = {
  async load(q, inputs) {
    const keys = new Map<string, ReadAheadRequest['keys'][number]>();
    for (const i of inputs) keys.set(`${i.campaignId}|${i.kind}|${i.externalId}`, { campaignId: i.campaignId, kind: i.kind, externalId: i.externalId });
    const campaignIds = [...new Set(inputs.map((i) => i.campaignId))];
    const wanted = [...new Set(inputs.filter((i) => i.linkCode).map((i) => `${i.campaignId}|${i.linkCode!.toLowerCase()}`))];
    const codeKeys = [...new Set(wanted.map((w) => w.slice(w.indexOf('|') + 1)))];
    const found = await repo.readAhead(q, { keys: [...keys.values()], campaignIds, codeKeys });
    return (tx) => {
      const state = stateOf(tx);
      for (const key of keys.keys()) state.looked.add(key);
      for (const k of found.keys) {
        state.stored.set(`${k.campaign_id}|${k.kind}|${k.external_id}`, k.id);
        if (k.stored) state.answers.set(`${k.campaign_id}|${k.kind}|${k.external_id}`, k.stored);
      }
      const campaigns = new Map(found.campaigns.map((c) => [c.id, c]));
      for (const id of campaignIds) state.campaigns.set(id, campaigns.get(id) ?? null);
      for (const w of wanted) state.links.set(w, null);
      for (const l of found.links) {
        const k = `${l.campaign_id}|${l.code_key}`;
        if (!state.links.has(k)) continue;
        state.links.set(k, { id: l.id, promoter_id: l.promoter_id, status: l.status, code: l.code });
        if (l.promoter) state.promoters.set(`${l.campaign_id}|${l.promoter_id}`, l.promoter);
      }
    };
  },
};

/** The customer's binding in the campaign (this batch's first), or null. */
async function bindingFor(tx: BatchTx, state: BatchState, campaignId: string, customerExternalId: string, zone: string): Promise<StoredBinding | null> {
  const key = `${campaignId}|${customerExternalId}`;
  let binding = state.bindings.get(key);
  if (binding === undefined) {
    const row = await repo.bindingOf(tx.q, campaignId, customerExternalId);
    binding = row
      ? { id: row.id, promoterId: row.promoter_id, linkId: row.link_id, code: row.code, conversionId: row.conversion_id, startedAt: Number(row.started_at), startDay: dayKey(Number(row.started_at), zone), months: row.months, endedAt: row.ended_at === null ? null : Number(row.ended_at) }
      : null;
    state.bindings.set(key, binding);
  }
  return binding;
}

/** A lead or a sale: idempotency, the campaign's state, attribution, then the commissions — written through collectors. */
async function recordEarning(ctx: AppContext, tx: BatchTx, apiKeyId: string | null, input: ConversionInput, own: Tx | null = null): Promise<RecordResult> {
  const state = stateOf(tx);
  const key = `${input.campaignId}|${input.kind}|${input.externalId}`;
  const earlier = state.keys.get(key) ?? (state.looked.has(key) ? state.stored.get(key) : await repo.conversionIdByKey(tx.q, input.campaignId, input.kind, input.externalId));
  if (earlier) return { created: false, conversionId: earlier, stored: state.answers.get(key) };
  const campaign = await campaignOf(tx, state, input.campaignId);
  if (!takesConversions(campaign)) throw new AppError('CAMPAIGN_NOT_ACTIVE');
  const now = tx.now;
  const occurredAt = checkOccurredAt(input, now);
  // Outside the campaign's schedule nothing is attributed: stored for the operators with its reason.
  const offSchedule = outsideSchedule(campaign, occurredAt);
  const zone = zoneOf(ctx);
  const day = dayKey(occurredAt, zone);
  // A recurring campaign: a customer bound to a promoter earns them the rate while the binding
  // holds, whatever the window (docs/integrations.md).
  const recurring = campaign.binding_months !== 0 && !!input.customerExternalId && !offSchedule;
  const binding = recurring ? await bindingFor(tx, state, campaign.id, input.customerExternalId!, zone) : null;
  const month = binding ? bindingMonth(binding, occurredAt, day) : null;
  const candidates = offSchedule ? { codes: new Map<string, string>() } : await candidatesFor(tx, state, input, campaign, occurredAt);
  // New to the business: as the shop says, else whether this campaign has met the customer before.
  const newCustomer = input.newCustomer ?? (input.customerExternalId && !offSchedule ? !binding && !candidates.customer : null);
  // A customer a binding has held is never brought back by the known-customer window.
  if (binding) candidates.customer = null;
  let found: Attribution | null = null;
  /** Where the commissions stand in the binding; `starts`: this conversion binds the customer. */
  let bound: { month: number; of: number | null; starts: boolean } | null = null;
  if (binding && month !== null) {
    found = { promoterId: binding.promoterId, linkId: binding.linkId, by: 'customer' };
    if (binding.linkId && binding.code) candidates.codes.set(binding.linkId, binding.code);
    bound = { month, of: binding.months, starts: false };
  } else if (!offSchedule) {
    const window = campaign.attribution_window_days;
    if (binding && occurredAt >= binding.startedAt) {
      // The binding has run out or was ended: only a click made since brings the customer back —
      // not the coupon or link a subscription keeps sending, nor a click from before.
      const click = candidates.click;
      const fresh = !!click && click.at >= binding.startedAt && bindingMonth(binding, click.at, dayKey(click.at, zone)) === null;
      found = fresh ? attribute({ click }, occurredAt, window) : null;
      if (found) bound = { month: 1, of: campaign.binding_months, starts: true };
    } else {
      found = attribute(candidates, occurredAt, window);
      // Before a binding's start (a late report, an invoice paid just before its sign-up): its
      // own promoter's first month; another promoter's sale binds nobody.
      if (found && recurring) bound = !binding ? { month: 1, of: campaign.binding_months, starts: true } : found.promoterId === binding.promoterId ? { month: 1, of: binding.months, starts: false } : null;
    }
  }
  let status: ConversionRow['status'] = found ? 'attributed' : 'unattributed';
  let reason: ConversionReason | null = found ? null : (offSchedule ?? 'no_match');
  const known = found ? state.promoters.get(`${campaign.id}|${found.promoterId}`) : undefined;
  const promoter = found ? (known ?? (await repo.attributedPromoter(tx.q, campaign.id, found.promoterId))) : undefined;
  if (found) {
    if (!promoter || promoter.status !== 'active') [status, reason] = ['rejected', 'promoter_inactive'];
    else if (promoter.enrollment !== 'approved') [status, reason] = ['rejected', 'not_enrolled'];
    else if (input.customerEmailSha256 && isSelfReferral(input.customerEmailSha256, emailDigest(promoter.account))) [status, reason] = ['rejected', 'self_referral'];
  }
  const id = newId(now);
  const conversion: ConversionRow = {
    id, campaign_id: campaign.id, kind: input.kind, external_id: input.externalId, amount: input.amount ?? 0, refunded_amount: 0, refund_of: null,
    customer_external_id: input.customerExternalId ?? null, customer_email_sha256: input.customerEmailSha256 ?? null,
    click_id: input.clickId ?? null, coupon_code: input.couponCode ?? null, link_code: input.linkCode ?? null,
    promoter_id: found?.promoterId ?? null, link_id: found?.linkId ?? null, attributed_by: found?.by ?? null,
    status, reason, occurred_at: occurredAt, received_at: now, api_key_id: apiKeyId,
    items_json: null, country: input.country ?? null, metadata_json: input.metadata ? JSON.stringify(input.metadata) : null, new_customer: newCustomer === null ? null : newCustomer ? 1 : 0, explanation_json: null,
  };
  const linkCode = found?.linkId ? (candidates.codes.get(found.linkId) ?? null) : null;
  const written = { conversion, commissions: [] as CommissionRow[], campaignNamesJson: campaign.names_json, linkCode, promoterName: promoter?.display_name ?? null };
  const kind = input.kind as 'lead' | 'sale';
  const tierMonth = day.slice(0, 7);
  const tierKey = promoter ? `${promoter.id}|${campaign.id}|${tierMonth}` : '';
  const items = input.items?.map((i) => ({ sku: i.sku, category: i.category ?? null, quantity: i.quantity, amount: i.amount })) ?? null;
  let rows: CommissionRow[] = [];
  // The lines as sent, kept whatever came of them (refunds by line, and an assignment by staff, read them).
  let lines: StoredLine[] | null = items?.map((i) => ({ ...i, ruleId: null, commission: 0, refunded: 0, reversed: 0 })) ?? null;
  let steps: ExplanationStep[] = [];
  if (status === 'attributed' && found && promoter) {
    const earning = await earn(campaign, promoter, {
      conversionId: id, kind, amount: input.amount ?? 0, occurredAt, day, items, country: input.country ?? null, metadata: input.metadata ?? {}, newCustomer,
      linkId: found.linkId, bound, assignment: 0,
    }, { now, own, salesBefore: async () => (await repo.countTierSales(tx.q, promoter.id, campaign.id, tierMonth)) + (state.tierSales.get(tierKey) ?? 0) });
    ({ rows, steps } = earning);
    if (earning.lines) lines = earning.lines;
    if (earning.capped) reason = 'capped';
    // The campaign's performance bounties this lead or sale counts towards (docs/bounties.md):
    // decided here, before anything is collected (inside a batch it may ask for its own transaction).
    await checkPerformanceBounties(ctx, tx, own, { campaign, promoter, kind, amount: input.amount ?? 0, occurredAt, day, zone });
  }
  conversion.reason = reason;
  conversion.items_json = lines ? JSON.stringify(lines) : null;
  conversion.explanation_json = JSON.stringify([...explainAttribution({ found, candidates, offSchedule, occurredAt, windowDays: campaign.attribution_window_days, bound, status, rejected: status === 'rejected' ? reason : null }), ...steps]);

  await emitEvent(ctx.webhooks, tx, 'conversion.created', () => toConversion(conversion));
  for (const r of rows) {
    await emitEvent(ctx.webhooks, tx, 'commission.created', () => toCommission({ ...r, names_json: campaign.names_json, link_code: r.link_id ? linkCode : null, source_name: r.level === 2 ? (promoter?.display_name ?? null) : null }, 'en'));
  }

  // Decided; from here on only collecting (nothing below can fail the delivery).
  const money = tx.collect(MONEY_ROWS);
  money.conversions.push(conversion);
  if (status === 'attributed' && found && promoter) {
    tx.collect(ROLLUPS).addFigures(promoter.id, day, campaign.id, found.linkId, kind === 'lead' ? { leads: 1 } : { sales: 1, sale_amount: input.amount ?? 0 });
    if (input.customerExternalId) {
      const ckey = `${campaign.id}|${input.customerExternalId}`;
      state.customers.set(ckey, [...(state.customers.get(ckey) ?? []), { promoterId: found.promoterId, linkId: found.linkId, at: occurredAt, code: linkCode }]);
    }
    if (kind === 'sale' && rows.length > 0) state.tierSales.set(tierKey, (state.tierSales.get(tierKey) ?? 0) + 1);
    if (bound?.starts && input.customerExternalId) {
      const months = campaign.binding_months;
      const bindingId = newId(now);
      money.bindings.push({ row: { id: bindingId, campaign_id: campaign.id, customer_external_id: input.customerExternalId, promoter_id: found.promoterId, link_id: found.linkId, conversion_id: id, started_at: occurredAt, months, ended_at: null, created_at: now }, replaces: binding?.id ?? null });
      state.bindings.set(`${campaign.id}|${input.customerExternalId}`, { id: bindingId, promoterId: found.promoterId, linkId: found.linkId, code: linkCode, conversionId: id, startedAt: occurredAt, startDay: day, months, endedAt: null });
    }
  }
  if (rows.length > 0) {
    money.commissions.push(...rows);
    for (const r of rows) applyStep(tx, r, stepEffect('create', null, r.amount), r.amount, { memo: { level: r.level, kind: r.kind, conversionId: r.conversion_id }, at: now, day });
    written.commissions = rows;
  }
  state.keys.set(key, id);
  return { created: true, conversionId: id, written };
}

/** What a lead or sale is, as the rules read it (recorded, or assigned by staff). */
export interface EarningInput {
  conversionId: string;
  kind: 'lead' | 'sale';
  amount: number;
  occurredAt: number;
  /** occurredAt's day in the installation's zone (its month is the tiers' and caps' month). */
  day: string;
  /** A sale's lines as sent (null: it named none). */
  items: readonly { sku: string; category: string | null; quantity: number; amount: number }[] | null;
  country: string | null;
  metadata: Readonly<Record<string, string>>;
  newCustomer: boolean | null;
  /** The link credited (the level-1 commission's). */
  linkId: string | null;
  /** Where the commission stands in a customer binding. */
  bound: { month: number; of: number | null } | null;
  /** 0 when recorded; n for the conversion's n-th assignment by staff. */
  assignment: number;
}

/** The promoter as the rules need them: their group, and their inviter for the override. */
type Earner = Pick<NonNullable<Awaited<ReturnType<typeof repo.attributedPromoter>>>, 'id' | 'group_id' | 'parent_id' | 'inviter_status'>;

/**
 * What an attributed lead or sale earns, decided once for both paths that credit one — the
 * conversions API (recordEarning) and an assignment by staff (corrections.ts): the campaign's rules
 * per line, the volume tier, the caps (counted under a lock: only in a transaction of its own,
 * `own`; met inside a batch it throws OwnTransaction), the override; the level-1 and level-2
 * commission rows (pending, not yet written), the lines with their rules, and the explanation's steps.
 */
export async function earn(
  campaign: CampaignTerms,
  promoter: Earner,
  e: EarningInput,
  options: { now: number; own: Tx | null; salesBefore: () => Promise<number> },
): Promise<{ rows: CommissionRow[]; lines: StoredLine[] | null; steps: ExplanationStep[]; capped: boolean }> {
  const { now, own } = options;
  const month = e.day.slice(0, 7);
  const tiers = JSON.parse(campaign.tiers_json) as { minSales: number; bps: number }[];
  // Only volume tiers need this month's count of sales.
  const salesThisMonth = e.kind === 'sale' && tiers.length > 0 ? await options.salesBefore() : 0;
  const rules = rulesOf(campaign);
  const facts: RewardFacts = {
    event: e.kind, groupId: promoter.group_id, country: e.country, newCustomer: e.newCustomer, metadata: e.metadata,
    lines: e.items ?? [{ sku: null, category: null, quantity: 1, amount: e.amount }],
  };
  const tier = e.kind === 'sale' ? reachedTier(tiers, salesThisMonth + 1) : null;
  const decided = decideLines(rules, facts, tier?.bps ?? null);
  const overrideBps = promoter.parent_id && promoter.inviter_status === 'active' ? campaign.override_bps : 0;
  const usage: { scope: string; amount: number }[] = [];
  let cuts: CapCut[] = [];
  if (isCapped(campaign, rules)) {
    // Caps are counted under a lock: a capped campaign's sales each run in a transaction of their own.
    if (!own) throw new OwnTransaction();
    const capRules = rules.filter((r) => r.capPerPromoterPerMonth !== null && decided.some((d) => d.ruleId === r.id && d.amount > 0));
    const scopes = [...capRules.map((r) => capScope(r.id, promoter.id)), ...(campaign.budget_per_month !== null ? ['budget'] : [])];
    const used = await repo.lockUsage(own.q, own.dialect, campaign.id, month, scopes);
    const budget = campaign.budget_per_month === null ? null : { limit: Number(campaign.budget_per_month), used: used.get('budget') ?? 0 };
    cuts = applyCaps(decided, rules, (ruleId) => used.get(capScope(ruleId, promoter.id)) ?? 0, budget, overrideBps);
    for (const r of capRules) usage.push({ scope: capScope(r.id, promoter.id), amount: decided.filter((d) => d.ruleId === r.id).reduce((sum, d) => sum + d.amount, 0) });
  }
  const total = decided.reduce((sum, d) => sum + d.amount, 0);
  const override = overrideBps > 0 ? applyRate(total, overrideBps) : 0;
  if (campaign.budget_per_month !== null) usage.push({ scope: 'budget', amount: total + override });
  const rows: CommissionRow[] = [];
  if (total > 0) {
    const only = decided.length === 1 ? decided[0]! : null;
    const legacy = only?.ruleId && isBaseRule(rules.find((r) => r.id === only.ruleId)!);
    const rates = new Set(decided.filter((d) => d.amount > 0).map((d) => d.bps));
    const base = { conversion_id: e.conversionId, campaign_id: campaign.id, kind: e.kind, occurred_at: e.occurredAt, month, available_at: availableAt(e.occurredAt, campaign.hold_days), created_at: now, reversed_amount: 0, status: 'pending' as const, decided_at: null, decided_by: null, reason: null, binding_month: e.bound?.month ?? null, binding_months: e.bound ? e.bound.of : null, assignment: e.assignment, bounty_id: null, bounty_period: null };
    rows.push({ ...base, id: newId(now), promoter_id: promoter.id, link_id: e.linkId, source_promoter_id: null, level: 1, rule: legacy ? legacyRuleName(only!, e.kind) : 'rules', base: e.amount, rate_bps: rates.size === 1 ? [...rates][0]! : null, amount: total });
    // Level 2: the inviter earns the override while their account is active.
    if (promoter.parent_id && override > 0) {
      rows.push({ ...base, id: newId(now), promoter_id: promoter.parent_id, link_id: null, source_promoter_id: promoter.id, level: 2, rule: 'override', base: total, rate_bps: campaign.override_bps, amount: override });
    }
  }
  const lines = e.items ? decided.map((d) => ({ sku: d.line.sku!, category: d.line.category, quantity: d.line.quantity, amount: d.line.amount, ruleId: d.ruleId, commission: d.amount, refunded: 0, reversed: 0 })) : null;
  const steps = explainEarning({ decided, rules, groupId: promoter.group_id, tier: tier ? { bps: tier.bps, minSales: tier.minSales, saleNumber: salesThisMonth + 1 } : null, cuts, override: rows[1] ? { amount: override, bps: overrideBps } : null, availableAt: rows[0] ? rows[0].available_at : null, holdDays: campaign.hold_days });
  if (own) for (const u of usage) await repo.addUsage(own.q, campaign.id, month, u.scope, u.amount);
  return { rows, lines, steps, capped: cuts.length > 0 };
}

const accountOf = (promoterId: string, side: EntrySide) => (side === 'program' ? EXPENSE : promoterAccount(promoterId, side));

/**
 * Posts a lifecycle step's effects through the unit of work's collectors: its journal, its figures
 * on the commission's day, its notification. (The status change and the event row are the caller's
 * conditional update.)
 */
export function applyStep(tx: BatchTx, c: Pick<CommissionRow, 'id' | 'promoter_id' | 'campaign_id' | 'level' | 'kind' | 'link_id' | 'source_promoter_id' | 'occurred_at'>, effect: StepEffect, amount: number, options: { memo: JournalInput['memo']; at: number; day: string; reason?: string | null; clawback?: boolean }) {
  if (amount > 0) {
    tx.collect(JOURNALS).post([{ kind: effect.journal, refType: 'commission', refId: c.id, promoterId: c.promoter_id, memo: options.memo, entries: effect.entries.map((e) => ({ account: accountOf(c.promoter_id, e.side), amount: e.amount })), at: options.at }]);
  }
  tx.collect(ROLLUPS).addFigures(c.promoter_id, options.day, c.campaign_id, commissionLink(c), effect.figures);
  tx.collect(NOTIFICATIONS).notify([{ userId: c.promoter_id, type: effect.notification, params: { commissionId: c.id, amount, level: c.level, kind: c.kind, campaignId: c.campaign_id, ...(options.reason ? { reason: options.reason } : {}), ...(options.clawback ? { clawback: true } : {}) } }], options.at);
  return effect;
}

/** A refund, alone in its transaction and serialized on its sale. */
async function recordRefund(ctx: AppContext, tx: Tx, apiKeyId: string | null, input: ConversionInput): Promise<RecordResult> {
  const now = tx.now;
  const amount = input.amount ?? 0;
  // Lock the sale first: a concurrent refund of it waits here, then sees everything the first wrote.
  const sale = input.refundOf ? await repo.lockSale(tx.q, tx.dialect, input.campaignId, input.refundOf) : undefined;
  const earlier = await repo.conversionIdByKey(tx.q, input.campaignId, 'refund', input.externalId);
  if (earlier) return { created: false, conversionId: earlier };
  // Refunds are accepted whatever the campaign's state: money already earned must be taken back.
  await campaignOf(tx, stateOf(tx), input.campaignId);
  const occurredAt = checkOccurredAt(input, now);
  if (!Number.isSafeInteger(amount) || amount <= 0) throw new AppError('VALIDATION_FAILED', { amount: 'invalid' });
  if (!sale) throw new AppError('VALIDATION_FAILED', { refundOf: 'not_found' });
  const refundedBefore = Number(sale.refunded_amount);
  if (refundedBefore + amount > Number(sale.amount)) throw new AppError('VALIDATION_FAILED', { amount: 'too_large' });
  const byLine = input.items ? await refundedLines(tx, sale.id, input.items) : null;
  await repo.addRefunded(tx.q, sale.id, amount);
  const id = newId(now);
  await repo.insertConversion(tx.q, {
    id, campaign_id: input.campaignId, kind: 'refund', external_id: input.externalId, amount, refunded_amount: 0, refund_of: sale.id,
    customer_external_id: input.customerExternalId ?? sale.customer_external_id, customer_email_sha256: input.customerEmailSha256 ?? null,
    click_id: null, coupon_code: null, link_code: null, promoter_id: sale.promoter_id, link_id: sale.link_id, attributed_by: sale.attributed_by,
    status: sale.status, reason: sale.reason, occurred_at: occurredAt, received_at: now, api_key_id: apiKeyId,
    items_json: input.items ? JSON.stringify(input.items.map((i) => ({ sku: i.sku, amount: i.amount }))) : null, country: null, metadata_json: null, new_customer: null, explanation_json: null,
  });
  const zone = zoneOf(ctx);
  // The refund counts on the sale's day, against the sale's promoter and link.
  if (sale.status === 'attributed' && sale.promoter_id) tx.collect(ROLLUPS).addFigures(sale.promoter_id, dayKey(Number(sale.occurred_at), zone), sale.campaign_id, sale.link_id, { refund_amount: amount });
  const whole = refundedBefore + amount === Number(sale.amount);
  const commissions = await repo.reversibleCommissions(tx.q, sale.id);
  const first = commissions.find((c) => c.level === 1);
  // By line: the level-1 commission gives back what the named lines earned; the override follows it.
  const firstAfter = byLine && first ? Math.min(Number(first.reversed_amount) + byLine.reversal, Number(first.amount)) : 0;
  if (byLine) await repo.setLines(tx.q, sale.id, JSON.stringify(byLine.lines));
  for (const c of commissions) {
    const remaining = Number(c.amount) - Number(c.reversed_amount);
    let reversal: number;
    if (!byLine) reversal = refundReversal({ commissionAmount: Number(c.amount), saleAmount: Number(sale.amount), refundedBefore, refundAmount: amount, reversedBefore: Number(c.reversed_amount) }).reversal;
    else if (whole) reversal = remaining;
    else if (c.level === 1) reversal = firstAfter - Number(c.reversed_amount);
    else reversal = first ? Math.min(Math.max(Number((BigInt(c.amount) * BigInt(firstAfter)) / BigInt(first.amount)) - Number(c.reversed_amount), 0), remaining) : 0;
    if (reversal > 0) await reverseCommission(ctx, tx, c, reversal, id, zone);
  }
  return { created: true, conversionId: id };
}

/**
 * A refund that names lines: each must be a line of the sale with that much left to refund. Each
 * line's commission is taken back in proportion to what is refunded of it, cumulatively (as
 * `refundReversal` does for the whole sale), all of it once the line is refunded in full.
 */
async function refundedLines(tx: Tx, saleId: string, items: NonNullable<ConversionInput['items']>): Promise<{ lines: StoredLine[]; reversal: number }> {
  const stored = await repo.conversionExtras(tx.q, saleId);
  if (!stored?.items_json) throw new AppError('VALIDATION_FAILED', { items: 'not_allowed' });
  const lines = JSON.parse(stored.items_json) as StoredLine[];
  let reversal = 0;
  for (const item of items) {
    const line = lines.find((l) => l.sku === item.sku);
    if (!line) throw new AppError('VALIDATION_FAILED', { items: 'not_found' });
    if (line.refunded + item.amount > line.amount) throw new AppError('VALIDATION_FAILED', { items: 'too_large' });
    line.refunded += item.amount;
    const reversedAfter = line.refunded === line.amount ? line.commission : Number((BigInt(line.commission) * BigInt(line.refunded)) / BigInt(line.amount));
    reversal += reversedAfter - line.reversed;
    line.reversed = reversedAfter;
  }
  return { lines, reversal };
}

/** Takes back part or all of a commission: from pending during the hold, from available after it. */
async function reverseCommission(ctx: AppContext, tx: Tx, c: CommissionRow, reversal: number, refundId: string, zone: string) {
  const now = tx.now;
  const reversedAfter = Number(c.reversed_amount) + reversal;
  const full = reversedAfter === Number(c.amount);
  const from = c.status as CommissionStatus;
  const effect = stepEffect('reverse', from, reversal, { full });
  const changed = await repo.updateCommissionIf(tx.q, c.id, { status: c.status, reversedAmount: Number(c.reversed_amount) }, { reversed_amount: reversedAfter, ...(full ? { status: effect.to, decided_at: now } : {}) });
  if (!changed) throw new Error(`commission ${c.id} changed during its reversal`);
  await repo.insertCommissionEvent(tx.q, { id: newId(now), commission_id: c.id, status: effect.event!, amount: reversal, actor_id: null, reason: 'refund', at: now });
  applyStep(tx, c, effect, reversal, { memo: { refundId, level: c.level }, at: now, day: dayKey(Number(c.occurred_at), zone) });
  await emitEvent(ctx.webhooks, tx, 'commission.reversed', () => commissionData(tx, c.id));
}

/** A commission as the API shows it (after this transaction's change to it), for a webhook event. */
export async function commissionData(tx: Tx, id: string) {
  const view = await repo.commissionView(tx.q, id);
  return view ? toCommission(view, 'en') : null;
}

type Decision = 'approve' | 'reject';

/**
 * Approves (pending → available) or rejects (pending → back to the program) one commission.
 * Returns false when it was no longer pending — someone else decided first; nothing changes.
 */
export async function decideCommission(ctx: AppContext, id: string, decision: Decision, by: ActorArg | null, reason: string | null, now = Date.now()): Promise<boolean> {
  const actor = by === null ? null : asActor(by);
  const actorId = actor?.userId ?? null;
  return ctx.uow.run(async (tx) => {
    const c = await repo.commissionById(tx.q, id);
    if (!c) throw new AppError('NOT_FOUND');
    if (c.status !== 'pending') return false;
    const remaining = Number(c.amount) - Number(c.reversed_amount);
    const effect = stepEffect(decision, 'pending', remaining);
    if (!(await repo.updateCommissionIf(tx.q, id, { status: 'pending' }, { status: effect.to, decided_at: now, decided_by: actorId, reason }))) return false;
    await repo.insertCommissionEvent(tx.q, { id: newId(now), commission_id: id, status: effect.event!, amount: remaining, actor_id: actorId, reason, at: now });
    applyStep(tx, c, effect, remaining, { memo: { level: c.level, ...(reason ? { reason } : {}) }, at: now, day: dayKey(Number(c.occurred_at), zoneOf(ctx)), reason });
    await emitEvent(ctx.webhooks, tx, decision === 'approve' ? 'commission.approved' : 'commission.rejected', () => commissionData(tx, id));
    if (actor) await audit(tx.q, { actorId: actor.userId, action: `commission.${decision}`, entity: 'commission', entityId: id, before: { status: 'pending' }, after: { status: effect.to, reason }, ip: actor.ip }, now);
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
    const due = await repo.dueCommissionIds(ctx.db, now, batch);
    for (const id of due) if (await decideCommission(ctx, id, 'approve', null, null, now)) approved++;
    if (due.length < batch) return approved;
  }
}

/** Ends a customer's binding in a campaign at `at` (their subscription ended): from then on only a new click brings them back. */
export async function endCustomerBinding(ctx: AppContext, campaignId: string, customerExternalId: string, at: number): Promise<boolean> {
  return repo.endBinding(ctx.db, campaignId, customerExternalId, at);
}

/**
 * A refund told as the payment's running total refunded (Stripe's `amount_refunded`): records what
 * is new, the sale locked first, so two reports of one charge arriving together take back the total
 * once. null: nothing new to refund (or no such sale).
 */
export async function recordRefundToTotal(
  ctx: AppContext,
  input: { campaignId: string; refundOf: string; externalId: string; refundedTotal: number; occurredAt: number },
  /** Written in the refund's own transaction when one is made (the caller's record of what came of it). */
  alsoWrite?: (q: Tx['q'], result: RecordResult) => Promise<void>,
): Promise<RecordResult | null> {
  // Counted as the conversions API's refunds are (/metrics); nothing left to refund is a repeat.
  const counted = ctx.metrics.conversions.refund;
  try {
    const result = await refundToTotalOnce(ctx, input, alsoWrite);
    counted[result?.created ? 'created' : 'repeat'].n++;
    return result;
  } catch (error) {
    counted[error instanceof AppError ? 'refused' : 'failed'].n++;
    throw error;
  }
}

async function refundToTotalOnce(
  ctx: AppContext,
  input: { campaignId: string; refundOf: string; externalId: string; refundedTotal: number; occurredAt: number },
  alsoWrite?: (q: Tx['q'], result: RecordResult) => Promise<void>,
): Promise<RecordResult | null> {
  const earlier = await repo.conversionIdByKey(ctx.db, input.campaignId, 'refund', input.externalId);
  if (earlier) return { created: false, conversionId: earlier };
  try {
    return await ctx.uow.run(async (tx) => {
      const sale = await repo.lockSale(tx.q, tx.dialect, input.campaignId, input.refundOf);
      if (!sale) return null;
      const amount = Math.min(input.refundedTotal, Number(sale.amount)) - Number(sale.refunded_amount);
      if (amount <= 0) return null;
      const result = await recordRefund(ctx, tx, null, { campaignId: input.campaignId, kind: 'refund', externalId: input.externalId, refundOf: input.refundOf, amount, occurredAt: input.occurredAt });
      if (result.created && alsoWrite) await alsoWrite(tx.q, result);
      return result;
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      const winner = await repo.conversionIdByKey(ctx.db, input.campaignId, 'refund', input.externalId);
      if (winner) return { created: false, conversionId: winner };
    }
    throw error;
  }
}
