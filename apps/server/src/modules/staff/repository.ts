/** Staff queries: operators and admins, never promoters. Explicit columns, never `select *`. */
import type { StaffMember } from '@pa/shared';
import type { Db, Dialect } from '../../db/types';

/** The password hash of a staff member who has not yet used their invite: no password matches it. */
export const UNUSABLE_PASSWORD_PREFIX = 'unusable$';

const STAFF_ROLES = ['operator', 'admin'] as const;

interface StaffRow {
  id: string;
  account: string;
  display_name: string;
  role: 'promoter' | 'operator' | 'admin';
  status: StaffMember['status'];
  created_at: number;
  last_sign_in_at: number | string | null;
  password_set: number | string | boolean;
}

function selectStaff(db: Db) {
  return db
    .selectFrom('users')
    .select((eb) => [
      'users.id', 'users.account', 'users.display_name', 'users.role', 'users.status', 'users.created_at',
      // Their newest session (sessions_user_idx), cheap for the few staff there are.
      eb.selectFrom('sessions').select((s) => s.fn.max('sessions.created_at').as('m')).whereRef('sessions.user_id', '=', 'users.id').as('last_sign_in_at'),
      eb.case().when('users.password_hash', 'like', `${UNUSABLE_PASSWORD_PREFIX}%`).then(0).else(1).end().as('password_set'),
    ])
    .where('users.role', 'in', STAFF_ROLES);
}

function toStaffMember(row: StaffRow): StaffMember {
  return {
    id: row.id,
    account: row.account,
    displayName: row.display_name,
    role: row.role === 'admin' ? 'admin' : 'operator',
    status: row.status,
    createdAt: row.created_at,
    lastSignInAt: row.last_sign_in_at === null ? null : Number(row.last_sign_in_at),
    passwordSet: Number(row.password_set) === 1,
  };
}

/** Every operator and admin: admins first, then by name. */
export async function listStaff(db: Db): Promise<StaffMember[]> {
  const rows = await selectStaff(db).orderBy('users.role').orderBy('users.display_name').orderBy('users.id').execute();
  return rows.map((r) => toStaffMember(r as StaffRow));
}

export async function findStaffMember(db: Db, id: string): Promise<StaffMember | undefined> {
  const row = await selectStaff(db).where('users.id', '=', id).executeTakeFirst();
  return row ? toStaffMember(row as StaffRow) : undefined;
}

export async function findStaffByAccount(db: Db, account: string): Promise<StaffMember | undefined> {
  const row = await selectStaff(db).where('users.account', '=', account).executeTakeFirst();
  return row ? toStaffMember(row as StaffRow) : undefined;
}

export async function accountTaken(db: Db, account: string): Promise<boolean> {
  return (await db.selectFrom('users').select('id').where('account', '=', account).executeTakeFirst()) !== undefined;
}

/** A staff member's role and status, or undefined for a promoter or an unknown id. */
export async function findStaffState(db: Db, id: string): Promise<{ role: 'operator' | 'admin'; status: StaffMember['status'] } | undefined> {
  const row = await db.selectFrom('users').select(['role', 'status']).where('id', '=', id).where('role', 'in', STAFF_ROLES).executeTakeFirst();
  return row && row.role !== 'promoter' ? { role: row.role, status: row.status } : undefined;
}

/**
 * The ids of the active admins, locked for the rest of the transaction on PostgreSQL (`for
 * update`): two admins demoting each other at once are serialized, and the second sees the first's
 * change (READ COMMITTED re-reads a locked row once it is free). SQLite runs one write transaction
 * at a time, so a plain read suffices there.
 */
export async function lockActiveAdmins(db: Db, dialect: Dialect): Promise<string[]> {
  const query = db.selectFrom('users').select('id').where('role', '=', 'admin').where('status', '=', 'active').orderBy('id');
  const rows = dialect === 'postgres' ? await query.forUpdate().execute() : await query.execute();
  return rows.map((r) => r.id);
}

export async function countActiveAdmins(db: Db): Promise<number> {
  const row = await db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).where('role', '=', 'admin').where('status', '=', 'active').executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function updateStaff(db: Db, id: string, values: { role: 'operator' | 'admin'; status: StaffMember['status'] }, now: number): Promise<void> {
  await db.updateTable('users').set({ role: values.role, status: values.status, updated_at: now }).where('id', '=', id).execute();
}
