/** The application form's answer rules (issue 31, item 8), which the register page and the server both run. */
import { describe, expect, it } from 'vitest';
import { checkAnswer, checkAnswers, isWebAddress, normalizeAnswer, pickText, type AskedQuestion } from '../src/application-form';
import { checkGroupCode, normalizeInviteCode } from '../src/rules';

const q = (kind: AskedQuestion['kind'], required = true, options: string[] = []): AskedQuestion => ({ id: kind, kind, required, options: options.map((id) => ({ id })) });

describe('answers', () => {
  it('a required question needs an answer that is not blank; an optional one may be left empty', () => {
    expect(checkAnswer(q('shortText'), undefined)).toBe('required');
    expect(checkAnswer(q('shortText'), '   \n ')).toBe('required');
    expect(checkAnswer(q('shortText', false), '')).toBeNull();
  });

  it('short text: one line, at most 200 characters (counted as characters, not UTF-16 units)', () => {
    expect(checkAnswer(q('shortText'), '茶'.repeat(200))).toBeNull();
    expect(checkAnswer(q('shortText'), '😀'.repeat(200))).toBeNull();
    expect(checkAnswer(q('shortText'), 'x'.repeat(201))).toBe('too_long');
    expect(checkAnswer(q('shortText'), 'two\nlines')).toBe('control_characters');
    expect(checkAnswer(q('shortText'), 'bidi\u202Etrick')).toBe('control_characters');
  });

  it('long text keeps line breaks and tabs, refuses other control characters, at most 2,000 characters', () => {
    expect(checkAnswer(q('longText'), 'line one\r\nline two\ttabbed')).toBeNull();
    expect(normalizeAnswer('longText', ' a\r\nb\rc ')).toBe('a\nb\nc');
    expect(checkAnswer(q('longText'), 'bell\u0007')).toBe('control_characters');
    expect(checkAnswer(q('longText'), 'y'.repeat(2001))).toBe('too_long');
  });

  it('an address: http(s) with a dotted host, https:// added when typed without a scheme', () => {
    expect(normalizeAnswer('url', 'instagram.com/tea')).toBe('https://instagram.com/tea');
    expect(checkAnswer(q('url'), 'instagram.com/tea')).toBeNull();
    expect(checkAnswer(q('url'), 'http://shop.example.com/x?y=1')).toBeNull();
    for (const bad of ['javascript:alert(1)', 'ftp://files.example.com', 'https://localhost/', 'not an address', 'https://.example.com', 'mailto:a@b.example']) {
      expect(checkAnswer(q('url'), bad), bad).toBe('invalid');
    }
    expect(checkAnswer(q('url'), `https://example.com/${'a'.repeat(490)}`)).toBe('too_long');
    expect(isWebAddress('https://shop.example.com')).toBe(true);
  });

  it('a choice: one of the options offered, by id', () => {
    expect(checkAnswer(q('choice', true, ['a', 'b']), 'b')).toBeNull();
    expect(checkAnswer(q('choice', true, ['a', 'b']), 'c')).toBe('invalid');
  });

  it('checks a whole form: fields named answers.<id>, unknown answers refused, values normalized in order', () => {
    const form = [q('url'), q('shortText', false), q('choice', true, ['x'])];
    expect(checkAnswers(form, { url: 'shop.example.com', choice: 'x', shortText: ' ' })).toEqual({ fields: {}, answers: [{ questionId: 'url', value: 'https://shop.example.com' }, { questionId: 'choice', value: 'x' }] });
    expect(checkAnswers(form, { choice: 'y', extra: 'hi' }).fields).toEqual({ 'answers.extra': 'unknown_field', 'answers.url': 'required', 'answers.choice': 'invalid' });
    // An inherited key is not an answer.
    expect(checkAnswers(form, Object.create({ url: 'shop.example.com' }) as Record<string, string>).fields['answers.url']).toBe('required');
  });
});

describe('texts and codes', () => {
  it('a per-locale text in the reader’s language, else English, else any filled in', () => {
    expect(pickText({ en: 'Site', 'zh-Hans': '网站' }, 'zh-Hans')).toBe('网站');
    expect(pickText({ en: 'Site', 'zh-Hans': '网站' }, 'fr')).toBe('Site');
    expect(pickText({ fr: 'Site web' }, 'es')).toBe('Site web');
    expect(pickText({ fr: '' }, 'es')).toBe('');
  });

  it('a group code: 12 Crockford characters, look-alikes read as in invite codes', () => {
    expect(checkGroupCode('abcd-efgh-jkmn')).toBe('invalid');
    expect(checkGroupCode('abcdefghjkmn')).toBeNull();
    expect(normalizeInviteCode('oil0abcdefgh')).toBe('0110ABCDEFGH');
    expect(checkGroupCode('ABCDEFGH')).toBe('invalid');
  });
});
