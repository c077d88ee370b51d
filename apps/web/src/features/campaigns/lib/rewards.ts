import type { TFunction } from 'i18next';
import type { AdminCampaign } from '@pa/shared';
import { formatMoney, formatPercent as formatBps } from '@/lib/format';


/** "10% per sale · CN¥5.00 per lead", or that there is no reward yet. */
export function rewardSummary(c: Pick<AdminCampaign, 'saleReward' | 'saleRewardType' | 'leadReward' | 'tiers'>, currency: string, locale: string, t: TFunction): string {
  const parts: string[] = [];
  if (c.saleReward > 0 || c.tiers.length > 0) {
    parts.push(t('campaignAdmin.perSale', { value: c.saleRewardType === 'bps' ? formatBps(c.saleReward, locale) : formatMoney(c.saleReward, currency, locale) }));
  }
  if (c.leadReward > 0) parts.push(t('campaignAdmin.perLead', { value: formatMoney(c.leadReward, currency, locale) }));
  return parts.length ? parts.join(' · ') : t('campaignAdmin.noRewards');
}
