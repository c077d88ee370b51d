/**
 * Queries of payout accounts and withdrawals. Explicit columns, never `select *`; the sealed
 * account number is read only where it is decrypted (a new withdrawal, the bank export).
 */
import type { WithdrawalStatus } from '@pa/shared';
import type { Insertable } from 'kysely';
import type { Db, PayoutAccountsTable, WithdrawalEventsTable, WithdrawalsTable } from '../../db/types';
import { likePattern, olderThan, pageOf } from '../../platform/listing';
import { WITHDRAWAL_VIEW_COLUMNS } from '../../platform/withdrawal-view';

/** A withdrawal in these statuses holds its payout account (it cannot be deleted meanwhile). */
const IN_FLIGHT: WithdrawalStatus[] = ['requested', 'approved'];

export interface Page {
  limit: number;
  cursor?: string | undefined;
}

// ——— Payout accounts ———

const PAYOUT_ACCOUNT_COLUMNS = ['id', 'promoter_id', 'method', 'holder_name', 'number_sealed', 'number_digest', 'last4', 'is_default', 'created_at'] as const;

/** A promoter's payout accounts, default first, each with whether a withdrawal in progress uses it. */
export async function payoutAccountsOf(db: Db, promoterId: string) {
  return db
    .selectFrom('payout_accounts as p')
    .select(['p.id', 'p.method', 'p.holder_name', 'p.last4', 'p.is_default', 'p.created_at'])
    .select((eb) => eb.exists(eb.selectFrom('withdrawals as w').select('w.id').whereRef('w.payout_account_id', '=', 'p.id').where('w.status', 'in', IN_FLIGHT)).as('in_use'))
    .where('p.promoter_id', '=', promoterId)
    .orderBy('p.is_default', 'desc')
    .orderBy('p.created_at', 'desc')
    .execute();
}

export async function findPayoutAccount(db: Db, id: string) {
  return db.selectFrom('payout_accounts').select(['id', 'method', 'holder_name', 'last4', 'is_default', 'created_at']).where('id', '=', id).executeTakeFirst();
}

/** The promoter's chosen account (by id) or their default one, with what a withdrawal copies from it. */
export async function payoutAccountForRequest(db: Db, promoterId: string, id: string | undefined): Promise<PayoutAccountsTable | undefined> {
  const q = db.selectFrom('payout_accounts').select(PAYOUT_ACCOUNT_COLUMNS).where('promoter_id', '=', promoterId);
  return (id ? q.where('id', '=', id) : q.where('is_default', '=', 1)).executeTakeFirst();
}

export async function payoutDigestsOf(db: Db, promoterId: string) {
  return db.selectFrom('payout_accounts').select(['id', 'number_digest']).where('promoter_id', '=', promoterId).execute();
}

export async function ownPayoutAccount(db: Db, promoterId: string, id: string) {
  return db.selectFrom('payout_accounts').select(['id', 'is_default', 'method', 'last4']).where('id', '=', id).where('promoter_id', '=', promoterId).executeTakeFirst();
}

/** The promoter's most recently added account (the next default when the default one goes). */
export async function newestPayoutAccount(db: Db, promoterId: string) {
  return db.selectFrom('payout_accounts').select('id').where('promoter_id', '=', promoterId).orderBy('created_at', 'desc').limit(1).executeTakeFirst();
}

export async function insertPayoutAccount(db: Db, row: Insertable<PayoutAccountsTable>): Promise<void> {
  await db.insertInto('payout_accounts').values(row).execute();
}

export async function clearDefaultPayoutAccount(db: Db, promoterId: string): Promise<void> {
  await db.updateTable('payout_accounts').set({ is_default: 0 }).where('promoter_id', '=', promoterId).execute();
}

export async function markDefaultPayoutAccount(db: Db, id: string): Promise<void> {
  await db.updateTable('payout_accounts').set({ is_default: 1 }).where('id', '=', id).execute();
}

export async function deletePayoutAccountRow(db: Db, id: string): Promise<void> {
  await db.deleteFrom('payout_accounts').where('id', '=', id).execute();
}

export async function payoutAccountInUse(db: Db, id: string): Promise<boolean> {
  return (await db.selectFrom('withdrawals').select('id').where('payout_account_id', '=', id).where('status', 'in', IN_FLIGHT).executeTakeFirst()) !== undefined;
}

// ——— Withdrawals ———

const WITHDRAWAL_COLUMNS = [
  'id', 'promoter_id', 'amount', 'fee', 'net', 'currency', 'status', 'payout_account_id', 'account_method', 'account_holder', 'account_last4',
  'account_sealed', 'account_digest', 'idempotency_key', 'request_hash', 'day', 'requested_at', 'decided_at', 'decided_by', 'paid_at',
  'payout_reference', 'reason',
] as const;

/** A withdrawal, whole (a step reads it to post its journal and answer it); the promoter's own only when `promoterId` is given. */
export async function findWithdrawal(db: Db, id: string, promoterId?: string): Promise<WithdrawalsTable | undefined> {
  let q = db.selectFrom('withdrawals').select(WITHDRAWAL_COLUMNS).where('id', '=', id);
  if (promoterId !== undefined) q = q.where('promoter_id', '=', promoterId);
  return q.executeTakeFirst();
}

export async function findWithdrawalByKey(db: Db, promoterId: string, idempotencyKey: string): Promise<WithdrawalsTable | undefined> {
  return db.selectFrom('withdrawals').select(WITHDRAWAL_COLUMNS).where('promoter_id', '=', promoterId).where('idempotency_key', '=', idempotencyKey).executeTakeFirst();
}

export async function insertWithdrawal(db: Db, row: Insertable<WithdrawalsTable>): Promise<void> {
  await db.insertInto('withdrawals').values(row).execute();
}

/** Moves a withdrawal on only if it is still in `from`; answers whether it did. */
export async function updateWithdrawalFrom(
  db: Db,
  id: string,
  from: WithdrawalStatus,
  set: Pick<WithdrawalsTable, 'status'> & Partial<Pick<WithdrawalsTable, 'paid_at' | 'payout_reference' | 'decided_at' | 'decided_by' | 'reason'>>,
): Promise<boolean> {
  const updated = await db.updateTable('withdrawals').set(set).where('id', '=', id).where('status', '=', from).executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1;
}

/** Withdrawals counted against the day's limit: every request of the day except those the promoter cancelled. */
export async function countWithdrawalsOn(db: Db, promoterId: string, day: string): Promise<number> {
  const row = await db.selectFrom('withdrawals').select((eb) => eb.fn.countAll<number>().as('n')).where('promoter_id', '=', promoterId).where('day', '=', day).where('status', '!=', 'cancelled').executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** A page of the promoter's own withdrawals, newest first. */
export async function ownWithdrawalsPage(db: Db, promoterId: string, page: Page & { status?: WithdrawalStatus | undefined }) {
  let q = db.selectFrom('withdrawals').select(WITHDRAWAL_VIEW_COLUMNS).where('promoter_id', '=', promoterId).orderBy('requested_at', 'desc').orderBy('id', 'desc').limit(page.limit + 1);
  if (page.status) q = q.where('status', '=', page.status);
  if (page.cursor) q = q.where(olderThan(page.cursor, 'requested_at', 'id'));
  return pageOf(await q.execute(), page.limit, (r) => [Number(r.requested_at), r.id]);
}

export async function ownWithdrawal(db: Db, promoterId: string, id: string) {
  return db.selectFrom('withdrawals').select(WITHDRAWAL_VIEW_COLUMNS).where('id', '=', id).where('promoter_id', '=', promoterId).executeTakeFirst();
}

export async function insertWithdrawalEvent(db: Db, row: Insertable<WithdrawalEventsTable>): Promise<void> {
  await db.insertInto('withdrawal_events').values(row).execute();
}

/** A withdrawal's timeline, oldest first. */
export async function withdrawalEvents(db: Db, withdrawalId: string) {
  return db.selectFrom('withdrawal_events').select(['status', 'reason', 'reference', 'at']).where('withdrawal_id', '=', withdrawalId).orderBy('at').orderBy('id').execute();
}

// ——— The operators' queue ———

/** Withdrawals with their promoter and whether another promoter has registered or used the same account number. */
function selectAdmin(db: Db) {
  return db
    .selectFrom('withdrawals as w')
    .innerJoin('users as u', 'u.id', 'w.promoter_id')
    .select(WITHDRAWAL_VIEW_COLUMNS.map((c) => `w.${c}` as const))
    .select(['w.promoter_id', 'u.display_name as promoter_name', 'u.account as promoter_account'])
    .select((eb) => eb
      .case()
      .when(eb.or([
        eb.exists(eb.selectFrom('payout_accounts as p').select('p.id').whereRef('p.number_digest', '=', 'w.account_digest').whereRef('p.promoter_id', '<>', 'w.promoter_id')),
        eb.exists(eb.selectFrom('withdrawals as o').select('o.id').whereRef('o.account_digest', '=', 'w.account_digest').whereRef('o.promoter_id', '<>', 'w.promoter_id')),
      ]))
      .then(1)
      .else(0)
      .end()
      .as('shared'));
}

export type AdminWithdrawalRow = Awaited<ReturnType<ReturnType<typeof selectAdmin>['executeTakeFirstOrThrow']>>;

/** A page of the queue, newest first; `q` searches the promoter's name (case-insensitive) and account. */
export async function adminWithdrawalsPage(db: Db, page: Page & { status?: WithdrawalStatus | undefined; q?: string | undefined }) {
  let query = selectAdmin(db).orderBy('w.requested_at', 'desc').orderBy('w.id', 'desc').limit(page.limit + 1);
  if (page.status) query = query.where('w.status', '=', page.status);
  if (page.q) {
    const like = likePattern(page.q);
    query = query.where((eb) => eb.or([eb(eb.fn('lower', ['u.display_name']), 'like', like), eb('u.account', 'like', like)]));
  }
  if (page.cursor) query = query.where(olderThan(page.cursor, 'w.requested_at', 'w.id'));
  return pageOf(await query.execute(), page.limit, (r) => [Number(r.requested_at), r.id]);
}

export async function findAdminWithdrawal(db: Db, id: string): Promise<AdminWithdrawalRow | undefined> {
  return selectAdmin(db).where('w.id', '=', id).executeTakeFirst();
}

/** Approved withdrawals, oldest first, with the sealed account number the bank batch needs. */
export async function approvedWithdrawals(db: Db, cap: number) {
  return selectAdmin(db).select('w.account_sealed').where('w.status', '=', 'approved').orderBy('w.requested_at').limit(cap).execute();
}
