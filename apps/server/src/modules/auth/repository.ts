/** Queries of registration: the inviter behind an invite code. */
import type { Db } from '../../db/types';

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
