import { Skeleton } from 'antd-mobile';
import { StarOutline } from 'antd-mobile-icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Leaderboard } from '@pa/shared';
import { EmptyState } from '@/components/empty-state';
import { PageNav } from '@/components/page-nav';
import { PullToRefresh } from '@/components/pull-to-refresh';
import { SegmentedSwitch } from '@/components/segmented-switch';
import { PageError } from '@/components/page-status';
import { formatDateTime, formatDay, formatMoney, formatNumber } from '@/lib/format';
import { Link } from '@/lib/hash-router';
import { useLeaderboard, type LeaderboardMetric, type LeaderboardPeriod } from '../api/get-leaderboard';
import '../leaderboard.css';

function Ranking({ board }: { board: Leaderboard }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const value = (v: number) => (board.by === 'earnings' ? formatMoney(v, board.currency, locale) : formatNumber(v, locale));
  const meListed = board.entries.some((e) => e.me);
  return (
    <>
      {board.entries.length === 0 ? (
        <EmptyState icon={<StarOutline />} title={t('leaderboard.emptyTitle')} body={t('leaderboard.emptyBody')} />
      ) : (
        <ol className="leaderboard-list" data-testid="leaderboard-list">
          {board.entries.map((e, i) => (
            <li key={`${e.rank}-${i}`} className={`leaderboard-row${e.me ? ' is-me' : ''}`} data-testid={e.me ? 'leaderboard-me' : 'leaderboard-entry'} aria-current={e.me ? 'true' : undefined}>
              <span className={`leaderboard-rank${e.rank <= 3 ? ` leaderboard-medal leaderboard-medal-${e.rank}` : ''}`} aria-label={t('leaderboard.rank', { rank: e.rank })}>{e.rank}</span>
              <span className="leaderboard-name">
                {e.name}
                {e.me ? <span className="leaderboard-you">{t('leaderboard.you')}</span> : null}
              </span>
              <span className="leaderboard-value">{value(e.value)}</span>
            </li>
          ))}
        </ol>
      )}
      {!meListed ? (
        <div className="leaderboard-mine" data-testid="leaderboard-my-rank">
          {board.me.optedOut ? (
            <>
              <strong>{t('leaderboard.optedOut')}</strong>
              <Link to="/me">{t('leaderboard.optedOutLink')}</Link>
            </>
          ) : board.me.rank !== null ? (
            <>
              <strong>{t('leaderboard.yourRank', { rank: board.me.rank })}</strong>
              <span>{value(board.me.value)}</span>
            </>
          ) : (
            <>
              <strong>{t('leaderboard.notRanked')}</strong>
              <span>{t('leaderboard.notRankedHint')}</span>
            </>
          )}
        </div>
      ) : null}
    </>
  );
}

export default function LeaderboardPage() {
  const { t, i18n } = useTranslation();
  const [period, setPeriod] = useState<LeaderboardPeriod>('week');
  const [by, setBy] = useState<LeaderboardMetric>('earnings');
  const board = useLeaderboard(period, by);
  const data = board.data;
  const locale = i18n.language;
  return (
    <div className="sub-page leaderboard-page">
      <PageNav title={t('leaderboard.title')} fallback="/" />
      {data && !data.enabled ? (
        <EmptyState icon={<StarOutline />} title={t('leaderboard.disabledTitle')} body={t('leaderboard.disabledBody')} />
      ) : (
        <PullToRefresh onRefresh={async () => { await board.refetch(); }}>
          <div className="leaderboard-switches">
            <SegmentedSwitch<LeaderboardPeriod>
              block
              label={t('leaderboard.periodLabel')}
              value={period}
              onChange={setPeriod}
              options={(['week', 'month'] as const).map((p) => ({ value: p, label: t(`leaderboard.period.${p}`), testId: `leaderboard-period-${p}` }))}
            />
            <SegmentedSwitch<LeaderboardMetric>
              block
              label={t('leaderboard.byLabel')}
              value={by}
              onChange={setBy}
              options={(['earnings', 'conversions'] as const).map((m) => ({ value: m, label: t(`leaderboard.by.${m}`), testId: `leaderboard-by-${m}` }))}
            />
          </div>
          <section className="card leaderboard-card" aria-labelledby="leaderboard-title" aria-busy={board.isFetching}>
            <h2 id="leaderboard-title" className="visually-hidden">{t('leaderboard.title')}</h2>
            {data ? (
              <>
                <p className="leaderboard-meta">
                  {data.from && data.to ? <span data-testid="leaderboard-period">{t('leaderboard.dates', { from: formatDay(data.from, locale, 'short'), to: formatDay(data.to, locale, 'short') })}</span> : null}
                  <span data-testid="leaderboard-updated">{t('leaderboard.updatedAt', { time: formatDateTime(data.updatedAt, locale) })}</span>
                </p>
                <Ranking board={data} />
              </>
            ) : board.isError ? (
              <PageError error={board.error} onRetry={() => board.refetch()} />
            ) : (
              <div role="status">
                <span className="visually-hidden">{t('app.loading')}</span>
                <Skeleton.Paragraph lineCount={8} animated />
              </div>
            )}
          </section>
        </PullToRefresh>
      )}
    </div>
  );
}
