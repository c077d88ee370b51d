/**
 * i18next with one JSON file per locale, loaded on demand (only the reader's language is
 * downloaded). The antd-mobile locale pack is loaded alongside.
 */
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_APP_NAME, negotiateLocale, type Locale } from '@pa/shared/locales';
import type { Locale as AntdLocale } from 'antd-mobile/es/locales/base';

const messages: Record<Locale, () => Promise<{ default: Record<string, unknown> }>> = {
  'zh-Hans': () => import('./locales/zh-Hans.json'),
  'zh-Hant': () => import('./locales/zh-Hant.json'),
  en: () => import('./locales/en.json'),
  fr: () => import('./locales/fr.json'),
  es: () => import('./locales/es.json'),
};

const antdPacks: Record<Locale, () => Promise<{ default: AntdLocale }>> = {
  'zh-Hans': () => import('antd-mobile/es/locales/zh-CN'),
  'zh-Hant': () => import('antd-mobile/es/locales/zh-TW'),
  en: () => import('antd-mobile/es/locales/en-US'),
  fr: () => import('antd-mobile/es/locales/fr-FR'),
  es: () => import('antd-mobile/es/locales/es-ES'),
};

export const antdLocales = new Map<Locale, AntdLocale>();

/** The browser's first supported language (zh-CN/zh-SG → zh-Hans, zh-TW/HK/MO → zh-Hant, …, else en). */
export function browserLocale(): Locale {
  return negotiateLocale(navigator.languages?.length ? navigator.languages : [navigator.language]);
}

/** Build-time name, else the localized default. */
export function appName(locale: Locale): string {
  return import.meta.env.VITE_APP_NAME?.trim() || DEFAULT_APP_NAME[locale];
}

export async function loadLocale(locale: Locale) {
  const [bundle, antd] = await Promise.all([messages[locale](), antdPacks[locale]()]);
  antdLocales.set(locale, antd.default);
  if (!i18next.isInitialized) {
    await i18next.use(initReactI18next).init({
      lng: locale,
      fallbackLng: false,
      resources: { [locale]: { translation: bundle.default } },
      interpolation: { escapeValue: false }, // React escapes
      returnNull: false,
    });
  } else {
    if (!i18next.hasResourceBundle(locale, 'translation')) i18next.addResourceBundle(locale, 'translation', bundle.default);
    await i18next.changeLanguage(locale);
  }
  document.documentElement.lang = locale;
  document.title = appName(locale);
}

export { i18next };
