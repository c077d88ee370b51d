/**
 * Reward rules (issue 31, docs/rewards.md): which rule decides a lead or each line of a sale, and
 * what it earns before caps. Pure: no I/O, no clock, no zod. The server's engine
 * (apps/server/src/modules/commissions/service.ts) and the console's preview of the rules editor
 * run this one implementation, so the preview says what a sale would really earn.
 *
 * A campaign's rules are ordered; for a lead, and for each line of a sale, the first rule of that
 * event whose groups include the promoter's and whose conditions all hold decides. A percentage
 * reward is applied to the line's amount (rounded once per line, `applyRate`); a fixed reward is
 * paid once per conversion per rule, on the first line it matches (a fixed "per sale" reward stays
 * per sale when the shop starts sending lines). A campaign's base rules — no groups, no conditions
 * — are what its lead and sale reward fields say, and a reached volume tier replaces a base
 * percentage as it always has; rules with groups or conditions are explicit and tiers leave them alone.
 */
import { applyRate } from './rules';
import type { Reward, RewardCondition, RewardEvent, RewardRule } from './rewards';

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
