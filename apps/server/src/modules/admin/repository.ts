/** Queries of the console's user list and user status moves. Explicit columns, never `select *`. */
import type { Role, UserStatus } from '@pa/shared';
import type { Db } from '../../db/types';
import { likePattern, olderThan } from '../../platform/listing';
import { selectUsers, type UserRow } from '../users/repository';

/**
 * Users newest first, one more than `limit` (to tell whether another page follows); `q` matches the
 * display name (case-insensitively) or the account.
 */
export async function searchUsers(
  db: Db,
  filters: { status?: UserStatus; role?: Role; q?: string },
  page: { limit: number; cursor?: string },
): Promise<(UserRow & { group_id: string; group_name: string | null })[]> {
  let query = selectUsers(db)
    .leftJoin('promoter_groups as g', 'g.id', 'users.group_id')
    .select(['users.group_id', 'g.name as group_name'])
    .orderBy('users.created_at', 'desc').orderBy('users.id', 'desc').limit(page.limit + 1);
  if (filters.status) query = query.where('users.status', '=', filters.status);
  if (filters.role) query = query.where('users.role', '=', filters.role);
  if (filters.q) {
    const like = likePattern(filters.q);
    query = query.where((eb) => eb.or([
      eb(eb.fn('lower', ['users.display_name']), 'like', like),
      eb('users.account', 'like', like),
    ]));
  }
  if (page.cursor) query = query.where(olderThan(page.cursor, 'users.created_at', 'users.id'));
  return query.execute();
}

export async function findUserState(db: Db, id: string): Promise<{ id: string; role: Role; status: UserStatus } | undefined> {
  return db.selectFrom('users').select(['id', 'role', 'status']).where('id', '=', id).executeTakeFirst();
}

/** Moves the user from status `from` to `to`; false when they were no longer in `from`. */
export async function moveUserStatus(db: Db, id: string, from: UserStatus, to: UserStatus, now: number): Promise<boolean> {
  const updated = await db.updateTable('users').set({ status: to, updated_at: now }).where('id', '=', id).where('status', '=', from).executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1;
}

/** Signs the user out on every device. */
export async function revokeSessionsOf(db: Db, userId: string, now: number): Promise<void> {
  await db.updateTable('sessions').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
}
