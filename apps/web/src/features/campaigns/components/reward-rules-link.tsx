import { RightOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { Link } from '@/lib/hash-router';
import { useQuery } from '@tanstack/react-query';
import type { AdminBountyList } from '@pa/shared';
import { api } from '@/lib/api-client';
import { useRewards } from '../api/rewards';
import './reward-rules-link.css';

/** The way from the campaign editor's rewards to its rules, with how many rules decide before the base reward. */
export function RewardRulesLink({ campaignId }: { campaignId: string }) {
  const { t } = useTranslation();
  const rewards = useRewards(campaignId);
  const more = rewards.data?.rules.filter((r) => !((r.id === 'lead' || r.id === 'sale') && r.groupIds.length === 0 && r.conditions.length === 0)).length;
  return (
    <Link to={`/admin/campaigns/${encodeURIComponent(campaignId)}/rewards`} className="rules-link" data-testid="campaign-rules-link">
      <span className="rules-link-text">
        <span className="rules-link-title">{t('rewardRules.title')}</span>
        <span className="rules-link-help">{more ? t('rewardRules.linkCount', { count: more }) : t('rewardRules.linkNone')}</span>
      </span>
      <RightOutline aria-hidden className="rules-link-arrow" />
    </Link>
  );
}

/** The way from the campaign editor to its bounties (issue 31 item 5), with how many are active and how many proofs wait. */
export function BountiesLink({ campaignId }: { campaignId: string }) {
  const { t } = useTranslation();
  // The bounties page's query (features/bounties/api): one cache for both.
  const bounties = useQuery({
    queryKey: ['admin', 'bounties', 'campaign', campaignId] as const,
    queryFn: ({ signal }) => api<AdminBountyList>('GET', `admin/campaigns/${encodeURIComponent(campaignId)}/bounties`, undefined, { signal }),
  });
  const items = bounties.data?.items ?? [];
  const active = items.filter((b) => b.status === 'active').length;
  const pending = items.reduce((n, b) => n + b.pendingSubmissions, 0);
  return (
    <Link to={`/admin/campaigns/${encodeURIComponent(campaignId)}/bounties`} className="rules-link" data-testid="campaign-bounties-link">
      <span className="rules-link-text">
        <span className="rules-link-title">{t('bountiesAdmin.title')}</span>
        <span className="rules-link-help">
          {active ? t('bountiesAdmin.linkCount', { count: active }) : t('bountiesAdmin.linkNone')}
          {pending ? ` · ${t('bountiesAdmin.pending', { count: pending })}` : ''}
        </span>
      </span>
      <RightOutline aria-hidden className="rules-link-arrow" />
    </Link>
  );
}
