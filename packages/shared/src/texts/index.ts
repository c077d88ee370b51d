/**
 * The text catalogue (issue 30): every text both sides write from a code — error and field codes
 * (`common/<locale>.ts`, which the web hands to i18next with its sign-in texts) and what only the
 * server writes (`server/<locale>.ts`: mails, its HTML pages, the values of its CSV exports). One
 * format, i18next's, and one renderer (render.ts); money and dates through format.ts, the web's
 * own formatters. The web imports a locale's `common` file on its own (lazily, per locale), never
 * this index, which holds every locale.
 */
import type { Locale } from '../locales';
import commonEn from './common/en';
import commonEs from './common/es';
import commonFr from './common/fr';
import commonZhHans from './common/zh-Hans';
import commonZhHant from './common/zh-Hant';
import serverEn from './server/en';
import serverEs from './server/es';
import serverFr from './server/fr';
import serverZhHans from './server/zh-Hans';
import serverZhHant from './server/zh-Hant';
import type { CommonTexts, ServerTexts } from './types';

export const COMMON_TEXTS: Record<Locale, CommonTexts> = { en: commonEn, fr: commonFr, es: commonEs, 'zh-Hans': commonZhHans, 'zh-Hant': commonZhHant };
export const SERVER_TEXTS: Record<Locale, ServerTexts> = { en: serverEn, fr: serverFr, es: serverEs, 'zh-Hans': serverZhHans, 'zh-Hant': serverZhHant };

export * from './render';
export type * from './types';
export * from './explain';
