import { Button, List, Tabs } from 'antd-mobile';
import { AddOutline, ShopbagOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/empty-state';
import { PageNav } from '../../../components/page-nav';
import { PageError, PageLoading } from '../../../components/page-status';
import { formatDate } from '../../../lib/format';
import { useNavigate, useSearchParams } from '../../../lib/router';
import { useMe } from '../../../lib/session';
import { useCampaigns, type CampaignFilter } from '../api/campaigns';
import { useCurrency } from '../api/currency';
import { CampaignStatusTag } from '../components/campaign-status-tag';
import { campaignName } from '../lib/campaign-form';
import { rewardSummary } from '../lib/rewards';
import { LoadMore } from '../../../components/load-more';

const FILTERS: CampaignFilter[] = ['all', 'draft', 'active', 'paused', 'ended'];

function CampaignList({ filter, canCreate }: { filter: CampaignFilter; canCreate: boolean }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const campaigns = useCampaigns(filter);
  const { currency } = useCurrency();
  if (campaigns.isPending || !currency) return <PageLoading />;
  if (campaigns.isError) return <PageError error={campaigns.error} onRetry={() => campaigns.refetch()} />;
  const items = campaigns.data.pages.flatMap((p) => p.items);
  if (items.length === 0) {
    return (
      <EmptyState
        icon={<ShopbagOutline />}
        title={t(`campaignAdmin.empty.${filter}`)}
        body={canCreate ? t('campaignAdmin.emptyBodyAdmin') : t('campaignAdmin.emptyBody')}
      />
    );
  }
  return (
    <>
      <List data-testid={`admin-campaigns-${filter}`}>
        {items.map((c) => (
          <List.Item
            key={c.id}
            onClick={() => navigate(`/admin/campaigns/${encodeURIComponent(c.id)}`)}
            data-testid={`admin-campaign-${c.id}`}
            description={
              <>
                <span className="ca-row-rewards">{rewardSummary(c, currency, i18n.language, t)}</span>
                {c.startsAt !== null || c.endsAt !== null ? (
                  <>
                    <br />
                    <span>{schedule(c.startsAt, c.endsAt, i18n.language, t)}</span>
                  </>
                ) : null}
              </>
            }
            extra={<CampaignStatusTag status={c.status} />}
          >
            <span className="ca-row-name">{campaignName(c.names, i18n.language)}</span>
          </List.Item>
        ))}
      </List>
      <LoadMore query={campaigns} />
    </>
  );
}

function schedule(startsAt: number | null, endsAt: number | null, locale: string, t: (key: string, values?: Record<string, string>) => string) {
  if (startsAt !== null && endsAt !== null) return t('campaignAdmin.runs', { start: formatDate(startsAt, locale), end: formatDate(endsAt, locale) });
  if (startsAt !== null) return t('campaignAdmin.startsOn', { date: formatDate(startsAt, locale) });
  return t('campaignAdmin.endsOn', { date: formatDate(endsAt!, locale) });
}

export default function CampaignsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const params = useSearchParams();
  const me = useMe();
  const requested = params.get('status') as CampaignFilter | null;
  const filter: CampaignFilter = requested && FILTERS.includes(requested) ? requested : 'all';
  const canCreate = me.data?.role === 'admin';
  return (
    <div className="sub-page">
      <PageNav title={t('campaignAdmin.title')} fallback="/me" />
      {canCreate ? (
        <div className="ca-toolbar">
          <Button color="primary" size="small" onClick={() => navigate('/admin/campaigns/new')} data-testid="new-campaign">
            <AddOutline aria-hidden /> {t('campaignAdmin.new')}
          </Button>
        </div>
      ) : null}
      {/* The tab lives in the address, so coming back from a campaign returns to it. */}
      <Tabs activeKey={filter} onChange={(key) => navigate(key === 'all' ? '/admin/campaigns' : `/admin/campaigns?status=${key}`, { replace: true })}>
        {FILTERS.map((f) => <Tabs.Tab key={f} title={<span data-testid={`campaign-tab-${f}`}>{t(`campaignAdmin.filter.${f}`)}</span>} />)}
      </Tabs>
      <CampaignList key={filter} filter={filter} canCreate={canCreate} />
    </div>
  );
}
