/**
 * Reward rules (issue 31, docs/rewards.md). Pure: no I/O, no clock.
 *
 * A campaign's rules are ordered; for a lead, and for each line of a sale, the first rule of that
 * event whose groups include the promoter's and whose conditions all hold decides. A percentage
 * reward is applied to the line's amount (rounded once per line, `applyRate`); a fixed reward is
 * paid once per conversion per rule, on the first line it matches (a fixed "per sale" reward stays
 * per sale when the shop starts sending lines). A campaign's base rules — no groups, no conditions
 * — are what its lead and sale reward fields say, and a reached volume tier replaces a base
 * percentage as it always has; rules with groups or conditions are explicit and tiers leave them alone.
 * Caps come after: a rule's cap per promoter per month, then the campaign's monthly budget (which
 * covers the level-2 override too), each cutting the commission to what is left.
 */
import type { Reward, RewardCondition, RewardEvent, RewardRule } from '@pa/shared';
import { applyRate } from '@pa/shared/rules';

export interface SaleLine {
  sku: string | null;
  category: string | null;
  quantity: number;
  amount: number;
}

/** What the rules may look at. */
export interface RewardFacts {
  event: RewardEvent;
  groupId: string;
  country: string | null;
  /** null: not known (no customer id and the shop did not say). */
  newCustomer: boolean | null;
  metadata: Readonly<Record<string, string>>;
  /** A sale's lines (one line of its whole amount when it named none); a lead: one line of its amount. */
  lines: readonly SaleLine[];
}

/** Why a rule did not decide a line: not the promoter's group, or its first condition that failed. */
export type RuleMiss = { ruleId: string; group: true } | { ruleId: string; condition: number };

export interface LineDecision {
  line: SaleLine;
  /** The deciding rule (null: none matched: the line earns nothing). */
  ruleId: string | null;
  reward: Reward | null;
  /** The rate applied (a tier's when one replaced the base rate); null for fixed rewards. */
  bps: number | null;
  /** A reached volume tier replaced the base rate. */
  tier: boolean;
  /** A fixed reward already paid on an earlier line of this conversion. */
  paidBefore: boolean;
  /** Before caps. */
  earned: number;
  /** After caps. */
  amount: number;
  /** The rules tried before the deciding one, and why each did not decide. */
  missed: RuleMiss[];
}

export const isBaseRule = (rule: Pick<RewardRule, 'groupIds' | 'conditions'>) => rule.groupIds.length === 0 && rule.conditions.length === 0;

/** A condition's field on this conversion and line (undefined: the conversion does not carry it). */
function actual(field: string, facts: RewardFacts, line: SaleLine): string | number | boolean | undefined {
  switch (field) {
    case 'sku':
      return line.sku ?? undefined;
    case 'category':
      return line.category ?? undefined;
    case 'country':
      return facts.country ?? undefined;
    case 'newCustomer':
      return facts.newCustomer ?? undefined;
    case 'amount':
      return line.amount;
    default:
      return field.startsWith('metadata.') ? facts.metadata[field.slice(9)] : undefined;
  }
}

/** Whether a condition holds. A field the conversion does not carry satisfies only `notIn`. */
export function conditionHolds(c: RewardCondition, facts: RewardFacts, line: SaleLine): boolean {
  const value = actual(c.field, facts, line);
  const text = (v: unknown) => (typeof v === 'string' ? v.toLowerCase() : v);
  switch (c.op) {
    case 'eq':
      return value !== undefined && text(value) === text(c.value);
    case 'in':
      return value !== undefined && (c.value as string[]).some((v) => text(v) === text(String(value)));
    case 'notIn':
      return value === undefined || !(c.value as string[]).some((v) => text(v) === text(String(value)));
    case 'gte':
      return typeof value === 'number' && value >= (c.value as number);
    case 'lte':
      return typeof value === 'number' && value <= (c.value as number);
  }
}

function miss(rule: RewardRule, facts: RewardFacts, line: SaleLine): RuleMiss | null {
  if (rule.groupIds.length > 0 && !rule.groupIds.includes(facts.groupId)) return { ruleId: rule.id, group: true };
  const failed = rule.conditions.findIndex((c) => !conditionHolds(c, facts, line));
  return failed >= 0 ? { ruleId: rule.id, condition: failed } : null;
}

/**
 * Each line's rule and reward before caps. `tierBps`: the rate of the volume tier this sale
 * reached, if any (replaces the rate of a base percentage rule).
 */
export function decideLines(rules: readonly RewardRule[], facts: RewardFacts, tierBps: number | null): LineDecision[] {
  const paid = new Set<string>();
  return facts.lines.map((line) => {
    const missed: RuleMiss[] = [];
    for (const rule of rules) {
      if (rule.event !== facts.event) continue;
      const m = miss(rule, facts, line);
      if (m) {
        missed.push(m);
        continue;
      }
      let bps: number | null = null;
      let tier = false;
      let earned: number;
      let paidBefore = false;
      if (rule.reward.type === 'percent') {
        tier = tierBps !== null && isBaseRule(rule);
        bps = tier ? tierBps! : rule.reward.bps;
        earned = applyRate(line.amount, bps);
      } else {
        paidBefore = paid.has(rule.id);
        earned = paidBefore ? 0 : rule.reward.amount;
        paid.add(rule.id);
      }
      return { line, ruleId: rule.id, reward: rule.reward, bps, tier, paidBefore, earned, amount: earned, missed };
    }
    return { line, ruleId: null, reward: null, bps: null, tier: false, paidBefore: false, earned: 0, amount: 0, missed };
  });
}

export interface CapCut {
  /** A rule's cap per promoter per month, or the campaign's monthly budget. */
  cap: { ruleId: string } | 'budget';
  limit: number;
  /** Used this month before this conversion. */
  used: number;
  /** What this conversion would have earned against it, and what it earns. */
  before: number;
  after: number;
}

/**
 * Cuts the lines to the caps, in place, and says what each cut. `ruleUsed(id)`: what the promoter
 * has earned by that rule this month so far; `budget`: the campaign's monthly budget and what its
 * commissions (overrides included) have used of it, or null; `overrideBps`: the level-2 override
 * this conversion will pay (0 when none), which the budget must cover as well.
 */
export function applyCaps(
  lines: LineDecision[],
  rules: readonly RewardRule[],
  ruleUsed: (ruleId: string) => number,
  budget: { limit: number; used: number } | null,
  overrideBps: number,
): CapCut[] {
  const cuts: CapCut[] = [];
  for (const rule of rules) {
    if (rule.capPerPromoterPerMonth === null) continue;
    const mine = lines.filter((l) => l.ruleId === rule.id && l.amount > 0);
    if (mine.length === 0) continue;
    const used = ruleUsed(rule.id);
    const before = mine.reduce((s, l) => s + l.amount, 0);
    const after = cutTo(mine, Math.max(rule.capPerPromoterPerMonth - used, 0));
    if (after < before) cuts.push({ cap: { ruleId: rule.id }, limit: rule.capPerPromoterPerMonth, used, before, after });
  }
  if (budget) {
    const before = lines.reduce((s, l) => s + l.amount, 0);
    const left = Math.max(budget.limit - budget.used, 0);
    // The largest level-1 total whose override still fits beside it (the override grows with it).
    const fits = (n: number) => n + applyRate(n, overrideBps) <= left;
    let target = before;
    if (!fits(before)) {
      let [lo, hi] = [0, before];
      while (lo < hi) {
        const mid = Math.ceil((lo + hi) / 2);
        if (fits(mid)) lo = mid;
        else hi = mid - 1;
      }
      target = lo;
    }
    const after = cutTo(lines.filter((l) => l.amount > 0), target);
    if (after < before) cuts.push({ cap: 'budget', limit: budget.limit, used: budget.used, before: before + applyRate(before, overrideBps), after: after + applyRate(after, overrideBps) });
  }
  return cuts;
}

/** Lowers the lines' amounts, last line first, until they sum to at most `total`; returns the sum. */
function cutTo(lines: LineDecision[], total: number): number {
  let sum = lines.reduce((s, l) => s + l.amount, 0);
  for (let i = lines.length - 1; i >= 0 && sum > total; i--) {
    const take = Math.min(lines[i]!.amount, sum - total);
    lines[i]!.amount -= take;
    sum -= take;
  }
  return sum;
}

/** The rule a campaign had before rules (its fields), for the commission row's `rule` column. */
export function legacyRuleName(d: Pick<LineDecision, 'reward' | 'tier'>, event: RewardEvent): string {
  if (event === 'lead') return 'lead_fixed';
  if (d.reward?.type === 'fixed') return 'sale_fixed';
  return d.tier ? 'sale_tier' : 'sale_rate';
}
