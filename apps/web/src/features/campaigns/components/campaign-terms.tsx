import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { Campaign } from '@pa/shared';
import { formatDate, formatLastDay, formatMoney, formatPercent as percent } from '@/lib/format';


/** The sale reward as a short figure: "10%" or "¥5.00". */
export function saleRewardValue(c: Campaign, locale: string): string | null {
  if (c.saleReward <= 0) return null;
  return c.saleRewardType === 'bps' ? percent(c.saleReward, locale) : formatMoney(c.saleReward, c.currency, locale);
}

/** Every rule of the campaign as one plain sentence each, in the reader's language. */
export function termSentences(c: Campaign, t: TFunction, locale: string): { key: string; text: string }[] {
  const money = (minor: number) => formatMoney(minor, c.currency, locale);
  const out: { key: string; text: string }[] = [];
  const sale = saleRewardValue(c, locale);
  if (sale) out.push({ key: 'sale', text: t(c.saleRewardType === 'bps' ? 'campaign.terms.salePercent' : 'campaign.terms.saleFixed', { value: sale }) });
  for (const tier of [...c.tiers].sort((a, b) => a.minSales - b.minSales)) {
    out.push({ key: `tier-${tier.minSales}`, text: t('campaign.terms.tier', { count: tier.minSales, value: percent(tier.bps, locale) }) });
  }
  // Recurring commissions (a customer stays bound to the promoter): every later payment earns too.
  const binding = c.customerBinding;
  if (sale && binding === 'lifetime') out.push({ key: 'recurring', text: t('campaign.terms.recurringLifetime') });
  else if (sale && typeof binding === 'number' && binding > 0) out.push({ key: 'recurring', text: t('campaign.terms.recurring', { count: binding }) });
  if (c.leadReward > 0) out.push({ key: 'lead', text: t('campaign.terms.lead', { value: money(c.leadReward) }) });
  if (!sale && c.leadReward <= 0) out.push({ key: 'none', text: t('campaign.terms.noReward') });
  if (c.overrideBps > 0) out.push({ key: 'override', text: t('campaign.terms.override', { value: percent(c.overrideBps, locale) }) });
  out.push({ key: 'window', text: t('campaign.terms.window', { count: c.attributionWindowDays }) });
  out.push({ key: 'hold', text: c.holdDays > 0 ? t('campaign.terms.hold', { count: c.holdDays }) : t('campaign.terms.holdNone') });
  out.push({ key: 'join', text: t(c.joinMode === 'open' ? 'campaign.terms.joinOpen' : 'campaign.terms.joinApproval') });
  if (c.startsAt && c.endsAt) out.push({ key: 'dates', text: t('campaign.terms.runs', { from: formatDate(c.startsAt, locale), to: formatLastDay(c.endsAt, locale) }) });
  else if (c.endsAt) out.push({ key: 'dates', text: t('campaign.terms.ends', { date: formatLastDay(c.endsAt, locale) }) });
  else if (c.startsAt) out.push({ key: 'dates', text: t('campaign.terms.starts', { date: formatDate(c.startsAt, locale) }) });
  return out;
}

export function CampaignTerms({ campaign }: { campaign: Campaign }) {
  const { t, i18n } = useTranslation();
  return (
    <ul className="terms-list" data-testid="campaign-terms">
      {termSentences(campaign, t, i18n.language).map((s) => <li key={s.key}>{s.text}</li>)}
    </ul>
  );
}
