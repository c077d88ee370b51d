/**
 * Queries of the application form (issue 31, item 8): the questions of a form (the
 * registration's, `group_id` null, or a group's), a group found by its invite code, and the
 * answers given at registration. Explicit columns, never `select *`.
 */
import { sql } from 'kysely';
import type { ApplicationAnswersTable, ApplicationQuestionsTable, Db, Dialect } from '../../db/types';

export type QuestionRow = Pick<ApplicationQuestionsTable, 'id' | 'group_id' | 'position' | 'kind' | 'required' | 'labels_json'> & { options_json: string };
const QUESTION_COLUMNS = ['id', 'group_id', 'position', 'kind', 'required', 'labels_json', 'options_json'] as const;

/** A form's questions in order; `groupId` null: the registration's own. */
export async function formQuestions(db: Db, groupId: string | null): Promise<QuestionRow[]> {
  const query = db.selectFrom('application_questions').select(QUESTION_COLUMNS);
  const rows = await (groupId === null ? query.where('group_id', 'is', null) : query.where('group_id', '=', groupId)).orderBy('position').orderBy('id').execute();
  return rows.map((r) => ({ ...r, position: Number(r.position), required: Number(r.required) }));
}

/** Whether a group exists (a form is kept only for groups that do). */
export async function groupExists(db: Db, id: string): Promise<boolean> {
  return (await db.selectFrom('promoter_groups').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}

/** The group an invite code names (never the default group, which has none). */
export async function groupByCode(db: Db, code: string): Promise<{ id: string } | undefined> {
  return db.selectFrom('promoter_groups').select('id').where('invite_code', '=', code).executeTakeFirst();
}

/**
 * Holds a group for the rest of the transaction (PostgreSQL `for share`) while someone joins it: its
 * deletion waits until they are in, then moves them with the others to the default group; a group
 * already deleted is not found. SQLite runs one write transaction at a time.
 */
export async function holdGroup(db: Db, dialect: Dialect, id: string): Promise<boolean> {
  const query = db.selectFrom('promoter_groups').select('id').where('id', '=', id);
  return (await (dialect === 'postgres' ? query.forShare() : query).executeTakeFirst()) !== undefined;
}

/** The advisory lock key of form edits (PostgreSQL): two saves of a form run one after the other. */
const FORM_LOCK = 310_008;

/**
 * Serializes the saving of forms: a group's row is locked (`for update`, so the group is not
 * deleted meanwhile, and false when it is gone); the registration's form, which has no row, takes a
 * transaction-scoped advisory lock. SQLite runs one write transaction at a time.
 */
export async function lockForm(db: Db, dialect: Dialect, groupId: string | null): Promise<boolean> {
  if (groupId !== null) {
    const query = db.selectFrom('promoter_groups').select('id').where('id', '=', groupId);
    return (await (dialect === 'postgres' ? query.forUpdate() : query).executeTakeFirst()) !== undefined;
  }
  if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(${FORM_LOCK})`.execute(db);
  return true;
}

export async function deleteQuestions(db: Db, ids: string[]): Promise<void> {
  if (ids.length > 0) await db.deleteFrom('application_questions').where('id', 'in', ids).execute();
}

export async function updateQuestion(db: Db, row: QuestionRow, now: number): Promise<void> {
  await db
    .updateTable('application_questions')
    .set({ position: row.position, kind: row.kind, required: row.required, labels_json: row.labels_json, options_json: row.options_json, updated_at: now })
    .where('id', '=', row.id)
    .execute();
}

export async function insertQuestion(db: Db, row: QuestionRow, now: number): Promise<void> {
  await db.insertInto('application_questions').values({ ...row, created_at: now, updated_at: now }).execute();
}

export async function insertAnswers(db: Db, rows: ApplicationAnswersTable[]): Promise<void> {
  if (rows.length > 0) await db.insertInto('application_answers').values(rows).execute();
}

export type AnswerRow = Pick<ApplicationAnswersTable, 'user_id' | 'question_id' | 'source' | 'kind' | 'question_json' | 'value' | 'option_json'>;

/** The answers of these people, each person's in the order they were asked. */
export async function answersOf(db: Db, userIds: string[]): Promise<AnswerRow[]> {
  if (userIds.length === 0) return [];
  return db
    .selectFrom('application_answers')
    .select(['user_id', 'question_id', 'source', 'kind', 'question_json', 'value', 'option_json'])
    .where('user_id', 'in', userIds)
    .orderBy('user_id')
    .orderBy('position')
    .execute();
}
