/**
 * The web app's texts as the tests read them: one locale's areas (src/i18n/locales/<area>/<locale>.json),
 * `common` with the shared catalogue's error and field texts, merged as i18next holds them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { COMMON_TEXTS } from '@pa/shared/texts';

export const TEXTS_DIR = path.resolve(import.meta.dirname, '../src/i18n/locales');
export const AREAS = ['common', 'app', 'console'] as const;
export type Area = (typeof AREAS)[number];

export function readArea(area: Area, locale: string): Record<string, unknown> {
  const file = JSON.parse(fs.readFileSync(path.join(TEXTS_DIR, area, `${locale}.json`), 'utf8')) as Record<string, unknown>;
  return area === 'common' ? { ...file, ...COMMON_TEXTS[locale as keyof typeof COMMON_TEXTS] } : file;
}

/** The texts of `areas` (all three when none is named) in `locale`. */
export function readTexts(locale: string, ...areas: Area[]): Record<string, unknown> {
  return Object.assign({}, ...(areas.length ? areas : AREAS).map((area) => readArea(area, locale))) as Record<string, unknown>;
}
