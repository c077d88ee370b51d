/**
 * The announcement editor's rules, without React: one title and text per language (at least one
 * language), checked with the server's limits, and the server's field errors put back on the
 * same inputs. The order languages were first written in is kept: it decides the fallback text.
 */
import type { AdminAnnouncement, AnnouncementCreate } from '@pa/shared';
import { isLocale, LOCALES, type Locale } from '@pa/shared/locales';

/** AnnouncementTextSchema limits (copied, not imported: importing the schemas would bring zod into the page). */
export const TITLE_MAX = 80;
export const BODY_MAX = 2000;

export type TextPart = 'title' | 'body';
type LocaleTexts = Record<Locale, Record<TextPart, string>>;

export interface AnnouncementFormValues {
  texts: LocaleTexts;
  /** Languages in the order they were first written (only meaningful for filled ones). */
  order: Locale[];
  pinned: boolean;
}

/**
 * Field error codes keyed by input: `texts` (no language at all) or `<locale>.title|body`.
 * Codes: `textsRequired` (the editor's own), else the shared field codes (`required`, `too_long`, …).
 */
export type FormErrors = Record<string, string>;

const blank = (): LocaleTexts => Object.fromEntries(LOCALES.map((l) => [l, { title: '', body: '' }])) as LocaleTexts;

export function emptyValues(): AnnouncementFormValues {
  return { texts: blank(), order: [], pinned: false };
}

export function valuesFromAnnouncement(a: AdminAnnouncement): AnnouncementFormValues {
  const texts = blank();
  const order: Locale[] = [];
  for (const [locale, text] of Object.entries(a.texts)) {
    if (!isLocale(locale)) continue;
    texts[locale] = { title: text.title, body: text.body };
    order.push(locale);
  }
  return { texts, order, pinned: a.pinned };
}

/** Whether anything is written in that language. */
export const isFilled = (v: AnnouncementFormValues, locale: Locale) => !!(v.texts[locale].title.trim() || v.texts[locale].body.trim());

export function setText(v: AnnouncementFormValues, locale: Locale, part: TextPart, text: string): AnnouncementFormValues {
  const texts = { ...v.texts, [locale]: { ...v.texts[locale], [part]: text } };
  const order = text.trim() && !v.order.includes(locale) ? [...v.order, locale] : v.order;
  return { ...v, texts, order };
}

export function clearLocale(v: AnnouncementFormValues, locale: Locale): AnnouncementFormValues {
  return { ...v, texts: { ...v.texts, [locale]: { title: '', body: '' } }, order: v.order.filter((l) => l !== locale) };
}

/** The filled languages, first-written first (then any others in the usual order). */
export function writtenLocales(v: AnnouncementFormValues): Locale[] {
  const rest = LOCALES.filter((l) => !v.order.includes(l));
  return [...v.order, ...rest].filter((l) => isFilled(v, l));
}

/** The body of POST (and PATCH: every text, since `texts` replaces them all), or the errors to show. */
export function toTexts(v: AnnouncementFormValues): { texts: AnnouncementCreate['texts']; errors?: undefined } | { texts?: undefined; errors: FormErrors } {
  const errors: FormErrors = {};
  const texts: AnnouncementCreate['texts'] = {};
  for (const locale of writtenLocales(v)) {
    const title = v.texts[locale].title.trim();
    const body = v.texts[locale].body.trim();
    if (!title) errors[`${locale}.title`] = 'required';
    else if (title.length > TITLE_MAX) errors[`${locale}.title`] = 'too_long';
    if (!body) errors[`${locale}.body`] = 'required';
    else if (body.length > BODY_MAX) errors[`${locale}.body`] = 'too_long';
    texts[locale] = { title, body };
  }
  if (Object.keys(texts).length === 0) errors.texts = 'textsRequired';
  return Object.keys(errors).length ? { errors } : { texts };
}

/** Whether two sets of values would save the same announcement. */
export function sameValues(a: AnnouncementFormValues, b: AnnouncementFormValues): boolean {
  const plain = (v: AnnouncementFormValues) => JSON.stringify({ pinned: v.pinned, texts: writtenLocales(v).map((l) => [l, v.texts[l].title.trim(), v.texts[l].body.trim()]) });
  return plain(a) === plain(b);
}

/** The server's field errors (`texts`, `texts.<locale>.<part>`) on the inputs that show them. */
export function serverErrors(fields: Record<string, string>): FormErrors {
  const errors: FormErrors = {};
  for (const [path, code] of Object.entries(fields)) {
    const m = /^texts\.([^.]+)\.(title|body)$/.exec(path);
    if (m && isLocale(m[1])) errors[`${m[1]}.${m[2]}`] ??= code;
    else if (path === 'texts' && code === 'required') errors.texts ??= 'textsRequired';
    else errors.texts ??= code;
  }
  return errors;
}

/** The languages whose inputs have an error, to mark them in the language switch. */
export function localesWithErrors(errors: FormErrors): Set<Locale> {
  const found = new Set<Locale>();
  for (const key of Object.keys(errors)) {
    const locale = key.split('.')[0];
    if (key.includes('.') && isLocale(locale)) found.add(locale);
  }
  return found;
}

/** The title staff see in lists: their language, else English, else the first one written. */
export function announcementTitle(texts: AdminAnnouncement['texts'], locale: string): string {
  return texts[locale]?.title || texts.en?.title || Object.values(texts).find((t) => t.title)?.title || '';
}

/** The body shown under that title (the same language). */
export function announcementBody(texts: AdminAnnouncement['texts'], locale: string): string {
  const chosen = texts[locale]?.title ? texts[locale] : texts.en?.title ? texts.en : Object.values(texts).find((t) => t.title);
  return chosen?.body ?? '';
}
