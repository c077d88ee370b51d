import type { TFunction } from 'i18next';
import type { Commission } from '@pa/shared';
import { formatMoney, formatPercent as percent } from '../../../lib/format';


/** What earned the commission, in one line: "Sale", "Lead", "Team override". */
export function commissionTitle(c: Commission, t: TFunction): string {
  if (c.level === 2) return t('commissions.kind.override');
  return t(`commissions.kind.${c.kind}`);
}

/** The rule applied, in plain words with the figures: "10% of CN¥199.99", "CN¥2.50 per lead", … */
export function ruleText(c: Commission, currency: string, t: TFunction, locale: string): string {
  const money = (minor: number) => formatMoney(minor, currency, locale);
  switch (c.rule) {
    case 'lead_fixed':
      return t('commissions.rule.leadFixed', { amount: money(c.amount) });
    case 'sale_fixed':
      return t('commissions.rule.saleFixed', { amount: money(c.amount) });
    case 'sale_tier':
      return t('commissions.rule.saleTier', { rate: percent(c.rateBps ?? 0, locale), base: money(c.base) });
    case 'override':
      return t('commissions.rule.override', { rate: percent(c.rateBps ?? 0, locale), base: money(c.base) });
    default:
      return t('commissions.rule.saleRate', { rate: percent(c.rateBps ?? 0, locale), base: money(c.base) });
  }
}
