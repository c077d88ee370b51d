import { Button, SearchBar, Toast } from 'antd-mobile';
import { ShopbagOutline } from 'antd-mobile-icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Campaign } from '@pa/shared';
import { EmptyState } from '../../../components/empty-state';
import { PageError, PageLoading } from '../../../components/page-status';
import { errorText } from '../../../lib/errors';
import { formatMoney } from '../../../lib/format';
import { useCampaigns } from '../api/get-campaigns';
import { useJoinCampaign } from '../api/join-campaign';

/** The sale reward in plain words: a percentage or a fixed amount per sale. */
function saleReward(c: Campaign, locale: string, t: (k: string, o?: Record<string, string>) => string) {
  if (c.saleReward <= 0) return null;
  const value = c.saleRewardType === 'bps'
    ? new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 2 }).format(c.saleReward / 10_000)
    : formatMoney(c.saleReward, c.currency, locale);
  return t('promote.perSale', { value });
}

function CampaignCard({ campaign }: { campaign: Campaign }) {
  const { t, i18n } = useTranslation();
  const join = useJoinCampaign();
  const status = campaign.enrollment?.status;
  const reward = saleReward(campaign, i18n.language, t);
  return (
    <article className="card campaign-card" data-testid={`campaign-${campaign.id}`}>
      {campaign.cover ? <img className="campaign-cover" src={campaign.cover.url} alt="" width={campaign.cover.width} height={campaign.cover.height} loading="lazy" /> : null}
      <h2>{campaign.name}</h2>
      {campaign.description ? <p className="campaign-desc">{campaign.description}</p> : null}
      <p className="campaign-terms">
        {reward ? <span>{reward}</span> : null}
        {campaign.leadReward > 0 ? <span>{t('promote.perLead', { value: formatMoney(campaign.leadReward, campaign.currency, i18n.language) })}</span> : null}
        {campaign.status === 'paused' ? <span className="role-tag">{t('promote.paused')}</span> : null}
      </p>
      {status === 'approved' ? (
        <span className="current-tag">{t('promote.joined')}</span>
      ) : status === 'pending' ? (
        <span className="role-tag">{t('promote.pending')}</span>
      ) : status === 'rejected' ? (
        <span className="role-tag">{t('promote.rejected')}</span>
      ) : (
        <Button
          color="primary"
          size="small"
          loading={join.isPending}
          disabled={campaign.status !== 'active'}
          data-testid={`join-${campaign.id}`}
          onClick={async () => {
            try {
              const { enrollment } = await join.mutateAsync(campaign.id);
              Toast.show({ icon: 'success', content: enrollment.status === 'approved' ? t('promote.joinedToast') : t('promote.pendingToast') });
            } catch (error) {
              Toast.show({ content: errorText(t, error) });
            }
          }}
        >
          {t('promote.join')}
        </Button>
      )}
    </article>
  );
}

export default function PromotePage() {
  const { t, i18n } = useTranslation();
  const [q, setQ] = useState('');
  const campaigns = useCampaigns(q, i18n.language);
  return (
    <div className="tab-page">
      <h1 className="tab-title">{t('promote.title')}</h1>
      <SearchBar placeholder={t('promote.search')} onSearch={(v) => setQ(v.trim())} onClear={() => setQ('')} data-testid="campaign-search" />
      {campaigns.isPending ? <PageLoading /> : campaigns.isError ? <PageError error={campaigns.error} onRetry={() => campaigns.refetch()} /> : campaigns.data.items.length === 0 ? (
        <EmptyState icon={<ShopbagOutline />} title={q ? t('promote.noMatch') : t('promote.emptyTitle')} body={q ? t('promote.noMatchBody') : t('promote.emptyBody')} />
      ) : (
        <div className="campaign-list">
          {campaigns.data.items.map((c) => <CampaignCard key={c.id} campaign={c} />)}
        </div>
      )}
    </div>
  );
}
