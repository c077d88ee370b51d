import { LOCALES } from '@pa/shared/locales';

/** The name shown for a campaign: in the reader's language, else English, else the first one given. */
export function campaignName(names: Record<string, string>, locale: string): string {
  return names[locale] || names.en || LOCALES.map((l) => names[l]).find(Boolean) || Object.values(names).find(Boolean) || '';
}
