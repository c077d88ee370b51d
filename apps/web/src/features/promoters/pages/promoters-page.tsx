import { Button, List } from 'antd-mobile';
import { TeamOutline } from 'antd-mobile-icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AdminPromoterRow, UserStatus } from '@pa/shared';
import { AccountText } from '@/components/account-text';
import { DataTable, type Column, type SortState } from '@/components/data-table';
import { EmptyState } from '@/components/empty-state';
import { LoadMore } from '@/components/load-more';
import { PageNav } from '@/components/page-nav';
import { PageError, PageLoading } from '@/components/page-status';
import { useDesk } from '@/lib/desk';
import { formatDate, formatMoney } from '@/lib/format';
import { navigate, useLocation, useSearchParams } from '@/lib/hash-router';
import { downloadBlob } from '@/lib/share';
import { exportPromoters, useCampaignChoices, useGroupChoices, usePromoters, type PromoterFilters } from '../api/promoters';
import { MoveGroupSheet } from '../components/move-group';
import { useMe } from '@/lib/session';
import { DeskToolbar, ExportButton, StatusFilter } from '@/components/desk-toolbar';
import { LiveSearch } from '@/components/live-search';
import { UserStatusTag } from '@/components/user-status-tag';
import { campaignName } from '@/lib/campaign-name';
import { csvRowCount, DEFAULT_SORT, Q_MAX, readFilters, writeFilters } from '../lib/promoter-list';
import '@/components/desk.css';
import '../components/promoters.css';
import { useGroupName } from '@/lib/group-name';

type StatusChoice = UserStatus | 'all';
const STATUS_CHOICES: StatusChoice[] = ['all', 'active', 'pending', 'suspended', 'rejected'];

const open = (p: AdminPromoterRow) => navigate(`/admin/promoters/${encodeURIComponent(p.id)}`);

function Search({ q, onSearch }: { q: string; onSearch: (q: string) => void }) {
  const { t } = useTranslation();
  return <LiveSearch q={q} onSearch={onSearch} label={t('promotersAdmin.search')} maxLength={Q_MAX} className="promoter-search" delay={350} testId="promoters-search" />;
}

function CampaignFilter({ value, onChange }: { value: string | null; onChange: (id: string | null) => void }) {
  const { t, i18n } = useTranslation();
  const campaigns = useCampaignChoices();
  const items = campaigns.data ?? [];
  return (
    <label className="promoter-select">
      <span className="promoter-select-label">{t('promotersAdmin.campaignFilter')}</span>
      <select value={value ?? ''} onChange={(e) => onChange(e.target.value || null)} disabled={campaigns.isPending && !value} data-testid="promoters-campaign">
        <option value="">{t('promotersAdmin.allCampaigns')}</option>
        {value && !items.some((c) => c.id === value) ? <option value={value}>{campaigns.isPending ? t('app.loading') : t('promotersAdmin.unknownCampaign')}</option> : null}
        {items.map((c) => <option key={c.id} value={c.id}>{campaignName(c.names, i18n.language)}</option>)}
      </select>
    </label>
  );
}

/** The promoters of one group (issue 31); the address may name a group deleted since. */
function GroupFilter({ value, onChange }: { value: string | null; onChange: (id: string | null) => void }) {
  const { t } = useTranslation();
  const groupName = useGroupName();
  const groups = useGroupChoices();
  const items = groups.data ?? [];
  return (
    <label className="promoter-select">
      <span className="promoter-select-label">{t('promotersAdmin.groupFilter')}</span>
      <select value={value ?? ''} onChange={(e) => onChange(e.target.value || null)} disabled={groups.isPending && !value} data-testid="promoters-group">
        <option value="">{t('promotersAdmin.allGroups')}</option>
        {value && !items.some((g) => g.id === value) ? <option value={value}>{groups.isPending ? t('app.loading') : t('promotersAdmin.unknownGroup')}</option> : null}
        {items.map((g) => <option key={g.id} value={g.id}>{groupName(g)}</option>)}
      </select>
    </label>
  );
}

/** The server's file of every promoter the filters find; says how many rows went into it. */
async function runExport(f: PromoterFilters): Promise<number> {
  const { blob, filename } = await exportPromoters(f);
  downloadBlob(blob, filename);
  return csvRowCount(await blob.text());
}

function useFilters(): [PromoterFilters, (patch: Partial<PromoterFilters>) => void] {
  const params = useSearchParams();
  const { pathname } = useLocation();
  const filters = readFilters(params);
  const set = (patch: Partial<PromoterFilters>) => {
    const qs = writeFilters({ ...filters, ...patch }, params);
    navigate(`${pathname}${qs ? `?${qs}` : ''}`, { replace: true });
  };
  return [filters, set];
}

function PromotersDesk({ filters, set }: { filters: PromoterFilters; set: (patch: Partial<PromoterFilters>) => void }) {
  const { t, i18n } = useTranslation();
  const groupName = useGroupName();
  const promoters = usePromoters(filters);
  const me = useMe();
  // Admins move promoters between groups: the selection and its bulk action.
  const canMove = me.data?.role === 'admin';
  const [selected, setSelected] = useState<string[]>([]);
  const [moving, setMoving] = useState<string[] | null>(null);
  const currency = promoters.data?.pages[0]?.currency ?? null;
  const money = (minor: number) => (currency ? formatMoney(minor, currency, i18n.language) : '');
  const sort: SortState = { key: filters.sort, dir: filters.dir };
  const columns: Column<AdminPromoterRow>[] = [
    {
      key: 'name',
      title: t('console.col.name'),
      sortable: true,
      render: (p) => (
        <span className="promoter-name-cell">
          <span className="data-table-strong">{p.displayName}</span>
          <AccountText account={p.account} className="promoter-sub" />
        </span>
      ),
    },
    { key: 'status', title: t('console.col.status'), render: (p) => <UserStatusTag status={p.status} /> },
    { key: 'group', title: t('promotersAdmin.group.column'), render: (p) => <span className="promoter-group" data-testid={`promoter-group-${p.account}`}>{groupName(p.group)}</span> },
    // Searchable, on the promoter's page and in the export: the first to give way (below a 1000 px table).
    { key: 'inviteCode', priority: 'lowest', title: t('promotersAdmin.inviteCode'), render: (p) => <span className="desk-code">{p.inviteCode}</span> },
    // With the group column and the selection, the inviter (on the promoter's page and in the export) gives way at the smallest desk.
    { key: 'inviter', priority: 'low', title: t('console.col.inviter'), render: (p) => p.inviter?.displayName ?? <span className="data-table-muted">—</span> },
    { key: 'available', title: t('promotersAdmin.available'), sortable: true, align: 'end', render: (p) => <span className={`data-table-nowrap promoter-num${p.available < 0 ? ' promoter-negative' : ''}`}>{money(p.available)}</span> },
    { key: 'pending', title: t('promotersAdmin.pending'), align: 'end', render: (p) => <span className="data-table-nowrap promoter-num">{money(p.pending)}</span> },
    { key: 'createdAt', title: t('console.col.joined'), sortable: true, render: (p) => <span className="data-table-nowrap">{formatDate(p.createdAt, i18n.language)}</span> },
  ];
  if (promoters.isError) return <PageError error={promoters.error} onRetry={() => promoters.refetch()} />;
  const items = promoters.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <>
    <DataTable
      data-testid="promoters-table"
      caption={t('promotersAdmin.title')}
      rows={items}
      rowKey={(p) => p.id}
      rowTestId={(p) => `promoter-row-${p.account}`}
      rowLabel={(p) => p.displayName}
      columns={columns}
      sort={sort}
      onSortChange={(next) => set(next ? { sort: next.key as PromoterFilters['sort'], dir: next.dir } : DEFAULT_SORT)}
      loading={promoters.isPending}
      pagination={promoters}
      empty={<NoPromoters filters={filters} />}
      onRowClick={open}
      selected={canMove ? selected : undefined}
      onSelectedChange={canMove ? setSelected : undefined}
      bulkActions={(ids) => (
        <Button size="small" color="primary" onClick={() => setMoving(ids)} data-testid="bulk-move-group">{t('promotersAdmin.group.bulk', { count: ids.length })}</Button>
      )}
      toolbar={
        <DeskToolbar
          filters={
            <>
              <Search q={filters.q} onSearch={(q) => set({ q })} />
              <StatusFilter
                label={t('console.filter.status')}
                value={filters.status ?? 'all'}
                onChange={(s: StatusChoice) => set({ status: s === 'all' ? null : s })}
                options={STATUS_CHOICES.map((s) => ({ value: s, label: s === 'all' ? t('promotersAdmin.allStatuses') : t(`admin.filter.${s}`) }))}
                testId="promoters-filter"
              />
              <CampaignFilter value={filters.campaignId} onChange={(campaignId) => set({ campaignId })} />
              <GroupFilter value={filters.groupId} onChange={(groupId) => set({ groupId })} />
            </>
          }
          actions={<ExportButton run={() => runExport(filters)} />}
        />
      }
    />
    <MoveGroupSheet
      visible={moving !== null}
      promoterIds={moving ?? []}
      currentGroupId={(() => {
        const chosen = new Set(moving ?? []);
        const shared = new Set(items.filter((p) => chosen.has(p.id)).map((p) => p.group.id));
        return shared.size === 1 ? [...shared][0] : undefined;
      })()}
      onClose={() => setMoving(null)}
      onMoved={() => setSelected([])}
    />
    </>
  );
}

function NoPromoters({ filters }: { filters: PromoterFilters }) {
  const { t } = useTranslation();
  if (filters.q) return <EmptyState icon={<TeamOutline />} title={t('promotersAdmin.noMatch', { q: filters.q })} body={t('promotersAdmin.noMatchBody')} />;
  if (filters.status || filters.campaignId || filters.groupId) return <EmptyState icon={<TeamOutline />} title={t('promotersAdmin.noneFiltered')} body={t('promotersAdmin.noneFilteredBody')} />;
  return <EmptyState icon={<TeamOutline />} title={t('promotersAdmin.empty')} body={t('promotersAdmin.emptyBody')} />;
}

function PromoterCards({ filters }: { filters: PromoterFilters }) {
  const { t, i18n } = useTranslation();
  const groupName = useGroupName();
  const promoters = usePromoters(filters);
  if (promoters.isPending) return <PageLoading />;
  if (promoters.isError) return <PageError error={promoters.error} onRetry={() => promoters.refetch()} />;
  const { currency } = promoters.data.pages[0]!;
  const items = promoters.data.pages.flatMap((p) => p.items);
  if (items.length === 0) return <NoPromoters filters={filters} />;
  return (
    <>
      <List data-testid="promoters-list" className="promoter-list">
        {items.map((p) => (
          <List.Item
            key={p.id}
            data-testid={`promoter-row-${p.account}`}
            onClick={() => open(p)}
            arrowIcon
            description={
              <>
                <span className="console-line list-value">{p.account}</span>
                <span className="console-line">{t('promotersAdmin.group.value', { group: groupName(p.group) })}</span>
                <span className="console-line">{t('promotersAdmin.inviteCodeValue', { code: p.inviteCode })}</span>
                <span className="console-line">{t('admin.joined', { date: formatDate(p.createdAt, i18n.language) })}</span>
                {p.inviter ? <span className="console-line">{t('home.invitedBy', { name: p.inviter.displayName })}</span> : null}
              </>
            }
            extra={
              <span className="console-amount-col">
                <span className={`console-amount${p.available < 0 ? ' promoter-negative' : ''}`}>{formatMoney(p.available, currency, i18n.language)}</span>
                <UserStatusTag status={p.status} />
              </span>
            }
          >
            <span className="console-row-name">{p.displayName}</span>
          </List.Item>
        ))}
      </List>
      <LoadMore query={promoters} />
    </>
  );
}

function PhoneExport({ filters }: { filters: PromoterFilters }) {
  return (
    <div className="promoter-phone-export">
      <ExportButton run={() => runExport(filters)} />
    </div>
  );
}

/** `/admin/promoters` (staff): find a promoter by name, account, invite code, link code or coupon code. */
export default function PromotersPage() {
  const { t } = useTranslation();
  const desk = useDesk();
  const [filters, set] = useFilters();
  return (
    <div className={`sub-page promoter-page${desk ? ' desk-page' : ''}`}>
      <PageNav title={t('promotersAdmin.title')} fallback="/me" />
      {desk ? <PromotersDesk filters={filters} set={set} /> : (
        <>
          <Search q={filters.q} onSearch={(q) => set({ q })} />
          <div className="filter-bar" role="group" aria-label={t('console.filter.status')} data-testid="promoters-filter">
            {STATUS_CHOICES.map((s) => {
              const on = (filters.status ?? 'all') === s;
              return (
                <button key={s} type="button" className={`chip${on ? ' chip-on' : ''}`} aria-pressed={on} onClick={() => set({ status: s === 'all' ? null : s })} data-testid={`promoters-filter-${s}`}>
                  {s === 'all' ? t('promotersAdmin.allStatuses') : t(`admin.filter.${s}`)}
                </button>
              );
            })}
          </div>
          <div className="promoter-phone-tools">
            <CampaignFilter value={filters.campaignId} onChange={(campaignId) => set({ campaignId })} />
            <GroupFilter value={filters.groupId} onChange={(groupId) => set({ groupId })} />
            <PhoneExport filters={filters} />
          </div>
          <PromoterCards filters={filters} />
        </>
      )}
    </div>
  );
}
