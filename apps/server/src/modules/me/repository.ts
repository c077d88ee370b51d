/** Queries of the signed-in person's own profile, password and devices. Explicit columns, never `select *`. */
import type { Db } from '../../db/types';

interface ProfileRow {
  display_name: string;
  locale: string;
  leaderboard_opt_out: number;
}

export async function findProfile(db: Db, userId: string): Promise<ProfileRow> {
  return db.selectFrom('users').select(['display_name', 'locale', 'leaderboard_opt_out']).where('id', '=', userId).executeTakeFirstOrThrow();
}

export async function updateProfile(db: Db, userId: string, changes: Partial<ProfileRow & { name_folded: string }>, now: number): Promise<void> {
  await db.updateTable('users').set({ ...changes, updated_at: now }).where('id', '=', userId).execute();
}

/** The account (a password may not equal it) and the stored hash to check the current password against. */
export async function findCredentials(db: Db, userId: string): Promise<{ account: string; password_hash: string }> {
  return db.selectFrom('users').select(['account', 'password_hash']).where('id', '=', userId).executeTakeFirstOrThrow();
}

export async function setPasswordHash(db: Db, userId: string, passwordHash: string, now: number): Promise<void> {
  await db.updateTable('users').set({ password_hash: passwordHash, updated_at: now }).where('id', '=', userId).execute();
}

/** Signs the user out on every device but `keepSessionId`. */
export async function revokeOtherSessions(db: Db, userId: string, keepSessionId: string, now: number): Promise<void> {
  await db.updateTable('sessions').set({ revoked_at: now }).where('user_id', '=', userId).where('id', '!=', keepSessionId).where('revoked_at', 'is', null).execute();
}

/** The user's sessions neither revoked nor expired, most recently seen first. */
export async function listOpenSessions(db: Db, userId: string, now: number, limit: number): Promise<{ id: string; device: string; created_at: number; last_seen_at: number }[]> {
  return db
    .selectFrom('sessions')
    .select(['id', 'device', 'created_at', 'last_seen_at'])
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('last_seen_at', 'desc')
    .limit(limit)
    .execute();
}

/** Ends one of the user's own sessions; true when it was theirs and still open. */
export async function revokeOwnSession(db: Db, userId: string, sessionId: string, now: number): Promise<boolean> {
  const updated = await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('id', '=', sessionId)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) > 0;
}

// ——— A phone account's e-mail address (issue 28) ———

/** The person's account and verified address. */
export async function findAddresses(db: Db, userId: string): Promise<{ account: string; email: string | null; display_name: string; locale: string }> {
  return db.selectFrom('users').select(['account', 'email', 'display_name', 'locale']).where('id', '=', userId).executeTakeFirstOrThrow();
}

/** Whether anyone but `userId` has `email` as their account or verified address. */
export async function emailTaken(db: Db, email: string, userId: string): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').where((eb) => eb.or([eb('account', '=', email), eb('email', '=', email)])).where('id', '!=', userId).limit(1).executeTakeFirst();
  return row !== undefined;
}

/** Ends the person's verification links still open (a newer one replaces them, or one was used). */
export async function expireOpenVerifications(db: Db, userId: string, now: number): Promise<void> {
  await db.updateTable('email_verifications').set({ expires_at: now }).where('user_id', '=', userId).where('used_at', 'is', null).where('expires_at', '>', now).execute();
}

export async function insertVerification(db: Db, row: { id: string; user_id: string; email: string; token_hash: string; created_at: number; expires_at: number }): Promise<void> {
  await db.insertInto('email_verifications').values({ ...row, used_at: null }).execute();
}

/** Uses an open link once (conditionally: of two uses one wins); whose and which address, or undefined. */
export async function useVerification(db: Db, tokenHash: string, now: number): Promise<{ user_id: string; email: string } | undefined> {
  return db
    .updateTable('email_verifications')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning(['user_id', 'email'])
    .executeTakeFirst();
}

export async function setVerifiedEmail(db: Db, userId: string, email: string, now: number): Promise<void> {
  await db.updateTable('users').set({ email, updated_at: now }).where('id', '=', userId).execute();
}
