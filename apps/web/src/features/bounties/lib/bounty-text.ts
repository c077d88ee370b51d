/**
 * Bounty goals and progress in words, for the console ("5 sales a month") and the promoter's
 * cards ("3 of 5 sales this month", "CN¥120.00 of CN¥500.00 in sales this month"). The texts are
 * the app's (`bounties.goal.*`, `bounties.progress.*`): the console loads them too.
 */
import type { TFunction } from 'i18next';
import type { BountyGoal } from '@pa/shared';
import { formatMoney } from '@/lib/format';

/** "5 sales a month", "CN¥500.00 in sales during the campaign". */
export function goalText(t: TFunction, goal: BountyGoal, currency: string, locale: string): string {
  if (goal.metric === 'saleAmount') return t(`bounties.goal.saleAmount.${goal.period}`, { amount: formatMoney(goal.value, currency, locale) });
  return t(`bounties.goal.${goal.metric}.${goal.period}`, { count: goal.value });
}

/** "3 of 5 sales this month", "CN¥120.00 of CN¥500.00 in sales this month". */
export function progressText(t: TFunction, goal: BountyGoal, current: number, currency: string, locale: string): string {
  if (goal.metric === 'saleAmount') {
    return t(`bounties.progress.saleAmount.${goal.period}`, { current: formatMoney(current, currency, locale), goal: formatMoney(goal.value, currency, locale) });
  }
  return t(`bounties.progress.${goal.metric}.${goal.period}`, { current, count: goal.value });
}

/** How full the bar is, 0–100 (a goal passed shows full). */
export function progressPercent(goal: BountyGoal, current: number): number {
  if (goal.value <= 0) return 0;
  return Math.max(0, Math.min(100, Math.floor((current / goal.value) * 100)));
}

/** The name in the reader's language, else English, else the first one written. */
export function pickText(texts: Record<string, string>, locale: string): string {
  return texts[locale] || texts.en || Object.values(texts).find((v) => v) || '';
}
