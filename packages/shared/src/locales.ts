export const LOCALES = ['zh-Hans', 'zh-Hant', 'en', 'fr', 'es'] as const;
export type Locale = (typeof LOCALES)[number];
const DEFAULT_LOCALE: Locale = 'en';

/** The localized default product name, used when VITE_APP_NAME is not set. */
export const DEFAULT_APP_NAME: Record<Locale, string> = {
  'zh-Hans': '推广助手',
  'zh-Hant': '推廣助手',
  en: 'Promotion Assistant',
  fr: 'Assistant de promotion',
  es: 'Asistente de promoción',
};

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/** Maps one BCP 47 tag to a supported locale, or null when it names none of them. */
export function matchLocale(tag: string): Locale | null {
  const t = tag.trim().toLowerCase();
  if (!t) return null;
  if (isLocale(tag.trim())) return tag.trim() as Locale;
  const [lang, ...rest] = t.split(/[-_]/);
  if (lang === 'zh') {
    if (rest.includes('hant') || rest.some((p) => p === 'tw' || p === 'hk' || p === 'mo')) return 'zh-Hant';
    return 'zh-Hans'; // zh, zh-CN, zh-SG, zh-Hans-*
  }
  if (lang === 'en') return 'en';
  if (lang === 'fr') return 'fr';
  if (lang === 'es') return 'es';
  return null;
}

/** First supported locale among preferences in order; `en` when none match. */
export function negotiateLocale(tags: readonly string[]): Locale {
  for (const tag of tags) {
    const hit = matchLocale(tag);
    if (hit) return hit;
  }
  return DEFAULT_LOCALE;
}

/** Parses an Accept-Language header into tags ordered by q-value. */
export function parseAcceptLanguage(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const weight = q ? Number(q.slice(2)) : 1;
      return { tag: tag?.trim() ?? '', weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((x) => x.tag && x.tag !== '*' && x.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index)
    .map((x) => x.tag);
}
