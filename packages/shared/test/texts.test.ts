import { describe, expect, it } from 'vitest';
import { ERROR_CODES, FIELD_CODES, LOCALES, MAIL_TEMPLATES, type Locale } from '../src';
import { currencyMark, formatMoney } from '../src/format';
import { COMMON_TEXTS, interpolate, placeholdersOf, pluralCategory, SERVER_TEXTS, textValues, type TextValue } from '../src/texts';

/** Every text of a locale by its dotted key (arrays by index), as i18next reads them. */
function flatten(value: unknown, prefix = ''): Record<string, string> {
  if (typeof value === 'string') return { [prefix]: value };
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => Object.entries(flatten(v, prefix ? `${prefix}.${k}` : k))));
}
const catalogue = (locale: Locale) => ({ ...flatten(COMMON_TEXTS[locale]), ...flatten(SERVER_TEXTS[locale]) });

const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;
/** A key with its plural category taken off ("mail.x.counted.count_one" → "mail.x.counted.count"). */
const baseKey = (key: string) => key.replace(PLURAL_SUFFIX, '');
const categories = (locale: Locale) => new Intl.PluralRules(locale).resolvedOptions().pluralCategories;

const COUNTS = [0, 1, 2, 5, 21, 1_000_000];
const CURRENCIES = ['CNY', 'USD', 'EUR', 'JPY'];
const MONEY = new Set(['amount', 'net', 'fee', 'total']);

/** Sample values for a placeholder by its name: money for amounts, a day, a text otherwise. */
function sample(name: string, currency: string): TextValue {
  if (MONEY.has(name)) return { minor: 2_710, currency };
  if (name === 'day') return { day: '2026-11-24' };
  return `‹${name}›`;
}

/** What a leftover placeholder looks like in any style (i18next's, ICU's, the old mails' `#`). */
const LEFTOVER = /\{\{?\s*\w+|\}\}?|#/;

describe('the text catalogue (issue 30)', () => {
  it.each(LOCALES)('%s has every key English has, the same placeholders, and no empty text', (locale) => {
    const en = catalogue('en');
    const texts = catalogue(locale);
    const bases = (o: Record<string, string>) => [...new Set(Object.keys(o).map(baseKey))].sort();
    expect(bases(texts)).toEqual(bases(en));
    const enPlaceholders = new Map(Object.entries(en).map(([k, v]) => [baseKey(k), placeholdersOf(v)]));
    for (const [key, text] of Object.entries(texts)) {
      expect(text.trim(), key).not.toBe('');
      expect(placeholdersOf(text), key).toEqual(enPlaceholders.get(baseKey(key)));
    }
    // Every code the API can answer with, and the web's own NETWORK.
    for (const code of [...ERROR_CODES, 'NETWORK'] as const) expect(COMMON_TEXTS[locale].errors[code], code).toBeTruthy();
    for (const code of FIELD_CODES) expect(COMMON_TEXTS[locale].fields[code], code).toBeTruthy();
    for (const template of MAIL_TEMPLATES) expect(SERVER_TEXTS[locale].mail[template], template).toBeDefined();
  });

  it.each(LOCALES)('%s gives every counted phrase exactly the plural forms of the language, and each form says its number once', (locale) => {
    const texts = catalogue(locale);
    const counted = new Map<string, string[]>();
    for (const key of Object.keys(texts).filter((k) => PLURAL_SUFFIX.test(k))) counted.set(baseKey(key), [...(counted.get(baseKey(key)) ?? []), key.match(PLURAL_SUFFIX)![1]!]);
    expect(counted.size).toBeGreaterThan(10);
    for (const [base, forms] of counted) {
      // i18next looks up `<key>_<category>` (then the bare key): a missing category would print the key, an extra one is never read.
      expect(forms.sort(), base).toEqual([...categories(locale)].sort());
      for (const form of forms) expect(placeholdersOf(texts[`${base}_${form}`]!), `${base}_${form}`).toEqual(['count']);
    }
  });

  it('puts each sample count in the form Intl.PluralRules names: French 0 and 1 singular, English 0 plural, Chinese one form', () => {
    expect(COUNTS.map((n) => pluralCategory('en', n))).toEqual(['other', 'one', 'other', 'other', 'other', 'other']);
    expect(COUNTS.map((n) => pluralCategory('fr', n))).toEqual(['one', 'one', 'other', 'other', 'other', 'many']);
    expect(COUNTS.map((n) => pluralCategory('es', n))).toEqual(['other', 'one', 'other', 'other', 'other', 'many']);
    for (const zh of ['zh-Hans', 'zh-Hant']) expect(COUNTS.map((n) => pluralCategory(zh, n))).toEqual(COUNTS.map(() => 'other'));
  });

  it.each(LOCALES)('%s renders every text with sample values (counts 0, 1, 2, 5, 21, a million; money in four currencies): nothing left unfilled', (locale) => {
    let rendered = 0;
    for (const currency of CURRENCIES) {
      for (const [key, text] of Object.entries(catalogue(locale))) {
        if (PLURAL_SUFFIX.test(key)) continue; // rendered through the text that counts with them, below
        const counted = key.startsWith('mail.') ? SERVER_TEXTS[locale].mail[key.split('.')[1] as (typeof MAIL_TEMPLATES)[number]].counted : undefined;
        for (const n of COUNTS) {
          const values = Object.fromEntries(placeholdersOf(text).map((name) => [name, counted && Object.keys(counted).some((k) => baseKey(k) === name) ? n : sample(name, currency)]));
          const out = interpolate(text, textValues(values, locale, counted));
          expect(out, `${key} with ${n}`).not.toMatch(LEFTOVER);
          rendered += 1;
        }
      }
    }
    expect(rendered).toBeGreaterThan(500);
  });

  it.each(LOCALES)('%s writes each count in its own form: never "1 commissions", and the singular differs from the plural where the language has one', (locale) => {
    for (const template of MAIL_TEMPLATES) {
      const counted = SERVER_TEXTS[locale].mail[template].counted;
      if (!counted) continue;
      for (const name of new Set(Object.keys(counted).map(baseKey))) {
        for (const n of COUNTS) {
          const phrase = textValues({ [name]: n }, locale, counted)[name]!;
          const form = counted[`${name}_${pluralCategory(locale, n)}`]!;
          expect(phrase, `${template}.${name} ${n}`).toBe(interpolate(form, { count: new Intl.NumberFormat(locale).format(n) }));
        }
        if (categories(locale).includes('one')) expect(counted[`${name}_one`], `${template}.${name}`).not.toBe(counted[`${name}_other`]);
      }
    }
    const digest = (n: number) => textValues({ count: n }, locale, SERVER_TEXTS[locale].mail.commission_digest.counted).count;
    const expected: Record<Locale, [string, string, string]> = {
      en: ['0 commissions', '1 commission', '2 commissions'],
      fr: ['0 commission approuvée', '1 commission approuvée', '2 commissions approuvées'],
      es: ['0 comisiones aprobadas', '1 comisión aprobada', '2 comisiones aprobadas'],
      'zh-Hans': ['0 笔', '1 笔', '2 笔'],
      'zh-Hant': ['0 筆', '1 筆', '2 筆'],
    };
    expect([digest(0), digest(1), digest(2)]).toEqual(expected[locale]);
  });

  it.each(LOCALES)('%s writes money as the web does (one currency mark in every language), and no text writes a currency itself', (locale) => {
    for (const currency of CURRENCIES) {
      const written = textValues({ amount: { minor: 2_710, currency } }, locale).amount!;
      expect(written).toBe(formatMoney(2_710, currency, locale));
      expect(written).toContain(currencyMark(currency));
    }
    const cny = textValues({ amount: { minor: 2_710, currency: 'CNY' } }, locale).amount;
    expect(cny?.replace(/\s/g, ' ')).toBe(locale === 'fr' || locale === 'es' ? '27,10 CN¥' : 'CN¥27.10');
    for (const [key, text] of Object.entries(catalogue(locale))) expect(text, key).not.toMatch(/[¥$€£]|\b(CNY|USD|EUR|JPY|RMB)\b/);
  });
});
