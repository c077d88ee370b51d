import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, FIELD_CODES, LOCALES } from '@pa/shared';
import { AREAS, readArea, readAreaFile, readTexts, TEXTS_DIR } from './texts';

const flatten = (o: Record<string, unknown>, prefix = ''): Record<string, string> =>
  Object.fromEntries(
    Object.entries(o).flatMap(([k, v]) => (v && typeof v === 'object' ? Object.entries(flatten(v as Record<string, unknown>, `${prefix}${k}.`)) : [[`${prefix}${k}`, v as string]])),
  );
const placeholders = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

describe('five complete locales, in three areas', () => {
  it('has a folder per supported locale, each with exactly the three areas', () => {
    expect(fs.readdirSync(TEXTS_DIR).sort()).toEqual([...LOCALES].sort());
    for (const locale of LOCALES) {
      expect(fs.readdirSync(path.join(TEXTS_DIR, locale)).map((f) => f.replace(/\.json$/, '')).sort(), locale).toEqual([...AREAS].sort());
    }
  });

  it('gives each top-level key to one area only (they share one i18next namespace)', () => {
    const owner = new Map<string, string>();
    for (const area of AREAS) {
      for (const key of Object.keys(readArea(area, 'en'))) {
        expect(owner.get(key), `${key} is in ${owner.get(key)} and ${area}`).toBeUndefined();
        owner.set(key, area);
      }
    }
    expect(owner.size).toBeGreaterThan(40);
  });

  // The area's own file; the catalogue's parts that come with it (error and field texts, inbox
  // messages, conversion terms, audit names) are held to the same rules, and to each language's
  // exact plural forms, by packages/shared/test/texts.test.ts.
  describe.each(AREAS)('%s', (area) => {
    const en = flatten(readAreaFile(area, 'en'));

    it.each(LOCALES)('%s has every key, no empty text and the same placeholders', (locale) => {
      const messages = flatten(readAreaFile(area, locale));
      expect(Object.keys(messages).sort()).toEqual(Object.keys(en).sort());
      for (const [key, value] of Object.entries(messages)) {
        expect(typeof value, key).toBe('string');
        expect(value.trim().length, key).toBeGreaterThan(0);
        expect(placeholders(value), key).toEqual(placeholders(en[key]!));
      }
    });
  });

  it.each(LOCALES)('%s translates every error code, field code and language in sign-in’s texts (any screen may show them)', (locale) => {
    const messages = flatten(readArea('common', locale));
    for (const code of ERROR_CODES) expect(messages[`errors.${code}`], code).toBeTruthy();
    for (const code of FIELD_CODES) expect(messages[`fields.${code}`], code).toBeTruthy();
    for (const l of LOCALES) expect(messages[`languages.${l}`]).toBeTruthy();
  });

  it.each(LOCALES)('%s names the places it sends the reader to as they are named on screen, and never sends them to an administrator for a new link', (locale) => {
    const messages = flatten(readTexts(locale));
    // "Me → E-mail address": the Me tab and the page's title (Spanish said "Yo" where the tab says "Cuenta").
    expect(messages['verifyEmail.askAgain']).toContain(messages['tabs.me']);
    expect(messages['verifyEmail.askAgain']).toContain(messages['emailAddress.title']);
    expect(messages['verifyEmail.toMe']).toContain(messages['tabs.me']);
    // A used or expired link: the page offers the way to a new one (Me → E-mail address, forgot password); Chinese said "ask an administrator".
    expect(messages['errors.RESET_TOKEN_INVALID']).not.toMatch(/admin|管理员|管理員/i);
  });

  it('translations are not left in English', () => {
    for (const locale of ['zh-Hans', 'zh-Hant']) {
      const messages = flatten(readTexts(locale));
      const english = Object.entries(messages).filter(([k, v]) => !k.startsWith('languages.') && /^[A-Za-z ,.'!?-]+$/.test(v));
      expect(english, locale).toEqual([]);
    }
  });
});
