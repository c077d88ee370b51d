/** Registration and sign-in rules: invite codes, registration modes, lockout, statuses. */
import { checkPassword, maskName, type Locale, type Sealed } from '@pa/shared';
import type { AppContext } from '../../context';
import type { Db } from '../../db/types';
import { audit } from '../../platform/audit';
import { AppError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { dummyHash, hashPassword, verifyPassword } from '../../platform/crypto/password';
import { readSettings } from '../../platform/settings';
import { findUserById, insertUser, isUniqueViolation, type UserRow } from '../users/repository';
import { findInviter } from './repository';

export const LOCKOUT_FAILURES = 5;
export const LOCKOUT_WINDOW_MS = 15 * 60_000;

export interface RegisterInput {
  account: string;
  displayName: string;
  password: Sealed;
  inviteCode?: string;
  locale?: Locale;
}

export async function register(ctx: AppContext, input: RegisterInput & { locale: Locale }): Promise<UserRow> {
  const password = await ctx.seals.open(input.password, 'password');
  const problem = checkPassword(password, input.account);
  if (problem) throw new AppError('VALIDATION_FAILED', { password: problem });

  const settings = await readSettings(ctx.db);
  let parentId: string | null = null;
  if (input.inviteCode) {
    const inviter = await findInviter(ctx.db, input.inviteCode);
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

/**
 * Whose invite a code is, for the register page: the inviter's name masked as on Team (it is
 * asked for by anyone, so it says no more than a member list would). Only codes that would
 * register someone are found: an unknown code or an inactive inviter is NOT_FOUND.
 */
export async function lookUpInvite(ctx: AppContext, inviteCode: string): Promise<{ inviterName: string }> {
  const inviter = await findInviter(ctx.db, inviteCode);
  if (!inviter || inviter.status !== 'active') throw new AppError('NOT_FOUND');
  return { inviterName: maskName(inviter.displayName) };
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

