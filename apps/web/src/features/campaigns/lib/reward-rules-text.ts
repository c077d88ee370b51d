/**
 * The rules in words, for the preview: a reward ("15 %", "CN¥5.00") and a condition ("SKU is one
 * of TEA-01, TEA-02", "Line amount is at least CN¥100.00").
 */
import type { TFunction } from 'i18next';
import type { Reward, RewardCondition } from '@pa/shared';
import { formatMoney, formatPercent } from '@/lib/format';

export function rewardText(reward: Reward, currency: string, locale: string): string {
  return reward.type === 'percent' ? formatPercent(reward.bps, locale) : formatMoney(reward.amount, currency, locale);
}

/** A country code with its name in the reader's language ("FR (France)"), or the code alone. */
export function countryName(code: string, locale: string): string | null {
  try {
    const name = new Intl.DisplayNames([locale], { type: 'region' }).of(code);
    return name && name !== code ? name : null;
  } catch {
    return null;
  }
}

/** "TEA-01, TEA-02, and TEA-03", "法国、西班牙和德国": a list as the reader's language writes one. */
export function listText(items: readonly string[], locale: string): string {
  try {
    return new Intl.ListFormat(locale, { type: 'conjunction' }).format(items);
  } catch {
    return items.join(', ');
  }
}

export function conditionText(c: RewardCondition, t: TFunction, currency: string, locale: string): string {
  const meta = c.field.startsWith('metadata.');
  const field = meta ? t('rewardRules.metaField', { key: c.field.slice(9) }) : t(`rewardRules.field.${c.field}`);
  let value: string;
  if (typeof c.value === 'boolean') value = c.value ? t('rewardRules.yes') : t('rewardRules.no');
  else if (typeof c.value === 'number') value = formatMoney(c.value, currency, locale);
  else value = listText(Array.isArray(c.value) ? c.value : [c.value], locale);
  return t('rewardRules.condition', { field, op: t(`rewardRules.op.${c.op}`), value });
}
