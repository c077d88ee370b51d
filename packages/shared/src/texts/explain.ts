/**
 * Why a conversion earned what it did, in words (issue 31): the steps the money engine stores with
 * each conversion (facts and values, never text) rendered in the reader's language by the
 * catalogue's one renderer — money, rates and dates through the web's own formatters, counted days
 * through Intl.PluralRules. The server answers the explanation endpoints with these texts, so the
 * console and the promoter's app show the same words.
 */
import { formatDate, formatNumber, formatPercent } from '../format';
import type { Locale } from '../locales';
import { interpolate, textValues, type TextValue } from './render';
import en from './explanation/en';
import es from './explanation/es';
import fr from './explanation/fr';
import zhHans from './explanation/zh-Hans';
import zhHant from './explanation/zh-Hant';

/** Every step text, by `<step>.<outcome>` (with its variants). */
export const EXPLANATION_KEYS = [
  'schedule.campaign_not_started', 'schedule.campaign_ended',
  'attribution.click', 'attribution.coupon', 'attribution.link', 'attribution.customer', 'attribution.binding', 'attribution.binding_lifetime',
  'attribution.click_outside_window', 'attribution.customer_outside_window', 'attribution.no_match',
  'eligibility.self_referral', 'eligibility.promoter_inactive', 'eligibility.not_enrolled',
  'assigned.credited', 'assigned.moved',
  'group.member',
  'line.percent', 'line.percent_sku', 'line.fixed', 'line.fixed_sku', 'line.paid_before_sku', 'line.no_rule', 'line.no_rule_sku',
  'rule.label', 'rule.number', 'rule.base',
  'tier.applied', 'cap.rule', 'cap.budget', 'override.paid', 'total.earned', 'total.nothing', 'hold.until',
  // A bounty's reward (docs/bounties.md): the goal reached, per metric and period, or the proof approved.
  'bounty.sales_month', 'bounty.sales_campaign', 'bounty.saleAmount_month', 'bounty.saleAmount_campaign', 'bounty.leads_month', 'bounty.leads_campaign', 'bounty.approved',
] as const;
type Counted = 'days' | 'window' | 'hold' | 'sales' | 'leads';
export type ExplanationTexts = Record<(typeof EXPLANATION_KEYS)[number] | 'event_lead' | 'event_sale', string> & Partial<Record<`${Counted}_${Intl.LDMLPluralRule}`, string>>;

export const EXPLANATION_TEXTS: Record<Locale, ExplanationTexts> = { en, fr, es, 'zh-Hans': zhHans, 'zh-Hant': zhHant };

export interface ExplanationStep {
  step: string;
  outcome: string;
  detail: Record<string, string | number | boolean | null>;
}

export interface ExplainContext {
  locale: Locale;
  currency: string;
  timeZone: string;
  /** The conversion's kind. */
  event: 'lead' | 'sale';
  /** The names of the groups steps name (a group's id when its name is not known). */
  groupNames?: ReadonlyMap<string, string>;
}

const num = (v: unknown) => (typeof v === 'number' ? v : 0);

/** One step in words, or null for a step this version does not know (written by a newer one). */
export function explainStep(s: ExplanationStep, ctx: ExplainContext): string | null {
  const texts = EXPLANATION_TEXTS[ctx.locale];
  const d = s.detail;
  const money = (v: unknown): TextValue => ({ minor: num(v), currency: ctx.currency });
  const ruleName = () => {
    if (typeof d.label === 'string' && d.label) return interpolate(texts['rule.label'], { label: d.label });
    if (d.ruleId === 'lead' || d.ruleId === 'sale') return texts['rule.base'];
    return interpolate(texts['rule.number'], { number: formatNumber(num(d.rule), ctx.locale) });
  };
  let key = `${s.step}.${s.outcome}`;
  const values: Record<string, TextValue> = {};
  switch (s.step) {
    case 'attribution':
      if (s.outcome === 'binding' && d.months === null) key = 'attribution.binding_lifetime';
      Object.assign(values, { days: num(d.days), window: num(d.windowDays), month: num(d.month), months: num(d.months), event: texts[`event_${ctx.event}`] });
      break;
    case 'group':
      values.group = ctx.groupNames?.get(String(d.groupId)) ?? String(d.groupId);
      break;
    case 'line': {
      if (typeof d.sku === 'string') key += '_sku';
      const quantity = Math.max(num(d.quantity), 1);
      Object.assign(values, {
        rule: ruleName(), sku: String(d.sku ?? ''), quantity: num(d.quantity), unit: money(Math.round(num(d.amount) / quantity)), amount: money(d.amount),
        rate: d.bps === null ? '' : formatPercent(num(d.bps), ctx.locale), earned: money(d.earned),
      });
      break;
    }
    case 'tier':
      Object.assign(values, { sale: num(d.saleNumber), from: num(d.minSales), rate: formatPercent(num(d.bps), ctx.locale) });
      break;
    case 'cap':
      Object.assign(values, { rule: ruleName(), limit: money(d.limit), used: money(d.used), before: money(d.before), after: money(d.after) });
      break;
    case 'override':
      Object.assign(values, { rate: formatPercent(num(d.bps), ctx.locale), amount: money(d.amount) });
      break;
    case 'total':
      values.amount = money(d.amount);
      break;
    case 'hold':
      Object.assign(values, { date: formatDate(num(d.availableAt), ctx.locale, ctx.timeZone), hold: num(d.holdDays) });
      break;
    case 'bounty': {
      // detail: name (in the reader's language), metric, value, period (YYYY-MM or campaign); approved: at.
      if (s.outcome !== 'approved') key = `bounty.${String(d.metric)}_${d.period === 'campaign' ? 'campaign' : 'month'}`;
      const period = typeof d.period === 'string' && /^\d{4}-\d{2}$/.test(d.period) ? d.period : null;
      const month = period ? new Intl.DateTimeFormat(ctx.locale, { year: 'numeric', month: 'long', timeZone: 'UTC' }).format(Date.UTC(Number(period.slice(0, 4)), Number(period.slice(5, 7)) - 1, 1)) : '';
      Object.assign(values, { name: String(d.name ?? ''), sales: num(d.value), leads: num(d.value), amount: money(d.value), month, date: formatDate(num(d.at), ctx.locale, ctx.timeZone) });
      break;
    }
    case 'assigned':
      // Staff's own words: shown as they were given.
      Object.assign(values, { date: formatDate(num(d.at), ctx.locale, ctx.timeZone), reason: String(d.reason ?? '') });
      break;
  }
  const template = (texts as Record<string, string | undefined>)[key];
  if (template === undefined) return null;
  return interpolate(template, textValues(values, ctx.locale, texts as Readonly<Record<string, string>>));
}

/** The steps in words, leaving out those this version cannot say. */
export function explainSteps(steps: readonly ExplanationStep[], ctx: ExplainContext): { step: string; outcome: string; detail: ExplanationStep['detail']; text: string }[] {
  return steps.flatMap((s) => {
    const text = explainStep(s, ctx);
    return text === null ? [] : [{ ...s, text }];
  });
}
