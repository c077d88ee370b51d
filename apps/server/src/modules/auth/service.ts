/** Registration and sign-in rules: invite codes, registration modes, lockout, statuses. */
import { checkPassword, type Locale, type RegisterBody, type Sealed } from '@pa/shared';
import type { AppContext } from '../../context';
import type { Db } from '../../db/types';
import { audit } from '../../platform/audit';
import { AppError } from '../../platform/errors';
import { newId, newInviteCode } from '../../platform/ids';
import { dummyHash, hashPassword, verifyPassword } from '../../platform/crypto/password';
import { readSettings } from '../../platform/settings';
import { findUserById, type UserRow } from '../users/repository';

export const LOCKOUT_FAILURES = 5;
export const LOCKOUT_WINDOW_MS = 15 * 60_000;

export interface RegisterInput {
  account: string;
  displayName: string;
  password: Sealed;
  inviteCode?: string;
  locale?: Locale;
}

/** Inserts a user with a fresh invite code, retrying on the (rare) code collision. */
export async function insertUser(
  db: Db,
  values: { account: string; displayName: string; passwordHash: string; role: UserRow['role']; status: UserRow['status']; locale: Locale; parentId: string | null },
): Promise<string> {
  const now = Date.now();
  const id = newId(now);
  for (let attempt = 0; ; attempt++) {
    const inviteCode = newInviteCode();
    const taken = await db.selectFrom('users').select('id').where('invite_code', '=', inviteCode).executeTakeFirst();
    if (taken && attempt < 5) continue;
    await db
      .insertInto('users')
      .values({
        id,
        account: values.account,
        display_name: values.displayName,
        password_hash: values.passwordHash,
        role: values.role,
        status: values.status,
        locale: values.locale,
        invite_code: inviteCode,
        parent_id: values.parentId,
        created_at: now,
        updated_at: now,
      })
      .execute();
    return id;
  }
}

export async function register(ctx: AppContext, input: RegisterInput & { locale: Locale }): Promise<UserRow> {
  const password = await ctx.seals.open(input.password, 'password');
  const problem = checkPassword(password, input.account);
  if (problem) throw new AppError('VALIDATION_FAILED', { password: problem });

  const settings = await readSettings(ctx.db);
  let parentId: string | null = null;
  if (input.inviteCode) {
    const inviter = await ctx.db
      .selectFrom('users')
      .select(['id', 'status'])
      .where('invite_code', '=', input.inviteCode)
      .executeTakeFirst();
    if (!inviter || inviter.status !== 'active') throw new AppError('INVITE_CODE_INVALID', { inviteCode: 'invalid' });
    parentId = inviter.id;
  } else if (settings.registrationMode === 'invite-only') {
    throw new AppError('INVITE_CODE_INVALID', { inviteCode: 'required' });
  }

  const exists = await ctx.db.selectFrom('users').select('id').where('account', '=', input.account).executeTakeFirst();
  if (exists) throw new AppError('ACCOUNT_EXISTS', { account: 'taken' });

  const passwordHash = await hashPassword(password);
  const status = settings.registrationMode === 'approval' ? 'pending' : 'active';
  const id = await ctx.db.transaction().execute(async (trx) => {
    // A concurrent registration of the same account loses on the unique index.
    const again = await trx.selectFrom('users').select('id').where('account', '=', input.account).executeTakeFirst();
    if (again) throw new AppError('ACCOUNT_EXISTS', { account: 'taken' });
    const userId = await insertUser(trx, {
      account: input.account,
      displayName: input.displayName,
      passwordHash,
      role: 'promoter',
      status,
      locale: input.locale,
      parentId,
    }).catch((error: unknown) => {
      if (isUniqueViolation(error)) throw new AppError('ACCOUNT_EXISTS', { account: 'taken' });
      throw error;
    });
    await audit(trx, { actorId: userId, action: 'user.register', entity: 'user', entityId: userId, after: { status, parentId } });
    return userId;
  });
  return (await findUserById(ctx.db, id))!;
}

export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string };
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** Checks lockout, the password and the account status; records failures. */
export async function authenticate(ctx: AppContext, account: string, sealed: Sealed): Promise<UserRow> {
  const now = Date.now();
  const failures = await countFailures(ctx.db, account, now);
  if (failures >= LOCKOUT_FAILURES) throw new AppError('ACCOUNT_LOCKED', undefined, { 'Retry-After': String(LOCKOUT_WINDOW_MS / 1000) });

  const password = await ctx.seals.open(sealed, 'password');
  const row = await ctx.db.selectFrom('users').select(['id', 'password_hash', 'status']).where('account', '=', account).executeTakeFirst();
  const ok = await verifyPassword(password, row?.password_hash ?? (await dummyHash()));
  if (!row || !ok) {
    await ctx.db.insertInto('auth_failures').values({ id: newId(now), account, at: now }).execute();
    throw new AppError('INVALID_CREDENTIALS');
  }
  if (row.status === 'pending') throw new AppError('ACCOUNT_PENDING');
  if (row.status === 'rejected') throw new AppError('ACCOUNT_REJECTED');
  if (row.status === 'suspended') throw new AppError('ACCOUNT_SUSPENDED');
  await ctx.db.deleteFrom('auth_failures').where('account', '=', account).execute();
  return (await findUserById(ctx.db, row.id))!;
}

async function countFailures(db: Db, account: string, now: number): Promise<number> {
  const row = await db
    .selectFrom('auth_failures')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account', '=', account)
    .where('at', '>', now - LOCKOUT_WINDOW_MS)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function changePassword(ctx: AppContext, userId: string, sessionId: string, current: Sealed, next: Sealed) {
  const currentPassword = await ctx.seals.open(current, 'current');
  const nextPassword = await ctx.seals.open(next, 'next');
  const row = await ctx.db.selectFrom('users').select(['account', 'password_hash']).where('id', '=', userId).executeTakeFirstOrThrow();
  if (!(await verifyPassword(currentPassword, row.password_hash))) throw new AppError('INVALID_CREDENTIALS', { current: 'mismatch' });
  const problem = checkPassword(nextPassword, row.account);
  if (problem) throw new AppError('VALIDATION_FAILED', { next: problem });
  const hash = await hashPassword(nextPassword);
  const now = Date.now();
  await ctx.db.transaction().execute(async (trx) => {
    await trx.updateTable('users').set({ password_hash: hash, updated_at: now }).where('id', '=', userId).execute();
    // Every other device must sign in again with the new password.
    await trx.updateTable('sessions').set({ revoked_at: now }).where('user_id', '=', userId).where('id', '!=', sessionId).where('revoked_at', 'is', null).execute();
    await audit(trx, { actorId: userId, action: 'user.password_change', entity: 'user', entityId: userId });
  });
}

export type { RegisterBody };
