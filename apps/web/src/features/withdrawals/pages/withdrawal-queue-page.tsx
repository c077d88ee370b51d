import { Button, Dialog, List, Toast } from 'antd-mobile';
import { DownlandOutline, PayCircleOutline, RightOutline } from 'antd-mobile-icons';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { canMoveWithdrawal, shownPayoutNumber } from '@pa/shared/rules';
import { AccountText } from '@/components/account-text';
import { DateTimeText } from '@/components/date-time-text';
import { DataTable, type Column } from '@/components/data-table';
import { EmptyState } from '@/components/empty-state';
import { LoadMore } from '@/components/load-more';
import { PageNav } from '@/components/page-nav';
import { PageError, PageLoading } from '@/components/page-status';
import { csvAmount, csvId } from '@pa/shared/csv';
import { csvFilename, csvTime, exportList, listPages } from '@/lib/csv-export';
import { useDesk } from '@/lib/desk';
import { errorText } from '@/lib/errors';
import { formatDateTime, formatMoney } from '@/lib/format';
import { Link, navigate, useSearchParams } from '@/lib/hash-router';
import { downloadBlob } from '@/lib/share';
import { exportApprovedWithdrawals, useAdminWithdrawals, useWithdrawalAction, type AdminWithdrawal, type WithdrawalFilter } from '../api/withdrawal-queue';
import { DeskToolbar, ExportButton, StatusFilter, useBulkRun } from '@/components/desk-toolbar';
import { LiveSearch } from '@/components/live-search';
import { SharedAccountFlag, WithdrawalActions } from '../components/withdrawal-actions';
import { accountText } from '@/lib/payout-account';
import { WithdrawalStatusTag } from '@/components/withdrawal-status-tag';

const FILTERS: WithdrawalFilter[] = ['requested', 'approved', 'paid', 'failed', 'rejected', 'cancelled', 'all'];
const DEFAULT_FILTER: WithdrawalFilter = 'requested';
const Q_MAX = 100;

function WithdrawalRow({ w }: { w: AdminWithdrawal }) {
  const { t, i18n } = useTranslation();
  const money = (minor: number) => formatMoney(minor, w.currency, i18n.language);
  return (
    <List.Item
      data-testid={`withdrawal-row-${w.id}`}
      className={w.sharedAccount ? 'withdrawal-row-flagged' : undefined}
      description={
        <>
          <span className="console-line list-value">{w.promoterAccount}</span>
          <span className="console-line console-strong" data-testid={`withdrawal-account-${w.id}`}>{accountText(t, w.account)}</span>
          <span className="console-line withdrawal-num">{t('withdrawalsAdmin.feeNet', { fee: money(w.fee), net: money(w.net) })}</span>
          <span className="console-line">{t('withdrawalsAdmin.requestedAt', { time: formatDateTime(w.requestedAt, i18n.language) })}</span>
          {w.paidAt !== null ? <span className="console-line">{t('withdrawalsAdmin.paidAt', { time: formatDateTime(w.paidAt, i18n.language) })}</span> : null}
          {w.payoutReference ? <span className="console-line">{t('withdrawalsAdmin.referenceValue', { reference: w.payoutReference })}</span> : null}
          {w.reason ? <span className="console-line console-reason">{t('withdrawalsAdmin.reasonValue', { reason: w.reason })}</span> : null}
          {w.sharedAccount ? <SharedAccountFlag id={w.id} /> : null}
          <WithdrawalActions w={w} className="console-row-actions withdrawal-row-actions">
            <Link to={`/admin/withdrawals/${encodeURIComponent(w.id)}`} className="withdrawal-details" data-testid={`withdrawal-open-${w.id}`}>
              {t('withdrawalsAdmin.details')} <RightOutline aria-hidden />
            </Link>
          </WithdrawalActions>
        </>
      }
      extra={
        <span className="console-amount-col">
          <span className="console-amount">{money(w.amount)}</span>
          <WithdrawalStatusTag desk status={w.status} testId={`withdrawal-status-${w.id}`} />
        </span>
      }
    >
      <span className="console-row-name">{w.promoterName}</span>
    </List.Item>
  );
}

function WithdrawalQueue({ filter, q }: { filter: WithdrawalFilter; q: string }) {
  const { t } = useTranslation();
  const withdrawals = useAdminWithdrawals(filter, q);
  if (withdrawals.isPending) return <PageLoading />;
  if (withdrawals.isError) return <PageError error={withdrawals.error} onRetry={() => withdrawals.refetch()} />;
  const items = withdrawals.data.pages.flatMap((p) => p.items);
  if (items.length === 0) {
    return q
      ? <EmptyState icon={<PayCircleOutline />} title={t('withdrawalsAdmin.noMatch', { q })} body={t('withdrawalsAdmin.noMatchBody')} />
      : <EmptyState icon={<PayCircleOutline />} title={t(`withdrawalsAdmin.empty.${filter}`)} body={t(`withdrawalsAdmin.emptyBody.${filter}`)} />;
  }
  return (
    <>
      <List data-testid={`withdrawals-${filter}`}>
        {items.map((w) => <WithdrawalRow key={w.id} w={w} />)}
      </List>
      <LoadMore query={withdrawals} />
    </>
  );
}

/** At desk: the queue as a table; those the transitions let approve are selectable, to approve many at once. */
function WithdrawalsDesk({ filter, q, onFilter, search }: { filter: WithdrawalFilter; q: string; onFilter: (f: WithdrawalFilter) => void; search: ReactNode }) {
  const { t, i18n } = useTranslation();
  const withdrawals = useAdminWithdrawals(filter, q);
  const act = useWithdrawalAction();
  const { selected, setSelected, busy, runEach } = useBulkRun();
  const items = withdrawals.data?.pages.flatMap((p) => p.items) ?? [];
  const money = (w: AdminWithdrawal, minor: number) => formatMoney(minor, w.currency, i18n.language);

  const approveMany = async (ids: string[]) => {
    const chosen = items.filter((w) => ids.includes(w.id));
    // One currency per installation: the total of the first row's currency.
    const total = chosen.reduce((sum, w) => sum + w.net, 0);
    const content = t('withdrawalsAdmin.bulk.confirmApprove', { count: ids.length, net: chosen[0] ? formatMoney(total, chosen[0].currency, i18n.language) : '' });
    if (!(await Dialog.confirm({ content, confirmText: t('console.bulk.approve', { count: ids.length }), cancelText: t('app.cancel') }))) return;
    await runEach(ids, (id) => act.mutateAsync({ id, action: 'approve' }));
  };

  const columns: Column<AdminWithdrawal>[] = [
    {
      key: 'promoter',
      title: t('console.col.promoter'),
      sortValue: (w) => w.promoterName,
      render: (w) => <><span className="data-table-strong">{w.promoterName}</span><AccountText account={w.promoterAccount} className="data-table-sub" /></>,
    },
    {
      key: 'amount',
      title: t('console.col.amount'),
      align: 'end',
      sortValue: (w) => w.amount,
      // Fee and net may wrap between words (each amount keeps its no-break space).
      render: (w) => <><span className="data-table-num data-table-strong">{money(w, w.amount)}</span><span className="data-table-sub withdrawal-fee-net">{t('withdrawalsAdmin.feeNet', { fee: money(w, w.fee), net: money(w, w.net) })}</span></>,
    },
    {
      key: 'account',
      // Listing every status, the status column takes its room at 1024 px; the row's page shows the account.
      priority: filter === 'all' ? 'low' : undefined,
      title: t('console.col.payoutAccount'),
      sortValue: (w) => accountText(t, w.account),
      render: (w) => (
        <>
          <span className="data-table-nowrap">{t(`withdrawalsAdmin.method.${w.account.method}`)} {shownPayoutNumber(w.account.last4)}</span>
          <span className="data-table-sub">{w.account.holderName}</span>
          {w.sharedAccount ? <span className="data-table-sub"><SharedAccountFlag id={w.id} /></span> : null}
        </>
      ),
    },
    // Filtered by one status, every row has it: the column would only take the actions' room.
    ...(filter === 'all' ? [{ key: 'status', title: t('console.col.status'), sortValue: (w: AdminWithdrawal) => t(`withdrawals.status.${w.status}`), render: (w: AdminWithdrawal) => <WithdrawalStatusTag desk status={w.status} testId={`withdrawal-status-${w.id}`} /> }] : []),
    {
      key: 'requested',
      title: t('console.col.requested'),
      sortValue: (w) => w.requestedAt,
      render: (w) => (
        <>
          <DateTimeText at={w.requestedAt} locale={i18n.language} />
          {w.paidAt !== null ? <span className="data-table-sub">{t('withdrawalsAdmin.paidAt', { time: formatDateTime(w.paidAt, i18n.language) })}</span> : null}
          {w.payoutReference ? <span className="data-table-sub desk-code">{w.payoutReference}</span> : null}
          {w.reason ? <span className="data-table-sub desk-clip" title={w.reason}>{w.reason}</span> : null}
        </>
      ),
    },
    {
      key: 'actions',
      title: <span className="visually-hidden">{t('console.col.actions')}</span>,
      align: 'end',
      // Payout labels are long ("Marquer comme payé"): the two go under each other rather than past the edge.
      render: (w) => <WithdrawalActions w={w} className="data-table-actions data-table-actions-wrap" />,
    },
  ];

  const exportCsv = (onProgress: (rows: number) => void) => exportList<AdminWithdrawal>({
    filename: csvFilename(`withdrawals-${filter}`),
    fetchPage: listPages('admin/withdrawals', { status: filter === 'all' ? null : filter, q }),
    onProgress,
    csv: 'withdrawals',
    columns: {
      promoter_name: (w) => w.promoterName,
      promoter_account: (w) => csvId(w.promoterAccount),
      amount: (w) => csvAmount(w.amount, w.currency),
      fee: (w) => csvAmount(w.fee, w.currency),
      net: (w) => csvAmount(w.net, w.currency),
      currency: (w) => w.currency,
      payout_account: (w) => accountText(t, w.account),
      status: (w) => t(`withdrawals.status.${w.status}`),
      requested_at: (w) => csvTime(w.requestedAt),
      paid_at: (w) => csvTime(w.paidAt),
      payout_reference: (w) => csvId(w.payoutReference),
      reason: (w) => w.reason,
      shared_account: (w) => (w.sharedAccount ? t('console.yes') : ''),
      id: (w) => csvId(w.id),
    },
  });

  if (withdrawals.isError) return <PageError error={withdrawals.error} onRetry={() => withdrawals.refetch()} />;
  const empty = q
    ? <EmptyState icon={<PayCircleOutline />} title={t('withdrawalsAdmin.noMatch', { q })} body={t('withdrawalsAdmin.noMatchBody')} />
    : <EmptyState icon={<PayCircleOutline />} title={t(`withdrawalsAdmin.empty.${filter}`)} body={t(`withdrawalsAdmin.emptyBody.${filter}`)} />;
  return (
    <DataTable
      data-testid={`withdrawals-${filter}`}
      caption={t('withdrawalsAdmin.title')}
      rows={items}
      rowKey={(w) => w.id}
      rowTestId={(w) => `withdrawal-row-${w.id}`}
      rowLabel={(w) => w.promoterName}
      columns={columns}
      loading={withdrawals.isPending}
      pagination={withdrawals}
      empty={empty}
      onRowClick={(w) => navigate(`/admin/withdrawals/${encodeURIComponent(w.id)}`)}
      selected={filter === 'all' || canMoveWithdrawal(filter, 'approve') ? selected : undefined}
      onSelectedChange={filter === 'all' || canMoveWithdrawal(filter, 'approve') ? setSelected : undefined}
      selectable={(w) => canMoveWithdrawal(w.status, 'approve')}
      bulkActions={(ids) => (
        <Button size="small" color="primary" loading={busy} disabled={busy} onClick={() => void approveMany(ids)} data-testid="bulk-approve">
          {t('console.bulk.approve', { count: ids.length })}
        </Button>
      )}
      toolbar={
        <DeskToolbar
          filters={<>
            <StatusFilter label={t('withdrawalsAdmin.filter')} value={filter} onChange={onFilter} options={FILTERS.map((f) => ({ value: f, label: t(`withdrawalsAdmin.filters.${f}`) }))} testId="withdrawals-filter" />
            {search}
          </>}
          actions={<ExportButton run={exportCsv} />}
        />
      }
    />
  );
}

/** The bank batch: every approved withdrawal with its full account number (the server audits each export). */
function ExportBar() {
  const { t } = useTranslation();
  const [exporting, setExporting] = useState(false);
  const run = async () => {
    setExporting(true);
    try {
      const { blob, filename } = await exportApprovedWithdrawals();
      downloadBlob(blob, filename);
      Toast.show({ icon: 'success', content: t('withdrawalsAdmin.export.done') });
    } catch (error) {
      Toast.show({ content: errorText(t, error) });
    } finally {
      setExporting(false);
    }
  };
  return (
    <section className="withdrawal-export" aria-labelledby="withdrawal-export-title">
      <div className="withdrawal-export-text">
        <h2 id="withdrawal-export-title" className="withdrawal-export-title">{t('withdrawalsAdmin.export.title')}</h2>
        <p className="withdrawal-export-help">{t('withdrawalsAdmin.export.help')}</p>
        <p className="withdrawal-export-audit" data-testid="withdrawals-export-audit">{t('withdrawalsAdmin.export.audit')}</p>
      </div>
      <Button size="small" color="primary" fill="outline" loading={exporting} disabled={exporting} onClick={() => void run()} data-testid="withdrawals-export">
        <span className="withdrawal-export-button"><DownlandOutline aria-hidden /> {t('withdrawalsAdmin.export.button')}</span>
      </Button>
    </section>
  );
}

function Search({ q, onSearch, desk = false }: { q: string; onSearch: (q: string) => void; desk?: boolean }) {
  const { t } = useTranslation();
  return <LiveSearch q={q} onSearch={onSearch} label={t('withdrawalsAdmin.search')} maxLength={Q_MAX} className={desk ? 'desk-search' : 'withdrawal-search'} delay={400} testId="withdrawals-search" />;
}

/** `/admin/withdrawals` (staff): the payout queue, filtered by status (requested first) and searchable. */
export default function WithdrawalsPage() {
  const { t } = useTranslation();
  const desk = useDesk();
  const params = useSearchParams();
  const filter = (FILTERS as string[]).includes(params.get('status') ?? '') ? (params.get('status') as WithdrawalFilter) : DEFAULT_FILTER;
  const q = (params.get('q') ?? '').trim().slice(0, Q_MAX);
  const setParam = (key: 'status' | 'q', value: string) => {
    const next = new URLSearchParams(params);
    if (!value || (key === 'status' && value === DEFAULT_FILTER)) next.delete(key);
    else next.set(key, value);
    const qs = next.toString();
    navigate(`/admin/withdrawals${qs ? `?${qs}` : ''}`, { replace: true });
  };
  // Seven chips sit in one row that scrolls sideways: keep the chosen one in view.
  const bar = useRef<HTMLDivElement>(null);
  useEffect(() => {
    bar.current?.querySelector('.chip-on')?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [filter]);
  if (desk) {
    return (
      <div className="sub-page withdrawal-page desk-page">
        <PageNav title={t('withdrawalsAdmin.title')} fallback="/me" />
        <ExportBar />
        <WithdrawalsDesk key={filter} filter={filter} q={q} onFilter={(f) => setParam('status', f)} search={<Search q={q} onSearch={(v) => setParam('q', v)} desk />} />
      </div>
    );
  }
  return (
    <div className="sub-page withdrawal-page">
      <PageNav title={t('withdrawalsAdmin.title')} fallback="/me" />
      <ExportBar />
      <Search q={q} onSearch={(v) => setParam('q', v)} />
      <div ref={bar} className="filter-bar withdrawal-filter" role="group" aria-label={t('withdrawalsAdmin.filter')} data-testid="withdrawals-filter">
        {FILTERS.map((f) => (
          <button key={f} type="button" className={`chip${f === filter ? ' chip-on' : ''}`} aria-pressed={f === filter} onClick={() => setParam('status', f)} data-testid={`withdrawals-filter-${f}`}>
            {t(`withdrawalsAdmin.filters.${f}`)}
          </button>
        ))}
      </div>
      <WithdrawalQueue key={`${filter}|${q}`} filter={filter} q={q} />
    </div>
  );
}
