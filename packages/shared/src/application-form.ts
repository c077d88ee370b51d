/**
 * The application form (issue 31, item 8): questions a person answers when registering — the
 * registration's own (asked while registration is in `approval` mode) and those of the group whose
 * invite link they came through. The rules of an answer live here so that the register page runs
 * the server's very rules before sending, and the server runs them again on every registration.
 */
import type { FieldCode } from './errors';
import type { Locale } from './locales';
import { checkLine } from './rules';

export const QUESTION_KINDS = ['shortText', 'longText', 'url', 'choice'] as const;
export type QuestionKind = (typeof QUESTION_KINDS)[number];

/** Questions in one form (the registration's, or one group's). */
export const QUESTIONS_MAX = 20;
/** A choice offers 2 to 20 options. */
export const QUESTION_OPTIONS_MIN = 2;
export const QUESTION_OPTIONS_MAX = 20;
export const QUESTION_LABEL_MAX = 200;
export const OPTION_LABEL_MAX = 100;
/** The longest answer of each kind, in characters (a choice's answer is the chosen option's id). */
export const ANSWER_MAX: Record<QuestionKind, number> = { shortText: 200, longText: 2000, url: 500, choice: 64 };

/** What the rules need of a question. */
export interface AskedQuestion {
  id: string;
  kind: QuestionKind;
  required: boolean;
  options: readonly { id: string }[];
}

/** Characters no answer may hold; a long answer keeps its line feeds and tabs. */
const FORBIDDEN = /[\p{Cc}\p{Zl}\p{Zp}\u202A-\u202E\u2066-\u2069]/u;

/**
 * An answer as it is checked and stored: line ends as `\n`, trimmed; an address typed without its
 * scheme ("instagram.com/tea") gets `https://`, as people rarely type one.
 */
export function normalizeAnswer(kind: QuestionKind, raw: string): string {
  const v = raw.replace(/\r\n?/g, '\n').trim();
  if (kind === 'url' && v && !/^[a-z][a-z0-9+.-]*:/i.test(v)) return `https://${v}`;
  return v;
}

/** An http(s) address with a host name that has a dot in it, and no spaces. */
export function isWebAddress(v: string): boolean {
  if (/\s/.test(v)) return false;
  try {
    const url = new URL(v);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname.includes('.') && !url.hostname.startsWith('.') && !url.hostname.endsWith('.');
  } catch {
    return false;
  }
}

/** The field code of one answer (normalized first), or null when it is acceptable. */
export function checkAnswer(question: AskedQuestion, raw: string | undefined): FieldCode | null {
  const v = normalizeAnswer(question.kind, raw ?? '');
  if (!v) return question.required ? 'required' : null;
  const max = ANSWER_MAX[question.kind];
  switch (question.kind) {
    case 'shortText':
      return checkLine(v, max);
    case 'longText':
      if ([...v].some((ch) => ch !== '\n' && ch !== '\t' && FORBIDDEN.test(ch))) return 'control_characters';
      return [...v].length > max ? 'too_long' : null;
    case 'url':
      if ([...v].length > max) return 'too_long';
      return isWebAddress(v) ? null : 'invalid';
    case 'choice':
      return question.options.some((o) => o.id === v) ? null : 'invalid';
  }
}

/**
 * Every answer checked against the questions asked: `fields` names each problem
 * (`answers.<questionId>`; an answer to a question not asked is `unknown_field`), `answers` the
 * normalized non-empty ones, in the questions' order.
 */
export function checkAnswers(questions: readonly AskedQuestion[], given: Readonly<Record<string, string>>): { fields: Record<string, FieldCode>; answers: { questionId: string; value: string }[] } {
  const fields: Record<string, FieldCode> = {};
  const asked = new Set(questions.map((q) => q.id));
  for (const key of Object.keys(given)) if (!asked.has(key)) fields[`answers.${key}`] = 'unknown_field';
  const answers: { questionId: string; value: string }[] = [];
  for (const q of questions) {
    const raw = Object.hasOwn(given, q.id) ? given[q.id] : undefined;
    const problem = checkAnswer(q, raw);
    if (problem) fields[`answers.${q.id}`] = problem;
    else {
      const value = normalizeAnswer(q.kind, raw ?? '');
      if (value) answers.push({ questionId: q.id, value });
    }
  }
  return { fields, answers };
}

/** A per-locale text in the reader's language: theirs, else English, else any that is filled. */
export function pickText(texts: Readonly<Partial<Record<string, string>>>, locale: Locale | string): string {
  return texts[locale] || texts.en || Object.values(texts).find((v): v is string => !!v) || '';
}
