import { describe, expect, it } from 'vitest';
import { matchLocale, negotiateLocale, parseAcceptLanguage } from '../src/locales';

describe('locale choice from the browser', () => {
  it.each([
    ['zh-CN', 'zh-Hans'], ['zh-SG', 'zh-Hans'], ['zh', 'zh-Hans'], ['zh-Hans-CN', 'zh-Hans'],
    ['zh-TW', 'zh-Hant'], ['zh-HK', 'zh-Hant'], ['zh-MO', 'zh-Hant'], ['zh-Hant', 'zh-Hant'],
    ['fr', 'fr'], ['fr-CA', 'fr'], ['fr-BE', 'fr'], ['es', 'es'], ['es-MX', 'es'], ['es-419', 'es'],
    ['en-GB', 'en'], ['EN-us', 'en'],
  ])('%s → %s', (tag, locale) => {
    expect(matchLocale(tag)).toBe(locale);
  });

  it('falls back to English for anything else, and takes the first supported preference', () => {
    expect(negotiateLocale(['de-DE', 'ja'])).toBe('en');
    expect(negotiateLocale([])).toBe('en');
    expect(negotiateLocale(['de-DE', 'es-AR', 'fr'])).toBe('es');
  });

  it('orders Accept-Language by q-value', () => {
    expect(parseAcceptLanguage('de;q=0.5, fr-CH, zh-TW;q=0.9, *;q=0.1')).toEqual(['fr-CH', 'zh-TW', 'de']);
    expect(negotiateLocale(parseAcceptLanguage('de;q=0.9, zh-HK;q=0.8'))).toBe('zh-Hant');
    expect(parseAcceptLanguage(undefined)).toEqual([]);
  });
});
