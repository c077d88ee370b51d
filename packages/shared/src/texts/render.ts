/**
 * The catalogue's one way of filling a text, by i18next's rules so that the web (which hands the
 * catalogue's entries to i18next) and the server (which renders them here) write the same words:
 * `{{name}}` placeholders, and a counted phrase chosen by its number's plural category
 * (Intl.PluralRules of the reader's locale) among `<name>_<category>` keys, the bare `<name>` key
 * when there is no such form — what i18next looks up too.
 */
import { formatDay, formatMoney, formatNumber } from '../format';
import type { Locale } from '../locales';

const pluralRules = new Map<string, Intl.PluralRules>();

/** The plural category of `count` in `locale` ("one", "other"; French puts 0 in "one"). */
export function pluralCategory(locale: string, count: number): Intl.LDMLPluralRule {
  let rules = pluralRules.get(locale);
  if (!rules) {
    rules = new Intl.PluralRules(locale);
    pluralRules.set(locale, rules);
  }
  return rules.select(count);
}

/** The form of `name` for `count` among `entries` (`name_one`, `name_other`, … or `name`), if there is one. */
function pluralForm(entries: Readonly<Record<string, string>>, name: string, count: number, locale: string): string | undefined {
  return entries[`${name}_${pluralCategory(locale, count)}`] ?? entries[name];
}

/** `template` with each `{{name}}` replaced by its value; a placeholder without a value stays as written. */
export function interpolate(template: string, values: Readonly<Record<string, string>>, escape: (s: string) => string = (s) => s): string {
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, key: string) => (Object.hasOwn(values, key) ? escape(values[key]!) : whole));
}

/** The `{{name}}` placeholders of a text, sorted. */
export const placeholdersOf = (template: string): string[] => [...template.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]!).sort();

/**
 * A value for a text: a string, a number, a money amount (integer minor units), a calendar day
 * (YYYY-MM-DD) or a text per locale. Written by the web's own formatters (format.ts), so an amount
 * in a mail reads as on screen: "CN¥27.10" in English and Chinese, "27,10 CN¥" in French.
 */
export type TextValue = string | number | { minor: number; currency: string } | { day: string } | { localized: Record<Locale, string> };

function formatTextValue(value: TextValue, locale: Locale): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return formatNumber(value, locale);
  if ('localized' in value) return value.localized[locale];
  if ('day' in value) return formatDay(value.day, locale, 'long');
  return formatMoney(value.minor, value.currency, locale);
}

/**
 * The values of a text, each written for `locale`; a number the text counts (a `<name>_<category>`
 * key of `counted`) becomes its counted phrase in the number's plural form ("1 commission").
 */
export function textValues(values: Readonly<Record<string, TextValue>>, locale: Locale, counted?: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) {
    const form = typeof value === 'number' && counted ? pluralForm(counted, name, value, locale) : undefined;
    out[name] = form === undefined ? formatTextValue(value, locale) : interpolate(form, { count: formatNumber(value as number, locale) });
  }
  return out;
}
