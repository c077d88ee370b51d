import { Button, List } from 'antd-mobile';
import { AddOutline, PictureOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import type { Campaign } from '@pa/shared';
import { CopyField } from '@/components/copy-field';
import { PageNav } from '@/components/page-nav';
import { PageError, PageLoading } from '@/components/page-status';
import { trackedLink } from '@/lib/links';
import { navigate, useParams } from '@/lib/hash-router';
import { useCampaign } from '../api/get-campaign';
import { useLinks } from '../api/links';
import { CampaignTerms } from '../components/campaign-terms';
import { JoinButton } from '../components/join-button';
import { LinkRow } from '../components/link-row';
import { shareTextFor } from '../lib/share-text';

/** Links, share text and poster templates: only once the reader has been approved. */
function MyMaterials({ campaign }: { campaign: Campaign }) {
  const { t, i18n } = useTranslation();
  const links = useLinks(i18n.language, campaign.id);
  if (links.isPending) return <PageLoading />;
  if (links.isError) return <PageError error={links.error} onRetry={() => links.refetch()} />;
  const items = links.data.pages.flatMap((p) => p.items);
  const main = items.find((l) => l.isDefault && l.status === 'active') ?? items.find((l) => l.status === 'active');
  const newLink = () => navigate(`/links/new?campaign=${encodeURIComponent(campaign.id)}`);
  return (
    <>
      <section className="card" aria-labelledby="my-links-title">
        <div className="card-title-row">
          <h2 id="my-links-title">{t('campaign.myLinks')}</h2>
          <Button size="small" fill="none" color="primary" onClick={newLink} data-testid="new-link">
            <AddOutline aria-hidden /> {t('links.new')}
          </Button>
        </div>
        {items.length === 0 ? <p className="hint">{t('campaign.noLinks')}</p> : (
          <List className="flush-list">
            {items.map((l) => <LinkRow key={l.id} link={l} />)}
          </List>
        )}
      </section>
      {main ? (
        <section className="card" aria-labelledby="share-title">
          <h2 id="share-title">{t('campaign.shareTitle')}</h2>
          <CopyField label={t('links.url')} value={trackedLink(main.code)} buttonLabel={t('links.copyLink')} testId="campaign-link" />
          {campaign.enrollment?.couponCode ? (
            <CopyField label={t('campaign.coupon')} value={campaign.enrollment.couponCode} buttonLabel={t('links.copyText')} testId="campaign-coupon" />
          ) : null}
          <CopyField
            label={t('campaign.shareText')}
            value={shareTextFor(campaign.shareText, { link: trackedLink(main.code), code: main.code, name: campaign.name }, t)}
            buttonLabel={t('links.copyText')}
            testId="campaign-share-text"
          />
        </section>
      ) : null}
      {main ? (
        <section className="card" aria-labelledby="materials-title">
          <h2 id="materials-title">{t('campaign.materials')}</h2>
          {campaign.posters.length > 0 ? (
            <div className="poster-thumbs">
              {campaign.posters.map((p) => (
                <a key={p.id} href={`#/poster/${encodeURIComponent(main.id)}?template=${encodeURIComponent(p.id)}`} className="poster-thumb" aria-label={t('poster.make')}>
                  <img src={p.url} alt="" width={p.width} height={p.height} loading="lazy" />
                </a>
              ))}
            </div>
          ) : <p className="hint">{t('campaign.noTemplates')}</p>}
          <Button block color="primary" fill="outline" onClick={() => navigate(`/poster/${encodeURIComponent(main.id)}`)} data-testid="campaign-poster">
            <PictureOutline aria-hidden /> {t('poster.make')}
          </Button>
        </section>
      ) : null}
    </>
  );
}

export default function CampaignPage() {
  const { t, i18n } = useTranslation();
  const { id = '' } = useParams();
  const campaign = useCampaign(id, i18n.language);
  const c = campaign.data;
  return (
    <div className="sub-page">
      <PageNav title={c?.name ?? t('campaign.title')} fallback="/promote" />
      {campaign.isPending ? <PageLoading /> : campaign.isError || !c ? <PageError error={campaign.error} onRetry={() => campaign.refetch()} /> : (
        <>
          {c.cover ? <img className="campaign-hero" src={c.cover.url} alt="" width={c.cover.width} height={c.cover.height} /> : null}
          <section className="card campaign-head">
            <h1 data-testid="campaign-name">{c.name}</h1>
            {c.status === 'paused' ? <p className="notice">{t('campaign.pausedNotice')}</p> : c.status === 'ended' ? <p className="notice">{t('campaign.endedNotice')}</p> : null}
            {c.description ? <p className="campaign-body">{c.description}</p> : null}
            <div className="campaign-join"><JoinButton campaign={c} block /></div>
            {c.enrollment?.status === 'pending' ? <p className="hint">{t('campaign.pendingHint')}</p> : null}
          </section>
          <section className="card" aria-labelledby="terms-title">
            <h2 id="terms-title">{t('campaign.howYouEarn')}</h2>
            <CampaignTerms campaign={c} />
          </section>
          {c.enrollment?.status === 'approved' ? (
            <section className="card" aria-labelledby="bounties-title">
              <h2 id="bounties-title" className="visually-hidden">{t('bounties.title')}</h2>
              <List className="flush-list">
                <List.Item arrow onClick={() => navigate(`/bounties?campaign=${encodeURIComponent(c.id)}`)} description={t('bounties.campaignHint')} data-testid="campaign-bounties">{t('bounties.title')}</List.Item>
              </List>
            </section>
          ) : null}
          {c.enrollment?.status === 'approved' ? <MyMaterials campaign={c} /> : null}
        </>
      )}
    </div>
  );
}
