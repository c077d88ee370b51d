/** Home's figures: the change against the previous period, and how each figure is written. */
import { formatMoney, formatNumber, numberFormat } from '@/lib/format';

export { changeOf, formatChange, type Change } from '@/lib/change';

export const KPIS = ['earnings', 'clicks', 'uniqueClicks', 'leads', 'sales', 'conversionRate', 'epc'] as const;
export type Kpi = (typeof KPIS)[number];

/** A conversion rate (a fraction) as a percentage with at most one decimal. */
export function formatRate(fraction: number, locale: string): string {
  return numberFormat(locale, { style: 'percent', maximumFractionDigits: 1 }).format(fraction);
}

export function formatKpi(kpi: Kpi, value: number, currency: string, locale: string): string {
  if (kpi === 'earnings' || kpi === 'epc') return formatMoney(value, currency, locale);
  if (kpi === 'conversionRate') return formatRate(value, locale);
  return formatNumber(value, locale);
}
