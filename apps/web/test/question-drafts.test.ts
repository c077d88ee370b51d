/** The application form's editor state (lib/question-drafts.ts): what it sends, and the server's rules run before sending. */
import { describe, expect, it } from 'vitest';
import type { Question } from '@pa/shared';
import { bodyOf, checkDrafts, draftsOf, fallbackOf, localeComplete, localesWithErrors, moved, newQuestion, sameForm, withKind } from '../src/lib/question-drafts';

const saved: Question[] = [
  { id: 'q1', kind: 'url', required: true, labels: { en: 'Your site', 'zh-Hans': '你的网站' }, options: [] },
  { id: 'q2', kind: 'choice', required: false, labels: { fr: 'Canal' }, options: [{ id: 'o1', labels: { en: 'WeChat' } }, { id: 'o2', labels: { en: 'Douyin' } }] },
];

describe('the questions editor', () => {
  it('sends back what it was given, ids kept and only the languages filled in', () => {
    const drafts = draftsOf(saved);
    expect(bodyOf(drafts)).toEqual({ questions: saved });
    expect(sameForm(drafts, draftsOf(saved))).toBe(true);
    const edited = drafts.map((q, i) => (i === 0 ? { ...q, labels: { ...q.labels, fr: '  Votre site ' } } : q));
    expect(sameForm(edited, drafts)).toBe(false);
    expect(bodyOf(edited).questions[0]!.labels).toEqual({ en: 'Your site', 'zh-Hans': '你的网站', fr: 'Votre site' });
  });

  it('a new question has no id; a choice starts with two empty options, other kinds send none', () => {
    const choice = withKind(newQuestion(), 'choice');
    expect(choice.options).toHaveLength(2);
    const back = withKind(choice, 'longText');
    expect(bodyOf([back]).questions[0]).toEqual({ kind: 'longText', required: false, labels: {}, options: [] });
  });

  it('runs the server’s rules with the server’s field keys', () => {
    const choice = withKind(newQuestion(), 'choice');
    const drafts = [...draftsOf(saved), choice];
    drafts[0] = { ...drafts[0]!, labels: { ...drafts[0]!.labels, es: 'x'.repeat(201) } };
    drafts[2] = { ...choice, options: [choice.options[0]!] };
    expect(checkDrafts(drafts)).toEqual({
      'questions.0.labels.es': 'too_long',
      'questions.2.labels': 'required',
      'questions.2.options': 'too_short',
      'questions.2.options.0.labels': 'required',
    });
    expect(localesWithErrors(checkDrafts(drafts))).toEqual(new Set(['es']));
    expect(checkDrafts(draftsOf(saved))).toEqual({});
    const line = draftsOf(saved);
    line[0] = { ...line[0]!, labels: { ...line[0]!.labels, en: 'two\nlines' } };
    expect(checkDrafts(line)).toEqual({ 'questions.0.labels.en': 'control_characters' });
  });

  it('shows what readers of an unwritten language get, and which languages are complete', () => {
    const [url, choice] = draftsOf(saved);
    expect(fallbackOf(url!.labels, 'fr')).toBe('Your site');
    expect(fallbackOf(choice!.labels, 'es')).toBe('Canal');
    expect(localeComplete(draftsOf(saved), 'en')).toBe(false);
    expect(localeComplete(draftsOf(saved.slice(0, 1)), 'zh-Hans')).toBe(true);
  });

  it('moves a question up or down, never out of the list', () => {
    expect(moved(['a', 'b', 'c'], 2, -1)).toEqual(['a', 'c', 'b']);
    expect(moved(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
    expect(moved(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
  });
});
