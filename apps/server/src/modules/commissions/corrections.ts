/**
 * Operators' corrections (issue 31, item 7; docs/rewards.md "Corrections"), each one transaction
 * through the unit of work with its audit entry and staff's reason:
 *
 * - **Assign** a lead or sale to a promoter: what the earlier attribution earned is taken back in
 *   full (with the reason, told to that promoter), then the commissions are decided by the
 *   campaign's rules as if the conversion had been attributed to the new promoter when it happened
 *   — `earn()`, the engine's own decision — less what the sale's refunds so far took back. The
 *   conversion row is locked first (the row refunds lock), so an assignment and refunds of the same
 *   sale take turns and each sees what the other wrote.
 * - **Reverse** a pending or approved commission in full: a clawback, which may take the
 *   promoter's available balance below zero (new earnings pay it back first); they are told why.
 * - **End** or **move** a customer's binding (recurring campaigns): a moved binding starts afresh
 *   for the other promoter from now, under a new id.
 */
import type { ConversionAssignResult } from '@pa/shared';
import type { AppContext } from '../../context';
import type { Tx } from '../../db/unit-of-work';
import { bindingMonth, isSelfReferral, reversedByEarlierRefunds } from '../../domain/commission';
import { stepEffect } from '../../domain/commission-lifecycle';
import { asActor, audit, type ActorArg } from '../../platform/audit';
import { AppError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { ROLLUPS } from '../../platform/rollups';
import { zoneOf } from '../../platform/settings';
import { dayKey } from '../../platform/time';
import { emitEvent } from '../../platform/webhooks/outbox';
import * as repo from './repository';
import type { CommissionRow } from './repository';
import type { ExplanationStep, StoredLine } from './rewards';
import { applyStep, commissionData, earn, emailDigest, MONEY_ROWS } from './service';
import { toCommission, toConversion } from './views';

/** The explanation steps an assignment keeps: how the conversion was first met (not what it earned then). */
const KEPT_STEPS = new Set(['schedule', 'attribution', 'eligibility', 'assigned']);

/**
 * Takes back all that remains of a pending or approved commission, by staff, with their reason:
 * the lifecycle's `reverse` step (domain/commission-lifecycle.ts) as one conditional update, its
 * timeline event, journal, figures, the promoter's notification (a clawback) and the webhook
 * event. Returns what was taken back, or null when the commission was no longer pending or
 * approved (rejected, or reversed already).
 */
async function takeBack(ctx: AppContext, tx: Tx, c: CommissionRow, reason: string, actorId: string, zone: string): Promise<number | null> {
  if (c.status !== 'pending' && c.status !== 'approved') return null;
  const now = tx.now;
  const remaining = Number(c.amount) - Number(c.reversed_amount);
  const effect = stepEffect('reverse', c.status, remaining, { full: true });
  const changed = await repo.updateCommissionIf(tx.q, c.id, { status: c.status, reversedAmount: Number(c.reversed_amount) }, { status: effect.to, reversed_amount: Number(c.amount), decided_at: now, decided_by: actorId, reason });
  if (!changed) return null;
  await repo.insertCommissionEvent(tx.q, { id: newId(now), commission_id: c.id, status: effect.event!, amount: remaining, actor_id: actorId, reason, at: now });
  applyStep(tx, c, effect, remaining, { memo: { level: c.level, reason }, at: now, day: dayKey(Number(c.occurred_at), zone), reason, clawback: true });
  await emitEvent(ctx.webhooks, tx, 'commission.reversed', () => commissionData(tx, c.id));
  return remaining;
}

/** `POST api/admin/commissions/:id/reverse`: INVALID_STATE_TRANSITION unless it is pending or approved. */
export async function reverseCommissionByStaff(ctx: AppContext, id: string, reason: string, by: ActorArg) {
  const actor = asActor(by);
  return ctx.uow.run(async (tx) => {
    // Its conversion first, as refunds and assignments lock it: a refund of the sale then sees this
    // reversal (or this one sees the refund's), never a commission changed under it.
    const read = await repo.commissionById(tx.q, id);
    if (!read) throw new AppError('NOT_FOUND');
    // (A bounty's reward has none: its own row lock is enough.)
    if (read.conversion_id !== null) await repo.lockConversion(tx.q, tx.dialect, read.conversion_id);
    const c = (await repo.lockCommission(tx.q, tx.dialect, id))!;
    const reversed = await takeBack(ctx, tx, c, reason, actor.userId, zoneOf(ctx));
    if (reversed === null) throw new AppError('INVALID_STATE_TRANSITION');
    await audit(tx.q, {
      actorId: actor.userId, action: 'commission.reverse', entity: 'commission', entityId: id,
      before: { status: c.status, amount: Number(c.amount), reversedAmount: Number(c.reversed_amount) },
      after: { status: 'reversed', reversed, reason }, ip: actor.ip,
    }, tx.now);
    const view = await repo.commissionView(tx.q, id);
    return { commission: toCommission(view!, 'en'), reversed };
  });
}

/** The promoter staff name, as a conversion of this campaign may be credited to them. */
async function creditable(tx: Tx, campaignId: string, promoterId: string, customerEmailSha256: string | null) {
  const promoter = await repo.attributedPromoter(tx.q, campaignId, promoterId);
  if (!promoter) throw new AppError('VALIDATION_FAILED', { promoterId: 'not_found' });
  // As the engine credits: an active promoter, approved in the campaign, who is not the customer.
  const self = !!customerEmailSha256 && isSelfReferral(customerEmailSha256, emailDigest(promoter.account));
  if (promoter.status !== 'active' || promoter.enrollment !== 'approved' || self) throw new AppError('VALIDATION_FAILED', { promoterId: 'not_allowed' });
  return promoter;
}

/** `POST api/admin/conversions/:id/assign`. */
export async function assignConversion(ctx: AppContext, conversionId: string, input: { promoterId: string; reason: string }, by: ActorArg): Promise<ConversionAssignResult> {
  const actor = asActor(by);
  const zone = zoneOf(ctx);
  return ctx.uow.run(async (tx) => {
    const now = tx.now;
    // Locked first: a refund of this sale waits here, or this waits for it, and each sees the other.
    const v = await repo.lockConversion(tx.q, tx.dialect, conversionId);
    if (!v) throw new AppError('NOT_FOUND');
    // A refund follows its sale; a sale already credited to this promoter has nothing to correct.
    if (v.kind === 'refund' || (v.status === 'attributed' && v.promoter_id === input.promoterId)) throw new AppError('INVALID_STATE_TRANSITION');
    const kind = v.kind;
    const campaign = await repo.campaignTerms(tx.q, v.campaign_id);
    if (!campaign) throw new AppError('NOT_FOUND');
    const promoter = await creditable(tx, campaign.id, input.promoterId, v.customer_email_sha256);
    const occurredAt = Number(v.occurred_at);
    const amount = Number(v.amount);
    const refunded = Number(v.refunded_amount);
    const day = dayKey(occurredAt, zone);

    // 1. What the earlier attribution earned goes back in full, with staff's reason.
    const existing = await repo.lockCommissionsOf(tx.q, tx.dialect, v.id);
    const reversed: string[] = [];
    for (const c of existing) if ((await takeBack(ctx, tx, c, input.reason, actor.userId, zone)) !== null) reversed.push(c.id);
    const moved = v.status === 'attributed' && v.promoter_id !== null;
    const rollups = tx.collect(ROLLUPS);
    const figures = (sign: 1 | -1) => (kind === 'lead' ? { leads: sign } : { sales: sign, sale_amount: sign * amount, refund_amount: sign * refunded });
    if (moved) rollups.addFigures(v.promoter_id!, day, campaign.id, v.link_id, figures(-1));

    // 2. The customer's binding (recurring campaigns), as if this conversion had been theirs then.
    const link = await repo.defaultLinkOf(tx.q, campaign.id, promoter.id);
    let bound: { month: number; of: number | null } | null = null;
    if (campaign.binding_months !== 0 && v.customer_external_id) {
      const b = await repo.bindingOf(tx.q, campaign.id, v.customer_external_id);
      const held = b ? { startedAt: Number(b.started_at), startDay: dayKey(Number(b.started_at), zone), months: b.months, endedAt: b.ended_at === null ? null : Number(b.ended_at) } : null;
      if (!b) {
        // Its first attributed conversion binds the customer, from when it happened.
        tx.collect(MONEY_ROWS).bindings.push({ row: { id: newId(now), campaign_id: campaign.id, customer_external_id: v.customer_external_id, promoter_id: promoter.id, link_id: link?.id ?? null, conversion_id: v.id, started_at: occurredAt, months: campaign.binding_months, ended_at: null, created_at: now }, replaces: null });
        bound = { month: 1, of: campaign.binding_months };
      } else if (b.conversion_id === v.id && b.promoter_id === v.promoter_id && moved) {
        // The binding this misattributed conversion started follows it to the right promoter.
        await repo.updateBinding(tx.q, b.id, { id: newId(now), promoter_id: promoter.id, link_id: link?.id ?? null });
        const month = bindingMonth(held!, occurredAt, day);
        bound = month === null ? null : { month, of: b.months };
      } else if (b.promoter_id === promoter.id) {
        const month = bindingMonth(held!, occurredAt, day);
        bound = month === null ? null : { month, of: b.months };
      }
    }

    // 3. What the rules make of it for this promoter — the engine's own decision, caps counted under their lock.
    const stored = v.items_json ? (JSON.parse(v.items_json) as StoredLine[]) : null;
    const assignment = Math.max(0, ...existing.map((c) => Number(c.assignment))) + 1;
    const earning = await earn(campaign, promoter, {
      conversionId: v.id, kind, amount, occurredAt, day,
      items: stored?.map((l) => ({ sku: l.sku, category: l.category, quantity: l.quantity, amount: l.amount })) ?? null,
      country: v.country, metadata: v.metadata_json ? (JSON.parse(v.metadata_json) as Record<string, string>) : {},
      newCustomer: v.new_customer === null ? null : v.new_customer === 1,
      linkId: link?.id ?? null, bound, assignment,
    }, { now, own: tx, salesBefore: () => repo.countTierSales(tx.q, promoter.id, campaign.id, day.slice(0, 7)) });

    // 4. Less what the refunds so far took back: as much as they would have taken had these been there.
    const [first, second] = earning.rows;
    const taken = reversedByEarlierRefunds({
      saleAmount: amount, refunded, level1: first?.amount ?? 0, level2: second?.amount ?? 0,
      lines: earning.lines && stored ? earning.lines.map((l, i) => ({ amount: l.amount, refunded: stored[i]!.refunded, commission: l.commission })) : null,
    });
    const lines = earning.lines && stored ? earning.lines.map((l, i) => ({ ...l, refunded: stored[i]!.refunded, reversed: taken.lines[i]! })) : earning.lines;
    const money = tx.collect(MONEY_ROWS);
    for (const [r, back] of [[first, taken.level1], [second, taken.level2]] as const) {
      if (!r) continue;
      applyStep(tx, r, stepEffect('create', null, r.amount), r.amount, { memo: { level: r.level, kind: r.kind, conversionId: v.id, assignment }, at: now, day });
      if (back > 0) {
        const effect = stepEffect('reverse', 'pending', back, { full: back === r.amount });
        Object.assign(r, { reversed_amount: back }, back === r.amount ? { status: effect.to, decided_at: now } : {});
        await repo.insertCommissionEvent(tx.q, { id: newId(now), commission_id: r.id, status: effect.event!, amount: back, actor_id: null, reason: 'refund', at: now });
        applyStep(tx, r, effect, back, { memo: { level: r.level, refunded }, at: now, day });
      }
      money.commissions.push(r);
    }

    // 5. The conversion credited anew (its refunds follow it), its explanation extended.
    const kept = (v.explanation_json ? (JSON.parse(v.explanation_json) as ExplanationStep[]) : []).filter((s) => KEPT_STEPS.has(s.step));
    const explanation: ExplanationStep[] = [...kept, { step: 'assigned', outcome: moved ? 'moved' : 'credited', detail: { at: now, reason: input.reason } }, ...earning.steps];
    const attribution = { promoter_id: promoter.id, link_id: link?.id ?? null, attributed_by: 'staff' as const, status: 'attributed' as const, reason: earning.capped ? 'capped' : null };
    await repo.setAttribution(tx.q, v.id, { ...attribution, items_json: lines ? JSON.stringify(lines) : null, explanation_json: JSON.stringify(explanation) });
    rollups.addFigures(promoter.id, day, campaign.id, link?.id ?? null, figures(1));

    const shown = earning.rows.map((r) => toCommission({ ...r, names_json: campaign.names_json, link_code: r.link_id ? (link?.code ?? null) : null, source_name: r.level === 2 ? promoter.display_name : null }, 'en'));
    for (const c of shown) await emitEvent(ctx.webhooks, tx, 'commission.created', () => c);
    await audit(tx.q, {
      actorId: actor.userId, action: 'conversion.assign', entity: 'conversion', entityId: v.id,
      before: { promoterId: v.promoter_id, status: v.status, reason: v.reason, attributedBy: v.attributed_by },
      after: { promoterId: promoter.id, status: 'attributed', reason: input.reason, reversed, commissions: earning.rows.map((r) => ({ id: r.id, level: r.level, amount: r.amount })) },
      ip: actor.ip,
    }, now);
    const { items_json: _items, country: _country, metadata_json: _metadata, new_customer: _new, explanation_json: _explanation, ...columns } = v;
    return { conversion: toConversion({ ...columns, ...attribution }), reversed, commissions: shown };
  });
}

// ——— Customer bindings ———

/** `POST api/admin/bindings/:id/end`: from now on only a new click brings the customer back. */
export async function endBindingByStaff(ctx: AppContext, id: string, reason: string, by: ActorArg): Promise<repo.BindingView> {
  const actor = asActor(by);
  return ctx.uow.run(async (tx) => {
    const b = await repo.lockBinding(tx.q, tx.dialect, id);
    if (!b) throw new AppError('NOT_FOUND');
    if (b.ended_at !== null) throw new AppError('INVALID_STATE_TRANSITION');
    await repo.updateBinding(tx.q, id, { ended_at: tx.now });
    await audit(tx.q, {
      actorId: actor.userId, action: 'binding.end', entity: 'binding', entityId: id,
      before: { promoterId: b.promoter_id, customer: b.customer_external_id, campaignId: b.campaign_id, endedAt: null },
      after: { endedAt: tx.now, reason }, ip: actor.ip,
    }, tx.now);
    return (await repo.bindingView(tx.q, id))!;
  });
}

/**
 * `POST api/admin/bindings/:id/move`: ends the binding and binds the customer to another promoter
 * from now, for the campaign's binding length (the old binding's when the campaign no longer binds),
 * under a new id — a conversion being recorded that read the old binding cannot replace this one.
 */
export async function moveBinding(ctx: AppContext, id: string, input: { promoterId: string; reason: string }, by: ActorArg): Promise<repo.BindingView> {
  const actor = asActor(by);
  return ctx.uow.run(async (tx) => {
    const now = tx.now;
    const b = await repo.lockBinding(tx.q, tx.dialect, id);
    if (!b) throw new AppError('NOT_FOUND');
    if (b.promoter_id === input.promoterId && b.ended_at === null) throw new AppError('INVALID_STATE_TRANSITION');
    const campaign = await repo.campaignTerms(tx.q, b.campaign_id);
    if (!campaign) throw new AppError('NOT_FOUND');
    const promoter = await creditable(tx, campaign.id, input.promoterId, null);
    const link = await repo.defaultLinkOf(tx.q, campaign.id, promoter.id);
    const moved = { id: newId(now), promoter_id: promoter.id, link_id: link?.id ?? null, started_at: now, months: campaign.binding_months === 0 ? b.months : campaign.binding_months, ended_at: null, created_at: now };
    await repo.updateBinding(tx.q, id, moved);
    await audit(tx.q, {
      actorId: actor.userId, action: 'binding.move', entity: 'binding', entityId: id,
      before: { promoterId: b.promoter_id, customer: b.customer_external_id, campaignId: b.campaign_id, startedAt: Number(b.started_at), months: b.months, endedAt: b.ended_at === null ? null : Number(b.ended_at) },
      after: { id: moved.id, promoterId: promoter.id, startedAt: now, months: moved.months, reason: input.reason }, ip: actor.ip,
    }, now);
    return (await repo.bindingView(tx.q, moved.id))!;
  });
}
