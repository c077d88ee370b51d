/**
 * A campaign's reward rules (issue 31, docs/rewards.md): `GET/PUT api/admin/campaigns/:id/rewards`.
 * The campaign's reward fields (`leadReward`, `saleRewardType`, `saleReward`) are its two base rules,
 * `lead` and `sale` (no groups, no conditions): editing the fields edits those rules and putting the
 * rules sets the fields, so the editor's fields and the rules never disagree. Changing the rules
 * changes nothing already earned: a commission keeps the amount it was made with.
 */
import { randomBytes } from 'node:crypto';
import { RewardsPutSchema, type RewardRule, type Rewards } from '@pa/shared';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import type { Db } from '../../db/types';
import { isBaseRule } from '@pa/shared/reward-rules';
import { asActor, audit, type ActorArg } from '../../platform/audit';
import { AppError } from '../../platform/errors';
import { existingGroupIds, findCampaignRewards, updateCampaignRewards } from './repository';

type RewardFields = { leadReward: number; saleRewardType: 'bps' | 'fixed'; saleReward: number };
const BASE = { groupIds: [], conditions: [], label: null, capPerPromoterPerMonth: null };

/** The base rules of a campaign's reward fields. */
export function baseRules(f: RewardFields): RewardRule[] {
  return [
    { id: 'lead', event: 'lead', ...BASE, reward: { type: 'fixed', amount: f.leadReward } },
    { id: 'sale', event: 'sale', ...BASE, reward: f.saleRewardType === 'bps' ? { type: 'percent', bps: f.saleReward } : { type: 'fixed', amount: f.saleReward } },
  ];
}

/** The rules with the base rules set to the fields (a missing base rule is added last). */
export function withFields(rules: RewardRule[], f: RewardFields): RewardRule[] {
  const next = rules.map((r) => ({ ...r }));
  for (const base of baseRules(f)) {
    const i = next.findIndex((r) => r.id === base.id);
    if (i >= 0) next[i] = { ...next[i]!, reward: base.reward };
    else next.push(base);
  }
  return next;
}

/** The fields the base rules say (0 where a base rule is missing or cannot be said as a field). */
export function fieldsOf(rules: RewardRule[]): RewardFields {
  const lead = rules.find((r) => r.id === 'lead' && isBaseRule(r));
  const sale = rules.find((r) => r.id === 'sale' && isBaseRule(r));
  return {
    leadReward: lead?.reward.type === 'fixed' ? lead.reward.amount : 0,
    saleRewardType: sale?.reward.type === 'fixed' ? 'fixed' : 'bps',
    saleReward: sale ? (sale.reward.type === 'fixed' ? sale.reward.amount : sale.reward.bps) : 0,
  };
}

export const fieldColumns = (f: RewardFields) => ({ lead_reward: f.leadReward, sale_reward_type: f.saleRewardType, sale_reward: f.saleReward });

export async function campaignRewards(ctx: AppContext, id: string): Promise<Rewards> {
  const row = await findCampaignRewards(ctx.db, id);
  if (!row) throw new AppError('NOT_FOUND');
  return { rules: JSON.parse(row.rules_json) as RewardRule[], budgetPerMonth: row.budget_per_month === null ? null : Number(row.budget_per_month) };
}

async function checkGroups(q: Db, rules: RewardRule[]) {
  const named = [...new Set(rules.flatMap((r) => r.groupIds))];
  if (named.length === 0) return;
  const known = await existingGroupIds(q, named);
  const i = rules.findIndex((r) => r.groupIds.some((g) => !known.has(g)));
  if (i >= 0) throw new AppError('VALIDATION_FAILED', { [`rules.${i}.groupIds`]: 'not_found' });
}

/** Replaces the campaign's rules (and budget) in one transaction; audited with before and after. */
export async function putCampaignRewards(ctx: AppContext, by: ActorArg, id: string, body: z.output<typeof RewardsPutSchema>): Promise<Rewards> {
  const actor = asActor(by);
  const seen = new Set<string>();
  const rules: RewardRule[] = body.rules.map((r, i) => {
    const ruleId = r.id ?? `r${randomBytes(6).toString('hex')}`;
    if (seen.has(ruleId)) throw new AppError('VALIDATION_FAILED', { [`rules.${i}.id`]: 'taken' });
    seen.add(ruleId);
    if ((ruleId === 'lead' || ruleId === 'sale') && (r.event !== ruleId || r.groupIds.length > 0 || r.conditions.length > 0)) throw new AppError('VALIDATION_FAILED', { [`rules.${i}.id`]: 'reserved' });
    return { id: ruleId, event: r.event, groupIds: [...new Set(r.groupIds)], conditions: r.conditions, reward: r.reward, label: r.label ?? null, capPerPromoterPerMonth: r.capPerPromoterPerMonth ?? null };
  });
  await ctx.uow.run(async ({ q }) => {
    const row = await findCampaignRewards(q, id);
    if (!row) throw new AppError('NOT_FOUND');
    if (row.status === 'ended') throw new AppError('INVALID_STATE_TRANSITION');
    await checkGroups(q, rules);
    const budget = body.budgetPerMonth === undefined ? (row.budget_per_month === null ? null : Number(row.budget_per_month)) : body.budgetPerMonth;
    await updateCampaignRewards(q, id, { rules_json: JSON.stringify(rules), budget_per_month: budget, ...fieldColumns(fieldsOf(rules)), updated_at: Date.now() });
    await audit(q, { actorId: actor.userId, action: 'campaign.rewards', entity: 'campaign', entityId: id, before: { rules: JSON.parse(row.rules_json) as unknown, budgetPerMonth: row.budget_per_month }, after: { rules, budgetPerMonth: budget }, ip: actor.ip });
  });
  return campaignRewards(ctx, id);
}
