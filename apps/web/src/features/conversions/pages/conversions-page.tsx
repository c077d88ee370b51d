import { List, Tabs, Tag } from 'antd-mobile';
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
import { useConversions, type AdminConversion, type ConversionStatus } from '../api/conversions';
import { useCurrency } from '@/lib/currency';
import { LoadMore } from '@/components/load-more';
import { DeskToolbar, ExportButton, StatusFilter } from '@/components/desk-toolbar';
import { useUrlFilter } from '@/lib/url-filter';
import { navigate } from '@/lib/hash-router';

const STATUSES: ConversionStatus[] = ['attributed', 'unattributed', 'rejected'];

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

function ConversionList({ status }: { status: ConversionStatus }) {
  const { t, i18n } = useTranslation();
  const conversions = useConversions(status, i18n.language);
  const { currency } = useCurrency();
  if (conversions.isPending || !currency) return <PageLoading />;
  if (conversions.isError) return <PageError error={conversions.error} onRetry={() => conversions.refetch()} />;
  const items = conversions.data.pages.flatMap((p) => p.items);
  if (items.length === 0) return <EmptyState icon={<ReceiptOutline />} title={t(`moneyAdmin.conversions.empty.${status}`)} body={t('moneyAdmin.conversions.emptyBody')} />;
  return (
    <>
      <List data-testid={`conversions-${status}`}>
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
function ConversionsDesk({ status, onStatus }: { status: ConversionStatus; onStatus: (s: ConversionStatus) => void }) {
  const { t, i18n } = useTranslation();
  const conversions = useConversions(status, i18n.language);
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
    fetchPage: listPages('admin/conversions', { status }),
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
      empty={<EmptyState icon={<ReceiptOutline />} title={t(`moneyAdmin.conversions.empty.${status}`)} body={t('moneyAdmin.conversions.emptyBody')} />}
      toolbar={
        <DeskToolbar
          filters={<StatusFilter label={t('console.filter.status')} value={status} onChange={onStatus} options={STATUSES.map((s) => ({ value: s, label: t(`moneyAdmin.conversions.status.${s}`) }))} testId="conversions-filter" />}
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
  const [status, setStatus] = useUrlFilter<ConversionStatus>('status', STATUSES, 'attributed');
  return (
    <div className={`sub-page${desk ? ' desk-page' : ''}`}>
      <PageNav title={t('moneyAdmin.conversions.title')} fallback="/me" />
      {desk ? <ConversionsDesk key={status} status={status} onStatus={setStatus} /> : (
        <>
          <Tabs activeKey={status} onChange={(key) => setStatus(key as ConversionStatus)}>
            {STATUSES.map((s) => <Tabs.Tab key={s} title={<span data-testid={`conversion-tab-${s}`}>{t(`moneyAdmin.conversions.status.${s}`)}</span>} />)}
          </Tabs>
          <ConversionList key={status} status={status} />
        </>
      )}
    </div>
  );
}
