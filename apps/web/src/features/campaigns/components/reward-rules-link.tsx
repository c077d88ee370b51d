import { RightOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { Link } from '@/lib/hash-router';
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
