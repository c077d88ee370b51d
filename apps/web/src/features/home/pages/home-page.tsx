import { Badge, Button, PullToRefresh, Segmented, Skeleton } from 'antd-mobile';
import { BellOutline, HistogramOutline } from 'antd-mobile-icons';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Locale } from '@pa/shared/locales';
import type { User } from '@pa/shared';
import { CopyField } from '../../../components/copy-field';
import { EmptyState } from '../../../components/empty-state';
import { PageError, PageLoading } from '../../../components/page-status';
import { appName } from '../../../i18n';
import { formatDateTime } from '../../../lib/format';
import { inviteLink } from '../../../lib/links';
import { Link } from '../../../lib/router';
import { badgeText, useUnreadCount } from '../../../lib/unread';
import { useMe } from '../../../lib/session';
import { useOverview } from '../api/get-overview';
import { BalanceCard } from '../components/balance-card';
import { FiguresSkeleton } from '../components/home-skeleton';
import { KpiGrid } from '../components/kpi-grid';
import { QuickActions } from '../components/quick-actions';
import { TopLinks } from '../components/top-links';
import type { TrendMetric } from '../components/trend-chart';
import { HOME_RANGES, isHomeRange, type HomeRange } from '../lib/figures';
import '../home.css';

/** Its own chunk: the figures show first, the chart follows. */
const TrendChart = lazy(() => import('../components/trend-chart'));

/** "10:42" today, else the date and time. */
function when(ms: number, locale: string) {
  const sameDay = new Date(ms).toDateString() === new Date().toDateString();
  return sameDay ? new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: '2-digit', ...(locale.startsWith('zh') ? { hourCycle: 'h23' as const } : {}) }).format(ms) : formatDateTime(ms, locale);
}

/** The range last picked, for this browser tab (coming back from a link's page keeps it). */
const RANGE_KEY = 'pa-home-range';
function lastRange(): HomeRange {
  try {
    const value = sessionStorage.getItem(RANGE_KEY);
    return isHomeRange(value) ? value : 'today';
  } catch {
    return 'today';
  }
}
function rememberRange(range: HomeRange) {
  try {
    sessionStorage.setItem(RANGE_KEY, range);
  } catch {
    // not remembered: Home opens on today next time
  }
}

function InviteCard({ user }: { user: User }) {
  const { t } = useTranslation();
  return (
    <section className="card invite-card" aria-labelledby="invite-title">
      <h2 id="invite-title">{t('home.inviteTitle')}</h2>
      <CopyField label={t('home.inviteCode')} value={user.inviteCode} buttonLabel={t('home.copyCode')} testId="invite-code" />
      <CopyField label={t('home.inviteLink')} value={inviteLink(user.inviteCode)} buttonLabel={t('home.copyLink')} testId="invite-link" />
      <p className="hint">{t('home.inviteHint')}</p>
    </section>
  );
}

function PromoterFigures({ user, announcements }: { user: User; announcements?: ReactNode }) {
  const { t, i18n } = useTranslation();
  const [range, setRange] = useState<HomeRange>(lastRange);
  const [metric, setMetric] = useState<TrendMetric>('earnings');
  const { query, data, saved } = useOverview(user.id, range, i18n.language);
  const locale = i18n.language;

  const status = saved ? (
    <p className={`stats-status is-saved${query.isError ? ' is-failed' : ''}`} data-testid="stats-saved">
      {t(query.isError ? 'stats.savedFailed' : 'stats.saved', { time: when(saved.savedAt, locale) })}
      {query.isError ? <Button size="mini" fill="none" color="primary" onClick={() => void query.refetch()}>{t('app.retry')}</Button> : null}
    </p>
  ) : data ? (
    <p className="stats-status" data-testid="stats-updated">{t('stats.updatedAt', { time: when(data.generatedAt, locale) })}</p>
  ) : null;

  return (
    <PullToRefresh onRefresh={async () => { await query.refetch(); }}>
      {data ? <BalanceCard wallet={data.wallet} currency={data.currency} /> : query.isError ? null : <Skeleton animated className="sk-balance" />}
      <QuickActions posterLinkId={data?.topLinks[0]?.key ?? null} />
      <section className="card stats-card" aria-labelledby="stats-title">
        <div className="stats-card-head">
          <h2 id="stats-title">{t('home.statsTitle')}</h2>
          <Link to="/leaderboard" className="stats-leaderboard-link" data-testid="home-leaderboard">{t('leaderboard.title')}</Link>
        </div>
        <Segmented
          block
          className="range-switch"
          aria-label={t('stats.rangeLabel')}
          value={range}
          onChange={(value) => {
            if (!isHomeRange(value)) return;
            setRange(value);
            rememberRange(value);
          }}
          options={HOME_RANGES.map((r) => ({ value: r, label: <span data-testid={`range-${r}`}>{t(`stats.range.${r}`)}</span> }))}
        />
        <p className="stats-compare">{t(`stats.compare.${range}`)}</p>
        {status}
        {data ? (
          <KpiGrid current={data.current} previous={data.previous} currency={data.currency} />
        ) : query.isError ? (
          <PageError error={query.error} onRetry={() => query.refetch()} />
        ) : (
          <FiguresSkeleton />
        )}
      </section>
      {data ? (
        <section className="card" aria-labelledby="trend-title">
          <div className="stats-card-head">
            <h2 id="trend-title">{t('stats.trendTitle')}</h2>
            <Segmented
              className="metric-switch"
              value={metric}
              onChange={(value) => setMetric(value as TrendMetric)}
              options={[
                { value: 'earnings', label: <span data-testid="metric-earnings">{t('stats.kpi.earnings')}</span> },
                { value: 'clicks', label: <span data-testid="metric-clicks">{t('stats.kpi.clicks')}</span> },
              ]}
            />
          </div>
          <Suspense fallback={<Skeleton animated className="sk-chart" />}>
            <TrendChart series={data.series} metric={metric} currency={data.currency} />
          </Suspense>
        </section>
      ) : null}
      {data ? (
        <section className="card" aria-labelledby="top-links-title">
          <h2 id="top-links-title">{t('stats.topLinks')}</h2>
          <TopLinks links={data.topLinks} currency={data.currency} />
        </section>
      ) : null}
      {/* Announcements slot: app/router.tsx passes features/announcements' list here (features do not import each other). */}
      {announcements ? <div className="home-announcements" data-testid="home-announcements">{announcements}</div> : null}
      <InviteCard user={user} />
    </PullToRefresh>
  );
}

export default function HomePage({ announcements }: { announcements?: ReactNode }) {
  const { t, i18n } = useTranslation();
  const me = useMe();
  const unread = useUnreadCount(me.data?.role === 'promoter').data ?? 0;
  if (me.isPending) return <PageLoading />;
  if (me.isError) return <PageError error={me.error} onRetry={() => me.refetch()} />;
  const user = me.data;

  return (
    <div className="home-page">
      <header className="home-header">
        {user.role === 'promoter' ? (
          <Link to="/notifications" className="home-bell" aria-label={unread > 0 ? `${t('notifications.title')} · ${t('tabs.unread', { count: unread })}` : t('notifications.title')} data-testid="home-bell">
            <Badge content={unread > 0 ? badgeText(unread) : null}><BellOutline aria-hidden /></Badge>
          </Link>
        ) : null}
        <p className="home-app-name" data-testid="header-app-name">{appName(i18n.language as Locale)}</p>
        <h1 data-testid="greeting">{t('home.greeting', { name: user.displayName })}</h1>
        {user.inviterName ? <p className="home-inviter">{t('home.invitedBy', { name: user.inviterName })}</p> : null}
      </header>
      {user.role === 'promoter' ? (
        <PromoterFigures user={user} announcements={announcements} />
      ) : (
        // Staff have no figures of their own: Home stays as it was for them.
        <>
          <InviteCard user={user} />
          <section className="card" aria-labelledby="stats-title">
            <h2 id="stats-title">{t('home.statsTitle')}</h2>
            <EmptyState icon={<HistogramOutline />} title={t('home.statsEmptyTitle')} body={t('home.statsEmptyBody')} />
          </section>
        </>
      )}
    </div>
  );
}
