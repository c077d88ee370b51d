/**
 * The application form (issue 31, item 8; docs/groups.md). Two kinds of form: the registration's
 * (asked while registration is in `approval` mode) and a group's (asked of whoever registers
 * through that group's invite link, in any mode). Labels per locale, shown in the reader's
 * language, else English, else any filled in. Answers are checked by the shared rules
 * (application-form.ts) and stored with the question as it was asked, so editing or deleting a
 * question later leaves what people answered readable.
 */
import {
  ANSWER_MAX, DEFAULT_GROUP_ID, checkAnswers, pickText, type ApplicationAnswer, type ApplicationForm, type ApplicationFormBody, type AskedQuestion, type FieldCode, type Locale,
  type Question, type QuestionKind, type RegistrationForm,
} from '@pa/shared';
import type { AppContext } from '../../context';
import type { Db, Dialect } from '../../db/types';
import { audit, type Actor } from '../../platform/audit';
import { AppError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { readSettings } from '../../platform/settings';
import {
  answersOf, deleteQuestions, formQuestions, groupByCode, groupExists, holdGroup, insertAnswers, insertQuestion, lockForm, updateQuestion, type QuestionRow,
} from './repository';

type Labels = Partial<Record<Locale, string>>;

/** A question as the forms hold it (its labels parsed), with the form that asks it. */
export interface FormQuestion extends AskedQuestion {
  source: 'registration' | 'group';
  labels: Labels;
  options: { id: string; labels: Labels }[];
}

const toQuestion = (r: QuestionRow): Question => ({
  id: r.id,
  kind: r.kind,
  required: r.required === 1,
  labels: JSON.parse(r.labels_json) as Labels,
  options: JSON.parse(r.options_json) as { id: string; labels: Labels }[],
});

/** The questions of one form: `groupId` null for the registration's. NOT_FOUND for an unknown group. */
export async function applicationForm(ctx: AppContext, groupId: string | null): Promise<ApplicationForm> {
  if (groupId !== null && !(await groupExists(ctx.db, groupId))) throw new AppError('NOT_FOUND');
  return { questions: (await formQuestions(ctx.db, groupId)).map(toQuestion) };
}

/** Only the labels filled in (an emptied language falls back like one never written). */
const filled = (labels: Labels): Labels => Object.fromEntries(Object.entries(labels).filter(([, v]) => !!v)) as Labels;

/**
 * Replaces a form with the questions given, in their order. A question (or option) sent with its
 * id keeps it — answers name it — and must be one of this form's (`questions.<i>.id: not_found`);
 * new ones get ids. Nothing changed writes nothing; otherwise one audit entry with before and after.
 */
export async function saveApplicationForm(ctx: AppContext, actor: Actor, groupId: string | null, body: ApplicationFormBody): Promise<ApplicationForm> {
  // The default group has no invite link of its own: questions of its own would never be asked.
  if (groupId === DEFAULT_GROUP_ID) throw new AppError('DEFAULT_GROUP');
  await ctx.uow.run(async ({ q: trx }) => {
    if (!(await lockForm(trx, ctx.dialect, groupId))) throw new AppError('NOT_FOUND');
    const existing = await formQuestions(trx, groupId);
    const byId = new Map(existing.map((r) => [r.id, toQuestion(r)]));
    const fields: Record<string, FieldCode> = {};
    const now = Date.now();
    const next: QuestionRow[] = body.questions.map((q, i) => {
      const old = q.id === undefined ? undefined : byId.get(q.id);
      if (q.id !== undefined && !old) fields[`questions.${i}.id`] = 'not_found';
      const options = (q.kind === 'choice' ? q.options ?? [] : []).map((o, j) => {
        if (o.id !== undefined && !old?.options.some((p) => p.id === o.id)) fields[`questions.${i}.options.${j}.id`] = 'not_found';
        return { id: o.id ?? newId(now), labels: filled(o.labels) };
      });
      return {
        id: q.id ?? newId(now),
        group_id: groupId,
        position: i,
        kind: q.kind,
        required: q.required ? 1 : 0,
        labels_json: JSON.stringify(filled(q.labels)),
        options_json: JSON.stringify(options),
      };
    });
    if (Object.keys(fields).length > 0) throw new AppError('VALIDATION_FAILED', fields);
    const same = (a: QuestionRow, b: QuestionRow) => a.position === b.position && a.kind === b.kind && a.required === b.required && a.labels_json === b.labels_json && a.options_json === b.options_json;
    const kept = new Set(next.map((r) => r.id));
    const removed = existing.filter((r) => !kept.has(r.id)).map((r) => r.id);
    const changed = next.filter((r) => { const old = existing.find((e) => e.id === r.id); return !old || !same(old, r); });
    if (removed.length === 0 && changed.length === 0) return;
    await deleteQuestions(trx, removed);
    for (const row of changed) {
      if (byId.has(row.id)) await updateQuestion(trx, row, now);
      else await insertQuestion(trx, row, now);
    }
    await audit(trx, {
      actorId: actor.userId,
      action: 'application_form.update',
      entity: groupId === null ? 'settings' : 'group',
      entityId: groupId,
      before: { questions: existing.map(toQuestion) },
      after: { questions: next.map(toQuestion) },
      ip: actor.ip,
    }, now);
  });
  return applicationForm(ctx, groupId);
}

function formQuestion(row: QuestionRow, source: FormQuestion['source']): FormQuestion {
  const q = toQuestion(row);
  return { ...q, source };
}

/**
 * What a registration is asked: the registration's questions while registration is in approval
 * mode, then those of the group the invite link names. An unknown group code is
 * INVITE_CODE_INVALID (`groupCode: invalid`): the link was withdrawn or its group deleted.
 */
export async function registrationQuestions(db: Db, input: { groupCode?: string | undefined; approval: boolean }): Promise<{ groupId: string | null; questions: FormQuestion[] }> {
  const group = input.groupCode ? await groupByCode(db, input.groupCode) : undefined;
  if (input.groupCode && !group) throw new AppError('INVITE_CODE_INVALID', { groupCode: 'invalid' });
  const [own, groups] = await Promise.all([
    input.approval ? formQuestions(db, null) : Promise.resolve([]),
    group ? formQuestions(db, group.id) : Promise.resolve([]),
  ]);
  return { groupId: group?.id ?? null, questions: [...own.map((r) => formQuestion(r, 'registration')), ...groups.map((r) => formQuestion(r, 'group'))] };
}

/** `GET api/auth/application-form`: the questions in the reader's language, for the register page. */
export async function publicRegistrationForm(ctx: AppContext, groupCode: string | undefined, locale: Locale): Promise<RegistrationForm> {
  const settings = await readSettings(ctx.db);
  let asked: FormQuestion[];
  try {
    asked = (await registrationQuestions(ctx.db, { groupCode, approval: settings.registrationMode === 'approval' })).questions;
  } catch (error) {
    // For the page, an unknown link is simply not found.
    if (error instanceof AppError && error.code === 'INVITE_CODE_INVALID') throw new AppError('NOT_FOUND');
    throw error;
  }
  return {
    questions: asked.map((q) => ({
      id: q.id,
      kind: q.kind,
      required: q.required,
      label: pickText(q.labels, locale),
      options: q.options.map((o) => ({ id: o.id, label: pickText(o.labels, locale) })),
      maxLength: ANSWER_MAX[q.kind],
    })),
  };
}

/** Checks a registration's answers: VALIDATION_FAILED naming each field (`answers.<questionId>`). */
export function checkRegistrationAnswers(questions: FormQuestion[], given: Record<string, string>): { question: FormQuestion; value: string }[] {
  const { fields, answers } = checkAnswers(questions, given);
  if (Object.keys(fields).length > 0) throw new AppError('VALIDATION_FAILED', fields);
  const byId = new Map(questions.map((q) => [q.id, q]));
  return answers.map((a) => ({ question: byId.get(a.questionId)!, value: a.value }));
}

/** Inside the registration's transaction: the group is still there (held until the commit). */
export async function holdJoinedGroup(db: Db, dialect: Dialect, groupId: string): Promise<void> {
  if (!(await holdGroup(db, dialect, groupId))) throw new AppError('INVITE_CODE_INVALID', { groupCode: 'invalid' });
}

/** Stores a new person's answers with each question (and chosen option) as it was asked. */
export async function recordAnswers(db: Db, userId: string, answers: { question: FormQuestion; value: string }[], now: number): Promise<void> {
  await insertAnswers(db, answers.map(({ question, value }, position) => ({
    id: newId(now),
    user_id: userId,
    question_id: question.id,
    source: question.source,
    position,
    kind: question.kind,
    question_json: JSON.stringify(question.labels),
    value,
    option_json: question.kind === 'choice' ? JSON.stringify(question.options.find((o) => o.id === value)?.labels ?? {}) : null,
    created_at: now,
  })));
}

/** Each person's answers in the reader's language (the question as it was asked; a choice as its option's text). */
export async function answersFor(db: Db, userIds: string[], locale: Locale): Promise<Map<string, ApplicationAnswer[]>> {
  const byUser = new Map<string, ApplicationAnswer[]>();
  for (const r of await answersOf(db, userIds)) {
    const list = byUser.get(r.user_id) ?? [];
    list.push({
      questionId: r.question_id,
      source: r.source,
      kind: r.kind as QuestionKind,
      question: pickText(JSON.parse(r.question_json) as Labels, locale),
      answer: r.option_json === null ? r.value : pickText(JSON.parse(r.option_json) as Labels, locale) || r.value,
    });
    byUser.set(r.user_id, list);
  }
  return byUser;
}
