/** A campaign's terms as promoters read them: recurring commissions are said (issue 28, item 16). */
import i18next, { type TFunction } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { LOCALES, type Campaign } from '@pa/shared';
import { termSentences } from '../src/features/campaigns/components/campaign-terms';
import { readTexts } from './texts';

const translators = new Map<string, TFunction>();
beforeAll(async () => {
  for (const locale of LOCALES) {
    const instance = i18next.createInstance();
    await instance.init({ lng: locale, fallbackLng: false, resources: { [locale]: { translation: readTexts(locale, 'common', 'app') } }, interpolation: { escapeValue: false } });
    translators.set(locale, instance.t);
  }
});

const campaign = (customerBinding: Campaign['customerBinding'], saleReward = 1000): Campaign => ({
  id: 'c1', status: 'active', landingUrl: 'https://shop.example.com', startsAt: null, endsAt: null, leadReward: 0, saleRewardType: 'bps', saleReward, tiers: [],
  overrideBps: 0, attributionWindowDays: 30, customerBinding, holdDays: 7, joinMode: 'open', cover: null, posters: [], name: 'Tea', description: '', currency: 'CNY',
} as unknown as Campaign);
const recurring = (c: Campaign, locale = 'en') => termSentences(c, translators.get(locale)!, locale).find((s) => s.key === 'recurring')?.text;

describe('campaign terms', () => {
  it('tell promoters when later payments of their customers earn too, for how long', () => {
    expect(recurring(campaign(0))).toBeUndefined();
    expect(recurring(campaign(12))).toBe('Recurring: you also earn on every later payment of a customer you bring, for 12 months after their first purchase.');
    expect(recurring(campaign(1))).toContain('for 1 month after');
    expect(recurring(campaign('lifetime'))).toContain('for as long as they stay a customer');
    // Nothing to repeat without a sale reward.
    expect(recurring(campaign(12, 0))).toBeUndefined();
    for (const locale of LOCALES) {
      expect(recurring(campaign(6), locale), locale).toContain('6');
      expect(recurring(campaign('lifetime'), locale), locale).not.toMatch(/campaign\.terms/);
    }
  });
});
