/**
 * Fraud rules, holds and the risk queue (issue 32; docs/fraud.md): what each rule decides, the
 * cases it opens and staff's decisions on them.
 *
 * - Settings: a rule without a stored row has its default (FRAUD_RULE_DEFAULTS); read once per
 *   transaction (a batch of conversions reads them once).
 * - Findings are collected (`RISK_CASES`) and written at the caller's flush, inside the caller's
 *   transaction: a conversion recorded in a group commit (whose `tx.q` only reads) and a
 *   registration alike. One statement opens the case or adds to the open one, so concurrent
 *   findings end in one case per promoter and rule (repository `openOrAddCase`).
 * - Holds: a held commission stays pending past its hold date (the scheduler's auto-approval skips
 *   commissions with a `risk_holds` row) until staff decide its case (decisions.ts).
 *
 * The commissions service calls this module (the sale's hook), so it imports nothing of that
 * service: what it needs of it is handed in.
 */
import { createHmac } from 'node:crypto';
import * as mailcheckerModule from 'mailchecker';
import {
  FRAUD_RULE_DEFAULTS, FRAUD_RULE_PARAMS, FRAUD_RULES, type FraudAction, type FraudRule, type FraudRuleParams, type FraudRulePatch, type FraudRuleSetting, type RiskCase,
  type RiskEvidence, type RiskQuery,
} from '@pa/shared';
import type { AppContext } from '../../context';
import { COLLECTOR_ORDER, type Collector, type CollectorKind, type TxOf } from '../../db/unit-of-work';
import type { Db, ReadOnlyDb } from '../../db/types';
import { stepEffect, type StepEffect } from '../../domain/commission-lifecycle';
import type { JournalInput } from '../../domain/ledger';
import { audit, type Actor } from '../../platform/audit';
import { AppError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { zoneOf } from '../../platform/settings';
import { dayKey } from '../../platform/time';
import { emitEvent } from '../../platform/webhooks/outbox';
import * as commissionsRepo from '../commissions/repository';
import type { CommissionRow, ConversionRow } from '../commissions/repository';
import { toCommission } from '../commissions/views';
import * as repo from './repository';

type Setting<R extends FraudRule = FraudRule> = { action: FraudAction; params: FraudRuleParams[R] };
type Settings = { [R in FraudRule]: Setting<R> };

/** A stored row as a setting: parameters that no longer pass the rule's schema fall back to the default's. */
function settingsOf(rows: { rule: string; action: FraudAction; params_json: string }[]): Settings {
  const settings = { ...FRAUD_RULE_DEFAULTS } as Settings;
  for (const r of rows) {
    if (!(FRAUD_RULES as readonly string[]).includes(r.rule)) continue;
    const rule = r.rule as FraudRule;
    const parsed = FRAUD_RULE_PARAMS[rule].safeParse(JSON.parse(r.params_json));
    (settings as Record<FraudRule, Setting>)[rule] = { action: r.action, params: parsed.success ? parsed.data : FRAUD_RULE_DEFAULTS[rule].params };
  }
  return settings;
}

const SETTINGS = Symbol('fraud settings');
/** The rules' settings as this transaction (a whole batch) sees them, read once. */
async function settingsIn(tx: TxOf<ReadOnlyDb>): Promise<Settings> {
  let pending = tx.shared.get(SETTINGS) as Promise<Settings> | undefined;
  if (!pending) {
    pending = repo.ruleRows(tx.q).then(settingsOf);
    tx.shared.set(SETTINGS, pending);
  }
  return pending;
}

// ——— Settings (admin) ———

const toSetting = (rule: FraudRule, s: Setting): FraudRuleSetting => ({ rule, action: s.action, params: s.params as Record<string, unknown> });

export async function fraudRules(ctx: AppContext): Promise<FraudRuleSetting[]> {
  const settings = settingsOf(await repo.ruleRows(ctx.db));
  return FRAUD_RULES.map((rule) => toSetting(rule, settings[rule]));
}

/** Sets one rule's action (and parameters, checked by the rule's schema); audited `fraud.rule` with before and after. */
export async function setFraudRule(ctx: AppContext, actor: Actor, patch: FraudRulePatch): Promise<FraudRuleSetting> {
  return ctx.uow.run(async (tx) => {
    const now = tx.now;
    const before = settingsOf(await repo.ruleRows(tx.q))[patch.rule];
    let params: Setting['params'] = before.params;
    if (patch.params !== undefined) {
      const parsed = FRAUD_RULE_PARAMS[patch.rule].safeParse(patch.params);
      if (!parsed.success) throw new AppError('VALIDATION_FAILED', { params: 'invalid' });
      params = parsed.data;
    }
    const after: Setting = { action: patch.action, params };
    await repo.saveRule(tx.q, { rule: patch.rule, action: after.action, params_json: JSON.stringify(after.params), updated_at: now, updated_by: actor.userId });
    await audit(tx.q, { actorId: actor.userId, action: 'fraud.rule', entity: 'fraud_rule', entityId: patch.rule, before: { action: before.action, params: before.params }, after: { action: after.action, params: after.params }, ip: actor.ip }, now);
    return toSetting(patch.rule, after);
  });
}

// ——— Findings: cases opened or added to inside the caller's transaction ———

export interface Finding {
  promoterId: string;
  rule: FraudRule;
  evidence: RiskEvidence;
  /** Minor units the finding adds to the case's money at stake. */
  atStake: number;
  /** Commissions the case holds from now on (written in this transaction). */
  hold?: string[];
}

/** Findings of a transaction (or a batch), written at its flush after the rows they name. */
class RiskCases implements Collector {
  readonly findings: Finding[] = [];
  /** Commissions rejected by a rule as they were recorded: their timeline's event. */
  readonly events: { id: string; commission_id: string; status: string; amount: number; actor_id: null; reason: string; at: number }[] = [];
  merge(other: RiskCases) {
    this.findings.push(...other.findings);
    this.events.push(...other.events);
  }
  async flush(q: Db, tx: { now: number }) {
    // One order for every transaction (promoter, rule): two batches touching the same cases queue instead of deadlocking.
    const sorted = [...this.findings].sort((a, b) => (a.promoterId + a.rule < b.promoterId + b.rule ? -1 : a.promoterId + a.rule > b.promoterId + b.rule ? 1 : 0));
    for (const f of sorted) {
      const caseId = await repo.openOrAddCase(q, { id: newId(tx.now), promoterId: f.promoterId, rule: f.rule, atStake: f.atStake, now: tx.now });
      await repo.insertEvidence(q, [{ id: newId(tx.now), case_id: caseId, data_json: JSON.stringify(f.evidence), at: f.evidence.at }]);
      if (f.hold?.length) await repo.insertHolds(q, f.hold.map((id) => ({ commission_id: id, case_id: caseId, created_at: tx.now })));
    }
    for (const e of this.events) await commissionsRepo.insertCommissionEvent(q, e);
  }
}
export const RISK_CASES: CollectorKind<RiskCases> = { order: COLLECTOR_ORDER.riskCases, create: () => new RiskCases() };

/**
 * Opens the promoter's case for the rule, or adds this evidence (and money at stake, and holds) to
 * the open one — inside the caller's transaction, batchable or not: written at its flush.
 */
export function recordFinding(tx: TxOf<ReadOnlyDb>, finding: Finding): void {
  tx.collect(RISK_CASES).findings.push(finding);
}

// ——— At registration: disposable_email, registration_burst ———

// mailchecker is CommonJS: its functions are the default export under Node, named ones under bundlers.
const mailchecker = ((mailcheckerModule as { default?: typeof mailcheckerModule }).default ?? mailcheckerModule);
const DISPOSABLE = mailchecker.blacklist();

/** The throwaway-address domain of an e-mail account (its own or a parent domain listed by mailchecker), else null. */
export function disposableDomain(account: string): string | null {
  const at = account.lastIndexOf('@');
  if (at < 0) return null;
  let domain = account.slice(at + 1).toLowerCase();
  for (;;) {
    if (DISPOSABLE.has(domain)) return domain;
    const dot = domain.indexOf('.');
    if (dot < 0) return null;
    domain = domain.slice(dot + 1);
  }
}

const DAY_MS = 86_400_000;

/** The keyed hash an address is known by (never stored raw): the same on every instance, useless without the master key. */
const addressKey = (ctx: AppContext, ip: string) => createHmac('sha256', ctx.master.derive('fraud-address-v1')).update(ip).digest('base64url');

/**
 * A registration, inside its transaction (the user row written, not committed):
 *
 * - `disposable_email`: `reject` refuses it (VALIDATION_FAILED, `fields.account: disposable`);
 *   `flag` and `hold` open a case with the domain as evidence (no commission exists yet to hold).
 * - `registration_burst`: the address's keyed hash is kept a day (whatever the setting, so turning
 *   the rule on counts the day already); more than `perDay` registrations from it in 24 hours:
 *   `reject` refuses it (RATE_LIMITED, Retry-After until the oldest leaves the day), `flag` and
 *   `hold` open a case for the new promoter naming the others.
 *
 * A refusal throws: the transaction rolls back and nothing is stored. `off` does nothing.
 */
export async function screenRegistration(ctx: AppContext, tx: TxOf<Db>, registration: { userId: string; account: string; ip: string | null }): Promise<void> {
  const settings = await settingsIn(tx);
  const domain = disposableDomain(registration.account);
  if (domain && settings.disposable_email.action !== 'off') {
    if (settings.disposable_email.action === 'reject') throw new AppError('VALIDATION_FAILED', { account: 'disposable' });
    recordFinding(tx, { promoterId: registration.userId, rule: 'disposable_email', atStake: 0, evidence: { kind: 'email_domain', domain, at: tx.now } });
  }
  if (!registration.ip) return;
  const key = addressKey(ctx, registration.ip);
  const recent = await repo.markRegistration(tx.q, { address_key: key, user_id: registration.userId, at: tx.now }, tx.now - DAY_MS);
  const { action, params } = settings.registration_burst;
  if (action === 'off' || recent.length <= params.perDay) return;
  if (action === 'reject') {
    // Allowed again once enough of the day's registrations from the address are older than a day.
    const freesAt = Number(recent[recent.length - 1 - params.perDay]!.at) + DAY_MS;
    throw new AppError('RATE_LIMITED', undefined, { 'Retry-After': String(Math.max(1, Math.ceil((freesAt - tx.now) / 1000))) });
  }
  const others = recent.filter((r) => r.user_id !== registration.userId).slice(-20).map((r) => r.user_id);
  recordFinding(tx, { promoterId: registration.userId, rule: 'registration_burst', atStake: 0, evidence: { kind: 'registration_burst', addressKey: key.slice(0, 12), count: recent.length, perDay: params.perDay, others, at: tx.now } });
}

// ——— duplicate_payout_account: a payout account added ———

/**
 * A payout account just written (inside its transaction) whose number (its keyed digest) another
 * promoter's account has too: `reject` refuses it (VALIDATION_FAILED, `fields.accountNumber: taken`
 * — rolled back, nothing stored); `flag` and `hold` open or add to a case for the promoter adding it
 * and one for each promoter already holding it, each naming the others; `off` does nothing.
 */
export async function screenPayoutAccount(tx: TxOf<Db>, promoterId: string, account: { digest: string; method: string; shown: string }): Promise<void> {
  const { action } = (await settingsIn(tx)).duplicate_payout_account;
  if (action === 'off') return;
  const others = await repo.promotersWithPayoutDigest(tx.q, account.digest, promoterId);
  if (others.length === 0) return;
  if (action === 'reject') throw new AppError('VALIDATION_FAILED', { accountNumber: 'taken' });
  const evidence = (sharedWith: string[]): RiskEvidence => ({ kind: 'payout_account', method: account.method, shown: account.shown, sharedWith, at: tx.now });
  recordFinding(tx, { promoterId, rule: 'duplicate_payout_account', atStake: 0, evidence: evidence(others) });
  for (const other of others) recordFinding(tx, { promoterId: other, rule: 'duplicate_payout_account', atStake: 0, evidence: evidence([promoterId]) });
}

// ——— large_sale: in the conversion path ———

/**
 * The commissions service's `applyStep` (a lifecycle step's journal, figures and notification),
 * handed in by its caller: this module sits below the commissions service, which calls it.
 */
export type ApplyStep = (tx: TxOf<ReadOnlyDb>, c: CommissionRow, effect: StepEffect, amount: number, options: { memo: JournalInput['memo']; at: number; day: string; reason?: string | null }) => unknown;

/** The reason a commission rejected by a rule carries (docs/fraud.md). */
export const ruleReason = (rule: FraudRule) => `fraud:${rule}`;

/**
 * A sale just decided (its conversion and commission rows collected, not yet written), from the
 * conversions path in its transaction: above large_sale's amount, `flag` opens or adds to the
 * promoter's case; `hold` also holds its commissions; `reject` rejects them at once with the rule as
 * their reason (created and rejected in the same transaction: the ledger shows both steps).
 */
export async function screenSale(ctx: AppContext, tx: TxOf<ReadOnlyDb>, sale: { conversion: ConversionRow; commissions: CommissionRow[]; campaignNamesJson: string; linkCode: string | null; promoterName: string | null }, applyStep: ApplyStep): Promise<void> {
  const { conversion, commissions } = sale;
  if (conversion.kind !== 'sale' || commissions.length === 0 || !conversion.promoter_id) return;
  const { action, params } = (await settingsIn(tx)).large_sale;
  if (action === 'off' || conversion.amount <= params.amount) return;
  const now = tx.now;
  const total = commissions.reduce((sum, c) => sum + c.amount, 0);
  recordFinding(tx, {
    promoterId: conversion.promoter_id, rule: 'large_sale', atStake: total,
    evidence: { kind: 'sale', conversionId: conversion.id, externalId: conversion.external_id, amount: conversion.amount, threshold: params.amount, commissionIds: commissions.map((c) => c.id), commission: total, action, at: now },
    ...(action === 'hold' ? { hold: commissions.map((c) => c.id) } : {}),
  });
  if (action !== 'reject') return;
  const reason = ruleReason('large_sale');
  const day = dayKey(conversion.occurred_at, zoneOf(ctx));
  const collected = tx.collect(RISK_CASES);
  for (const c of commissions) {
    // Still to be written: the row goes in as rejected, after the creation's journal the caller posted.
    Object.assign(c, { status: 'rejected', decided_at: now, decided_by: null, reason });
    const effect = stepEffect('reject', 'pending', c.amount);
    collected.events.push({ id: newId(now), commission_id: c.id, status: effect.event!, amount: c.amount, actor_id: null, reason, at: now });
    applyStep(tx, c, effect, c.amount, { memo: { level: c.level, reason }, at: now, day, reason });
    await emitEvent(ctx.webhooks, tx, 'commission.rejected', () => toCommission({ ...c, names_json: sale.campaignNamesJson, link_code: c.link_id ? sale.linkCode : null, source_name: c.level === 2 ? sale.promoterName : null }, 'en'));
  }
}

// ——— The queue (staff's decisions: decisions.ts) ———

function toCase(r: repo.CaseRow, evidence: { data_json: string }[]): RiskCase {
  return {
    id: r.id, promoterId: r.promoter_id, promoterName: r.display_name, rule: r.rule as FraudRule, status: r.status,
    evidence: evidence.map((e) => JSON.parse(e.data_json) as RiskEvidence),
    atStake: Number(r.at_stake), openedAt: Number(r.opened_at), decidedAt: r.decided_at === null ? null : Number(r.decided_at),
  };
}

export async function riskCases(ctx: AppContext, query: RiskQuery & { limit: number }) {
  const { rows, nextCursor } = await repo.casesPage(ctx.db, query, { limit: query.limit, cursor: query.cursor });
  const evidence = await repo.evidenceOf(ctx.db, rows.map((r) => r.id));
  return { items: rows.map((r) => toCase(r, evidence.get(r.id) ?? [])), nextCursor };
}

export async function riskCase(ctx: AppContext, id: string): Promise<RiskCase> {
  const row = await repo.caseView(ctx.db, id);
  if (!row) throw new AppError('NOT_FOUND');
  return toCase(row, (await repo.evidenceOf(ctx.db, [id])).get(id) ?? []);
}
