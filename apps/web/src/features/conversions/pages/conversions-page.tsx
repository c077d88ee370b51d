import { List, Tabs, Tag } from 'antd-mobile';
import { useCallback, useState } from 'react';
import { FilterOutline } from 'antd-mobile-icons';
import { CONVERSION_REASONS } from '@pa/shared';
import { ReceiptOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { DateTimeText } from '@/components/date-time-text';
import { DataTable, type Column } from '@/components/data-table';
import { EmptyState } from '@/components/empty-state';
import { PageNav } from '@/components/page-nav';
import { PageError, PageLoading } from '@/components/page-status';
import { csvAmount, csvId } from '@pa/shared/csv';
import { csvFilename, csvTime, exportList, listPages } from '@/lib/csv-export';
import { useDesk } from '@/lib/desk';
import { formatDateTime, formatMoney } from '@/lib/format';
import { conversionParams, useCampaignChoices, useConversions, usePromoterName, type AdminConversion, type ConversionFilters, type ConversionReason, type ConversionStatus } from '../api/conversions';
import { PromoterFilter } from '../components/corrections';
import { LiveSearch } from '@/components/live-search';
import { campaignName } from '@/lib/campaign-name';
import { useCurrency } from '@/lib/currency';
import { LoadMore } from '@/components/load-more';
import { DeskToolbar, ExportButton, StatusFilter } from '@/components/desk-toolbar';
import { navigate, useLocation, useSearchParams } from '@/lib/hash-router';

type StatusTab = ConversionStatus | 'all';
const STATUSES: StatusTab[] = ['all', 'attributed', 'unattributed', 'rejected'];
const KINDS = ['sale', 'lead', 'refund'] as const;
const Q_MAX = 128;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The filters as the address keeps them (`?q=&status=&kind=&reason=&campaignId=&promoterId=&from=&to=`). */
function useConversionFilters(): [ConversionFilters, (patch: Partial<ConversionFilters>) => void] {
  const params = useSearchParams();
  const { pathname } = useLocation();
  const pick = <T extends string>(name: string, allowed: readonly T[]) => {
    const v = params.get(name) ?? '';
    return (allowed as readonly string[]).includes(v) ? (v as T) : null;
  };
  const day = (name: string) => {
    const v = params.get(name) ?? '';
    return DAY.test(v) ? v : null;
  };
  const filters: ConversionFilters = {
    q: (params.get('q') ?? '').trim().slice(0, Q_MAX),
    status: pick('status', ['attributed', 'unattributed', 'rejected'] as const),
    kind: pick('kind', KINDS),
    reason: pick('reason', CONVERSION_REASONS),
    campaignId: params.get('campaignId') || null,
    promoterId: params.get('promoterId') || null,
    from: day('from'),
    to: day('to'),
  };
  const set = useCallback((patch: Partial<ConversionFilters>) => {
    const query = new URLSearchParams(params);
    for (const [k, v] of Object.entries(patch)) {
      if (v) query.set(k, v);
      else query.delete(k);
    }
    const qs = query.toString();
    navigate(`${pathname}${qs ? `?${qs}` : ''}`, { replace: true });
  }, [params, pathname]);
  return [filters, set];
}

const activeFilters = (f: ConversionFilters) => [f.q, f.kind, f.reason, f.campaignId, f.promoterId, f.from, f.to].filter(Boolean).length;

/** Search by order id and the filters other than the status (the tabs, or the desk's toggle group). */
function Filters({ f, set }: { f: ConversionFilters; set: (patch: Partial<ConversionFilters>) => void }) {
  const { t, i18n } = useTranslation();
  const campaigns = useCampaignChoices();
  const promoterName = usePromoterName(f.promoterId).data ?? null;
  const rangeBad = Boolean(f.from && f.to && f.from > f.to);
  const desk = useDesk();
  const [open, setOpen] = useState(false);
  const others = activeFilters(f) - (f.q ? 1 : 0);
  const search = (
    <div className="corr-filter corr-filter-search">
      <span className="corr-filter-label">{t('corrections.filter.orderId')}</span>
      <LiveSearch q={f.q} onSearch={(q) => set({ q })} label={t('corrections.filter.orderIdPlaceholder')} maxLength={Q_MAX} className="corr-search" delay={400} testId="conversions-search" />
    </div>
  );
  if (!desk && !open) {
    return (
      <div className="corr-filters" role="search" aria-label={t('corrections.filter.label')} data-testid="conversions-filters">
        {search}
        <button type="button" className="corr-chip" aria-expanded={false} onClick={() => setOpen(true)} data-testid="conversions-more-filters">
          <FilterOutline aria-hidden /> <span>{others > 0 ? t('corrections.filter.moreActive', { count: others }) : t('corrections.filter.more')}</span>
        </button>
      </div>
    );
  }
  return (
    <div className="corr-filters" role="search" aria-label={t('corrections.filter.label')} data-testid="conversions-filters">
      {search}
      <div className="corr-filter">
        <label htmlFor="conv-kind">{t('corrections.filter.kind')}</label>
        <select id="conv-kind" className="corr-input" value={f.kind ?? ''} onChange={(e) => set({ kind: (e.target.value || null) as ConversionFilters['kind'] })} data-testid="conversions-kind">
          <option value="">{t('corrections.filter.anyKind')}</option>
          {KINDS.map((k) => <option key={k} value={k}>{t(`conversions.kind.${k}`)}</option>)}
        </select>
      </div>
      <div className="corr-filter">
        <label htmlFor="conv-campaign">{t('corrections.filter.campaign')}</label>
        <select id="conv-campaign" className="corr-input" value={f.campaignId ?? ''} onChange={(e) => set({ campaignId: e.target.value || null })} data-testid="conversions-campaign">
          <option value="">{t('corrections.filter.anyCampaign')}</option>
          {(campaigns.data ?? []).map((c) => <option key={c.id} value={c.id}>{campaignName(c.names, i18n.language)}</option>)}
        </select>
      </div>
      <PromoterFilter id={f.promoterId} name={promoterName} onChange={(p) => set({ promoterId: p?.id ?? null })} testId="conversions-promoter" />
      {f.status !== 'attributed' ? (
        <div className="corr-filter">
          <label htmlFor="conv-reason">{t('corrections.filter.reason')}</label>
          <select id="conv-reason" className="corr-input" value={f.reason ?? ''} onChange={(e) => set({ reason: (e.target.value || null) as ConversionReason | null })} data-testid="conversions-reason">
            <option value="">{t('corrections.filter.anyReason')}</option>
            {CONVERSION_REASONS.map((r) => <option key={r} value={r}>{t(`moneyAdmin.conversions.reason.${r}`)}</option>)}
          </select>
        </div>
      ) : null}
      <fieldset className="corr-filter corr-filter-range">
        <legend>{t('corrections.filter.dates')}</legend>
        <div className="corr-range">
          <input className="corr-input" type="date" value={f.from ?? ''} max={f.to ?? undefined} onChange={(e) => set({ from: e.target.value || null })} aria-label={t('corrections.filter.from')} data-testid="conversions-from" />
          <span aria-hidden>–</span>
          <input className="corr-input" type="date" value={f.to ?? ''} min={f.from ?? undefined} onChange={(e) => set({ to: e.target.value || null })} aria-label={t('corrections.filter.to')} data-testid="conversions-to" />
        </div>
        {rangeBad ? <p className="field-error" role="alert">{t('fields.after_to')}</p> : null}
      </fieldset>
      {activeFilters(f) > 0 ? (
        <button type="button" className="corr-clear" onClick={() => set({ q: '', kind: null, reason: null, campaignId: null, promoterId: null, from: null, to: null })} data-testid="conversions-clear">{t('corrections.filter.clear')}</button>
      ) : null}
    </div>
  );
}

/** How it was credited (attributed) or why it was not (the others). */
function Outcome({ c }: { c: AdminConversion }) {
  const { t } = useTranslation();
  if (c.status === 'attributed' && c.attributedBy) return <span className="console-line">{t(`conversions.attributedBy.${c.attributedBy}`)}</span>;
  if (!c.reason) return null;
  return <span className="console-line console-reason">{t(`moneyAdmin.conversions.reason.${c.reason}`, { defaultValue: c.reason })}</span>;
}

function ConversionRow({ c, currency }: { c: AdminConversion; currency: string }) {
  const { t, i18n } = useTranslation();
  const money = (minor: number) => formatMoney(minor, currency, i18n.language);
  const showAmount = c.kind !== 'lead' || c.amount > 0;
  return (
    <List.Item
      data-testid={`conversion-row-${c.id}`}
      onClick={() => navigate(`/admin/conversions/${encodeURIComponent(c.id)}`)}
      description={
        <>
          <span className="console-line console-strong">{c.campaignName}</span>
          <span className="console-line">{c.promoterName ?? t('moneyAdmin.conversions.noPromoter')}</span>
          <Outcome c={c} />
          {c.refundedAmount > 0 ? <span className="console-line">{t('moneyAdmin.conversions.refunded', { amount: money(c.refundedAmount) })}</span> : null}
          <span className="console-line">{formatDateTime(c.occurredAt, i18n.language)}</span>
        </>
      }
      extra={showAmount ? <span className="console-amount">{money(c.kind === 'refund' ? -c.amount : c.amount)}</span> : null}
    >
      <span className="console-row-title">
        <Tag className="console-kind-tag" color={c.kind === 'refund' ? 'danger' : c.kind === 'sale' ? 'primary' : 'default'} fill="outline">{t(`conversions.kind.${c.kind}`)}</Tag>
        <code className="console-code console-external-id">{c.externalId}</code>
      </span>
    </List.Item>
  );
}

/** The empty list's title: nothing found for a search or filters, else nothing of that status yet. */
function emptyTitle(f: ConversionFilters, t: (key: string) => string): string {
  if (activeFilters(f) > 0) return t('corrections.filter.noMatch');
  return t(`moneyAdmin.conversions.empty.${f.status ?? 'all'}`);
}

function ConversionList({ f }: { f: ConversionFilters }) {
  const { t, i18n } = useTranslation();
  const conversions = useConversions(f, i18n.language);
  const { currency } = useCurrency();
  if (conversions.isPending || !currency) return <PageLoading />;
  if (conversions.isError) return <PageError error={conversions.error} onRetry={() => conversions.refetch()} />;
  const items = conversions.data.pages.flatMap((p) => p.items);
  if (items.length === 0) return <EmptyState icon={<ReceiptOutline />} title={emptyTitle(f, t)} body={t('moneyAdmin.conversions.emptyBody')} />;
  return (
    <>
      <List data-testid={`conversions-${f.status ?? 'all'}`}>
        {items.map((c) => <ConversionRow key={c.id} c={c} currency={currency} />)}
      </List>
      <LoadMore query={conversions} />
    </>
  );
}

/** What the outcome column and the export say: how it was credited, or why not. */
function outcomeText(c: AdminConversion, t: (key: string, options?: Record<string, unknown>) => string): string {
  if (c.status === 'attributed' && c.attributedBy) return t(`conversions.attributedBy.${c.attributedBy}`);
  return c.reason ? t(`moneyAdmin.conversions.reason.${c.reason}`, { defaultValue: c.reason }) : '';
}

/** At desk: the reported conversions as a table. */
function ConversionsDesk({ f, set }: { f: ConversionFilters; set: (patch: Partial<ConversionFilters>) => void }) {
  const { t, i18n } = useTranslation();
  const conversions = useConversions(f, i18n.language);
  const status: StatusTab = f.status ?? 'all';
  const { currency } = useCurrency();
  const money = (minor: number) => (currency ? formatMoney(minor, currency, i18n.language) : '');
  const signed = (c: AdminConversion) => (c.kind === 'refund' ? -c.amount : c.amount);
  const columns: Column<AdminConversion>[] = [
    { key: 'occurredAt', title: t('console.col.occurredAt'), sortValue: (c) => c.occurredAt, render: (c) => <DateTimeText at={c.occurredAt} locale={i18n.language} /> },
    { key: 'kind', title: t('console.col.kind'), sortValue: (c) => c.kind, render: (c) => <Tag className="console-kind-tag" color={c.kind === 'refund' ? 'danger' : c.kind === 'sale' ? 'primary' : 'default'} fill="outline">{t(`conversions.kind.${c.kind}`)}</Tag> },
    { key: 'externalId', title: t('console.col.externalId'), sortValue: (c) => c.externalId, render: (c) => <code className="desk-code">{c.externalId}</code> },
    { key: 'campaign', priority: 'low', title: t('console.col.campaign'), sortValue: (c) => c.campaignName, render: (c) => c.campaignName },
    { key: 'promoter', title: t('console.col.promoter'), sortValue: (c) => c.promoterName, render: (c) => c.promoterName ?? <span className="data-table-muted">{t('moneyAdmin.conversions.noPromoter')}</span> },
    { key: 'outcome', title: t('console.col.outcome'), sortValue: (c) => outcomeText(c, t), render: (c) => <span className={c.status === 'attributed' ? undefined : 'console-reason'}>{outcomeText(c, t)}</span> },
    { key: 'amount', title: t('console.col.amount'), align: 'end', sortValue: (c) => (c.kind !== 'lead' || c.amount > 0 ? signed(c) : null), render: (c) => (c.kind !== 'lead' || c.amount > 0 ? <span className="data-table-num">{money(signed(c))}</span> : null) },
    { key: 'refunded', priority: 'low', title: t('console.col.refunded'), align: 'end', sortValue: (c) => c.refundedAmount || null, render: (c) => (c.refundedAmount > 0 ? <span className="data-table-num">{money(c.refundedAmount)}</span> : null) },
  ];
  const exportCsv = (onProgress: (rows: number) => void) => exportList<AdminConversion>({
    filename: csvFilename(`conversions-${status}`),
    fetchPage: listPages('admin/conversions', conversionParams(f)),
    onProgress,
    csv: 'conversions',
    columns: {
      occurred_at: (c) => csvTime(c.occurredAt),
      kind: (c) => t(`conversions.kind.${c.kind}`),
      external_id: (c) => csvId(c.externalId),
      campaign: (c) => c.campaignName,
      promoter_name: (c) => c.promoterName,
      status: (c) => t(`moneyAdmin.conversions.status.${c.status}`),
      outcome: (c) => outcomeText(c, t),
      amount: (c) => csvAmount(signed(c), currency ?? 'XXX'),
      refunded_amount: (c) => csvAmount(c.refundedAmount, currency ?? 'XXX'),
      currency: () => currency ?? '',
      coupon_code: (c) => csvId(c.couponCode),
      id: (c) => csvId(c.id),
    },
  });
  if (conversions.isError) return <PageError error={conversions.error} onRetry={() => conversions.refetch()} />;
  const items = conversions.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <DataTable
      data-testid={`conversions-${status}`}
      caption={t('moneyAdmin.conversions.title')}
      rows={items}
      rowKey={(c) => c.id}
      rowTestId={(c) => `conversion-row-${c.id}`}
      onRowClick={(c) => navigate(`/admin/conversions/${encodeURIComponent(c.id)}`)}
      columns={columns}
      loading={conversions.isPending || !currency}
      pagination={conversions}
      empty={<EmptyState icon={<ReceiptOutline />} title={emptyTitle(f, t)} body={t('moneyAdmin.conversions.emptyBody')} />}
      toolbar={
        <DeskToolbar
          filters={<StatusFilter label={t('console.filter.status')} value={status} onChange={(s) => set({ status: s === 'all' ? null : s, ...(s === 'attributed' ? { reason: null } : {}) })} options={STATUSES.map((s) => ({ value: s, label: t(`moneyAdmin.conversions.status.${s}`) }))} testId="conversions-filter" />}
          actions={<ExportButton run={exportCsv} />}
        />
      }
    />
  );
}

/** `/admin/conversions` (staff): what the business's server reported, and how each was credited. */
export default function ConversionsPage() {
  const { t } = useTranslation();
  const desk = useDesk();
  const [f, set] = useConversionFilters();
  const status: StatusTab = f.status ?? 'all';
  return (
    <div className={`sub-page${desk ? ' desk-page' : ''}`}>
      <PageNav title={t('moneyAdmin.conversions.title')} fallback="/me" />
      <Filters f={f} set={set} />
      {desk ? <ConversionsDesk f={f} set={set} /> : (
        <>
          <Tabs className="corr-tabs" activeKey={status} onChange={(key) => set({ status: key === 'all' ? null : (key as ConversionStatus), ...(key === 'attributed' ? { reason: null } : {}) })}>
            {STATUSES.map((s) => <Tabs.Tab key={s} title={<span data-testid={`conversion-tab-${s}`}>{t(`moneyAdmin.conversions.status.${s}`)}</span>} />)}
          </Tabs>
          <ConversionList f={f} />
        </>
      )}
    </div>
  );
}
