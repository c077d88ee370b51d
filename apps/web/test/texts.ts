/**
 * The web app's texts as the tests read them: one locale's areas (src/i18n/locales/<locale>/<area>.json)
 * with the shared catalogue's parts each area comes with, merged as i18next holds them
 * (src/i18n/index.ts): `common` with the error and field texts, `app` with the inbox's messages
 * (under `notifications`) and the conversion terms (`conversions`), `console` with the audit log's
 * action and subject names (under `auditAdmin`).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Locale } from '@pa/shared';
import { AUDIT_TEXTS, COMMON_TEXTS, CONVERSION_TEXTS, NOTIFICATION_TEXTS } from '@pa/shared/texts';

export const TEXTS_DIR = path.resolve(import.meta.dirname, '../src/i18n/locales');
export const AREAS = ['common', 'app', 'console'] as const;
export type Area = (typeof AREAS)[number];

/** The catalogue's parts of an area in `locale`, by the key they go under (`null`: the top). */
export function catalogueParts(area: Area, locale: Locale): [string | null, object][] {
  if (area === 'common') return [[null, COMMON_TEXTS[locale]]];
  if (area === 'app') return [['notifications', NOTIFICATION_TEXTS[locale]], ['conversions', CONVERSION_TEXTS[locale]]];
  return [['auditAdmin', AUDIT_TEXTS[locale]]];
}

/** An area's own file alone, without the catalogue's parts. */
export function readAreaFile(area: Area, locale: string): Record<string, unknown> {
  return JSON.parse(fs.readFileSync(path.join(TEXTS_DIR, locale, `${area}.json`), 'utf8')) as Record<string, unknown>;
}

export function readArea(area: Area, locale: string): Record<string, unknown> {
  const out = readAreaFile(area, locale);
  for (const [at, texts] of catalogueParts(area, locale as Locale)) {
    if (at === null) Object.assign(out, texts);
    else out[at] = { ...(out[at] as Record<string, unknown> | undefined), ...texts };
  }
  return out;
}

/** The texts of `areas` (all three when none is named) in `locale`. */
export function readTexts(locale: string, ...areas: Area[]): Record<string, unknown> {
  return Object.assign({}, ...(areas.length ? areas : AREAS).map((area) => readArea(area, locale))) as Record<string, unknown>;
}
