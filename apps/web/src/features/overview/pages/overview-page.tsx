/**
 * `#/admin`: the program at a glance for staff (operators and admins), where they land after
 * signing in. The period (today, 7 days, 30 days, this month or chosen days) is kept in the
 * address; the figures come with the previous period's and the change; a trend by day; the work
 * queue links to each list filtered to what waits; top campaigns and promoters. At a desk a grid
 * of figure cards, the chart and two tables; on a phone (staff's Home, with the tab bar) cards.
 */
import { Button } from 'antd-mobile';
import { CalendarOutline, RightOutline } from 'antd-mobile-icons';
import { useState, type CSSProperties, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { OVERVIEW_RANGES, type AdminOverview, type OverviewTopItem } from '@pa/shared';
import { AccountText } from '@/components/account-text';
import { DataTable, type Column } from '@/components/data-table';
import { EmptyState } from '@/components/empty-state';
import { PageError, PageLoading } from '@/components/page-status';
import { SegmentedSwitch } from '@/components/segmented-switch';
import { useDesk } from '@/lib/desk';
import { formatDateTime, formatDay, formatMoney, formatNumber, formatTime } from '@/lib/format';
import { Link, navigate, useSearchParams } from '@/lib/hash-router';
import { formatChange, type Change } from '@/lib/change';
import { useAdminOverview } from '../api/overview';
import { OverviewTrend } from '../components/overview-trend';
import {
  choiceOf, customRangeProblem, DEFAULT_RANGE, earnedCommission, figuresOf, overviewSearch, queueEntries, queueTotal,
  selectionFromParams, TREND_METRICS, type Figure, type OverviewSelection, type RangeChoice, type TrendMetric,
} from '../lib/overview';
import '@/components/desk.css';
import '../components/overview.css';

function goTo(selection: OverviewSelection) {
  const search = 'range' in selection && selection.range === DEFAULT_RANGE ? '' : `?${overviewSearch(selection)}`;
  navigate(`/admin${search}`, { replace: true });
}

function ChangeBadge({ change }: { change: Change }) {
  const { t, i18n } = useTranslation();
  if (change.kind === 'none') return <span className="overview-change overview-change-none" data-change="none"><span aria-hidden>–</span><span className="visually-hidden">{t('stats.change.none')}</span></span>;
  if (change.kind === 'new') return <span className="overview-change overview-change-new" data-change="new">{t('stats.change.new')}</span>;
  const value = formatChange(change, i18n.language);
  const arrow = change.kind === 'up' ? '▲ ' : change.kind === 'down' ? '▼ ' : '';
  return (
    <span className={`overview-change overview-change-${change.kind}`} data-change={change.kind}>
      <span aria-hidden>{arrow}{value}</span>
      <span className="visually-hidden">{t(`stats.change.${change.kind}`, { value })}</span>
    </span>
  );
}

/** The period: the named ranges, or two days chosen (applied together, checked as the server does). */
function RangePicker({ selection, data }: { selection: OverviewSelection; data: AdminOverview | undefined }) {
  const { t } = useTranslation();
  const desk = useDesk();
  const choice = choiceOf(selection);
  const [editing, setEditing] = useState(choice === 'custom');
  const [from, setFrom] = useState('from' in selection ? selection.from : (data?.period.from ?? ''));
  const [to, setTo] = useState('to' in selection ? selection.to : (data?.period.to ?? ''));
  const [problem, setProblem] = useState<ReturnType<typeof customRangeProblem>>(null);
  const shown: RangeChoice = editing ? 'custom' : choice;

  const pick = (value: RangeChoice) => {
    if (value === 'custom') {
      // Start from the period on screen.
      if (data) {
        setFrom((f) => f || data.period.from);
        setTo((v) => v || data.period.to);
      }
      setEditing(true);
      return;
    }
    setEditing(false);
    setProblem(null);
    goTo({ range: value });
  };

  const apply = (event: FormEvent) => {
    event.preventDefault();
    const found = customRangeProblem(from, to);
    setProblem(found);
    if (!found) goTo({ from, to });
  };

  return (
    <div className="overview-range">
      <div className="overview-range-row">
        <SegmentedSwitch
          label={t('stats.rangeLabel')}
          value={shown}
          onChange={pick}
          className="overview-range-switch"
          block={!desk}
          options={OVERVIEW_RANGES.map((r) => ({ value: r, label: t(`stats.range.${r}`), testId: `overview-range-${r}` }))}
        />
        <button type="button" className={`overview-custom-toggle${shown === 'custom' ? ' is-on' : ''}`} aria-pressed={shown === 'custom'} onClick={() => pick('custom')} data-testid="overview-range-custom">
          <CalendarOutline aria-hidden /> {t('overview.range.custom')}
        </button>
      </div>
      {editing ? (
        <form className="overview-custom" onSubmit={apply} noValidate data-testid="overview-custom">
          <label className="overview-date">
            <span>{t('overview.range.from')}</span>
            <input type="date" value={from} max={to || undefined} onChange={(e) => setFrom(e.target.value)} required data-testid="overview-from" />
          </label>
          <label className="overview-date">
            <span>{t('overview.range.to')}</span>
            <input type="date" value={to} min={from || undefined} onChange={(e) => setTo(e.target.value)} required data-testid="overview-to" />
          </label>
          <Button type="submit" color="primary" className="overview-apply" data-testid="overview-apply">{t('overview.range.apply')}</Button>
          {problem ? <p className="overview-custom-error" role="alert" data-testid="overview-custom-error">{t(`overview.range.problem.${problem}`)}</p> : null}
        </form>
      ) : null}
    </div>
  );
}

/** "Tue, Nov 24", or "Nov 18 – Nov 24". */
function dayRange({ from, to }: { from: string; to: string }, locale: string) {
  return from === to ? formatDay(from, locale, 'weekday') : `${formatDay(from, locale, 'short')} – ${formatDay(to, locale, 'short')}`;
}

function WorkQueue({ data }: { data: AdminOverview }) {
  const { t, i18n } = useTranslation();
  const total = queueTotal(data.workQueue);
  return (
    <section className="overview-card overview-queue" aria-labelledby="overview-queue-title" data-testid="overview-queue">
      <div className="overview-card-head">
        <h2 id="overview-queue-title">{t('overview.queue.title')}</h2>
        <span className={`overview-queue-total${total === 0 ? ' is-clear' : ''}`} data-testid="overview-queue-total">
          {total === 0 ? t('overview.queue.clear') : t('overview.queue.total', { count: total })}
        </span>
      </div>
      <ul className="overview-queue-list">
        {queueEntries(data.workQueue).map((e) => (
          <li key={e.key}>
            <Link to={e.to} className={`overview-queue-item${e.count > 0 ? ' has-work' : ''}`} data-testid={`overview-queue-${e.key}`}>
              <span className="overview-queue-count" data-testid={`overview-queue-${e.key}-count`}>{formatNumber(e.count, i18n.language)}</span>
              <span className="overview-queue-label">{t(`overview.queue.${e.key}`)}</span>
              <RightOutline className="overview-queue-arrow" aria-hidden />
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** A figure's value, its length told to the CSS (--chars), which sets a long one smaller so that it stays on one line in its card. */
function FigureValue({ text, testId }: { text: string; testId: string }) {
  return <strong className="overview-figure-value" style={{ '--chars': [...text].length } as CSSProperties} data-testid={testId}>{text}</strong>;
}

function FigureCard({ figure, currency, children }: { figure: Figure; currency: string; children?: ReactNode }) {
  const { t, i18n } = useTranslation();
  const text = (v: number) => (figure.money ? formatMoney(v, currency, i18n.language) : formatNumber(v, i18n.language));
  return (
    <div className={`overview-figure overview-figure-${figure.key}`} data-testid={`overview-figure-${figure.key}`}>
      <span className="overview-figure-label">{t(`overview.figure.${figure.key}`)}</span>
      <FigureValue text={text(figure.current)} testId={`overview-figure-${figure.key}-value`} />
      <span className="overview-figure-compare">
        <ChangeBadge change={figure.change} />
        <span className="overview-figure-previous">{t('overview.previous', { value: text(figure.previous) })}</span>
      </span>
      {children}
    </div>
  );
}

function Breakdown({ rows }: { rows: { key: string; label: string; value: string }[] }) {
  return (
    <dl className="overview-breakdown">
      {rows.map((r) => (
        <div key={r.key} data-testid={`overview-breakdown-${r.key}`}>
          <dt>{r.label}</dt>
          <dd>{r.value}</dd>
        </div>
      ))}
    </dl>
  );
}

function Figures({ data }: { data: AdminOverview }) {
  const { t, i18n } = useTranslation();
  const money = (v: number) => formatMoney(v, data.currency, i18n.language);
  const figures = figuresOf(data);
  const c = data.current.commission;
  return (
    <section className="overview-figures" aria-label={t('overview.figuresLabel')} data-testid="overview-figures">
      {figures.map((f) => (
        <FigureCard key={f.key} figure={f} currency={data.currency}>
          {f.key === 'saleAmount' && data.current.refundAmount > 0 ? (
            <Breakdown rows={[{ key: 'refunds', label: t('overview.refunds'), value: money(data.current.refundAmount) }]} />
          ) : null}
          {f.key === 'commission' ? (
            <Breakdown rows={(['pending', 'approved', 'rejected', 'reversed'] as const).map((s) => ({ key: `commission-${s}`, label: t(`commissions.filter.${s}`), value: money(c[s]) }))} />
          ) : null}
        </FigureCard>
      ))}
      <div className="overview-figure overview-figure-liability" data-testid="overview-figure-liability">
        <span className="overview-figure-label">{t('overview.figure.liability')}</span>
        <FigureValue text={money(data.liability.total)} testId="overview-figure-liability-value" />
        <span className="overview-figure-note">{t('overview.liabilityNote')}</span>
        <Breakdown rows={[
          { key: 'available', label: t('overview.available'), value: money(data.liability.available) },
          { key: 'withdrawing', label: t('overview.withdrawing'), value: money(data.liability.withdrawing) },
        ]} />
      </div>
    </section>
  );
}

function Trend({ data }: { data: AdminOverview }) {
  const { t } = useTranslation();
  const desk = useDesk();
  const [metric, setMetric] = useState<TrendMetric>('clicks');
  const name = (m: TrendMetric) => t(`overview.figure.${m}`);
  return (
    <section className="overview-card overview-trend-card" aria-labelledby="overview-trend-title">
      <div className="overview-card-head overview-card-head-wrap">
        <h2 id="overview-trend-title">{t('overview.trend.title')}</h2>
        <SegmentedSwitch label={t('stats.metricLabel')} value={metric} onChange={setMetric} block={!desk} className="overview-metric-switch" options={TREND_METRICS.map((m) => ({ value: m, label: name(m), testId: `overview-metric-${m}` }))} />
      </div>
      <OverviewTrend trend={data.trend} metric={metric} metricName={name(metric)} currency={data.currency} />
    </section>
  );
}

type TopKind = 'campaigns' | 'promoters';

function TopList({ kind, items, currency }: { kind: TopKind; items: OverviewTopItem[]; currency: string }) {
  const { t, i18n } = useTranslation();
  const desk = useDesk();
  const locale = i18n.language;
  const money = (v: number) => formatMoney(v, currency, locale);
  const open = (item: OverviewTopItem) => `/admin/${kind}/${encodeURIComponent(item.id)}`;
  const empty = <EmptyState title={t(`overview.top.${kind}Empty`)} body={t('overview.top.emptyBody')} />;
  const title = t(`overview.top.${kind}`);
  if (desk) {
    const columns: Column<OverviewTopItem>[] = [
      {
        key: 'name',
        title: t(kind === 'campaigns' ? 'console.col.campaign' : 'console.col.promoter'),
        render: (item) => (
          <span className="overview-top-name">
            <span className="data-table-strong">{item.name}</span>
            {item.account ? <AccountText account={item.account} className="data-table-muted" /> : null}
          </span>
        ),
      },
      { key: 'clicks', title: t('overview.figure.clicks'), align: 'end', sortValue: (i) => i.clicks, render: (i) => formatNumber(i.clicks, locale) },
      { key: 'sales', title: t('overview.figure.sales'), align: 'end', sortValue: (i) => i.sales, render: (i) => formatNumber(i.sales, locale) },
      { key: 'saleAmount', title: t('overview.figure.saleAmount'), align: 'end', sortValue: (i) => i.saleAmount, render: (i) => <span className="data-table-nowrap">{money(i.saleAmount)}</span> },
      { key: 'commission', title: t('overview.figure.commission'), align: 'end', sortValue: (i) => i.commission, render: (i) => <span className="data-table-nowrap">{money(i.commission)}</span> },
    ];
    return (
      <section className="overview-card overview-top" aria-labelledby={`overview-top-${kind}`} data-testid={`overview-top-${kind}`}>
        <h2 id={`overview-top-${kind}`}>{title}</h2>
        <DataTable caption={title} rows={items} rowKey={(i) => i.id} rowTestId={(i) => `overview-top-${kind}-${i.id}`} columns={columns} empty={empty} onRowClick={(i) => navigate(open(i))} />
      </section>
    );
  }
  return (
    <section className="overview-card overview-top" aria-labelledby={`overview-top-${kind}`} data-testid={`overview-top-${kind}`}>
      <h2 id={`overview-top-${kind}`}>{title}</h2>
      {items.length === 0 ? empty : (
        <ol className="overview-top-list">
          {items.map((item, index) => (
            <li key={item.id}>
              <Link to={open(item)} className="overview-top-item" data-testid={`overview-top-${kind}-${item.id}`}>
                <span className="overview-top-rank" aria-hidden>{index + 1}</span>
                <span className="overview-top-main">
                  <span className="overview-top-title">{item.name}</span>
                  {item.account ? <span className="overview-top-account">{item.account}</span> : null}
                  <span className="overview-top-meta">{t('overview.top.clicks', { count: item.clicks, n: formatNumber(item.clicks, locale) })} · {t('overview.top.sales', { count: item.sales, n: formatNumber(item.sales, locale) })}</span>
                </span>
                <span className="overview-top-money">
                  <strong>{money(item.saleAmount)}</strong>
                  <span>{t('overview.top.commission', { amount: money(item.commission) })}</span>
                </span>
              </Link>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

/** Before the first click, sale or campaign: a friendly line instead of a wall of zeros' meaning. */
function isEmptyProgram(data: AdminOverview) {
  const quiet = (f: AdminOverview['current']) => f.clicks === 0 && f.leads === 0 && f.sales === 0 && earnedCommission(f) === 0 && f.paidOut === 0;
  return quiet(data.current) && quiet(data.previous) && data.liability.total === 0 && data.topCampaigns.length === 0;
}

export default function OverviewPage() {
  const { t, i18n } = useTranslation();
  const desk = useDesk();
  const params = useSearchParams();
  const selection = selectionFromParams(params);
  const query = useAdminOverview(selection, i18n.language);
  const data = query.data;
  const locale = i18n.language;
  const sameDay = data ? new Date(data.generatedAt).toDateString() === new Date().toDateString() : true;

  return (
    <div className={`overview-page${desk ? ' overview-desk desk-page' : ''}`} data-testid="overview">
      <header className="overview-header">
        <div className="overview-title">
          <h1>{t('overview.title')}</h1>
          {data ? (
            <p className="overview-subtitle" data-testid="overview-period">
              {dayRange(data.period, locale)}
              <span aria-hidden> · </span>
              {t('overview.updated', { time: sameDay ? formatTime(data.generatedAt, locale) : formatDateTime(data.generatedAt, locale) })}
            </p>
          ) : null}
        </div>
        <RangePicker key={overviewSearch(selection)} selection={selection} data={data} />
      </header>
      {query.isPending ? <PageLoading /> : query.isError && !data ? <PageError error={query.error} onRetry={() => void query.refetch()} /> : data ? (
        <div className={`overview-body${query.isPlaceholderData ? ' is-stale' : ''}`} aria-busy={query.isPlaceholderData || undefined}>
          {isEmptyProgram(data) ? (
            <p className="overview-welcome" data-testid="overview-empty">{t('overview.emptyProgram')}</p>
          ) : null}
          <p className="overview-compare">{t('overview.compare', { period: dayRange(data.previousPeriod, locale) })}</p>
          <WorkQueue data={data} />
          <Figures data={data} />
          <Trend data={data} />
          <div className="overview-tops">
            <TopList kind="campaigns" items={data.topCampaigns} currency={data.currency} />
            <TopList kind="promoters" items={data.topPromoters} currency={data.currency} />
          </div>
        </div>
      ) : null}
    </div>
  );
}
