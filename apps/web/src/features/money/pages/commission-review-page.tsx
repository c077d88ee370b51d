import { List, Tabs } from 'antd-mobile';
import { CheckShieldOutline } from 'antd-mobile-icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AccountText } from '@/components/account-text';
import { DataTable, type Column } from '@/components/data-table';
import { EmptyState } from '@/components/empty-state';
import { PageNav } from '@/components/page-nav';
import { PageError, PageLoading } from '@/components/page-status';
import { csvFilename, exportList, listPages } from '@/lib/csv-export';
import { commissionCsvColumns } from '../lib/commission-csv';
import { useDesk } from '@/lib/desk';
import { formatDate, formatMoney, formatPercent } from '@/lib/format';
import { useAdminCommissions, type AdminCommission, type CommissionStatus } from '../api/commission-review';
import { BulkDecisionButtons, DecisionButtons, useCommissionReview, type CommissionReview } from '../components/commission-review';
import { CommissionStatusTag } from '@/components/commission-status-tag';
import { useCurrency } from '@/lib/currency';
import { LoadMore } from '@/components/load-more';
import { DeskToolbar, ExportButton, StatusFilter } from '@/components/desk-toolbar';
import { useUrlFilter } from '@/lib/url-filter';

const STATUSES: CommissionStatus[] = ['pending', 'approved', 'rejected', 'reversed'];
interface RowProps {
  c: AdminCommission;
  currency: string;
  selectable: boolean;
  selected: boolean;
  onSelect: (on: boolean) => void;
  review: CommissionReview;
}

function CommissionRow({ c, currency, selectable, selected, onSelect, review }: RowProps) {
  const { t, i18n } = useTranslation();
  const money = (minor: number) => formatMoney(minor, currency, i18n.language);
  return (
    <List.Item
      data-testid={`commission-row-${c.id}`}
      className={selected ? 'console-selected' : undefined}
      prefix={selectable ? (
        <label className="console-select">
          <input type="checkbox" checked={selected} onChange={(e) => onSelect(e.target.checked)} aria-label={t('moneyAdmin.commissions.select', { name: c.promoterName })} data-testid={`select-${c.id}`} />
        </label>
      ) : null}
      description={
        <>
          <span className="console-line list-value">{c.promoterAccount}</span>
          <span className="console-line console-strong">{c.campaignName}</span>
          <span className="console-line">
            {t(`conversions.kind.${c.kind}`)} · {t(c.level === 2 ? 'moneyAdmin.commissions.level2' : 'moneyAdmin.commissions.level1')}
            {c.rateBps !== null ? ` · ${t('moneyAdmin.commissions.rate', { rate: formatPercent(c.rateBps, i18n.language), base: money(c.base) })}` : ''}
          </span>
          <span className="console-line">{t('moneyAdmin.commissions.availableFrom', { date: formatDate(c.availableAt, i18n.language) })}</span>
          {c.reason ? <span className="console-line console-reason">{t('moneyAdmin.commissions.reason', { reason: c.reason })}</span> : null}
          {c.status === 'pending' ? (
            <span className="row-actions console-row-actions">
              <DecisionButtons review={review} c={c} />
            </span>
          ) : null}
        </>
      }
      extra={
        <span className="console-amount-col">
          <span className="console-amount">{money(c.amount)}</span>
          {c.reversedAmount > 0 ? <span className="console-reversed">{t('moneyAdmin.commissions.reversedAmount', { amount: money(c.reversedAmount) })}</span> : null}
          <CommissionStatusTag desk status={c.status} />
        </span>
      }
    >
      <span className="console-row-name">{c.promoterName}</span>
    </List.Item>
  );
}

function CommissionQueue({ status }: { status: CommissionStatus }) {
  const { t, i18n } = useTranslation();
  const commissions = useAdminCommissions(status, i18n.language);
  const { currency } = useCurrency();
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const review = useCommissionReview((ids) => setSelected((s) => (ids === null ? new Set() : new Set([...s].filter((id) => !ids.includes(id))))));
  if (commissions.isPending || !currency) return <PageLoading />;
  if (commissions.isError) return <PageError error={commissions.error} onRetry={() => commissions.refetch()} />;
  const items = commissions.data.pages.flatMap((p) => p.items);
  if (items.length === 0) return <EmptyState icon={<CheckShieldOutline />} title={t(`moneyAdmin.commissions.empty.${status}`)} body={t(`moneyAdmin.commissions.emptyBody.${status}`)} />;

  const selectable = status === 'pending';
  // Only what is still listed counts (a refresh may have moved some out of this tab).
  const chosen = selectable ? items.filter((c) => selected.has(c.id)).map((c) => c.id) : [];
  const allChosen = chosen.length === items.length;
  const select = (id: string, on: boolean) =>
    setSelected((s) => {
      const next = new Set(s);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  return (
    <>
      {selectable ? (
        <label className="check-row console-select-all">
          <input type="checkbox" checked={allChosen} onChange={(e) => setSelected(new Set(e.target.checked ? items.map((c) => c.id) : []))} data-testid="select-all" />
          <span>{t('moneyAdmin.commissions.selectAll', { n: String(items.length) })}</span>
        </label>
      ) : null}
      <List data-testid={`commissions-${status}`}>
        {items.map((c) => (
          <CommissionRow
            key={c.id}
            c={c}
            currency={currency}
            selectable={selectable}
            selected={selected.has(c.id)}
            onSelect={(on) => select(c.id, on)}
            review={review}
          />
        ))}
      </List>
      <LoadMore query={commissions} />
      {chosen.length > 0 ? (
        <>
          <div className="console-bulk-spacer" aria-hidden />
          <div className="console-bulk-bar" data-testid="bulk-bar">
            <span className="console-bulk-count">{t('moneyAdmin.commissions.selected', { n: String(chosen.length) })}</span>
            <div className="console-bulk-actions">
              <BulkDecisionButtons review={review} ids={chosen} approveLast />
            </div>
          </div>
        </>
      ) : null}
      {review.dialog}
    </>
  );
}

/** At desk: the review queue as a table; pending rows selectable to approve or reject many in one call. */
function CommissionsDesk({ status, onStatus }: { status: CommissionStatus; onStatus: (s: CommissionStatus) => void }) {
  const { t, i18n } = useTranslation();
  const commissions = useAdminCommissions(status, i18n.language);
  const { currency } = useCurrency();
  const [selected, setSelected] = useState<string[]>([]);
  const review = useCommissionReview((ids) => setSelected((keys) => (ids === null ? [] : keys.filter((k) => !ids.includes(k)))));
  const pending = status === 'pending';
  const money = (minor: number) => (currency ? formatMoney(minor, currency, i18n.language) : '');
  const level = (c: AdminCommission) => t(c.level === 2 ? 'moneyAdmin.commissions.level2' : 'moneyAdmin.commissions.level1');

  const columns: Column<AdminCommission>[] = [
    // Kind and rate sit under the campaign and the amount they explain: two columns fewer, so the
    // review buttons stay in sight at 1024 px in every language.
    { key: 'promoter', title: t('console.col.promoter'), sortValue: (c) => c.promoterName, render: (c) => <><span className="data-table-strong">{c.promoterName}</span><AccountText account={c.promoterAccount} className="data-table-sub" /></> },
    { key: 'campaign', title: t('console.col.campaign'), sortValue: (c) => c.campaignName, render: (c) => <>{c.campaignName}<span className="data-table-sub">{t(`conversions.kind.${c.kind}`)} · {level(c)}</span></> },
    {
      key: 'amount', title: t('console.col.amount'), align: 'end', sortValue: (c) => c.amount,
      render: (c) => (
        <>
          <span className="data-table-num data-table-strong">{money(c.amount)}</span>
          {c.rateBps !== null ? <span className="data-table-sub">{t('moneyAdmin.commissions.rate', { rate: formatPercent(c.rateBps, i18n.language), base: money(c.base) })}</span> : null}
          {c.reversedAmount > 0 ? <span className="data-table-sub console-reversed">{t('moneyAdmin.commissions.reversedAmount', { amount: money(c.reversedAmount) })}</span> : null}
        </>
      ),
    },
    { key: 'availableAt', title: t('console.col.availableAt'), sortValue: (c) => c.availableAt, render: (c) => <span className="data-table-nowrap">{formatDate(c.availableAt, i18n.language)}</span> },
    ...(pending ? [] : [{ key: 'status', title: t('console.col.status'), render: (c: AdminCommission) => <CommissionStatusTag desk status={c.status} /> }]),
    ...(status === 'rejected' || status === 'reversed' ? [{ key: 'reason', title: t('console.col.reason'), sortValue: (c: AdminCommission) => c.reason, render: (c: AdminCommission) => (c.reason ? <span className="desk-clip console-reason">{c.reason}</span> : null) }] : []),
    ...(pending ? [{
      key: 'actions',
      title: <span className="visually-hidden">{t('console.col.actions')}</span>,
      align: 'end' as const,
      render: (c: AdminCommission) => (
        <span className="data-table-actions">
          <DecisionButtons review={review} c={c} />
        </span>
      ),
    }] : []),
  ];

  const exportCsv = (onProgress: (rows: number) => void) => exportList<AdminCommission>({
    filename: csvFilename(`commissions-${status}`),
    fetchPage: listPages('admin/commissions', { status }),
    onProgress,
    ...commissionCsvColumns(t, currency ?? 'XXX'),
  });

  if (commissions.isError) return <PageError error={commissions.error} onRetry={() => commissions.refetch()} />;
  const items = commissions.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <>
      <DataTable
        data-testid={`commissions-${status}`}
        caption={t('console.nav.commissions')}
        rows={items}
        rowKey={(c) => c.id}
        rowTestId={(c) => `commission-row-${c.id}`}
        rowLabel={(c) => c.promoterName}
        columns={columns}
        loading={commissions.isPending || !currency}
        pagination={commissions}
        empty={<EmptyState icon={<CheckShieldOutline />} title={t(`moneyAdmin.commissions.empty.${status}`)} body={t(`moneyAdmin.commissions.emptyBody.${status}`)} />}
        selected={pending ? selected : undefined}
        onSelectedChange={pending ? setSelected : undefined}
        bulkActions={(ids) => <BulkDecisionButtons review={review} ids={ids} />}
        toolbar={
          <DeskToolbar
            filters={<StatusFilter label={t('console.filter.status')} value={status} onChange={onStatus} options={STATUSES.map((s) => ({ value: s, label: t(`commissions.filter.${s}`) }))} testId="commissions-filter" />}
            actions={<ExportButton run={exportCsv} />}
          />
        }
      />
      {review.dialog}
    </>
  );
}

/** `/admin/commissions` (staff): the review queue, one by one or in bulk. */
export default function CommissionsPage() {
  const { t } = useTranslation();
  const desk = useDesk();
  const [status, setStatus] = useUrlFilter<CommissionStatus>('status', STATUSES, 'pending');
  return (
    <div className={`sub-page${desk ? ' desk-page' : ' console-queue-page'}`}>
      <PageNav title={t('console.nav.commissions')} fallback="/me" />
      {desk ? <CommissionsDesk key={status} status={status} onStatus={setStatus} /> : (
        <>
          <Tabs activeKey={status} onChange={(key) => setStatus(key as CommissionStatus)}>
            {STATUSES.map((s) => <Tabs.Tab key={s} title={<span data-testid={`commission-tab-${s}`}>{t(`commissions.filter.${s}`)}</span>} />)}
          </Tabs>
          <CommissionQueue key={status} status={status} />
        </>
      )}
    </div>
  );
}
