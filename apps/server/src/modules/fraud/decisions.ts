/**
 * Staff's decisions on risk cases (issue 32; docs/fraud.md): dismissed, the held commissions
 * continue their normal path (approved at once if their hold date has passed); rejected, they are
 * rejected with the rule as their reason. A decision is one conditional update of the case
 * (`… WHERE status = 'open'`) in the transaction that moves the money, so concurrent decisions
 * settle once: the others are INVALID_STATE_TRANSITION and change nothing.
 */
import type { FraudRule, RiskCase } from '@pa/shared';
import type { AppContext } from '../../context';
import type { TxOf } from '../../db/unit-of-work';
import type { Db } from '../../db/types';
import { stepEffect } from '../../domain/commission-lifecycle';
import { audit, type Actor } from '../../platform/audit';
import { AppError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { zoneOf } from '../../platform/settings';
import { dayKey } from '../../platform/time';
import { emitEvent } from '../../platform/webhooks/outbox';
import * as commissionsRepo from '../commissions/repository';
import { applyStep, commissionData, decideCommission } from '../commissions/service';
import * as repo from './repository';
import { riskCase, ruleReason } from './service';

/** Moves an open case to its decision, once: a case already decided is INVALID_STATE_TRANSITION. */
async function decide(tx: TxOf<Db>, actor: Actor, id: string, to: 'dismissed' | 'rejected') {
  const stored = await repo.caseStatus(tx.q, id);
  if (!stored) throw new AppError('NOT_FOUND');
  if (!(await repo.decideCase(tx.q, id, to, actor.userId, tx.now))) throw new AppError('INVALID_STATE_TRANSITION');
  return stored;
}

/**
 * Dismisses a case: its holds are released and the commissions continue on their normal path — the
 * scheduler approves them at their own hold date; those whose date has passed (on campaigns that
 * approve by themselves) are approved right after the commit (the scheduler would within a minute).
 */
export async function dismissCase(ctx: AppContext, actor: Actor, id: string, note: string | null): Promise<RiskCase> {
  const due = await ctx.uow.run(async (tx) => {
    const stored = await decide(tx, actor, id, 'dismissed');
    const held = await repo.heldCommissions(tx.q, tx.dialect, id);
    await repo.releaseHolds(tx.q, id);
    await audit(tx.q, { actorId: actor.userId, action: 'risk.dismiss', entity: 'risk_case', entityId: id, before: { status: 'open', rule: stored.rule, promoterId: stored.promoter_id }, after: { status: 'dismissed', released: held.map((c) => c.id), note }, ip: actor.ip }, tx.now);
    const out: string[] = [];
    for (const c of held) if (c.status === 'pending' && Number(c.available_at) <= tx.now && (await repo.autoApproves(tx.q, c.campaign_id))) out.push(c.id);
    return out;
  });
  for (const commissionId of due) await decideCommission(ctx, commissionId, 'approve', null, null);
  return riskCase(ctx, id);
}

/**
 * Rejects a case: each held commission still pending is rejected with the rule as its reason (what
 * refunds took back of it stays taken), in the case's transaction — a second decision finds the case
 * decided and changes nothing.
 */
export async function rejectCase(ctx: AppContext, actor: Actor, id: string, note: string | null): Promise<RiskCase> {
  await ctx.uow.run(async (tx) => {
    const stored = await decide(tx, actor, id, 'rejected');
    const reason = ruleReason(stored.rule as FraudRule);
    const held = await repo.heldCommissions(tx.q, tx.dialect, id);
    const rejected: string[] = [];
    const zone = zoneOf(ctx);
    for (const c of held) {
      if (c.status !== 'pending') continue;
      const remaining = Number(c.amount) - Number(c.reversed_amount);
      const effect = stepEffect('reject', 'pending', remaining);
      if (!(await commissionsRepo.updateCommissionIf(tx.q, c.id, { status: 'pending' }, { status: effect.to, decided_at: tx.now, decided_by: actor.userId, reason }))) continue;
      await commissionsRepo.insertCommissionEvent(tx.q, { id: newId(tx.now), commission_id: c.id, status: effect.event!, amount: remaining, actor_id: actor.userId, reason, at: tx.now });
      applyStep(tx, c, effect, remaining, { memo: { level: c.level, reason }, at: tx.now, day: dayKey(Number(c.occurred_at), zone), reason });
      await emitEvent(ctx.webhooks, tx, 'commission.rejected', () => commissionData(tx, c.id));
      rejected.push(c.id);
    }
    await repo.releaseHolds(tx.q, id);
    await audit(tx.q, { actorId: actor.userId, action: 'risk.reject', entity: 'risk_case', entityId: id, before: { status: 'open', rule: stored.rule, promoterId: stored.promoter_id }, after: { status: 'rejected', rejected, reason, note }, ip: actor.ip }, tx.now);
  });
  return riskCase(ctx, id);
}
