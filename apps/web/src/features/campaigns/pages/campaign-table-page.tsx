import { Button, List, Tabs } from 'antd-mobile';
import { AddOutline, ShopbagOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import type { AdminCampaign } from '@pa/shared';
import { DataTable, type Column } from '@/components/data-table';
import { EmptyState } from '@/components/empty-state';
import { PageNav } from '@/components/page-nav';
import { PageError, PageLoading } from '@/components/page-status';
import { csvAmount, csvId } from '@pa/shared/csv';
import { csvFilename, csvTime, exportList, listPages } from '@/lib/csv-export';
import { useDesk } from '@/lib/desk';
import { formatDate, formatLastDay, formatPercent } from '@/lib/format';
import { DeskToolbar, ExportButton, StatusFilter } from '@/components/desk-toolbar';
import { useNavigate, useSearchParams } from '@/lib/hash-router';
import { useMe } from '@/lib/session';
import { useCampaigns, type CampaignFilter } from '../api/console-campaigns';
import { useCurrency } from '@/lib/currency';
import { CampaignStatusTag } from '../components/campaign-status-tag';
import { campaignName } from '../lib/campaign-form';
import { rewardSummary } from '../lib/rewards';
import { LoadMore } from '@/components/load-more';

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
                <span className="console-row-rewards">{rewardSummary(c, currency, i18n.language, t)}</span>
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
            <span className="console-row-name">{campaignName(c.names, i18n.language)}</span>
          </List.Item>
        ))}
      </List>
      <LoadMore query={campaigns} />
    </>
  );
}

function schedule(startsAt: number | null, endsAt: number | null, locale: string, t: (key: string, values?: Record<string, string>) => string) {
  if (startsAt !== null && endsAt !== null) return t('campaignAdmin.runs', { start: formatDate(startsAt, locale), end: formatLastDay(endsAt, locale) });
  if (startsAt !== null) return t('campaignAdmin.startsOn', { date: formatDate(startsAt, locale) });
  return t('campaignAdmin.endsOn', { date: formatLastDay(endsAt!, locale) });
}

/** At desk: every campaign in a table, opened by a click (or Enter) on its row. */
function CampaignsDesk({ filter, canCreate, onFilter }: { filter: CampaignFilter; canCreate: boolean; onFilter: (f: CampaignFilter) => void }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const campaigns = useCampaigns(filter);
  const { currency } = useCurrency();
  if (campaigns.isError) return <PageError error={campaigns.error} onRetry={() => campaigns.refetch()} />;
  const items = campaigns.data?.pages.flatMap((p) => p.items) ?? [];
  const name = (c: AdminCampaign) => campaignName(c.names, i18n.language);
  const columns: Column<AdminCampaign>[] = [
    { key: 'name', title: t('console.col.itemName'), sortValue: name, render: (c) => <span className="data-table-strong">{name(c)}</span> },
    { key: 'status', title: t('console.col.status'), sortValue: (c) => FILTERS.indexOf(c.status), render: (c) => <CampaignStatusTag status={c.status} /> },
    { key: 'rewards', title: t('console.col.rewards'), render: (c) => (currency ? rewardSummary(c, currency, i18n.language, t) : null) },
    { key: 'schedule', title: t('console.col.schedule'), sortValue: (c) => c.startsAt ?? c.endsAt, render: (c) => (c.startsAt !== null || c.endsAt !== null ? schedule(c.startsAt, c.endsAt, i18n.language, t) : <span className="data-table-muted">—</span>) },
    { key: 'created', title: t('console.col.created'), sortValue: (c) => c.createdAt, render: (c) => <span className="data-table-nowrap">{formatDate(c.createdAt, i18n.language)}</span> },
  ];
  const exportCsv = (onProgress: (rows: number) => void) => exportList<AdminCampaign>({
    filename: csvFilename(`campaigns-${filter}`),
    fetchPage: listPages('admin/campaigns', { status: filter === 'all' ? null : filter }),
    onProgress,
    csv: 'campaigns',
    columns: {
      name: name,
      status: (c) => t(`campaignAdmin.status.${c.status}`),
      lead_reward: (c) => csvAmount(c.leadReward, currency ?? 'XXX'),
      sale_reward: (c) => (c.saleRewardType === 'bps' ? formatPercent(c.saleReward, 'en') : csvAmount(c.saleReward, currency ?? 'XXX')),
      currency: () => currency ?? '',
      starts_at: (c) => csvTime(c.startsAt),
      ends_at: (c) => csvTime(c.endsAt),
      created_at: (c) => csvTime(c.createdAt),
      id: (c) => csvId(c.id),
    },
  });
  return (
    <DataTable
      data-testid={`admin-campaigns-${filter}`}
      caption={t('campaignAdmin.title')}
      rows={items}
      rowKey={(c) => c.id}
      rowTestId={(c) => `admin-campaign-${c.id}`}
      columns={columns}
      loading={campaigns.isPending || !currency}
      pagination={campaigns}
      onRowClick={(c) => navigate(`/admin/campaigns/${encodeURIComponent(c.id)}`)}
      empty={<EmptyState icon={<ShopbagOutline />} title={t(`campaignAdmin.empty.${filter}`)} body={canCreate ? t('campaignAdmin.emptyBodyAdmin') : t('campaignAdmin.emptyBody')} />}
      toolbar={
        <DeskToolbar
          filters={<StatusFilter label={t('console.filter.status')} value={filter} onChange={onFilter} options={FILTERS.map((f) => ({ value: f, label: t(`campaignAdmin.filter.${f}`) }))} testId="campaigns-filter" />}
          actions={
            <>
              <ExportButton run={exportCsv} />
              {canCreate ? (
                <Button color="primary" onClick={() => navigate('/admin/campaigns/new')} data-testid="new-campaign">
                  <AddOutline aria-hidden /> {t('campaignAdmin.new')}
                </Button>
              ) : null}
            </>
          }
        />
      }
    />
  );
}

export default function CampaignsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const params = useSearchParams();
  const desk = useDesk();
  const me = useMe();
  const requested = params.get('status') as CampaignFilter | null;
  const filter: CampaignFilter = requested && FILTERS.includes(requested) ? requested : 'all';
  const canCreate = me.data?.role === 'admin';
  const setFilter = (key: string) => navigate(key === 'all' ? '/admin/campaigns' : `/admin/campaigns?status=${key}`, { replace: true });
  if (desk) {
    return (
      <div className="sub-page desk-page">
        <PageNav title={t('campaignAdmin.title')} fallback="/me" />
        <CampaignsDesk key={filter} filter={filter} canCreate={canCreate} onFilter={setFilter} />
      </div>
    );
  }
  return (
    <div className="sub-page">
      <PageNav title={t('campaignAdmin.title')} fallback="/me" />
      {canCreate ? (
        <div className="console-toolbar">
          <Button color="primary" size="small" onClick={() => navigate('/admin/campaigns/new')} data-testid="new-campaign">
            <AddOutline aria-hidden /> {t('campaignAdmin.new')}
          </Button>
        </div>
      ) : null}
      {/* The tab lives in the address, so coming back from a campaign returns to it. */}
      <Tabs activeKey={filter} onChange={setFilter}>
        {FILTERS.map((f) => <Tabs.Tab key={f} title={<span data-testid={`campaign-tab-${f}`}>{t(`campaignAdmin.filter.${f}`)}</span>} />)}
      </Tabs>
      <CampaignList key={filter} filter={filter} canCreate={canCreate} />
    </div>
  );
}
