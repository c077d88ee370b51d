/**
 * The shared catalogue's parts that come with the promoter app's and the console's texts
 * (index.ts loads this module with the first of them, and each part per locale, lazily): the
 * inbox's messages under `notifications` (beside the inbox page's own texts) and the conversion
 * terms as `conversions` with `app`; the audit log's action and subject names under `auditAdmin`
 * (beside the audit page's own texts) with `console`.
 */
import type { CataloguePart, TextArea } from './index';

export const catalogue: Record<Exclude<TextArea, 'common'>, CataloguePart[]> = {
  app: [{
    at: 'notifications',
    load: {
      'zh-Hans': () => import('@pa/shared/texts/notifications/zh-Hans'),
      'zh-Hant': () => import('@pa/shared/texts/notifications/zh-Hant'),
      en: () => import('@pa/shared/texts/notifications/en'),
      fr: () => import('@pa/shared/texts/notifications/fr'),
      es: () => import('@pa/shared/texts/notifications/es'),
    },
  }, {
    at: 'conversions',
    load: {
      'zh-Hans': () => import('@pa/shared/texts/conversions/zh-Hans'),
      'zh-Hant': () => import('@pa/shared/texts/conversions/zh-Hant'),
      en: () => import('@pa/shared/texts/conversions/en'),
      fr: () => import('@pa/shared/texts/conversions/fr'),
      es: () => import('@pa/shared/texts/conversions/es'),
    },
  }],
  console: [{
    at: 'auditAdmin',
    load: {
      'zh-Hans': () => import('@pa/shared/texts/audit/zh-Hans'),
      'zh-Hant': () => import('@pa/shared/texts/audit/zh-Hant'),
      en: () => import('@pa/shared/texts/audit/en'),
      fr: () => import('@pa/shared/texts/audit/fr'),
      es: () => import('@pa/shared/texts/audit/es'),
    },
  }],
};
