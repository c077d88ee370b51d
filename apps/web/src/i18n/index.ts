/**
 * i18next with the texts split by area, each area one JSON file per locale
 * (`locales/<locale>/<area>.json`, identical key sets across locales, tested):
 *
 * - `common`: sign-in and its sister pages (register, forgot/reset password, e-mail link) and
 *   what every screen shares (language names, loading, retry), with the error and field-code texts
 *   of the shared catalogue (`errors`, `fields`: packages/shared/src/texts/common/<locale>.ts, the
 *   very texts the server answers with) — loaded before the first render;
 * - `app`: the promoter's app (also the signed-in person's own pages, and the figures the console
 *   shows about a promoter: the console needs it too), with antd-mobile's pack for the language
 *   (its texts — pickers, dialogs, lists — appear on signed-in screens only: the sign-in screens'
 *   Button and DotLoading have none; app/guards/texts.tsx hands the pack to antd-mobile), and the
 *   catalogue's inbox messages (`notifications/<locale>.ts`, under `notifications`) and conversion
 *   terms (`conversions/<locale>.ts`, under `conversions`: the promoter's commission page and the
 *   console's tables alike);
 * - `console`: the staff console, with the catalogue's audit action and subject names
 *   (`audit/<locale>.ts`, under `auditAdmin`: the very names the server's audit export writes).
 *
 * `app` and `console` are loaded when a screen of theirs is first shown (`useTexts`, which keeps
 * the screen suspended until they are in: no untranslated key ever shows), so a first visit to the
 * sign-in page downloads only `common`. All areas share i18next's one namespace (top-level keys
 * are unique across areas), so `t('campaignAdmin.title')` reads the same wherever it is.
 * Switching the language loads the new language's texts of every area shown so far first.
 */
import i18next from 'i18next';
import { use } from 'react';
import { initReactI18next, useTranslation } from 'react-i18next';
import { DEFAULT_APP_NAME, negotiateLocale, type Locale } from '@pa/shared/locales';
import type { Locale as AntdLocale } from 'antd-mobile/es/locales/base';

export type TextArea = 'common' | 'app' | 'console';
type Messages = Record<string, unknown>;

/** Each area's file per locale, one chunk each (`./locales/fr/app.json` → its loader). */
const files = import.meta.glob<Messages>('./locales/*/*.json', { import: 'default' });

/**
 * The shared catalogue's parts that come with an area (packages/shared/src/texts/<part>/<locale>.ts,
 * one chunk each), each with the key it goes under (`null`: at the top, as `errors` and `fields`
 * do). Sign-in's are listed here; the app's and the console's in ./catalogue.ts, a module of its
 * own loaded with the first of them, so that the sign-in page's JavaScript does not carry their
 * loaders either.
 */
export interface CataloguePart {
  at: string | null;
  load: Record<Locale, () => Promise<{ default: Messages }>>;
}
const signInCatalogue: CataloguePart[] = [{
  at: null,
  load: {
    'zh-Hans': () => import('@pa/shared/texts/common/zh-Hans'),
    'zh-Hant': () => import('@pa/shared/texts/common/zh-Hant'),
    en: () => import('@pa/shared/texts/common/en'),
    fr: () => import('@pa/shared/texts/common/fr'),
    es: () => import('@pa/shared/texts/common/es'),
  },
}];
const catalogueParts = (area: TextArea): Promise<CataloguePart[]> =>
  area === 'common' ? Promise.resolve(signInCatalogue) : once('catalogue', () => import('./catalogue')).then((m) => m.catalogue[area]);

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

const downloads = new Map<string, Promise<unknown>>();

/** Downloads once; a failed download is tried again on the next call. */
function once<T>(key: string, load: () => Promise<T>): Promise<T> {
  let pending = downloads.get(key) as Promise<T> | undefined;
  if (!pending) {
    pending = load().catch((error: unknown) => {
      downloads.delete(key);
      throw error;
    });
    downloads.set(key, pending);
  }
  return pending;
}

/**
 * An area's file with the catalogue's parts that come with it, each under its key; with `app`,
 * antd-mobile's pack for the language too (kept in `antdLocales`).
 */
function download(locale: Locale, area: TextArea): Promise<Messages> {
  const file = `./locales/${locale}/${area}.json`;
  const load = files[file];
  if (!load) return Promise.reject(new Error(`no texts for ${area} in ${locale}`));
  const parts = catalogueParts(area).then((list) =>
    Promise.all(list.map(({ at, load }) => once(`catalogue/${area}/${at}/${locale}`, () => load[locale]().then((m) => [at, m.default] as const)))),
  );
  const antd = area === 'app' ? once(`antd/${locale}`, () => antdPacks[locale]().then((m) => void antdLocales.set(locale, m.default))) : undefined;
  return Promise.all([once(file, load), parts, antd]).then(([messages, texts]) => {
    const out = { ...messages };
    for (const [at, part] of texts) {
      if (at === null) Object.assign(out, part);
      else out[at] = { ...(out[at] as Messages | undefined), ...part };
    }
    return out;
  });
}

/** Areas shown so far (in any language): a language switch loads all of them. */
const inUse = new Set<TextArea>(['common']);

/**
 * Per `locale/area`: the promise that the texts are in i18next, marked with its outcome once
 * settled (`status`, `value`/`reason`), which React's `use` reads to go straight on without
 * suspending — so `useTexts` calls `use` on every render, as React needs when it replays a
 * component that suspended, whether or not the texts have come since.
 */
type Tracked = Promise<void> & { status?: 'fulfilled' | 'rejected'; value?: void; reason?: unknown };
const registered = new Map<string, Tracked>();
let initialized: () => void;
const ready = new Promise<void>((resolve) => (initialized = resolve));

/** Whether i18next has the texts of `area` in `locale`. */
export const hasTexts = (locale: string, area: TextArea) => registered.get(`${locale}/${area}`)?.status === 'fulfilled';

function add(locale: Locale, area: TextArea, messages: Messages) {
  const key = `${locale}/${area}`;
  const known = registered.get(key);
  if (known?.status !== 'fulfilled') {
    i18next.addResourceBundle(locale, 'translation', messages, true, true);
    // A load still under way (loadTexts) is marked done too: its texts are in.
    registered.set(key, Object.assign(known ?? Promise.resolve(), { status: 'fulfilled' as const, value: undefined }));
  }
  inUse.add(area);
}

/** Loads the texts of `area` in `locale` into i18next (once); resolves when they are in. */
export function loadTexts(locale: Locale, area: TextArea): Promise<void> {
  const key = `${locale}/${area}`;
  let pending = registered.get(key);
  if (!pending) {
    const tracked: Tracked = Promise.all([download(locale, area), ready]).then(
      ([messages]) => add(locale, area, messages),
      (error: unknown) => {
        // Asked for again by the next render (a failed download is tried again).
        registered.delete(key);
        Object.assign(tracked, { status: 'rejected', reason: error });
        throw error;
      },
    );
    registered.set(key, tracked);
    pending = tracked;
  }
  return pending;
}

/** Starts downloading texts a screen about to open will need (they are added when it renders). */
export function preloadTexts(locale: Locale, areas: readonly TextArea[]) {
  for (const area of areas) download(locale, area).catch(() => undefined);
}

/**
 * Keeps the calling component suspended (its Suspense boundary shows the fallback) until the
 * texts of `areas` are in for the language shown; goes straight on when they already are.
 */
export function useTexts(...areas: TextArea[]) {
  const { i18n } = useTranslation();
  const locale = i18n.language as Locale;
  // All asked for at once; then `use` on each (already in: no suspending).
  const pending = areas.map((area) => loadTexts(locale, area));
  for (const texts of pending) use(texts);
}

/**
 * Shows the app in `locale`: its texts of every area in use (at start, `common`) are loaded first,
 * then the language is switched in one step.
 */
export async function loadLocale(locale: Locale) {
  const areas = [...inUse];
  const texts = await Promise.all(areas.map((area) => download(locale, area)));
  if (!i18next.isInitialized) {
    await i18next.use(initReactI18next).init({
      lng: locale,
      fallbackLng: false,
      resources: {},
      interpolation: { escapeValue: false }, // React escapes
      returnNull: false,
      showSupportNotice: false, // i18next 25.8+ prints an advertisement to the console otherwise
    });
    initialized();
  }
  areas.forEach((area, i) => add(locale, area, texts[i]!));
  if (i18next.language !== locale) await i18next.changeLanguage(locale);
  document.documentElement.lang = locale;
  document.title = appName(locale);
}

export { i18next };
