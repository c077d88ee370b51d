/**
 * The application form's editor state (issue 31, item 8): questions as the admin edits them (every
 * language's label, empty ones too), the body `PUT …/questions` takes, and the server's rules run
 * before sending, with the server's field keys (`questions.<i>.labels`, `questions.<i>.options`…),
 * so the server's answer lands on the same fields.
 */
import { LOCALES, type Locale } from '@pa/shared/locales';
import {
  OPTION_LABEL_MAX, QUESTION_LABEL_MAX, QUESTION_OPTIONS_MAX, QUESTION_OPTIONS_MIN, QUESTIONS_MAX, pickText, type QuestionKind,
} from '@pa/shared/application-form';
import { checkLine } from '@pa/shared/rules';
import type { FieldCode } from '@pa/shared/errors';
import type { ApplicationFormBody, Question } from '@pa/shared';

export type Labels = Record<Locale, string>;
export interface OptionDraft { key: string; id?: string; labels: Labels }
export interface QuestionDraft { key: string; id?: string; kind: QuestionKind; required: boolean; labels: Labels; options: OptionDraft[] }
export type DraftErrors = Record<string, FieldCode>;

export { QUESTIONS_MAX, QUESTION_OPTIONS_MAX };

let seq = 0;
/** A key for React lists that survives moves (ids are given by the server only after saving). */
const nextKey = () => `q${(seq += 1)}`;

const labelsOf = (given: Partial<Record<string, string>> = {}): Labels => Object.fromEntries(LOCALES.map((l) => [l, given[l] ?? ''])) as Labels;

export function draftsOf(questions: readonly Question[]): QuestionDraft[] {
  return questions.map((q) => ({
    key: nextKey(),
    id: q.id,
    kind: q.kind,
    required: q.required,
    labels: labelsOf(q.labels),
    options: q.options.map((o) => ({ key: nextKey(), id: o.id, labels: labelsOf(o.labels) })),
  }));
}

export const newOption = (): OptionDraft => ({ key: nextKey(), labels: labelsOf() });

export function newQuestion(kind: QuestionKind = 'shortText'): QuestionDraft {
  return { key: nextKey(), kind, required: false, labels: labelsOf(), options: kind === 'choice' ? [newOption(), newOption()] : [] };
}

/** A question of another kind: a choice starts with two empty options; other kinds have none. */
export function withKind(q: QuestionDraft, kind: QuestionKind): QuestionDraft {
  if (kind === q.kind) return q;
  if (kind === 'choice') return { ...q, kind, options: q.options.length >= QUESTION_OPTIONS_MIN ? q.options : [...q.options, ...Array.from({ length: QUESTION_OPTIONS_MIN - q.options.length }, newOption)] };
  return { ...q, kind };
}

/** Only the languages filled in, trimmed. */
const filled = (labels: Labels): Partial<Labels> => Object.fromEntries(LOCALES.map((l) => [l, labels[l].trim()]).filter(([, v]) => v)) as Partial<Labels>;

/** What `PUT …/questions` takes: ids kept for questions and options that have one. */
export function bodyOf(drafts: readonly QuestionDraft[]): ApplicationFormBody {
  return {
    questions: drafts.map((q) => ({
      ...(q.id ? { id: q.id } : {}),
      kind: q.kind,
      required: q.required,
      labels: filled(q.labels),
      options: q.kind === 'choice' ? q.options.map((o) => ({ ...(o.id ? { id: o.id } : {}), labels: filled(o.labels) })) : [],
    })),
  };
}

/** Whether two editor states would save the same form. */
export const sameForm = (a: readonly QuestionDraft[], b: readonly QuestionDraft[]) => JSON.stringify(bodyOf(a)) === JSON.stringify(bodyOf(b));

function checkLabels(labels: Labels, max: number, at: string, errors: DraftErrors) {
  let any = false;
  for (const l of LOCALES) {
    const problem = checkLine(labels[l], max, false);
    if (problem) errors[`${at}.${l}`] = problem;
    if (labels[l].trim()) any = true;
  }
  if (!any) errors[at] = 'required';
}

/** The server's rules for a form, keyed as the server names them. */
export function checkDrafts(drafts: readonly QuestionDraft[]): DraftErrors {
  const errors: DraftErrors = {};
  if (drafts.length > QUESTIONS_MAX) errors.questions = 'too_long';
  drafts.forEach((q, i) => {
    checkLabels(q.labels, QUESTION_LABEL_MAX, `questions.${i}.labels`, errors);
    if (q.kind !== 'choice') return;
    if (q.options.length < QUESTION_OPTIONS_MIN) errors[`questions.${i}.options`] = 'too_short';
    if (q.options.length > QUESTION_OPTIONS_MAX) errors[`questions.${i}.options`] = 'too_long';
    q.options.forEach((o, j) => checkLabels(o.labels, OPTION_LABEL_MAX, `questions.${i}.options.${j}.labels`, errors));
  });
  return errors;
}

/** The languages with an error somewhere, to mark them on the language switch. */
export function localesWithErrors(errors: DraftErrors): Set<Locale> {
  const out = new Set<Locale>();
  for (const key of Object.keys(errors)) {
    const last = key.split('.').pop();
    if (last && (LOCALES as readonly string[]).includes(last)) out.add(last as Locale);
  }
  return out;
}

/** Whether every question (and option) has its label in this language. */
export const localeComplete = (drafts: readonly QuestionDraft[], locale: Locale) =>
  drafts.length > 0 && drafts.every((q) => q.labels[locale].trim() && (q.kind !== 'choice' || q.options.every((o) => o.labels[locale].trim())));

/** What a reader of `locale` sees where its label is empty: English, else any filled in. */
export const fallbackOf = (labels: Labels, locale: Locale) => pickText(filled(labels), locale);

/** The list with the item at `index` moved by `delta` (kept in bounds). */
export function moved<T>(items: readonly T[], index: number, delta: number): T[] {
  const to = index + delta;
  if (to < 0 || to >= items.length) return [...items];
  const next = [...items];
  const [item] = next.splice(index, 1);
  next.splice(to, 0, item!);
  return next;
}
