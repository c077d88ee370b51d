/** Queries of promoter groups (issue 31). Explicit columns, never `select *`. */
import { DEFAULT_GROUP_ID } from '@pa/shared';
import type { Db, Dialect } from '../../db/types';

export interface GroupRow {
  id: string;
  name: string;
  description: string;
  is_default: number;
  invite_code: string | null;
  created_at: number;
  updated_at: number;
  promoter_count: number;
  question_count: number;
}

function selectGroups(db: Db) {
  return db
    .selectFrom('promoter_groups as g')
    .select((eb) => [
      'g.id', 'g.name', 'g.description', 'g.is_default', 'g.invite_code', 'g.created_at', 'g.updated_at',
      // users_group_idx (group_id, id): a count per group without reading the users.
      eb.selectFrom('users as u').select((c) => c.fn.countAll<number>().as('n')).whereRef('u.group_id', '=', 'g.id').where('u.role', '=', 'promoter').as('promoter_count'),
      eb.selectFrom('application_questions as q').select((c) => c.fn.countAll<number>().as('n')).whereRef('q.group_id', '=', 'g.id').as('question_count'),
    ]);
}

const toRow = (r: Record<string, unknown>): GroupRow => ({
  ...(r as unknown as GroupRow),
  is_default: Number(r.is_default),
  created_at: Number(r.created_at),
  updated_at: Number(r.updated_at),
  promoter_count: Number(r.promoter_count ?? 0),
  question_count: Number(r.question_count ?? 0),
});

/** Every group: the default first, then by name. */
export async function listGroups(db: Db): Promise<GroupRow[]> {
  const rows = await selectGroups(db).orderBy('g.is_default', 'desc').orderBy('g.name_key').orderBy('g.id').execute();
  return rows.map(toRow);
}

export async function findGroup(db: Db, id: string): Promise<GroupRow | undefined> {
  const row = await selectGroups(db).where('g.id', '=', id).executeTakeFirst();
  return row ? toRow(row) : undefined;
}

/**
 * The group row locked for the rest of the transaction on PostgreSQL (`for update`): a change to a
 * group and its deletion queue behind each other. SQLite runs one write transaction at a time.
 */
export async function lockGroup(db: Db, dialect: Dialect, id: string): Promise<{ id: string; name: string; description: string; is_default: number } | undefined> {
  const query = db.selectFrom('promoter_groups').select(['id', 'name', 'description', 'is_default']).where('id', '=', id);
  const row = dialect === 'postgres' ? await query.forUpdate().executeTakeFirst() : await query.executeTakeFirst();
  return row ? { ...row, is_default: Number(row.is_default) } : undefined;
}

/** Another group with this folded name, if any. */
export async function nameTaken(db: Db, nameKey: string, exceptId?: string): Promise<boolean> {
  let query = db.selectFrom('promoter_groups').select('id').where('name_key', '=', nameKey);
  if (exceptId) query = query.where('id', '!=', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

export async function inviteCodeTaken(db: Db, code: string): Promise<boolean> {
  return (await db.selectFrom('promoter_groups').select('id').where('invite_code', '=', code).executeTakeFirst()) !== undefined;
}

export async function insertGroup(db: Db, row: { id: string; name: string; nameKey: string; description: string; inviteCode: string; now: number }): Promise<void> {
  await db
    .insertInto('promoter_groups')
    .values({ id: row.id, name: row.name, name_key: row.nameKey, description: row.description, is_default: 0, invite_code: row.inviteCode, created_at: row.now, updated_at: row.now })
    .execute();
}

export async function updateGroup(db: Db, id: string, values: { name: string; nameKey: string; description: string }, now: number): Promise<void> {
  await db.updateTable('promoter_groups').set({ name: values.name, name_key: values.nameKey, description: values.description, updated_at: now }).where('id', '=', id).execute();
}

export async function setInviteCode(db: Db, id: string, code: string, now: number): Promise<void> {
  await db.updateTable('promoter_groups').set({ invite_code: code, updated_at: now }).where('id', '=', id).execute();
}

/** Deletes a group that is not the default (the row is gone first, so a registration waiting on it sees it gone). */
export async function deleteGroupRow(db: Db, id: string): Promise<boolean> {
  const result = await db.deleteFrom('promoter_groups').where('id', '=', id).where('is_default', '=', 0).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/** Everyone of a group moves to the default group; answers how many promoters moved. */
export async function moveMembersToDefault(db: Db, fromId: string, now: number): Promise<number> {
  const moved = await db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).where('group_id', '=', fromId).where('role', '=', 'promoter').executeTakeFirst();
  await db.updateTable('users').set({ group_id: DEFAULT_GROUP_ID, updated_at: now }).where('group_id', '=', fromId).execute();
  return Number(moved?.n ?? 0);
}

/** A deleted group's questions go with it (answers keep the questions as they were asked). */
export async function deleteGroupQuestions(db: Db, groupId: string): Promise<void> {
  await db.deleteFrom('application_questions').where('group_id', '=', groupId).execute();
}
