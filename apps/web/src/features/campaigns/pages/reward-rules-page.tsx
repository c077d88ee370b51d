import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { PageNav } from '@/components/page-nav';
import { PageError, PageLoading } from '@/components/page-status';
import { useCurrency } from '@/lib/currency';
import { useParams } from '@/lib/hash-router';
import { useMe } from '@/lib/session';
import { useCampaign } from '../api/console-campaigns';
import { rewardsQuery, useGroupOptions } from '../api/rewards';
import { RewardRulesEditor } from '../components/reward-rules-editor';
import { campaignName } from '../lib/campaign-form';

/** `/admin/campaigns/:id/rewards` (staff; only admins edit): the campaign's reward rules, budget and preview. */
export default function RewardRulesPage() {
  const { t, i18n } = useTranslation();
  const { id = '' } = useParams();
  const me = useMe();
  const { currency } = useCurrency();
  const campaign = useCampaign(id);
  // The editor starts from the rules once: from the server's, not from what this tab saw last.
  const rewards = useQuery({ ...rewardsQuery(id), refetchOnMount: 'always' });
  const groups = useGroupOptions();
  const name = campaign.data ? campaignName(campaign.data.names, i18n.language) : '';
  const title = name ? t('rewardRules.titleOf', { name }) : t('rewardRules.title');
  const failed = campaign.isError ? campaign : rewards.isError ? rewards : null;
  const canEdit = me.data?.role === 'admin';
  const ended = campaign.data?.status === 'ended';
  return (
    <div className="sub-page console-page rules-page">
      <PageNav title={title} fallback={`/admin/campaigns/${encodeURIComponent(id)}`} />
      {failed ? (
        <PageError error={failed.error} onRetry={() => void failed.refetch()} />
      ) : !campaign.data || !rewards.data || !rewards.isFetchedAfterMount || !currency || groups.isPending ? (
        <PageLoading />
      ) : (
        <>
          {!canEdit ? <p className="console-note">{t('rewardRules.readOnly')}</p> : ended ? <p className="console-note">{t('rewardRules.ended')}</p> : null}
          <RewardRulesEditor campaignId={id} campaignActive={campaign.data.status === 'active'} rewards={rewards.data} currency={currency} groups={groups.data ?? null} editable={canEdit && !ended} />
        </>
      )}
    </div>
  );
}
