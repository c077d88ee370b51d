/** `#/bounties` (promoters; issue 31 item 5): the bounties open to the promoter, with progress and what they earned. */
import { useTranslation } from 'react-i18next';
import { EmptyState } from '@/components/empty-state';
import { PageNav } from '@/components/page-nav';
import { PageError, PageLoading } from '@/components/page-status';
import { PullToRefresh } from '@/components/pull-to-refresh';
import { useSearchParams } from '@/lib/hash-router';
import { useBounties } from '../api/bounties';
import { BountyCard } from '../components/bounty-card';
import { FlagOutline } from '../components/flag-icon';
import '../bounties.css';

export default function BountiesPage() {
  const { t, i18n } = useTranslation();
  const bounties = useBounties(i18n.language);
  // From a campaign's page: its bounties only.
  const campaignId = useSearchParams().get('campaign');
  const items = (bounties.data?.items ?? []).filter((b) => !campaignId || b.campaignId === campaignId);
  return (
    <div className="sub-page bounties-page">
      <PageNav title={t('bounties.title')} fallback={campaignId ? `/campaigns/${encodeURIComponent(campaignId)}` : '/'} />
      {bounties.isPending ? <PageLoading /> : bounties.isError ? <PageError error={bounties.error} onRetry={() => void bounties.refetch()} /> : (
        <PullToRefresh onRefresh={async () => { await bounties.refetch(); }}>
          {items.length === 0 ? (
            <EmptyState icon={<FlagOutline />} title={t('bounties.emptyTitle')} body={t('bounties.emptyBody')} />
          ) : (
            <>
              <p className="bounties-lead">{t('bounties.lead')}</p>
              <div className="bounty-list" data-testid="bounty-list">
                {items.map((b) => <BountyCard key={b.id} bounty={b} currency={bounties.data.currency} />)}
              </div>
            </>
          )}
        </PullToRefresh>
      )}
    </div>
  );
}
