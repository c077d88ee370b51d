/**
 * The money engine's side of reward rules (issue 31): a campaign's rules as the engine reads them,
 * which campaigns are capped, and how a conversion was decided, step by step — stored on the
 * conversion (`explanation_json`) as facts with their values, never as text, so the console and
 * the promoter's app say it in the reader's language (docs/rewards.md).
 */
import type { RewardRule } from '@pa/shared';
import type { Attribution, AttributionCandidates } from '../../domain/commission';
import { DAY_MS } from '../../domain/commission';
import type { LineDecision } from '@pa/shared/reward-rules';
import type { CapCut } from '../../domain/rewards';
import { AppError } from '../../platform/errors';
import type { CampaignTerms } from './repository';
import { baseRules } from '../campaigns/rewards';

/** One step of an explanation: what was looked at, what came of it, and the values that say why (rendered by packages/shared texts/explain.ts). */
export type { ExplanationStep } from '@pa/shared/texts';
import type { ExplanationStep } from '@pa/shared/texts';

/** A sale's line as stored on its conversion: what the rules made of it and what refunds took back. */
export interface StoredLine {
  sku: string;
  category: string | null;
  quantity: number;
  amount: number;
  ruleId: string | null;
  /** The level-1 commission this line earned (after caps). */
  commission: number;
  /** How much of the line's amount refunds named so far, and how much of its commission they took back. */
  refunded: number;
  reversed: number;
}

const parsed = new WeakMap<object, RewardRule[]>();
/**
 * The campaign's rules (parsed once per campaign row read). None stored — a campaign row written
 * without them, as the column's default — means its reward fields as base rules: what the fields
 * say is what it earns. (An admin who puts an empty list sets the fields to 0 along with it.)
 */
export function rulesOf(campaign: CampaignTerms): RewardRule[] {
  let rules = parsed.get(campaign);
  if (!rules) {
    const stored = JSON.parse(campaign.rules_json) as RewardRule[];
    rules = stored.length > 0 ? stored : baseRules({ leadReward: Number(campaign.lead_reward), saleRewardType: campaign.sale_reward_type, saleReward: Number(campaign.sale_reward) });
    parsed.set(campaign, rules);
  }
  return rules;
}

export const isCapped = (campaign: CampaignTerms, rules: readonly RewardRule[]) => campaign.budget_per_month !== null || rules.some((r) => r.capPerPromoterPerMonth !== null);
export const capScope = (ruleId: string, promoterId: string) => `rule:${ruleId}:${promoterId}`;

/**
 * Thrown by a capped campaign's sale met inside a group commit: its caps must be counted under a
 * lock, so it runs again in a transaction of its own. A catalogue error, so the rest of the batch
 * goes on; never answered (the service catches it).
 */
export class OwnTransaction extends AppError {
  constructor() {
    super('INTERNAL');
  }
}

/** Who was credited, or why nobody was. */
export function explainAttribution(a: {
  found: Attribution | null;
  candidates: AttributionCandidates;
  offSchedule: string | null;
  occurredAt: number;
  windowDays: number;
  bound: { month: number; of: number | null; starts: boolean } | null;
  status: string;
  rejected: string | null;
}): ExplanationStep[] {
  if (a.offSchedule) return [{ step: 'schedule', outcome: a.offSchedule, detail: {} }];
  const days = (at: number) => Math.floor((a.occurredAt - at) / DAY_MS);
  const steps: ExplanationStep[] = [];
  if (a.found) {
    const { click, customer } = a.candidates;
    const detail: ExplanationStep['detail'] = { windowDays: a.windowDays };
    if (a.found.by === 'click' && click) detail.days = days(click.at);
    if (a.found.by === 'customer' && customer) detail.days = days(customer.at);
    const byBinding = a.bound !== null && !a.bound.starts;
    if (a.bound) Object.assign(detail, { month: a.bound.month, months: a.bound.of });
    steps.push({ step: 'attribution', outcome: byBinding ? 'binding' : a.found.by, detail });
  } else if (a.candidates.click) {
    steps.push({ step: 'attribution', outcome: 'click_outside_window', detail: { days: days(a.candidates.click.at), windowDays: a.windowDays } });
  } else if (a.candidates.customer) {
    steps.push({ step: 'attribution', outcome: 'customer_outside_window', detail: { days: days(a.candidates.customer.at), windowDays: a.windowDays } });
  } else {
    steps.push({ step: 'attribution', outcome: 'no_match', detail: {} });
  }
  if (a.rejected) steps.push({ step: 'eligibility', outcome: a.rejected, detail: {} });
  return steps;
}

/** What the rules, tiers, caps and override made of an attributed conversion. */
export function explainEarning(e: {
  decided: readonly LineDecision[];
  rules: readonly RewardRule[];
  groupId: string;
  tier: { bps: number; minSales: number; saleNumber: number } | null;
  cuts: readonly CapCut[];
  override: { amount: number; bps: number } | null;
  availableAt: number | null;
  holdDays: number;
}): ExplanationStep[] {
  const steps: ExplanationStep[] = [{ step: 'group', outcome: 'member', detail: { groupId: e.groupId } }];
  e.decided.forEach((d, index) => {
    const rule = d.ruleId ? e.rules.find((r) => r.id === d.ruleId) : undefined;
    steps.push({
      step: 'line',
      outcome: !d.ruleId ? 'no_rule' : d.paidBefore ? 'paid_before' : d.reward?.type === 'fixed' ? 'fixed' : 'percent',
      detail: {
        line: index + 1, sku: d.line.sku, quantity: d.line.quantity, amount: d.line.amount,
        ruleId: d.ruleId, rule: rule ? e.rules.indexOf(rule) + 1 : null, label: rule?.label ?? null,
        bps: d.bps, fixed: d.reward?.type === 'fixed' ? d.reward.amount : null, tier: d.tier, earned: d.earned, tried: d.missed.length,
      },
    });
  });
  if (e.tier && e.decided.some((d) => d.tier)) steps.push({ step: 'tier', outcome: 'applied', detail: { bps: e.tier.bps, minSales: e.tier.minSales, saleNumber: e.tier.saleNumber } });
  for (const cut of e.cuts) {
    const capRule = cut.cap === 'budget' ? undefined : e.rules.find((r) => r.id === (cut.cap as { ruleId: string }).ruleId);
    const named = capRule ? { ruleId: capRule.id, rule: e.rules.indexOf(capRule) + 1, label: capRule.label } : { ruleId: null, rule: null, label: null };
    steps.push({ step: 'cap', outcome: cut.cap === 'budget' ? 'budget' : 'rule', detail: { ...named, limit: cut.limit, used: cut.used, before: cut.before, after: cut.after } });
  }
  const total = e.decided.reduce((s, d) => s + d.amount, 0);
  if (e.override) steps.push({ step: 'override', outcome: 'paid', detail: { amount: e.override.amount, bps: e.override.bps } });
  steps.push({ step: 'total', outcome: total > 0 ? 'earned' : 'nothing', detail: { amount: total } });
  if (e.availableAt !== null) steps.push({ step: 'hold', outcome: 'until', detail: { availableAt: e.availableAt, holdDays: e.holdDays } });
  return steps;
}
