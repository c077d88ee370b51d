/** User queries shared by the auth, me and admin modules. Explicit columns, never `select *`. */
import type { Locale, User } from '@pa/shared';
import { isLocale } from '@pa/shared';
import { foldForSearch } from '../../domain/search';
import { newId, newInviteCode } from '../../platform/ids';
import type { Db } from '../../db/types';

const USER_COLUMNS = [
  'users.id', 'users.account', 'users.display_name', 'users.role', 'users.status', 'users.locale',
  'users.invite_code', 'users.parent_id', 'users.leaderboard_opt_out', 'users.created_at', 'users.email',
] as const;

export interface UserRow {
  id: string;
  account: string;
  display_name: string;
  role: User['role'];
  status: User['status'];
  locale: string;
  invite_code: string;
  parent_id: string | null;
  leaderboard_opt_out: number;
  created_at: number;
  email: string | null;
  inviter_name: string | null;
}

export function toUser(row: UserRow): User {
  return {
    id: row.id,
    account: row.account,
    displayName: row.display_name,
    role: row.role,
    status: row.status,
    locale: isLocale(row.locale) ? row.locale : 'en',
    inviteCode: row.invite_code,
    inviterName: row.inviter_name,
    leaderboardOptOut: Number(row.leaderboard_opt_out) === 1,
    createdAt: row.created_at,
    email: row.email,
  };
}

export function selectUsers(db: Db) {
  return db
    .selectFrom('users')
    .leftJoin('users as inviter', 'inviter.id', 'users.parent_id')
    .select([...USER_COLUMNS, 'inviter.display_name as inviter_name']);
}

export async function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  return selectUsers(db).where('users.id', '=', id).executeTakeFirst();
}

/** Inserts a user with a fresh invite code, retrying on the (rare) code collision. */
export async function insertUser(
  db: Db,
  values: { account: string; displayName: string; passwordHash: string; role: UserRow['role']; status: UserRow['status']; locale: Locale; parentId: string | null; groupId?: string },
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
        name_folded: foldForSearch(values.displayName),
        password_hash: values.passwordHash,
        role: values.role,
        status: values.status,
        locale: values.locale,
        invite_code: inviteCode,
        parent_id: values.parentId,
        // Unset: the column's default, the default group.
        ...(values.groupId ? { group_id: values.groupId } : {}),
        created_at: now,
        updated_at: now,
      })
      .execute();
    return id;
  }
}


export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string };
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

