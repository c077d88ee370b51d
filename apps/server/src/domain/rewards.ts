/**
 * Reward caps (issue 31, docs/rewards.md). Pure: no I/O, no clock.
 *
 * Which rule decides each line and what it earns before caps is shared with the console's preview
 * (`@pa/shared/reward-rules`). Caps come after: a rule's cap per promoter per month, then the
 * campaign's monthly budget (which covers the level-2 override too), each cutting the commission
 * to what is left.
 */
import type { RewardEvent, RewardRule } from '@pa/shared';
import type { LineDecision } from '@pa/shared/reward-rules';
import { applyRate } from '@pa/shared/rules';

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
