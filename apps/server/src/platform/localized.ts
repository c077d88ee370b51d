/** A per-locale text (stored as JSON { locale: text }) in the reader's language: requested → en → any. */
export function pickLocalized(json: string, locale: string): string {
  const texts = JSON.parse(json) as Record<string, string>;
  return texts[locale] || texts.en || Object.values(texts).find(Boolean) || '';
}
