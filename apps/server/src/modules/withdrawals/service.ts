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
import { alertStaff } from '../staff-alerts/service';
import { createHash, createHmac } from 'node:crypto';
import { checkPayoutNumber, checkWithdrawal, checkWithdrawalAmount, normalizePayoutNumber, payoutShown, shownPayoutNumber, withdrawalFee, WITHDRAWAL_TRANSITIONS, type WithdrawalAction, type WithdrawalStatus } from '@pa/shared';
import type { z } from 'zod';
import type { AdminWithdrawal, PayoutAccount, PayoutAccountCreateSchema, Withdrawal, WithdrawalEventSchema } from '@pa/shared';
import type { AppContext } from '../../context';
import type { PayoutAccountsTable, WithdrawalsTable } from '../../db/types';
import type { Tx } from '../../db/unit-of-work';
import { audit, type Actor } from '../../platform/audit';
import { csvAmount, csvId } from '@pa/shared/csv';
import { csvOf } from '@pa/shared/texts';
import { AppError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { emitEvent } from '../../platform/webhooks/outbox';
import { mailUser } from '../../platform/mail/outbox';
import { promoterAccount, type Entry } from '../../domain/ledger';
import { lockBalance, postJournal, walletOf } from '../../platform/ledger';
import { notify } from '../../platform/notifications';
import { readSettings, zoneOf } from '../../platform/settings';
import { dayKey } from '../../platform/time';
import { toWithdrawal } from '../../platform/withdrawal-view';
import { isUniqueViolation } from '../users/repository';
import {
  adminWithdrawalsPage, approvedWithdrawals, clearDefaultPayoutAccount, countWithdrawalsOn, deletePayoutAccountRow, findAdminWithdrawal, findPayoutAccount,
  findWithdrawal, findWithdrawalByKey, insertPayoutAccount, insertWithdrawal, insertWithdrawalEvent, markDefaultPayoutAccount, newestPayoutAccount,
  ownPayoutAccount, ownWithdrawal, ownWithdrawalsPage, payoutAccountForRequest, payoutAccountInUse, payoutAccountsOf, payoutDigestsOf, updateWithdrawalFrom,
  withdrawalEvents, type AdminWithdrawalRow, type Page,
} from './repository';
import { screenPayoutAccount } from '../fraud/service';

type PayoutAccountBody = z.output<typeof PayoutAccountCreateSchema>;
export type WithdrawalRow = WithdrawalsTable;

/** Keyed digest of an account number: equal numbers compare equal across promoters, and nothing else can be learnt from it. */
export function numberDigest(ctx: AppContext, normalized: string): string {
  return createHmac('sha256', ctx.master.derive('payout-number-digest')).update(normalized).digest('hex');
}

const accountAad = (id: string) => `payout:${id}`;
const withdrawalAad = (id: string) => `withdrawal:${id}`;

/** A payout account as the promoter sees it: the last four characters of the number only. */
const toPayoutAccount = (r: Pick<PayoutAccountsTable, 'id' | 'method' | 'holder_name' | 'last4' | 'is_default' | 'created_at'> & { in_use?: unknown }): PayoutAccount => ({
  id: r.id,
  method: r.method,
  holderName: r.holder_name,
  last4: r.last4,
  isDefault: !!Number(r.is_default),
  inUse: !!Number(r.in_use ?? 0),
  createdAt: Number(r.created_at),
});

export async function listPayoutAccounts(ctx: AppContext, promoterId: string): Promise<PayoutAccount[]> {
  return (await payoutAccountsOf(ctx.db, promoterId)).map(toPayoutAccount);
}

/** Adds a payout account from the sealed number the browser sent. */
export async function addPayoutAccount(ctx: AppContext, promoterId: string, body: PayoutAccountBody, ip: string | null = null): Promise<PayoutAccount> {
  const raw = await ctx.seals.open(body.accountNumber, 'accountNumber');
  return toPayoutAccount(await storePayoutAccount(ctx, promoterId, { method: body.method, holderName: body.holderName, number: raw, isDefault: body.isDefault === true }, ip));
}

/** Checks, normalizes, encrypts and stores an account number (also used by the demo seed). */
export async function storePayoutAccount(ctx: AppContext, promoterId: string, input: { method: PayoutAccountBody['method']; holderName: string; number: string; isDefault: boolean }, ip: string | null = null): Promise<PayoutAccountsTable> {
  const problem = checkPayoutNumber(input.method, input.number);
  if (problem) throw new AppError('VALIDATION_FAILED', { accountNumber: problem });
  const number = normalizePayoutNumber(input.method, input.number);
  const now = Date.now();
  const id = newId(now);
  return ctx.uow.run(async (tx) => {
    const trx = tx.q;
    const existing = await payoutDigestsOf(trx, promoterId);
    const digest = numberDigest(ctx, number);
    if (existing.some((e) => e.number_digest === digest)) throw new AppError('VALIDATION_FAILED', { accountNumber: 'taken' });
    const isDefault = input.isDefault || existing.length === 0;
    if (isDefault) await clearDefaultPayoutAccount(trx, promoterId);
    const row: PayoutAccountsTable = {
      id,
      promoter_id: promoterId,
      method: input.method,
      holder_name: input.holderName,
      number_sealed: ctx.master.encrypt(number, accountAad(id)),
      number_digest: digest,
      last4: payoutShown(number),
      is_default: isDefault ? 1 : 0,
      created_at: now,
    };
    await insertPayoutAccount(trx, row);
    // Fraud rules on the number (docs/fraud.md): a refusal rolls this transaction back.
    await screenPayoutAccount(tx, promoterId, { digest, method: row.method, shown: row.last4 });
    await audit(trx, { actorId: promoterId, action: 'payout_account.add', entity: 'payout_account', entityId: id, after: { method: row.method, last4: row.last4, isDefault }, ip }, now);
    return row;
  });
}

/** Makes one of the promoter's accounts the default; answers it as it is then (`inUse` is not read here: false). */
export async function setDefaultPayoutAccount(ctx: AppContext, promoterId: string, id: string): Promise<PayoutAccount> {
  await ctx.uow.run(async ({ q: trx }) => {
    const row = await ownPayoutAccount(trx, promoterId, id);
    if (!row) throw new AppError('NOT_FOUND');
    await clearDefaultPayoutAccount(trx, promoterId);
    await markDefaultPayoutAccount(trx, id);
  });
  const row = await findPayoutAccount(ctx.db, id);
  if (!row) throw new AppError('NOT_FOUND');
  return toPayoutAccount(row);
}

export async function deletePayoutAccount(ctx: AppContext, promoterId: string, id: string, ip: string | null = null): Promise<void> {
  await ctx.uow.run(async ({ q: trx }) => {
    // The promoter's balance row is the lock every withdrawal request takes: no request can pick this account meanwhile.
    await lockBalance(trx, promoterAccount(promoterId, 'available'), ctx.dialect);
    const row = await ownPayoutAccount(trx, promoterId, id);
    if (!row) throw new AppError('NOT_FOUND');
    if (await payoutAccountInUse(trx, id)) throw new AppError('PAYOUT_ACCOUNT_IN_USE');
    await deletePayoutAccountRow(trx, id);
    if (row.is_default) {
      const next = await newestPayoutAccount(trx, promoterId);
      if (next) await markDefaultPayoutAccount(trx, next.id);
    }
    await audit(trx, { actorId: promoterId, action: 'payout_account.delete', entity: 'payout_account', entityId: id, before: { method: row.method, last4: row.last4 }, ip });
  });
}

export async function withdrawalTerms(ctx: AppContext, promoterId: string) {
  const [settings, wallet] = await Promise.all([readSettings(ctx.db), walletOf(ctx.db, promoterId)]);
  return {
    currency: settings.currency,
    available: wallet.available,
    min: settings.withdrawalMin,
    max: settings.withdrawalMax,
    perDay: settings.withdrawalsPerDay,
    usedToday: await countWithdrawalsOn(ctx.db, promoterId, dayKey(Date.now(), zoneOf(ctx))),
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
    return await ctx.uow.run(async (tx) => {
      const trx = tx.q;
      const available = await lockBalance(trx, promoterAccount(promoterId, 'available'), ctx.dialect);
      if (idempotencyKey) {
        const first = await findWithdrawalByKey(trx, promoterId, idempotencyKey);
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
      const payout = await payoutAccountForRequest(trx, promoterId, body.payoutAccountId);
      if (!payout) throw new AppError('PAYOUT_ACCOUNT_REQUIRED', { payoutAccountId: body.payoutAccountId ? 'not_found' : 'required' });
      const now = Date.now();
      const day = dayKey(now, zoneOf(ctx));
      const problem = checkWithdrawal(body.amount, available, await countWithdrawalsOn(trx, promoterId, day), terms);
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
      await insertWithdrawal(trx, row);
      await recordStep(ctx, tx, row, 'requested', { userId: promoterId, ip }, { reason: null, reference: null }, [
        { account: promoterAccount(promoterId, 'available'), amount: -row.amount },
        { account: promoterAccount(promoterId, 'withdrawing'), amount: row.amount },
      ], now);
      await alertStaff(ctx.mail, tx, { type: 'staff.withdrawal', withdrawalId: id, amount: row.amount, currency: row.currency });
      return { withdrawal: row, replayed: false };
    });
  } catch (error) {
    // Only reachable on PostgreSQL if two requests with one key raced past the lock (they cannot: kept as a safety net).
    if (idempotencyKey && isUniqueViolation(error)) {
      const first = await findWithdrawalByKey(ctx.db, promoterId, idempotencyKey);
      if (first && first.request_hash === requestHash) return { withdrawal: first, replayed: true };
      if (first) throw new AppError('IDEMPOTENCY_CONFLICT');
    }
    throw error;
  }
}

export type { WithdrawalAction };

/** The state machine, shared with the web (which offers only the steps it allows): approve, pay, fail, reject, cancel. */
const TRANSITIONS: Readonly<Record<WithdrawalAction, { from: WithdrawalStatus; to: WithdrawalStatus }>> = WITHDRAWAL_TRANSITIONS;

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
  return ctx.uow.run(async (tx) => {
    const trx = tx.q;
    const w = await findWithdrawal(trx, id, actor.promoterOnly ? actor.userId : undefined);
    if (!w) throw new AppError('NOT_FOUND');
    const now = Date.now();
    const reason = action === 'fail' || action === 'reject' ? details.reason! : null;
    const reference = action === 'pay' ? details.reference! : null;
    const moved = await updateWithdrawalFrom(trx, id, from, {
      status: to,
      ...(action === 'pay' ? { paid_at: now, payout_reference: reference } : { decided_at: now, decided_by: actor.userId }),
      ...(reason ? { reason } : {}),
    });
    if (!moved) throw new AppError('INVALID_STATE_TRANSITION');
    const after = await findWithdrawal(trx, id);
    if (!after) throw new AppError('NOT_FOUND');
    await recordStep(ctx, tx, after, to, { userId: actor.userId, ip: actor.ip ?? null }, { reason, reference }, entriesFor(w, to), now, w.status);
    return after;
  });
}

/** The timeline event, the journal, the promoter's notification, the audit entry and the webhook event of one step. */
async function recordStep(ctx: AppContext, tx: Tx, w: WithdrawalRow, status: WithdrawalStatus, actor: Actor, details: { reason: string | null; reference: string | null }, entries: Entry[], now: number, before?: WithdrawalStatus) {
  const trx = tx.q;
  const actorId = actor.userId;
  await emitEvent(ctx.webhooks, tx, `withdrawal.${status}`, () => toWithdrawal(w));
  await insertWithdrawalEvent(trx, { id: newId(now), withdrawal_id: w.id, status, actor_id: actorId, reason: details.reason, reference: details.reference, at: now });
  await postJournal(trx, {
    kind: `withdrawal_${status}`,
    refType: 'withdrawal',
    refId: w.id,
    promoterId: w.promoter_id,
    memo: { withdrawalId: w.id, amount: Number(w.amount), fee: Number(w.fee), net: Number(w.net) },
    entries,
    at: now,
  });
  await notify(trx, [{
    userId: w.promoter_id,
    type: `withdrawal.${status}`,
    params: { withdrawalId: w.id, amount: Number(w.amount), net: Number(w.net), ...(details.reason ? { reason: details.reason } : {}), ...(details.reference ? { reference: details.reference } : {}) },
  }], now);
  if (status === 'paid' || status === 'failed' || status === 'rejected') {
    const money = (minor: number | string) => ({ minor: Number(minor), currency: w.currency });
    const amount = money(w.amount);
    await mailUser(ctx.mail, tx, w.promoter_id, {
      template: `withdrawal_${status}`,
      // Paid: what was sent (net), the fee kept and the payout reference, as the notification says.
      params: status === 'paid'
        ? { amount, net: money(w.net), fee: money(w.fee), account: shownPayoutNumber(w.account_last4), reference: details.reference ?? '—' }
        : { amount, reason: details.reason ?? '—' },
      path: `/withdrawals/${w.id}`,
    });
  }
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
function withdrawalAccountNumber(ctx: AppContext, w: Pick<WithdrawalRow, 'id' | 'account_sealed'>): string {
  return ctx.master.decrypt(w.account_sealed, withdrawalAad(w.id)).toString('utf8');
}

// ——— Reads, answered in API terms ———

type WithdrawalEvent = z.infer<typeof WithdrawalEventSchema>;

async function eventsOf(ctx: AppContext, id: string): Promise<WithdrawalEvent[]> {
  return (await withdrawalEvents(ctx.db, id)).map((e) => ({ status: e.status, reason: e.reason, reference: e.reference, at: Number(e.at) }));
}

/** A page of the promoter's own withdrawals, newest first. */
export async function listWithdrawals(ctx: AppContext, promoterId: string, page: Page & { status?: WithdrawalStatus | undefined }): Promise<{ items: Withdrawal[]; nextCursor: string | null }> {
  const { rows, nextCursor } = await ownWithdrawalsPage(ctx.db, promoterId, page);
  return { items: rows.map(toWithdrawal), nextCursor };
}

/** One of the promoter's withdrawals with its timeline; someone else's is NOT_FOUND. */
export async function withdrawalDetail(ctx: AppContext, promoterId: string, id: string): Promise<{ withdrawal: Withdrawal; events: WithdrawalEvent[] }> {
  const row = await ownWithdrawal(ctx.db, promoterId, id);
  if (!row) throw new AppError('NOT_FOUND');
  return { withdrawal: toWithdrawal(row), events: await eventsOf(ctx, row.id) };
}

const toAdminWithdrawal = (r: AdminWithdrawalRow): AdminWithdrawal => ({
  ...toWithdrawal(r),
  promoterId: r.promoter_id,
  promoterName: r.promoter_name,
  promoterAccount: r.promoter_account,
  sharedAccount: !!Number(r.shared),
});

/** A page of the operators' queue (account numbers never: last four only). */
export async function adminWithdrawals(ctx: AppContext, page: Page & { status?: WithdrawalStatus | undefined; q?: string | undefined }): Promise<{ items: AdminWithdrawal[]; nextCursor: string | null }> {
  const { rows, nextCursor } = await adminWithdrawalsPage(ctx.db, page);
  return { items: rows.map(toAdminWithdrawal), nextCursor };
}

/** One withdrawal as operators see it; NOT_FOUND for an unknown id. */
export async function adminWithdrawal(ctx: AppContext, id: string): Promise<AdminWithdrawal> {
  const row = await findAdminWithdrawal(ctx.db, id);
  if (!row) throw new AppError('NOT_FOUND');
  return toAdminWithdrawal(row);
}

export async function adminWithdrawalDetail(ctx: AppContext, id: string): Promise<{ withdrawal: AdminWithdrawal; events: WithdrawalEvent[] }> {
  const withdrawal = await adminWithdrawal(ctx, id);
  return { withdrawal, events: await eventsOf(ctx, id) };
}

/** Approved withdrawals in one bank batch at most. */
const EXPORT_CAP = 10_000;

/**
 * The approved withdrawals as a CSV bank batch with full account numbers, and the audit entry
 * saying who exported which (ids and count).
 */
export async function exportApprovedWithdrawals(ctx: AppContext, actor: Actor): Promise<{ csv: string; filename: string }> {
  const rows = await approvedWithdrawals(ctx.db, EXPORT_CAP);
  const csv = csvOf('withdrawalBatch', rows.map((r) => ({
    withdrawal_id: csvId(r.id),
    requested_at: new Date(Number(r.requested_at)).toISOString(),
    promoter_account: csvId(r.promoter_account),
    promoter_name: r.promoter_name,
    method: r.account_method,
    holder_name: r.account_holder,
    account_number: csvId(withdrawalAccountNumber(ctx, r)),
    amount: csvAmount(Number(r.amount), r.currency),
    fee: csvAmount(Number(r.fee), r.currency),
    net: csvAmount(Number(r.net), r.currency),
    currency: r.currency,
  })));
  await audit(ctx.db, { actorId: actor.userId, action: 'withdrawal.export', entity: 'withdrawal', after: { status: 'approved', count: rows.length, ids: rows.map((r) => r.id) }, ip: actor.ip });
  return { csv, filename: `withdrawals-approved-${dayKey(Date.now(), zoneOf(ctx))}.csv` };
}
