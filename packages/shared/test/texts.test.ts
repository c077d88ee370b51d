import { describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS, AUDIT_ENTITIES, ConversionKindSchema, ConversionSchema, ERROR_CODES, FIELD_CODES, LOCALES, MAIL_TEMPLATES, NOTIFICATION_TYPES, type Locale } from '../src';
import { toCsv } from '../src/csv';
import { currencyMark, formatMoney } from '../src/format';
import {
  AUDIT_TEXTS, auditActionName, COMMON_TEXTS, CONVERSION_TEXTS, CSV_COLUMNS, csvOf, interpolate, NOTIFICATION_TEXTS, placeholdersOf, pluralCategory, SERVER_TEXTS, textValues,
  type TextValue,
} from '../src/texts';

/** Every text of a locale by its dotted key (arrays by index), as i18next reads them. */
function flatten(value: unknown, prefix = ''): Record<string, string> {
  if (typeof value === 'string') return { [prefix]: value };
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => Object.entries(flatten(v, prefix ? `${prefix}.${k}` : k))));
}
/** The whole catalogue of a locale; the parts the web mounts under a key have it as their prefix here. */
const catalogue = (locale: Locale) => ({
  ...flatten(COMMON_TEXTS[locale]),
  ...flatten(SERVER_TEXTS[locale]),
  ...flatten(NOTIFICATION_TEXTS[locale], 'notifications'),
  ...flatten(CONVERSION_TEXTS[locale], 'conversions'),
  ...flatten(AUDIT_TEXTS[locale], 'audit'),
});

const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;
/** A key with its plural category taken off ("mail.x.counted.count_one" → "mail.x.counted.count"). */
const baseKey = (key: string) => key.replace(PLURAL_SUFFIX, '');
const categories = (locale: Locale) => new Intl.PluralRules(locale).resolvedOptions().pluralCategories;

const COUNTS = [0, 1, 2, 5, 21, 1_000_000];
/** The notification parts' money placeholders (message.ts writes them with formatMoney; an adjustment signed). */
const NOTIFICATION_MONEY = new Set(['amount', 'net']);
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

/**
 * i18next's lookup, as the web renders the parts it loads (the inbox's messages): with a `count`,
 * the form `<key>_<category>` of the reader's language first, then the bare key; a missing text is
 * an error, never the key shown.
 */
function lookUp(texts: Readonly<Record<string, string>>, key: string, locale: Locale, count?: number): string {
  const text = (count === undefined ? undefined : texts[`${key}_${pluralCategory(locale, count)}`]) ?? texts[key];
  if (text === undefined) throw new Error(`${locale}: no text for ${key}${count === undefined ? '' : ` with ${count}`}`);
  return text;
}

describe('the catalogue’s parts the web loads by area and the server writes too (issue 30)', () => {
  it.each(LOCALES)('%s renders every inbox message with sample values: each count in its form, money exactly as the web writes it, nothing unfilled', (locale) => {
    const texts = flatten(NOTIFICATION_TEXTS[locale]);
    const keys = [...new Set(Object.keys(texts).map(baseKey))];
    // Every type the server writes has its words (a new type without them fails here, not in a reader's inbox).
    for (const type of NOTIFICATION_TYPES) {
      const group = type === 'adjustment' ? 'adjustment.' : `${type}.`;
      expect(keys.some((k) => k.startsWith(group)), type).toBe(true);
    }
    let rendered = 0;
    for (const currency of CURRENCIES) {
      for (const key of keys) {
        const counted = Object.keys(texts).some((k) => k !== key && baseKey(k) === key);
        for (const n of counted ? COUNTS : [undefined]) {
          const text = lookUp(texts, key, locale, n);
          const names = placeholdersOf(text);
          const signed = key.startsWith('adjustment.');
          const money = (name: string) => formatMoney(name === 'amount' && signed ? -2_710 : 2_710, currency, locale, { signed });
          const values = Object.fromEntries(names.map((name) => [name, NOTIFICATION_MONEY.has(name) ? money(name) : name === 'count' ? String(n) : `‹${name}›`]));
          const out = interpolate(text, values);
          expect(out, `${key} ${n ?? ''}`).not.toMatch(LEFTOVER);
          // The amount is the formatter's, character for character; the text adds no currency of its own around it.
          let rest = out;
          for (const name of names.filter((x) => NOTIFICATION_MONEY.has(x))) {
            expect(out, key).toContain(money(name));
            rest = rest.split(money(name)).join('');
          }
          expect(rest, key).not.toContain(currencyMark(currency));
          if (n !== undefined) expect(out, `${key} ${n}`).toContain(String(n));
          rendered += 1;
        }
      }
    }
    expect(rendered).toBeGreaterThan(200);
  });

  it.each(LOCALES)('%s writes an inbox count in its own form: the singular differs from the plural where the language has one', (locale) => {
    const texts = flatten(NOTIFICATION_TEXTS[locale]);
    const counted = [...new Set(Object.keys(texts).filter((k) => PLURAL_SUFFIX.test(k)).map(baseKey))];
    expect(counted.sort()).toEqual(['staff.enrollment.title', 'staff.ledger_breach.title', 'staff.registration.title', 'staff.withdrawal.body']);
    for (const key of counted) {
      const [one, two] = [lookUp(texts, key, locale, 1), lookUp(texts, key, locale, 2)];
      if (categories(locale).includes('one')) expect(one, key).not.toBe(two);
      else expect(one, key).toBe(two);
    }
    // French puts 0 in the singular, English and Spanish in the plural.
    const registrations = (n: number) => interpolate(lookUp(texts, 'staff.registration.title', locale, n), { count: String(n) });
    const expected: Record<Locale, [string, string, string]> = {
      en: ['0 registrations await approval', '1 registration awaits approval', '21 registrations await approval'],
      fr: ['0 inscription attend une validation', '1 inscription attend une validation', '21 inscriptions attendent une validation'],
      es: ['0 registros esperan aprobación', '1 registro espera aprobación', '21 registros esperan aprobación'],
      'zh-Hans': ['0 个注册待审核', '1 个注册待审核', '21 个注册待审核'],
      'zh-Hant': ['0 個註冊待審核', '1 個註冊待審核', '21 個註冊待審核'],
    };
    expect([registrations(0), registrations(1), registrations(21)]).toEqual(expected[locale]);
  });

  it.each(LOCALES)('%s names every audit action and subject, each action differently, and leaves an unknown action as its code', (locale) => {
    const names = AUDIT_ACTIONS.map((action) => auditActionName(action, locale));
    for (const [i, action] of AUDIT_ACTIONS.entries()) {
      expect(names[i], action).not.toBe(action);
      expect(names[i]!.trim(), action).not.toBe('');
    }
    // The console's filter lists them by name: two the same would be two choices that read alike.
    expect(new Set(names).size).toBe(names.length);
    for (const entity of [...AUDIT_ENTITIES, 'promoter'] as const) expect(AUDIT_TEXTS[locale].entities[entity], entity).toBeTruthy();
    expect(auditActionName('withdrawal.teleported', locale)).toBe('withdrawal.teleported');
    expect(auditActionName('nothing', locale)).toBe('nothing');
    expect(auditActionName('promoter.constructor', locale)).toBe('promoter.constructor');
  });

  it.each(LOCALES)('%s names every kind of conversion and every way one is credited', (locale) => {
    for (const kind of ConversionKindSchema.options) expect(CONVERSION_TEXTS[locale].kind[kind], kind).toBeTruthy();
    for (const by of ConversionSchema.shape.attributedBy.unwrap().options) expect(CONVERSION_TEXTS[locale].attributedBy[by], by).toBeTruthy();
    // And `bounty`, a commission's kind only (a bounty's reward has no conversion).
    expect(Object.keys(CONVERSION_TEXTS[locale].kind).sort()).toEqual([...ConversionKindSchema.options, 'bounty'].sort());
  });

  it.each(LOCALES)('%s fills the webhook test event’s message with the installation’s name', (locale) => {
    const message = interpolate(SERVER_TEXTS[locale].webhookTest.message, { app: 'Tea Partners' });
    expect(message).toContain('Tea Partners');
    expect(message).not.toMatch(LEFTOVER);
  });

  it('gives every CSV export one list of snake_case English column names, the same in every language, each name once', () => {
    expect(Object.keys(CSV_COLUMNS).length).toBe(12);
    for (const [name, columns] of Object.entries(CSV_COLUMNS)) {
      expect(new Set(columns).size, name).toBe(columns.length);
      expect(() => toCsv(columns, []), name).not.toThrow();
    }
    // The audit export names the action beside its code.
    expect(CSV_COLUMNS.audit.indexOf('action_name')).toBe(CSV_COLUMNS.audit.indexOf('action') + 1);
    // A record by column name comes out in the catalogue's order, whatever order it was written in.
    const csv = csvOf('enrollments', [{ id: 'e1', coupon_code: null, requested_at: '2026-01-05 09:07', status: 'Approved', campaign: 'Tea', promoter_account: 'a@b.c', promoter_name: 'Lin' }]);
    expect(csv).toBe('\uFEFFpromoter_name,promoter_account,campaign,status,requested_at,coupon_code,id\r\nLin,a@b.c,Tea,Approved,2026-01-05 09:07,,e1\r\n');
  });
});
