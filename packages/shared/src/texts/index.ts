/**
 * The text catalogue (issue 30): every text both sides write from a code, in the five locales —
 * - `common/<locale>.ts`: error and field codes (the web hands them to i18next with its sign-in texts);
 * - `notifications/<locale>.ts`: the inbox's messages (the web loads them with the promoter app's texts);
 * - `conversions/<locale>.ts`: a conversion's kind and how it was credited (the web, with the app's
 *   texts, for the promoter's commission page and the console's tables; the server's commission export);
 * - `audit/<locale>.ts`: the audit log's action and subject names (the console, with its texts; the
 *   server's audit export);
 * - `server/<locale>.ts`: what only the server writes — mails, its HTML pages, the values of its CSV
 *   exports, the webhook test event;
 * - `csv-columns.ts`: every CSV export's column names, the one set not translated.
 * One format, i18next's, and one renderer (render.ts); money and dates through format.ts, the web's
 * own formatters. The web imports each locale's files on their own (lazily, per locale), never this
 * index, which holds every locale.
 */
import type { AuditAction } from '../admin-audit';
import type { Locale } from '../locales';
import auditEn from './audit/en';
import auditEs from './audit/es';
import auditFr from './audit/fr';
import auditZhHans from './audit/zh-Hans';
import auditZhHant from './audit/zh-Hant';
import commonEn from './common/en';
import commonEs from './common/es';
import commonFr from './common/fr';
import commonZhHans from './common/zh-Hans';
import commonZhHant from './common/zh-Hant';
import conversionsEn from './conversions/en';
import conversionsEs from './conversions/es';
import conversionsFr from './conversions/fr';
import conversionsZhHans from './conversions/zh-Hans';
import conversionsZhHant from './conversions/zh-Hant';
import notificationsEn from './notifications/en';
import notificationsEs from './notifications/es';
import notificationsFr from './notifications/fr';
import notificationsZhHans from './notifications/zh-Hans';
import notificationsZhHant from './notifications/zh-Hant';
import serverEn from './server/en';
import serverEs from './server/es';
import serverFr from './server/fr';
import serverZhHans from './server/zh-Hans';
import serverZhHant from './server/zh-Hant';
import type { AuditTexts, CommonTexts, ConversionTexts, NotificationTexts, ServerTexts } from './types';

export const COMMON_TEXTS: Record<Locale, CommonTexts> = { en: commonEn, fr: commonFr, es: commonEs, 'zh-Hans': commonZhHans, 'zh-Hant': commonZhHant };
export const SERVER_TEXTS: Record<Locale, ServerTexts> = { en: serverEn, fr: serverFr, es: serverEs, 'zh-Hans': serverZhHans, 'zh-Hant': serverZhHant };
export const NOTIFICATION_TEXTS: Record<Locale, NotificationTexts> = {
  en: notificationsEn, fr: notificationsFr, es: notificationsEs, 'zh-Hans': notificationsZhHans, 'zh-Hant': notificationsZhHant,
};
export const CONVERSION_TEXTS: Record<Locale, ConversionTexts> = {
  en: conversionsEn, fr: conversionsFr, es: conversionsEs, 'zh-Hans': conversionsZhHans, 'zh-Hant': conversionsZhHant,
};
export const AUDIT_TEXTS: Record<Locale, AuditTexts> = { en: auditEn, fr: auditFr, es: auditEs, 'zh-Hans': auditZhHans, 'zh-Hant': auditZhHant };

/** An audit action's name in `locale`; the code itself for an action this version does not know (an older entry's). */
export function auditActionName(action: AuditAction | (string & {}), locale: Locale): string {
  const [area, verb] = action.split('.') as [string, string | undefined];
  const names = (AUDIT_TEXTS[locale].actions as Record<string, Record<string, string> | undefined>)[area];
  return (verb !== undefined && names && Object.hasOwn(names, verb) ? names[verb] : undefined) ?? action;
}

export * from './csv-columns';
export * from './render';
export type * from './types';
export * from './explain';
