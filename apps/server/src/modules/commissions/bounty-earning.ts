/**
 * A bounty's reward (docs/bounties.md): a commission of kind `bounty`, pending through the
 * campaign's hold like any other, inserted under the unique key (bounty_id, promoter_id,
 * bounty_period) — the database refuses a second, whatever races — with its journal, figures,
 * notification and webhook events in the same transaction.
 *
 * Performance bounties are checked in the transaction that records an attributed lead or sale
 * (commissions/service.ts): a campaign with active performance bounties records its attributed
 * conversions each in a transaction of its own (as capped campaigns do), the promoter's progress
 * counted under a lock per bounty, promoter and period (a `reward_usage` row, FOR UPDATE on
 * PostgreSQL; SQLite has one writer), so the conversion that reaches the goal is the one that sees it.
 */
import type { BountyGoal } from '@pa/shared';
import type { AppContext } from '../../context';
import type { BatchTx, Tx } from '../../db/unit-of-work';
import type { CommissionsTable } from '../../db/types';
import { availableAt } from '../../domain/commission';
import { stepEffect } from '../../domain/commission-lifecycle';
import { promoterAccount } from '../../domain/ledger';
import { newId } from '../../platform/ids';
import { JOURNALS } from '../../platform/ledger';
import { NOTIFICATIONS } from '../../platform/notifications';
import { commissionLink, ROLLUPS } from '../../platform/rollups';
import { dayKey, dayStart } from '../../platform/time';
import { emitEvent } from '../../platform/webhooks/outbox';
import type { BountiesTable } from '../../db/types';
import type { Locale } from '@pa/shared';
import type { ExplanationStep } from '@pa/shared/texts';
import type { ReadOnlyDb } from '../../db/types';
import { pickLocalized } from '../../platform/localized';
import * as repo from './repository';
import { OwnTransaction } from './rewards';
import { toCommission } from './views';

type BountyRow = BountiesTable;
export { hasEarnedBounty } from './repository';

export const goalOf = (b: Pick<BountyRow, 'goal_json'>): BountyGoal | null => (b.goal_json ? (JSON.parse(b.goal_json) as BountyGoal) : null);
export const groupsOf = (b: Pick<BountyRow, 'group_ids_json'>): string[] => JSON.parse(b.group_ids_json) as string[];
/** Whether the bounty is for the promoter's group (no groups: every group). */
export const forGroup = (b: Pick<BountyRow, 'group_ids_json'>, groupId: string) => {
  const groups = groupsOf(b);
  return groups.length === 0 || groups.includes(groupId);
};
/** Whether the bounty is open at `at` (its dates; an archived one is closed). */
export const openAt = (b: Pick<BountyRow, 'status' | 'starts_at' | 'ends_at'>, at: number) =>
  b.status === 'active' && (b.starts_at === null || at >= Number(b.starts_at)) && (b.ends_at === null || at < Number(b.ends_at));

/** A submission bounty pays once per promoter. */
export const ONCE = 'once';
/** The period a conversion at `day` (YYYY-MM-DD, the installation's zone) counts in. */
export const periodOf = (goal: BountyGoal, day: string) => (goal.period === 'month' ? day.slice(0, 7) : 'campaign');

/** The instants [from, before) a period covers, within the bounty's dates (null: unbounded). */
export function periodRange(b: Pick<BountyRow, 'starts_at' | 'ends_at'>, period: string, zone: string): { from: number | null; before: number | null } {
  let from = b.starts_at === null ? null : Number(b.starts_at);
  let before = b.ends_at === null ? null : Number(b.ends_at);
  if (/^\d{4}-\d{2}$/.test(period)) {
    const [y, m] = period.split('-').map(Number) as [number, number];
    const start = dayStart(`${period}-01`, zone);
    const next = dayStart(m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`, zone);
    from = from === null ? start : Math.max(from, start);
    before = before === null ? next : Math.min(before, next);
  }
  return { from, before };
}

/** What the conversion adds to a goal of this metric (0: it does not count). */
function contribution(metric: BountyGoal['metric'], kind: 'lead' | 'sale', amount: number): number {
  if (metric === 'leads') return kind === 'lead' ? 1 : 0;
  if (kind !== 'sale') return 0;
  return metric === 'sales' ? 1 : amount;
}

const CACHE = Symbol('bounties');

/**
 * Called with every attributed lead or sale, before anything of it is collected: earns the
 * campaign's performance bounties it completes. Inside a batch, a conversion a bounty counts
 * throws OwnTransaction (run again alone, `own`).
 */
export async function checkPerformanceBounties(
  ctx: AppContext,
  tx: BatchTx,
  own: Tx | null,
  e: { campaign: { id: string; names_json: string; hold_days: number }; promoter: { id: string; group_id: string }; kind: 'lead' | 'sale'; amount: number; occurredAt: number; day: string; zone: string },
): Promise<void> {
  let cache = tx.shared.get(CACHE) as Map<string, BountyRow[]> | undefined;
  if (!cache) tx.shared.set(CACHE, (cache = new Map()));
  let bounties = cache.get(e.campaign.id);
  if (!bounties) cache.set(e.campaign.id, (bounties = await repo.activePerformanceBounties(tx.q, e.campaign.id)));
  const counted = bounties.filter((b) => {
    const goal = goalOf(b);
    return goal && contribution(goal.metric, e.kind, e.amount) > 0 && openAt(b, e.occurredAt) && forGroup(b, e.promoter.group_id);
  });
  // Those the promoter has not earned for this period yet (once earned, their later conversions
  // stay in the batch: nothing to count).
  const open: BountyRow[] = [];
  for (const b of counted) if (!(await repo.hasEarnedBounty(tx.q, b.id, e.promoter.id, periodOf(goalOf(b)!, e.day)))) open.push(b);
  if (open.length === 0) return;
  if (!own) throw new OwnTransaction();
  for (const b of open) {
    const goal = goalOf(b)!;
    const period = periodOf(goal, e.day);
    // Serializes the promoter's conversions counting towards this bounty and period: the count
    // below (a statement of its own, so on PostgreSQL it sees what the lock's holder committed)
    // includes every earlier one.
    await repo.lockUsage(own.q, own.dialect, e.campaign.id, period, [`bounty:${b.id}:${e.promoter.id}`]);
    const range = periodRange(b, period, e.zone);
    const before = await repo.bountyProgress(own.q, e.campaign.id, e.promoter.id, goal.metric, range.from, range.before);
    if (before + contribution(goal.metric, e.kind, e.amount) < goal.value) continue;
    await awardBounty(ctx, own, b, e.campaign, e.promoter.id, period, e.occurredAt, e.zone);
  }
}

/**
 * Writes a bounty's reward for the promoter and period unless it was earned already: the
 * commission (pending until the campaign's hold ends), its journal and figures, a notification,
 * and the `commission.created` and `bounty.earned` events. null when it was earned before.
 */
export async function awardBounty(
  ctx: AppContext,
  tx: Tx,
  b: BountyRow,
  campaign: { id: string; names_json: string; hold_days: number },
  promoterId: string,
  period: string,
  occurredAt: number,
  zone: string,
  submissionId: string | null = null,
): Promise<CommissionsTable | null> {
  const now = tx.now;
  const day = dayKey(occurredAt, zone);
  const amount = Number(b.reward);
  const row: CommissionsTable = {
    id: newId(now), conversion_id: null, campaign_id: campaign.id, promoter_id: promoterId, link_id: null, source_promoter_id: null, level: 1, kind: 'bounty', rule: 'bounty',
    base: amount, rate_bps: null, amount, reversed_amount: 0, status: 'pending', occurred_at: occurredAt, month: day.slice(0, 7),
    available_at: availableAt(occurredAt, campaign.hold_days), created_at: now, decided_at: null, decided_by: null, reason: null,
    binding_month: null, binding_months: null, assignment: 0, bounty_id: b.id, bounty_period: period,
  };
  if (!(await repo.insertBountyCommission(tx.q, row))) return null;
  const effect = stepEffect('create', null, amount);
  tx.collect(JOURNALS).post([{ kind: effect.journal, refType: 'commission', refId: row.id, promoterId, memo: { level: 1, kind: 'bounty', bountyId: b.id, period }, entries: effect.entries.map((x) => ({ account: x.side === 'program' ? 'platform:commissions' : promoterAccount(promoterId, x.side), amount: x.amount })), at: now }]);
  tx.collect(ROLLUPS).addFigures(promoterId, day, campaign.id, commissionLink(row), effect.figures);
  tx.collect(NOTIFICATIONS).notify([{ userId: promoterId, type: 'bounty.earned', params: { bountyId: b.id, commissionId: row.id, amount, campaignId: campaign.id, ...(submissionId ? { submissionId } : {}) } }], now);
  const commission = () => toCommission({ ...row, names_json: campaign.names_json, link_code: null }, 'en');
  await emitEvent(ctx.webhooks, tx, 'commission.created', commission);
  await emitEvent(ctx.webhooks, tx, 'bounty.earned', () => ({
    bounty: { id: b.id, campaignId: b.campaign_id, kind: b.kind, names: JSON.parse(b.names_json) as Record<string, string>, reward: amount, goal: goalOf(b) },
    promoterId, period, submissionId, commission: commission(),
  }));
  return row;
}

/** Why a bounty's reward was earned, as the explanation endpoints answer: the goal reached (or the proof approved), the amount, the hold. */
export async function bountySteps(q: ReadOnlyDb, c: { bounty_id: string | null; bounty_period: string | null; amount: number; available_at: number; occurred_at: number }, holdDays: number, locale: Locale): Promise<ExplanationStep[]> {
  const b = c.bounty_id ? await repo.bountyById(q, c.bounty_id) : undefined;
  if (!b) return [];
  const name = pickLocalized(b.names_json, locale);
  const goal = goalOf(b);
  const steps: ExplanationStep[] = [];
  if (goal && b.kind === 'performance') steps.push({ step: 'bounty', outcome: 'goal', detail: { name, metric: goal.metric, value: goal.value, period: c.bounty_period } });
  else steps.push({ step: 'bounty', outcome: 'approved', detail: { name, at: Number(c.occurred_at) } });
  steps.push({ step: 'total', outcome: 'earned', detail: { amount: Number(c.amount) } });
  steps.push({ step: 'hold', outcome: 'until', detail: { availableAt: Number(c.available_at), holdDays } });
  return steps;
}
