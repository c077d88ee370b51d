/**
 * Payout accounts and withdrawals. Every step of a withdrawal is one transaction holding the
 * status change (conditional on the status it leaves), its timeline event, its ledger journal,
 * the promoter's notification and the audit entry.
 *
 * Ledger movements (promoter accounts; amount A = fee + net):
 *   requested  available −A, withdrawing +A
 *   approved   withdrawing −A, payable +A
 *   paid       payable −A, paid_out +net, platform:fees +fee
 *   failed     payable −A, available +A          (from approved)
 *   rejected   withdrawing −A, available +A      (from requested, by an operator)
 *   cancelled  withdrawing −A, available +A      (from requested, by the promoter)
 */
import { createHash, createHmac } from 'node:crypto';
import { checkPayoutNumber, checkWithdrawal, checkWithdrawalAmount, normalizePayoutNumber, payoutLast4, withdrawalFee, type WithdrawalStatus } from '@pa/shared';
import type { z } from 'zod';
import type { PayoutAccountCreateSchema } from '@pa/shared';
import type { AppContext } from '../../context';
import type { Db, PayoutAccountsTable, WithdrawalsTable } from '../../db/types';
import { audit, type Actor } from '../../platform/audit';
import { AppError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { lockBalance, postJournal, promoterAccount, walletOf, type Entry } from '../../platform/ledger';
import { notify } from '../../platform/notifications';
import { readSettings, zoneOf } from '../../platform/settings';
import { execFor } from '../../platform/sql-exec';
import { dayKey } from '../../platform/time';
import { isUniqueViolation } from '../users/repository';

type PayoutAccountBody = z.output<typeof PayoutAccountCreateSchema>;
export type WithdrawalRow = WithdrawalsTable;
export const IN_FLIGHT: WithdrawalStatus[] = ['requested', 'approved'];

/** Keyed digest of an account number: equal numbers compare equal across promoters, and nothing else can be learnt from it. */
export function numberDigest(ctx: AppContext, normalized: string): string {
  return createHmac('sha256', ctx.master.derive('payout-number-digest')).update(normalized).digest('hex');
}

const accountAad = (id: string) => `payout:${id}`;
const withdrawalAad = (id: string) => `withdrawal:${id}`;

/** Adds a payout account from the sealed number the browser sent. */
export async function addPayoutAccount(ctx: AppContext, promoterId: string, body: PayoutAccountBody, ip: string | null = null): Promise<PayoutAccountsTable> {
  const raw = await ctx.seals.open(body.accountNumber, 'accountNumber');
  return storePayoutAccount(ctx, promoterId, { method: body.method, holderName: body.holderName, number: raw, isDefault: body.isDefault === true }, ip);
}

/** Checks, normalizes, encrypts and stores an account number (also used by the demo seed). */
export async function storePayoutAccount(ctx: AppContext, promoterId: string, input: { method: PayoutAccountBody['method']; holderName: string; number: string; isDefault: boolean }, ip: string | null = null): Promise<PayoutAccountsTable> {
  const problem = checkPayoutNumber(input.method, input.number);
  if (problem) throw new AppError('VALIDATION_FAILED', { accountNumber: problem });
  const number = normalizePayoutNumber(input.method, input.number);
  const now = Date.now();
  const id = newId(now);
  return ctx.db.transaction().execute(async (trx) => {
    const existing = await trx.selectFrom('payout_accounts').select(['id', 'number_digest']).where('promoter_id', '=', promoterId).execute();
    const digest = numberDigest(ctx, number);
    if (existing.some((e) => e.number_digest === digest)) throw new AppError('VALIDATION_FAILED', { accountNumber: 'taken' });
    const isDefault = input.isDefault || existing.length === 0;
    if (isDefault) await trx.updateTable('payout_accounts').set({ is_default: 0 }).where('promoter_id', '=', promoterId).execute();
    const row: PayoutAccountsTable = {
      id,
      promoter_id: promoterId,
      method: input.method,
      holder_name: input.holderName,
      number_sealed: ctx.master.encrypt(number, accountAad(id)),
      number_digest: digest,
      last4: payoutLast4(number),
      is_default: isDefault ? 1 : 0,
      created_at: now,
    };
    await trx.insertInto('payout_accounts').values(row).execute();
    await audit(trx, { actorId: promoterId, action: 'payout_account.add', entity: 'payout_account', entityId: id, after: { method: row.method, last4: row.last4, isDefault }, ip }, now);
    return row;
  });
}

export async function setDefaultPayoutAccount(ctx: AppContext, promoterId: string, id: string): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('payout_accounts').select('id').where('id', '=', id).where('promoter_id', '=', promoterId).executeTakeFirst();
    if (!row) throw new AppError('NOT_FOUND');
    await trx.updateTable('payout_accounts').set({ is_default: 0 }).where('promoter_id', '=', promoterId).execute();
    await trx.updateTable('payout_accounts').set({ is_default: 1 }).where('id', '=', id).execute();
  });
}

export async function deletePayoutAccount(ctx: AppContext, promoterId: string, id: string, ip: string | null = null): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    // The promoter's balance row is the lock every withdrawal request takes: no request can pick this account meanwhile.
    await lockBalance(trx, promoterAccount(promoterId, 'available'), ctx.dialect);
    const row = await trx.selectFrom('payout_accounts').select(['id', 'is_default', 'method', 'last4']).where('id', '=', id).where('promoter_id', '=', promoterId).executeTakeFirst();
    if (!row) throw new AppError('NOT_FOUND');
    const busy = await trx.selectFrom('withdrawals').select('id').where('payout_account_id', '=', id).where('status', 'in', IN_FLIGHT).executeTakeFirst();
    if (busy) throw new AppError('PAYOUT_ACCOUNT_IN_USE');
    await trx.deleteFrom('payout_accounts').where('id', '=', id).execute();
    if (row.is_default) {
      const next = await trx.selectFrom('payout_accounts').select('id').where('promoter_id', '=', promoterId).orderBy('created_at', 'desc').limit(1).executeTakeFirst();
      if (next) await trx.updateTable('payout_accounts').set({ is_default: 1 }).where('id', '=', next.id).execute();
    }
    await audit(trx, { actorId: promoterId, action: 'payout_account.delete', entity: 'payout_account', entityId: id, before: { method: row.method, last4: row.last4 }, ip });
  });
}

/** Withdrawals counted against the day's limit: every request of the day except those the promoter cancelled. */
async function usedOn(db: Db, promoterId: string, day: string): Promise<number> {
  const row = await db.selectFrom('withdrawals').select((eb) => eb.fn.countAll<number>().as('n')).where('promoter_id', '=', promoterId).where('day', '=', day).where('status', '!=', 'cancelled').executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function withdrawalTerms(ctx: AppContext, promoterId: string) {
  const [settings, wallet] = await Promise.all([readSettings(ctx.db), walletOf(ctx.db, promoterId)]);
  return {
    currency: settings.currency,
    available: wallet.available,
    min: settings.withdrawalMin,
    max: settings.withdrawalMax,
    perDay: settings.withdrawalsPerDay,
    usedToday: await usedOn(ctx.db, promoterId, dayKey(Date.now(), zoneOf(ctx))),
    feeBps: settings.withdrawalFeeBps,
    feeFixed: settings.withdrawalFeeFixed,
  };
}

export interface WithdrawalRequest {
  amount: number;
  payoutAccountId?: string | undefined;
}

/**
 * Moves `amount` from available to withdrawing, once per idempotency key. The promoter's
 * available balance row is locked first (PostgreSQL `FOR UPDATE`; SQLite transactions run one
 * at a time), so concurrent requests are checked one after the other against the real balance
 * and the day's count, and a repeated key finds the first request.
 */
export async function requestWithdrawal(ctx: AppContext, promoterId: string, body: WithdrawalRequest, idempotencyKey: string | null, ip: string | null = null): Promise<{ withdrawal: WithdrawalRow; replayed: boolean }> {
  const requestHash = createHash('sha256').update(JSON.stringify({ amount: body.amount, payoutAccountId: body.payoutAccountId ?? null })).digest('hex');
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      const available = await lockBalance(trx, promoterAccount(promoterId, 'available'), ctx.dialect);
      if (idempotencyKey) {
        const first = await trx.selectFrom('withdrawals').selectAll().where('promoter_id', '=', promoterId).where('idempotency_key', '=', idempotencyKey).executeTakeFirst();
        if (first) {
          if (first.request_hash !== requestHash) throw new AppError('IDEMPOTENCY_CONFLICT');
          return { withdrawal: first, replayed: true };
        }
      }
      const settings = await readSettings(trx);
      const terms = { min: settings.withdrawalMin, max: settings.withdrawalMax, perDay: settings.withdrawalsPerDay, feeBps: settings.withdrawalFeeBps, feeFixed: settings.withdrawalFeeFixed };
      // Amount limits first: they need nothing but the request.
      const limits = checkWithdrawalAmount(body.amount, terms);
      if (limits) throw new AppError(limits, { amount: limits === 'WITHDRAWAL_BELOW_MINIMUM' ? 'too_short' : 'too_large' });
      let account = trx.selectFrom('payout_accounts').selectAll().where('promoter_id', '=', promoterId);
      account = body.payoutAccountId ? account.where('id', '=', body.payoutAccountId) : account.where('is_default', '=', 1);
      const payout = await account.executeTakeFirst();
      if (!payout) throw new AppError('PAYOUT_ACCOUNT_REQUIRED', { payoutAccountId: body.payoutAccountId ? 'not_found' : 'required' });
      const now = Date.now();
      const day = dayKey(now, zoneOf(ctx));
      const problem = checkWithdrawal(body.amount, available, await usedOn(trx, promoterId, day), terms);
      if (problem) throw new AppError(problem);

      const fee = withdrawalFee(body.amount, terms);
      const id = newId(now);
      const number = ctx.master.decrypt(payout.number_sealed, accountAad(payout.id)).toString('utf8');
      const row: WithdrawalRow = {
        id,
        promoter_id: promoterId,
        amount: body.amount,
        fee,
        net: body.amount - fee,
        currency: settings.currency,
        status: 'requested',
        payout_account_id: payout.id,
        account_method: payout.method,
        account_holder: payout.holder_name,
        account_last4: payout.last4,
        // The number travels with the withdrawal (sealed again, bound to it): the bank batch needs it even if the account is deleted later.
        account_sealed: ctx.master.encrypt(number, withdrawalAad(id)),
        account_digest: payout.number_digest,
        idempotency_key: idempotencyKey,
        request_hash: requestHash,
        day,
        requested_at: now,
        decided_at: null,
        decided_by: null,
        paid_at: null,
        payout_reference: null,
        reason: null,
      };
      await trx.insertInto('withdrawals').values(row).execute();
      await recordStep(ctx, trx, row, 'requested', { userId: promoterId, ip }, { reason: null, reference: null }, [
        { account: promoterAccount(promoterId, 'available'), amount: -row.amount },
        { account: promoterAccount(promoterId, 'withdrawing'), amount: row.amount },
      ], now);
      return { withdrawal: row, replayed: false };
    });
  } catch (error) {
    // Only reachable on PostgreSQL if two requests with one key raced past the lock (they cannot: kept as a safety net).
    if (idempotencyKey && isUniqueViolation(error)) {
      const first = await ctx.db.selectFrom('withdrawals').selectAll().where('promoter_id', '=', promoterId).where('idempotency_key', '=', idempotencyKey).executeTakeFirst();
      if (first && first.request_hash === requestHash) return { withdrawal: first, replayed: true };
      if (first) throw new AppError('IDEMPOTENCY_CONFLICT');
    }
    throw error;
  }
}

export type WithdrawalAction = 'approve' | 'pay' | 'fail' | 'reject' | 'cancel';

const TRANSITIONS: Record<WithdrawalAction, { from: WithdrawalStatus; to: WithdrawalStatus }> = {
  approve: { from: 'requested', to: 'approved' },
  pay: { from: 'approved', to: 'paid' },
  fail: { from: 'approved', to: 'failed' },
  reject: { from: 'requested', to: 'rejected' },
  cancel: { from: 'requested', to: 'cancelled' },
};

/** The journal entries of a step (see the table at the top of this file). */
function entriesFor(w: WithdrawalRow, to: WithdrawalStatus): Entry[] {
  const p = (bucket: Parameters<typeof promoterAccount>[1]) => promoterAccount(w.promoter_id, bucket);
  const a = Number(w.amount);
  switch (to) {
    case 'approved':
      return [{ account: p('withdrawing'), amount: -a }, { account: p('payable'), amount: a }];
    case 'paid':
      return [{ account: p('payable'), amount: -a }, { account: p('paid_out'), amount: Number(w.net) }, { account: 'platform:fees', amount: Number(w.fee) }];
    case 'failed':
      return [{ account: p('payable'), amount: -a }, { account: p('available'), amount: a }];
    default: // rejected, cancelled
      return [{ account: p('withdrawing'), amount: -a }, { account: p('available'), amount: a }];
  }
}

/**
 * One step of a withdrawal after its request: operators approve, pay (with the payout
 * reference), fail or reject (with a reason); the promoter cancels. A step from any other status
 * is INVALID_STATE_TRANSITION and changes nothing.
 */
export async function moveWithdrawal(ctx: AppContext, id: string, action: WithdrawalAction, actor: { userId: string; promoterOnly: boolean; ip?: string | null }, details: { reason?: string | undefined; reference?: string | undefined }): Promise<WithdrawalRow> {
  if (action === 'pay' && !details.reference) throw new AppError('VALIDATION_FAILED', { reference: 'required' });
  if ((action === 'fail' || action === 'reject') && !details.reason) throw new AppError('VALIDATION_FAILED', { reason: 'required' });
  const { from, to } = TRANSITIONS[action];
  return ctx.db.transaction().execute(async (trx) => {
    let q = trx.selectFrom('withdrawals').selectAll().where('id', '=', id);
    if (actor.promoterOnly) q = q.where('promoter_id', '=', actor.userId);
    const w = await q.executeTakeFirst();
    if (!w) throw new AppError('NOT_FOUND');
    const now = Date.now();
    const reason = action === 'fail' || action === 'reject' ? details.reason! : null;
    const reference = action === 'pay' ? details.reference! : null;
    const updated = await trx
      .updateTable('withdrawals')
      .set({
        status: to,
        ...(action === 'pay' ? { paid_at: now, payout_reference: reference } : { decided_at: now, decided_by: actor.userId }),
        ...(reason ? { reason } : {}),
      })
      .where('id', '=', id)
      .where('status', '=', from)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) throw new AppError('INVALID_STATE_TRANSITION');
    const after = await trx.selectFrom('withdrawals').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    await recordStep(ctx, trx, after, to, { userId: actor.userId, ip: actor.ip ?? null }, { reason, reference }, entriesFor(w, to), now, w.status);
    return after;
  });
}

/** The timeline event, the journal, the promoter's notification and the audit entry of one step. */
async function recordStep(ctx: AppContext, trx: Db, w: WithdrawalRow, status: WithdrawalStatus, actor: Actor, details: { reason: string | null; reference: string | null }, entries: Entry[], now: number, before?: WithdrawalStatus) {
  const actorId = actor.userId;
  await trx.insertInto('withdrawal_events').values({ id: newId(now), withdrawal_id: w.id, status, actor_id: actorId, reason: details.reason, reference: details.reference, at: now }).execute();
  const exec = execFor(ctx, trx);
  await postJournal(exec, {
    kind: `withdrawal_${status}`,
    refType: 'withdrawal',
    refId: w.id,
    promoterId: w.promoter_id,
    memo: { withdrawalId: w.id, amount: Number(w.amount), fee: Number(w.fee), net: Number(w.net) },
    entries,
    at: now,
  });
  await notify(exec, [{
    userId: w.promoter_id,
    type: `withdrawal.${status}`,
    params: { withdrawalId: w.id, amount: Number(w.amount), net: Number(w.net), ...(details.reason ? { reason: details.reason } : {}), ...(details.reference ? { reference: details.reference } : {}) },
  }], now);
  await audit(trx, {
    actorId,
    action: `withdrawal.${status}`,
    entity: 'withdrawal',
    entityId: w.id,
    ...(before ? { before: { status: before } } : {}),
    after: { status, amount: Number(w.amount), ...(details.reason ? { reason: details.reason } : {}), ...(details.reference ? { reference: details.reference } : {}) },
    ip: actor.ip,
  }, now);
}

/** An approved withdrawal's account number, for the audited bank export only. */
export function withdrawalAccountNumber(ctx: AppContext, w: Pick<WithdrawalRow, 'id' | 'account_sealed'>): string {
  return ctx.master.decrypt(w.account_sealed, withdrawalAad(w.id)).toString('utf8');
}

