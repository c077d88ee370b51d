/** Queries of registration, sign-in and password links: accounts, failed sign-ins, invite codes, one-time password tokens. */
import type { Insertable } from 'kysely';
import type { Db, PasswordTokensTable } from '../../db/types';

export interface Inviter {
  id: string;
  displayName: string;
  status: string;
}

/** The user whose invite code this is (codes are stored normalized), whatever their status. */
export async function findInviter(db: Db, inviteCode: string): Promise<Inviter | undefined> {
  const row = await db.selectFrom('users').select(['id', 'display_name', 'status']).where('invite_code', '=', inviteCode).executeTakeFirst();
  return row ? { id: row.id, displayName: row.display_name, status: row.status } : undefined;
}

export async function accountExists(db: Db, account: string): Promise<boolean> {
  return (await db.selectFrom('users').select('id').where('account', '=', account).executeTakeFirst()) !== undefined;
}

/** What a sign-in checks of an account: its password hash and status. */
export async function findSignInCandidate(db: Db, account: string): Promise<{ id: string; password_hash: string; status: 'pending' | 'active' | 'rejected' | 'suspended' } | undefined> {
  return db.selectFrom('users').select(['id', 'password_hash', 'status']).where('account', '=', account).executeTakeFirst();
}

/** The account's failed sign-ins after `since`. */
export async function countSignInFailures(db: Db, account: string, since: number): Promise<number> {
  const row = await db
    .selectFrom('auth_failures')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account', '=', account)
    .where('at', '>', since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function recordSignInFailure(db: Db, failure: { id: string; account: string; at: number }): Promise<void> {
  await db.insertInto('auth_failures').values(failure).execute();
}

export async function insertPasswordToken(db: Db, row: Insertable<PasswordTokensTable>): Promise<void> {
  await db.insertInto('password_tokens').values(row).execute();
}

/** Ends the person's links still open (a newer one replaces them, or the password changed); how many ended. */
export async function expireOpenPasswordTokens(db: Db, userId: string, now: number): Promise<number> {
  const result = await db.updateTable('password_tokens').set({ expires_at: now }).where('user_id', '=', userId).where('used_at', 'is', null).where('expires_at', '>', now).executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Marks an open token used and returns whose it was; undefined when used, expired or unknown. */
export async function usePasswordToken(db: Db, tokenHash: string, now: number): Promise<{ user_id: string; purpose: 'reset' | 'invite' } | undefined> {
  return db
    .updateTable('password_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning(['user_id', 'purpose'])
    .executeTakeFirst();
}

/** An open (unused, unexpired) token's owner, without using it. */
export async function findOpenPasswordToken(db: Db, tokenHash: string, now: number): Promise<{ user_id: string; purpose: 'reset' | 'invite' } | undefined> {
  return db
    .selectFrom('password_tokens')
    .select(['user_id', 'purpose'])
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

/** The account a password is checked against (not equal to it) and unlocked by. */
export async function findAccountOf(db: Db, userId: string): Promise<string | undefined> {
  return (await db.selectFrom('users').select('account').where('id', '=', userId).executeTakeFirst())?.account;
}

export async function setPasswordHash(db: Db, userId: string, passwordHash: string, now: number): Promise<void> {
  await db.updateTable('users').set({ password_hash: passwordHash, updated_at: now }).where('id', '=', userId).execute();
}

/** Signs the user out on every device; how many sessions were open. */
export async function revokeAllSessions(db: Db, userId: string, now: number): Promise<number> {
  const result = await db.updateTable('sessions').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Ends one session; true when it was still open. */
export async function revokeSession(db: Db, sessionId: string, now: number): Promise<boolean> {
  const result = await db.updateTable('sessions').set({ revoked_at: now }).where('id', '=', sessionId).where('revoked_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Forgets the account's failed sign-ins, which ends a lockout. */
export async function clearSignInFailures(db: Db, account: string): Promise<void> {
  await db.deleteFrom('auth_failures').where('account', '=', account).execute();
}
