/**
 * The commission rules of the money engine (docs/money.md). Pure: no I/O, no clock.
 *
 * Money is always an integer count of minor units (a safe integer); rates are basis points
 * (1 bp = 0.01 %, 10_000 bp = 100 %). Only integer maths: BigInt wherever a product may pass 2^53.
 */

import { applyRate, BPS_SCALE } from '@pa/shared/rules';

// The one rounding rule lives in packages/shared (the withdrawal fee uses it too).
export { applyRate, BPS_SCALE };
export const DAY_MS = 86_400_000;

function assertCount(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${name} must be a non-negative safe integer, got ${value}`);
}

/** A monthly volume tier: from the `minSales`-th sale of the calendar month on, pay `bps`. */
type Tier = { minSales: number; bps: number };

type SaleRateTerms = { saleRewardType: 'bps' | 'fixed'; saleReward: number; tiers: readonly Tier[] };

/**
 * The tier reached by the sale numbered `saleNumber` this month: the highest `minSales` ≤ saleNumber
 * (tiers may come in any order; among tiers with equal `minSales` the highest `bps` wins).
 */
export function reachedTier(tiers: readonly Tier[], saleNumber: number): Tier | null {
  let best: Tier | null = null;
  for (const tier of tiers) {
    if (tier.minSales > saleNumber) continue;
    if (!best || tier.minSales > best.minSales || (tier.minSales === best.minSales && tier.bps > best.bps)) best = tier;
  }
  return best;
}

/**
 * The rate (bps) of a sale in a percentage campaign; null for fixed-reward campaigns (their tiers
 * are ignored). `salesThisMonth` counts the promoter's earlier approved-or-pending (not rejected or
 * reversed) sales of this campaign in the same calendar month, so this sale is number
 * `salesThisMonth + 1`; the rate is the tier with the highest `minSales` ≤ that number — even when
 * it is below the base — else the base `saleReward`.
 */
export function saleRateBps(terms: SaleRateTerms, salesThisMonth: number): number | null {
  assertCount('salesThisMonth', salesThisMonth);
  if (terms.saleRewardType !== 'bps') return null;
  return reachedTier(terms.tiers, salesThisMonth + 1)?.bps ?? terms.saleReward;
}

export type CommissionTerms = SaleRateTerms & { leadReward: number };
export type Conversion = { kind: 'lead' | 'sale'; amount: number };
type CommissionRule = 'lead_fixed' | 'sale_fixed' | 'sale_rate' | 'sale_tier';
type Level1Commission = { base: number; rateBps: number | null; amount: number; rule: CommissionRule };

/**
 * The direct (level-1) promoter's commission for one conversion, or null when nothing is earned
 * (amount 0 → no commission row).
 * - lead: the fixed `leadReward`; base is the lead's amount (0 when it has none), rate null.
 * - sale, fixed campaign: the fixed `saleReward` per sale, whatever the amount; rate null.
 * - sale, percentage campaign: `applyRate(amount, saleRateBps(...))`; rule 'sale_tier' when the
 *   rate came from a reached tier, 'sale_rate' when it is the base rate.
 */
export function level1Commission(terms: CommissionTerms, conversion: Conversion, salesThisMonth: number): Level1Commission | null {
  assertCount('amount', conversion.amount);
  assertCount('salesThisMonth', salesThisMonth);
  const base = conversion.amount;
  let result: Level1Commission;
  if (conversion.kind === 'lead') {
    result = { base, rateBps: null, amount: terms.leadReward, rule: 'lead_fixed' };
  } else if (terms.saleRewardType === 'fixed') {
    result = { base, rateBps: null, amount: terms.saleReward, rule: 'sale_fixed' };
  } else {
    const tier = reachedTier(terms.tiers, salesThisMonth + 1);
    const rateBps = tier?.bps ?? terms.saleReward;
    result = { base, rateBps, amount: applyRate(base, rateBps), rule: tier ? 'sale_tier' : 'sale_rate' };
  }
  assertCount('commission', result.amount);
  return result.amount === 0 ? null : result;
}

/** The level-2 inviter's override: `applyRate(level1Amount, overrideBps)` (0 when either is 0). */
export function overrideCommission(level1Amount: number, overrideBps: number): number {
  return applyRate(level1Amount, overrideBps);
}

export type RefundInput = {
  /** The commission being reversed (level 1 or override), in minor units. */
  commissionAmount: number;
  /** The sale's amount, in minor units. */
  saleAmount: number;
  /** Sum of the sale's earlier refunds. */
  refundedBefore: number;
  /** This refund (> 0). */
  refundAmount: number;
  /** Sum of this commission's earlier reversals. */
  reversedBefore: number;
};
type RefundResult = { reversal: number; refundedAfter: number };

/**
 * How much of a commission a (partial) refund reverses.
 *
 * The rounding is cumulative, not per refund: the total reversed after this refund is
 * `floor(commissionAmount × refundedAfter / saleAmount)` (exact, BigInt), and this reversal is that
 * total minus what was already reversed. Rounding each refund on its own would drift: three refunds
 * of a third each would reverse 3 × floor(c / 3), up to 2 minor units short of c, and that remainder
 * would never be taken back. Cumulatively, any set of partial refunds summing to the sale reverses
 * exactly the whole commission, and the total never decreases nor exceeds the commission.
 * A refund reaching the full sale amount reverses exactly all that remains
 * (`commissionAmount − reversedBefore`), whatever earlier reversals were.
 * The reversal is clamped to 0..(commissionAmount − reversedBefore).
 *
 * Throws a RangeError (the API reports it as VALIDATION_FAILED) when `refundAmount` ≤ 0, when
 * `refundedBefore + refundAmount` > `saleAmount` (over-refund), when `reversedBefore` >
 * `commissionAmount`, or when an input is not a non-negative safe integer.
 */
export function refundReversal(input: RefundInput): RefundResult {
  const { commissionAmount, saleAmount, refundedBefore, refundAmount, reversedBefore } = input;
  assertCount('commissionAmount', commissionAmount);
  assertCount('saleAmount', saleAmount);
  assertCount('refundedBefore', refundedBefore);
  assertCount('reversedBefore', reversedBefore);
  if (!Number.isSafeInteger(refundAmount) || refundAmount <= 0) throw new RangeError(`refundAmount must be a positive safe integer, got ${refundAmount}`);
  const refundedAfter = refundedBefore + refundAmount;
  if (refundedAfter > saleAmount) throw new RangeError(`refunds (${refundedAfter}) exceed the sale amount (${saleAmount})`);
  if (reversedBefore > commissionAmount) throw new RangeError(`reversedBefore (${reversedBefore}) exceeds the commission (${commissionAmount})`);
  const remaining = commissionAmount - reversedBefore;
  if (refundedAfter === saleAmount) return { reversal: remaining, refundedAfter };
  // saleAmount > refundedAfter ≥ 1 here, so the division is safe and the quotient < commissionAmount.
  const totalAfter = Number((BigInt(commissionAmount) * BigInt(refundedAfter)) / BigInt(saleAmount));
  return { reversal: Math.min(Math.max(totalAfter - reversedBefore, 0), remaining), refundedAfter };
}

/**
 * What the refunds already recorded of a sale take back of commissions made for it afterwards (a
 * conversion assigned by staff after some refunds): exactly what those refunds would have taken
 * had the commissions been there, by the rules `recordRefund` follows —
 * - the sale refunded in full: everything;
 * - refunds that named lines: each line gives back its commission in proportion to what was
 *   refunded of it (all of it once refunded in full), and the override follows the level-1 total
 *   in proportion;
 * - otherwise pro rata over the whole sale, each commission on its own (`refundReversal`).
 * Later refunds then go on from these amounts as usual. `lines[i]`: what refunds naming line i
 * took back of its commission (as the line's `reversed` is kept).
 */
export function reversedByEarlierRefunds(input: {
  saleAmount: number;
  refunded: number;
  level1: number;
  level2: number;
  /** The sale's lines, each with what refunds named of it and its (new) level-1 commission. */
  lines: readonly { amount: number; refunded: number; commission: number }[] | null;
}): { level1: number; level2: number; lines: number[] } {
  const { saleAmount, refunded, level1, level2 } = input;
  for (const [name, v] of Object.entries({ saleAmount, refunded, level1, level2 })) assertCount(name, v);
  if (refunded > saleAmount) throw new RangeError(`refunds (${refunded}) exceed the sale amount (${saleAmount})`);
  const share = (amount: number, part: number, whole: number) => (part >= whole ? amount : Number((BigInt(amount) * BigInt(part)) / BigInt(whole)));
  const lines = (input.lines ?? []).map((l) => (l.refunded > 0 ? share(l.commission, l.refunded, l.amount) : 0));
  if (refunded === 0) return { level1: 0, level2: 0, lines: lines.map(() => 0) };
  if (refunded === saleAmount) return { level1, level2, lines };
  if (input.lines?.some((l) => l.refunded > 0)) {
    const first = Math.min(lines.reduce((sum, v) => sum + v, 0), level1);
    return { level1: first, level2: level1 === 0 ? 0 : Math.min(share(level2, first, level1), level2), lines };
  }
  const proRata = (amount: number) => refundReversal({ commissionAmount: amount, saleAmount, refundedBefore: 0, refundAmount: refunded, reversedBefore: 0 }).reversal;
  return { level1: proRata(level1), level2: proRata(level2), lines };
}

/** When a commission's hold ends and it becomes available: occurredAt + holdDays × 24 h (ms). */
export function availableAt(occurredAt: number, holdDays: number): number {
  assertCount('holdDays', holdDays);
  return occurredAt + holdDays * DAY_MS;
}

/** True when the click happened at or before `occurredAt` and no more than `windowDays` × 24 h earlier. */
export function withinWindow(clickAt: number, occurredAt: number, windowDays: number): boolean {
  return clickAt <= occurredAt && occurredAt - clickAt <= windowDays * DAY_MS;
}

export type AttributionCandidates = {
  /** The promoter owning the coupon code the conversion carried. */
  coupon?: { promoterId: string; linkId: string | null } | null;
  /** The click named by the conversion's click id. */
  click?: { promoterId: string; linkId: string; at: number } | null;
  /** The earlier attributed conversion of the same customerExternalId (`at` = when it occurred). */
  customer?: { promoterId: string; linkId: string | null; at: number } | null;
  /** The link named by the conversion's link code. */
  link?: { promoterId: string; linkId: string } | null;
};
export type Attribution = { promoterId: string; linkId: string | null; by: 'coupon' | 'click' | 'customer' | 'link' };

/**
 * Who gets the conversion. Priority, first match wins: coupon code > click id (only within the
 * attribution window) > known customer (only within the window) > link code; null when none applies.
 */
export function attribute(candidates: AttributionCandidates, occurredAt: number, windowDays: number): Attribution | null {
  const { coupon, click, customer, link } = candidates;
  if (coupon) return { promoterId: coupon.promoterId, linkId: coupon.linkId, by: 'coupon' };
  if (click && withinWindow(click.at, occurredAt, windowDays)) return { promoterId: click.promoterId, linkId: click.linkId, by: 'click' };
  if (customer && withinWindow(customer.at, occurredAt, windowDays)) return { promoterId: customer.promoterId, linkId: customer.linkId, by: 'customer' };
  if (link) return { promoterId: link.promoterId, linkId: link.linkId, by: 'link' };
  return null;
}

/** True when both SHA-256 hex digests are present (non-empty) and equal, ignoring case. */
export function isSelfReferral(customerEmailSha256: string | null | undefined, promoterEmailSha256: string | null | undefined): boolean {
  if (!customerEmailSha256 || !promoterEmailSha256) return false;
  return customerEmailSha256.toLowerCase() === promoterEmailSha256.toLowerCase();
}

/**
 * Whole months from `startDay` to `day` (both `YYYY-MM-DD` in the installation's time zone): a
 * month is complete on the same day of the month, or on the last day of a shorter month (a
 * subscription started on 31 January renews on 28 February: its second month). Negative before the start.
 */
export function monthsBetween(startDay: string, day: string): number {
  const [y1, m1, d1] = startDay.split('-').map(Number) as [number, number, number];
  const [y2, m2, d2] = day.split('-').map(Number) as [number, number, number];
  const lastOfMonth = new Date(Date.UTC(y2, m2, 0)).getUTCDate();
  const months = (y2 - y1) * 12 + (m2 - m1);
  return d2 >= d1 || d2 === lastOfMonth ? months : months - 1;
}

/** A customer's binding to the promoter who brought them, as attribution reads it. */
export interface Binding {
  startedAt: number;
  startDay: string;
  /** null: for the customer's lifetime. */
  months: number | null;
  endedAt: number | null;
}

/**
 * Where a conversion on `day` (at `occurredAt`) stands in the binding: its month, from 1, while the
 * binding holds — from its start, before it was ended, within its months — and null otherwise.
 */
export function bindingMonth(binding: Binding, occurredAt: number, day: string): number | null {
  if (occurredAt < binding.startedAt || (binding.endedAt !== null && occurredAt >= binding.endedAt)) return null;
  const month = monthsBetween(binding.startDay, day);
  if (month < 0 || (binding.months !== null && month >= binding.months)) return null;
  return month + 1;
}
