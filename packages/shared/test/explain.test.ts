/**
 * The explanation of a conversion in words (issue 31): each case word for word in English, and
 * every step text present in the other four languages with every placeholder filled and the
 * web's money and rate formats.
 */
import { describe, expect, it } from 'vitest';
import { formatMoney, formatPercent } from '../src/format';
import { LOCALES, type Locale } from '../src/locales';
import { EXPLANATION_KEYS, EXPLANATION_TEXTS, explainStep, explainSteps, type ExplanationStep } from '../src/texts/explain';
import { placeholdersOf } from '../src/texts/render';

const ctx = (locale: Locale, event: 'lead' | 'sale' = 'sale') => ({ locale, currency: 'USD', timeZone: 'UTC', event, groupNames: new Map([['gold', 'Gold']]) });
const step = (s: string, outcome: string, detail: ExplanationStep['detail'] = {}): ExplanationStep => ({ step: s, outcome, detail });

/** One sample of every text, as the engine stores it. */
const SAMPLES: ExplanationStep[] = [
  step('schedule', 'campaign_not_started'),
  step('schedule', 'campaign_ended'),
  step('attribution', 'click', { days: 3, windowDays: 30 }),
  step('attribution', 'coupon', { windowDays: 30 }),
  step('attribution', 'link', { windowDays: 30 }),
  step('attribution', 'customer', { days: 12, windowDays: 30 }),
  step('attribution', 'binding', { windowDays: 30, month: 2, months: 12 }),
  step('attribution', 'binding', { windowDays: 30, month: 14, months: null }),
  step('attribution', 'click_outside_window', { days: 41, windowDays: 30 }),
  step('attribution', 'customer_outside_window', { days: 1, windowDays: 1 }),
  step('attribution', 'no_match'),
  step('eligibility', 'self_referral'),
  step('eligibility', 'promoter_inactive'),
  step('eligibility', 'not_enrolled'),
  step('assigned', 'credited', { at: Date.UTC(2026, 2, 4, 9), reason: 'Order placed by phone; promoter confirmed' }),
  step('assigned', 'moved', { at: Date.UTC(2026, 2, 4, 9), reason: 'Wrong coupon owner' }),
  step('group', 'member', { groupId: 'gold' }),
  step('line', 'percent', { line: 1, sku: 'TEA-01', quantity: 2, amount: 11_800, ruleId: 'r1', rule: 1, label: 'Tea sets 15 %', bps: 1500, fixed: null, tier: false, earned: 1_770, tried: 0 }),
  step('line', 'percent', { line: 1, sku: null, quantity: 1, amount: 20_000, ruleId: 'sale', rule: 3, label: null, bps: 1000, fixed: null, tier: false, earned: 2_000, tried: 2 }),
  step('line', 'fixed', { line: 2, sku: 'CUP-1', quantity: 1, amount: 3_000, ruleId: 'r2', rule: 2, label: null, bps: null, fixed: 500, tier: false, earned: 500, tried: 1 }),
  step('line', 'fixed', { line: 1, sku: null, quantity: 1, amount: 0, ruleId: 'lead', rule: 1, label: null, bps: null, fixed: 250, tier: false, earned: 250, tried: 0 }),
  step('line', 'paid_before', { line: 3, sku: 'CUP-2', quantity: 1, amount: 2_000, ruleId: 'r2', rule: 2, label: null, bps: null, fixed: 500, tier: false, earned: 0, tried: 1 }),
  step('line', 'no_rule', { line: 1, sku: null, quantity: 1, amount: 5_000, ruleId: null, rule: null, label: null, bps: null, fixed: null, tier: false, earned: 0, tried: 2 }),
  step('line', 'no_rule', { line: 4, sku: 'X', quantity: 1, amount: 5_000, ruleId: null, rule: null, label: null, bps: null, fixed: null, tier: false, earned: 0, tried: 2 }),
  step('tier', 'applied', { bps: 1500, minSales: 3, saleNumber: 4 }),
  step('cap', 'rule', { ruleId: 'r1', rule: 1, label: null, limit: 2_345, used: 2_300, before: 100, after: 45 }),
  step('cap', 'budget', { ruleId: null, limit: 321_000, used: 320_950, before: 100, after: 50 }),
  step('override', 'paid', { amount: 279, bps: 1000 }),
  step('total', 'earned', { amount: 2_790 }),
  step('total', 'nothing', { amount: 0 }),
  step('hold', 'until', { availableAt: Date.UTC(2026, 11, 5, 10), holdDays: 7 }),
  step('bounty', 'goal', { name: 'Five sales', metric: 'sales', value: 5, period: '2026-11' }),
  step('bounty', 'goal', { name: 'First sale', metric: 'sales', value: 1, period: 'campaign' }),
  step('bounty', 'goal', { name: 'Sell 100', metric: 'saleAmount', value: 10_000, period: '2026-11' }),
  step('bounty', 'goal', { name: 'Sell 100', metric: 'saleAmount', value: 10_000, period: 'campaign' }),
  step('bounty', 'goal', { name: 'Ten sign-ups', metric: 'leads', value: 10, period: '2026-02' }),
  step('bounty', 'goal', { name: 'One sign-up', metric: 'leads', value: 1, period: 'campaign' }),
  step('bounty', 'approved', { name: 'Post a review', at: Date.UTC(2026, 2, 4, 9) }),
];

describe('explanations', () => {
  it('says each case word for word in English', () => {
    const say = (s: ExplanationStep, event: 'lead' | 'sale' = 'sale') => explainStep(s, ctx('en', event));
    expect(SAMPLES.map((s) => say(s))).toEqual([
      'Not credited: it came before the campaign started.',
      'Not credited: it came after the campaign ended.',
      'Credited by a click on the promoter’s link 3 days before (30 days allowed).',
      'Credited by the promoter’s coupon code.',
      'Credited by the promoter’s link code.',
      'Credited as a returning customer the promoter brought 12 days before (30 days allowed).',
      'Credited by the customer’s binding to the promoter: month 2 of 12.',
      'Credited by the customer’s lifetime binding to the promoter: month 14.',
      'Not credited: the click was 41 days before the sale; this campaign credits clicks for 30 days.',
      'Not credited: the customer was brought 1 day before the sale; this campaign credits returning customers for 1 day.',
      'Not credited: no click, coupon or link of a promoter came with it.',
      'Not credited: self-referral, the customer is the promoter.',
      'Not credited: the promoter’s account is not active.',
      'Not credited: the promoter has not joined this campaign.',
      'Assigned to the promoter by staff on Mar 4, 2026. Reason: Order placed by phone; promoter confirmed',
      'Re-assigned by staff on Mar 4, 2026; the commissions of the earlier attribution were taken back. Reason: Wrong coupon owner',
      'The promoter’s group: Gold.',
      'Matched rule ‘Tea sets 15 %’ for SKU TEA-01 · 2 × US$59.00 → US$17.70',
      'Matched the campaign’s base reward: 10% of US$200.00 → US$20.00',
      'Matched rule 2 for SKU CUP-1: a fixed US$5.00',
      'Matched the campaign’s base reward: a fixed US$2.50',
      'Matched rule 2 for SKU CUP-2: its fixed reward is paid once per sale, on an earlier line → US$0.00',
      'No rule matched: nothing earned.',
      'No rule matched SKU X: nothing earned for it.',
      'Volume tier: this is sale 4 of the month, so the tier from 3 pays 15%.',
      'Capped: rule 1 pays a promoter at most US$23.45 a month; US$23.00 was already earned, so US$1.00 became US$0.45.',
      'Capped: the campaign’s monthly budget is US$3,210.00; US$3,209.50 was already spent, so US$1.00 became US$0.50.',
      'The inviter earns 10% of it as an override: US$2.79.',
      'Commission: US$27.90.',
      'No commission.',
      'Available on Dec 5, 2026, after the 7-day hold.',
      'Bounty ‘Five sales’: the goal of 5 sales in November 2026 was reached.',
      'Bounty ‘First sale’: the goal of 1 sale in the campaign was reached.',
      'Bounty ‘Sell 100’: the goal of US$100.00 in sales in November 2026 was reached.',
      'Bounty ‘Sell 100’: the goal of US$100.00 in sales in the campaign was reached.',
      'Bounty ‘Ten sign-ups’: the goal of 10 leads in February 2026 was reached.',
      'Bounty ‘One sign-up’: the goal of 1 lead in the campaign was reached.',
      'Bounty ‘Post a review’: the proof was approved by staff on Mar 4, 2026.',
    ]);
    expect(say(step('attribution', 'click_outside_window', { days: 41, windowDays: 30 }), 'lead')).toBe('Not credited: the click was 41 days before the lead; this campaign credits clicks for 30 days.');
  });

  it('has every text in every language, each filled completely, money and rates as the web writes them', () => {
    for (const locale of LOCALES) {
      const texts = EXPLANATION_TEXTS[locale];
      for (const key of EXPLANATION_KEYS) expect(texts[key], `${locale} ${key}`).toBeTruthy();
      // The same placeholders as English (a translation may not drop or invent one).
      for (const key of EXPLANATION_KEYS) expect(placeholdersOf(texts[key]), `${locale} ${key}`).toEqual(placeholdersOf(EXPLANATION_TEXTS.en[key]));
      const said = explainSteps(SAMPLES, ctx(locale));
      expect(said).toHaveLength(SAMPLES.length);
      for (const s of said) {
        expect(s.text, `${locale} ${s.step}.${s.outcome}`).not.toMatch(/\{\{|\}\}|undefined|NaN/);
        if (locale !== 'en') expect(s.text).not.toBe(explainStep(s, ctx('en')));
      }
      const line = said.find((s) => s.step === 'line')!;
      expect(line.text).toContain(formatMoney(1_770, 'USD', locale));
      expect(line.text).toContain(formatMoney(5_900, 'USD', locale));
      expect(said.find((s) => s.step === 'tier')!.text).toContain(formatPercent(1500, locale));
      // Staff's reason as they wrote it, whatever the language.
      for (const s of said.filter((x) => x.step === 'assigned')) expect(s.text).toContain(String(s.detail.reason));
      // Counted days in the language's own plural forms.
      for (const days of [0, 1, 2, 5, 21]) {
        const text = explainStep(step('attribution', 'click_outside_window', { days, windowDays: 30 }), ctx(locale))!;
        expect(text).not.toMatch(/\{\{/);
        if (locale === 'en') expect(text).toContain(days === 1 ? '1 day before' : `${days} days before`);
        if (locale === 'fr') expect(text).toContain(days <= 1 ? `${days} jour avant` : `${days} jours avant`);
      }
    }
  });

  it('leaves out a step a newer version wrote', () => {
    expect(explainSteps([step('bounty', 'future'), step('total', 'nothing')], ctx('en')).map((s) => s.text)).toEqual(['No commission.']);
  });
});
