/** Queries of registration and password links: the inviter behind an invite code, one-time password tokens. */
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

export async function insertPasswordToken(db: Db, row: Insertable<PasswordTokensTable>): Promise<void> {
  await db.insertInto('password_tokens').values(row).execute();
}

/** Ends the person's links still open (a newer one replaces them). */
export async function expireOpenPasswordTokens(db: Db, userId: string, now: number): Promise<void> {
  await db.updateTable('password_tokens').set({ expires_at: now }).where('user_id', '=', userId).where('used_at', 'is', null).where('expires_at', '>', now).execute();
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
