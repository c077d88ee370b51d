import { Badge, Button } from 'antd-mobile';
import { lazy, startTransition, Suspense, useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Locale } from '@pa/shared/locales';
import type { User } from '@pa/shared';
import { PageError, PageLoading } from '@/components/page-status';
import { PullToRefresh } from '@/components/pull-to-refresh';
import { appName } from '@/i18n';
import { formatDateTime, formatTime } from '@/lib/format';
import { Link } from '@/lib/hash-router';
import { badgeText, useUnreadCount } from '@/lib/unread';
import { useMe } from '@/lib/session';
import { useAppStore } from '@/stores/app-store';
import { useOverview } from '../api/get-overview';
import { BalanceCard } from '../components/balance-card';
import { FiguresSkeleton, Skeleton } from '../components/home-skeleton';
import { FirstSteps } from '../components/first-steps';
import { BellOutline } from '../components/icons';
import { KpiGrid } from '../components/kpi-grid';
import { QuickActions } from '../components/quick-actions';
import { SegmentedSwitch } from '@/components/segmented-switch';
import { HOME_RANGES, lastRange, rememberRange, type HomeRange } from '../lib/range';
import '../home.css';

/**
 * Home below the fold (trend chart, top links, announcements, invite card) comes in a second
 * file, asked for once the top of Home is on screen: the first screen (and its layout) does not
 * wait for code and drawing nobody sees yet. Once loaded it renders at once on later visits.
 */
let homeMoreLoaded = false;
const loadHomeMore = () => import('../components/home-more').then((m) => ((homeMoreLoaded = true), m));
const HomeMore = lazy(loadHomeMore);
/** Staff see no figures: the invite card is their Home, asked for as soon as this file runs. */
const StaffHome = lazy(() => loadHomeMore().then((m) => ({ default: m.StaffHome })));
const rememberedRole = useAppStore.getState().user?.role;
if (rememberedRole && rememberedRole !== 'promoter') void loadHomeMore().catch(() => undefined);

/**
 * False until the page's first screen is on screen (then true): for what can wait until after
 * it. A frame callback runs just before a frame is drawn, so the one of the frame after next
 * comes once the first has been shown.
 */
function usePaintedOnce(skip: boolean) {
  const [painted, setPainted] = useState(skip);
  useEffect(() => {
    if (painted) return;
    let frame = requestAnimationFrame(() => {
      // As a transition: rendered in slices, with the browser free in between.
      frame = requestAnimationFrame(() => startTransition(() => setPainted(true)));
    });
    return () => cancelAnimationFrame(frame);
  }, [painted]);
  return painted;
}

/** "10:42" today, else the date and time. */
function when(ms: number, locale: string) {
  const sameDay = new Date(ms).toDateString() === new Date().toDateString();
  return sameDay ? formatTime(ms, locale) : formatDateTime(ms, locale);
}

function PromoterFigures({ user, announcements }: { user: User; announcements?: ReactNode }) {
  const { t, i18n } = useTranslation();
  const [range, setRange] = useState<HomeRange>(lastRange);
  const { query, data, saved } = useOverview(user.id, range, i18n.language);
  const locale = i18n.language;
  const painted = usePaintedOnce(homeMoreLoaded);

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
      {/* Until the first click the figures are all zero: what to do first comes before them. */}
      {data?.firstSteps && !data.firstSteps.clicked ? <FirstSteps steps={data.firstSteps} /> : null}
      {data ? <BalanceCard wallet={data.wallet} currency={data.currency} /> : query.isError ? null : <Skeleton className="skeleton-balance" />}
      <QuickActions posterLinkId={data?.topLinks[0]?.key ?? null} />
      <section className="card stats-card" aria-labelledby="stats-title">
        {/* The leaderboard is one of the quick actions above: no second link here. */}
        <div className="stats-card-head">
          <h2 id="stats-title">{t('home.statsTitle')}</h2>
        </div>
        <SegmentedSwitch
          block
          className="range-switch"
          label={t('stats.rangeLabel')}
          value={range}
          onChange={(value) => {
            setRange(value);
            rememberRange(value);
          }}
          options={HOME_RANGES.map((r) => ({ value: r, label: t(`stats.range.${r}`), testId: `range-${r}` }))}
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
      {painted ? (
        <Suspense fallback={null}>
          <HomeMore user={user} data={data} announcements={announcements} />
        </Suspense>
      ) : null}
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
        <Suspense fallback={<PageLoading />}>
          <StaffHome user={user} />
        </Suspense>
      )}
    </div>
  );
}
