import { SearchBar } from 'antd-mobile';
import { LinkOutline, RightOutline, ShopbagOutline } from 'antd-mobile-icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Campaign } from '@pa/shared';
import { EmptyState } from '@/components/empty-state';
import { PageError, PageLoading } from '@/components/page-status';
import { formatMoney } from '@/lib/format';
import { Link, navigate } from '@/lib/hash-router';
import { useCampaigns } from '../api/get-campaigns';
import { saleRewardValue } from '../components/campaign-terms';
import { JoinButton } from '../components/join-button';

function CampaignCard({ campaign }: { campaign: Campaign }) {
  const { t, i18n } = useTranslation();
  const sale = saleRewardValue(campaign, i18n.language);
  const open = () => navigate(`/campaigns/${encodeURIComponent(campaign.id)}`);
  return (
    <article className="card campaign-card" data-testid={`campaign-${campaign.id}`}>
      <a href={`#/campaigns/${encodeURIComponent(campaign.id)}`} className="campaign-card-link" data-testid={`open-${campaign.id}`}>
        {campaign.cover ? <img className="campaign-cover" src={campaign.cover.url} alt="" width={campaign.cover.width} height={campaign.cover.height} loading="lazy" /> : null}
        <h3>{campaign.name}</h3>
        {campaign.description ? <p className="campaign-desc clamp-2">{campaign.description}</p> : null}
      </a>
      <p className="campaign-terms">
        {sale ? <span>{t('promote.perSale', { value: sale })}</span> : null}
        {campaign.leadReward > 0 ? <span>{t('promote.perLead', { value: formatMoney(campaign.leadReward, campaign.currency, i18n.language) })}</span> : null}
        {campaign.status === 'paused' ? <span className="role-tag">{t('promote.paused')}</span> : null}
      </p>
      <div className="campaign-card-actions">
        <JoinButton campaign={campaign} />
        <button type="button" className="text-button" onClick={open}>
          {t('promote.details')} <RightOutline aria-hidden />
        </button>
      </div>
    </article>
  );
}

/**
 * The reader's campaigns (joined, waiting or not approved) apart from those still open to join:
 * a promoter comes back for the first, a newcomer looks for the second.
 */
function CampaignSections({ items }: { items: Campaign[] }) {
  const { t } = useTranslation();
  const mine = items.filter((c) => c.enrollment !== null);
  const open = items.filter((c) => c.enrollment === null);
  const section = (id: string, title: string, list: Campaign[], empty: string) => (
    <section className="campaign-section" aria-labelledby={`section-${id}`} data-testid={`campaigns-${id}`}>
      <h2 id={`section-${id}`} className="campaign-section-title">{title} <span className="campaign-section-count">{list.length}</span></h2>
      {list.length ? <div className="campaign-list">{list.map((c) => <CampaignCard key={c.id} campaign={c} />)}</div> : <p className="campaign-section-empty">{empty}</p>}
    </section>
  );
  return (
    <>
      {section('mine', t('promote.mineSection'), mine, t('promote.mineEmpty'))}
      {section('open', t('promote.openSection'), open, t('promote.openEmpty'))}
    </>
  );
}

export default function PromotePage() {
  const { t, i18n } = useTranslation();
  const [q, setQ] = useState('');
  const campaigns = useCampaigns(q, i18n.language);
  return (
    <div className="tab-page">
      <div className="tab-title-row">
        <h1 className="tab-title">{t('promote.title')}</h1>
        <Link to="/links" className="title-action" data-testid="my-links">
          <LinkOutline aria-hidden /> {t('links.title')}
        </Link>
      </div>
      <SearchBar placeholder={t('promote.search')} onSearch={(v) => setQ(v.trim())} onClear={() => setQ('')} data-testid="campaign-search" />
      {campaigns.isPending ? <PageLoading /> : campaigns.isError ? <PageError error={campaigns.error} onRetry={() => campaigns.refetch()} /> : campaigns.data.items.length === 0 ? (
        <EmptyState icon={<ShopbagOutline />} title={q ? t('promote.noMatch') : t('promote.emptyTitle')} body={q ? t('promote.noMatchBody') : t('promote.emptyBody')} />
      ) : (
        <CampaignSections items={campaigns.data.items} />
      )}
    </div>
  );
}
