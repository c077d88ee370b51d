import { Button, List, SearchBar, Toast } from 'antd-mobile';
import { DownlandOutline, PayCircleOutline, RightOutline } from 'antd-mobile-icons';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/empty-state';
import { LoadMore } from '../../../components/load-more';
import { PageNav } from '../../../components/page-nav';
import { PageError, PageLoading } from '../../../components/page-status';
import { errorText } from '../../../lib/errors';
import { formatDateTime, formatMoney } from '../../../lib/format';
import { Link, navigate, useSearchParams } from '../../../lib/router';
import { downloadBlob } from '../../../lib/share';
import { exportApprovedWithdrawals, useAdminWithdrawals, type AdminWithdrawal, type WithdrawalFilter } from '../api/withdrawals';
import { accountText, SharedAccountFlag, WithdrawalActions, WithdrawalStatusTag } from '../components/withdrawal-actions';

const FILTERS: WithdrawalFilter[] = ['requested', 'approved', 'paid', 'failed', 'rejected', 'cancelled', 'all'];
const DEFAULT_FILTER: WithdrawalFilter = 'requested';
const Q_MAX = 100;

function WithdrawalRow({ w }: { w: AdminWithdrawal }) {
  const { t, i18n } = useTranslation();
  const money = (minor: number) => formatMoney(minor, w.currency, i18n.language);
  return (
    <List.Item
      data-testid={`withdrawal-row-${w.id}`}
      className={w.sharedAccount ? 'wa-row-flagged' : undefined}
      description={
        <>
          <span className="ca-line list-value">{w.promoterAccount}</span>
          <span className="ca-line ca-strong" data-testid={`withdrawal-account-${w.id}`}>{accountText(t, w.account)}</span>
          <span className="ca-line wa-num">{t('withdrawalsAdmin.feeNet', { fee: money(w.fee), net: money(w.net) })}</span>
          <span className="ca-line">{t('withdrawalsAdmin.requestedAt', { time: formatDateTime(w.requestedAt, i18n.language) })}</span>
          {w.paidAt !== null ? <span className="ca-line">{t('withdrawalsAdmin.paidAt', { time: formatDateTime(w.paidAt, i18n.language) })}</span> : null}
          {w.payoutReference ? <span className="ca-line">{t('withdrawalsAdmin.referenceValue', { reference: w.payoutReference })}</span> : null}
          {w.reason ? <span className="ca-line ca-reason">{t('withdrawalsAdmin.reasonValue', { reason: w.reason })}</span> : null}
          {w.sharedAccount ? <SharedAccountFlag id={w.id} /> : null}
          <WithdrawalActions w={w} className="ca-row-actions wa-row-actions">
            <Link to={`/admin/withdrawals/${encodeURIComponent(w.id)}`} className="wa-details" data-testid={`withdrawal-open-${w.id}`}>
              {t('withdrawalsAdmin.details')} <RightOutline aria-hidden />
            </Link>
          </WithdrawalActions>
        </>
      }
      extra={
        <span className="ca-amount-col">
          <span className="ca-amount">{money(w.amount)}</span>
          <WithdrawalStatusTag status={w.status} testId={`withdrawal-status-${w.id}`} />
        </span>
      }
    >
      <span className="ca-row-name">{w.promoterName}</span>
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
    <section className="wa-export" aria-labelledby="wa-export-title">
      <div className="wa-export-text">
        <h2 id="wa-export-title" className="wa-export-title">{t('withdrawalsAdmin.export.title')}</h2>
        <p className="wa-export-help">{t('withdrawalsAdmin.export.help')}</p>
        <p className="wa-export-audit" data-testid="withdrawals-export-audit">{t('withdrawalsAdmin.export.audit')}</p>
      </div>
      <Button size="small" color="primary" fill="outline" loading={exporting} disabled={exporting} onClick={() => void run()} data-testid="withdrawals-export">
        <span className="wa-export-button"><DownlandOutline aria-hidden /> {t('withdrawalsAdmin.export.button')}</span>
      </Button>
    </section>
  );
}

/** Searches as the operator types (after a pause) and at once on Enter; the query lives in the URL. */
function Search({ q, onSearch }: { q: string; onSearch: (q: string) => void }) {
  const { t } = useTranslation();
  const [text, setText] = useState(q);
  // Follows the URL when it changes from outside (back, a cleared search) without losing focus.
  const [shown, setShown] = useState(q);
  if (q !== shown) {
    setShown(q);
    if (text.trim() !== q) setText(q);
  }
  useEffect(() => {
    const next = text.trim();
    if (next === q) return;
    const timer = window.setTimeout(() => onSearch(next), 400);
    return () => window.clearTimeout(timer);
  }, [text, q, onSearch]);
  return (
    <div className="wa-search">
      <SearchBar
        value={text}
        maxLength={Q_MAX}
        placeholder={t('withdrawalsAdmin.search')}
        aria-label={t('withdrawalsAdmin.search')}
        onChange={setText}
        onSearch={(v) => onSearch(v.trim())}
        onClear={() => onSearch('')}
        data-testid="withdrawals-search"
      />
    </div>
  );
}

/** `/admin/withdrawals` (staff): the payout queue, filtered by status (requested first) and searchable. */
export default function WithdrawalsPage() {
  const { t } = useTranslation();
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
  return (
    <div className="sub-page wa-page">
      <PageNav title={t('withdrawalsAdmin.title')} fallback="/me" />
      <ExportBar />
      <Search q={q} onSearch={(v) => setParam('q', v)} />
      <div ref={bar} className="filter-bar wa-filter" role="group" aria-label={t('withdrawalsAdmin.filter')} data-testid="withdrawals-filter">
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
