/**
 * Home below the fold, a file of its own: the trend chart, the top links, the announcements slot
 * and the invite card for promoters; the whole of Home for staff (who have no figures). The page
 * (pages/home-page.tsx) asks for it once its top part is on screen, so the first screen waits for
 * neither this code nor its drawing.
 */
import { HistogramOutline } from 'antd-mobile-icons';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { StatsOverview, User } from '@pa/shared';
import { CopyField } from '@/components/copy-field';
import { EmptyState } from '@/components/empty-state';
import { inviteLink } from '@/lib/links';
import { SegmentedSwitch } from '@/components/segmented-switch';
import { TopLinks } from './top-links';
import TrendChart, { type TrendMetric } from './trend-chart';
import '../home-more.css';

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

function TrendCard({ data }: { data: StatsOverview }) {
  const { t } = useTranslation();
  const [metric, setMetric] = useState<TrendMetric>('earnings');
  return (
    <section className="card" aria-labelledby="trend-title">
      <div className="stats-card-head">
        <h2 id="trend-title">{t('stats.trendTitle')}</h2>
        <SegmentedSwitch<TrendMetric>
          className="metric-switch"
          label={t('stats.metricLabel')}
          value={metric}
          onChange={setMetric}
          options={[
            { value: 'earnings', label: t('stats.kpi.earnings'), testId: 'metric-earnings' },
            { value: 'clicks', label: t('stats.kpi.clicks'), testId: 'metric-clicks' },
          ]}
        />
      </div>
      <TrendChart series={data.series} metric={metric} currency={data.currency} />
    </section>
  );
}

/** A promoter's Home below the figures: trend and top links (once there are figures), announcements, invite. */
export default function HomeMore({ user, data, announcements }: { user: User; data: StatsOverview | undefined; announcements?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <>
      {data ? <TrendCard data={data} /> : null}
      {data ? (
        <section className="card" aria-labelledby="top-links-title">
          <h2 id="top-links-title">{t('stats.topLinks')}</h2>
          <TopLinks links={data.topLinks} currency={data.currency} />
        </section>
      ) : null}
      {/* Announcements slot: app/home-with-announcements.tsx passes features/announcements' list here (features do not import each other). */}
      {announcements ? <div className="home-announcements" data-testid="home-announcements">{announcements}</div> : null}
      <InviteCard user={user} />
    </>
  );
}

/** Staff have no figures of their own: their invite, and a word on where figures would be. */
export function StaffHome({ user }: { user: User }) {
  const { t } = useTranslation();
  return (
    <>
      <InviteCard user={user} />
      <section className="card" aria-labelledby="stats-title">
        <h2 id="stats-title">{t('home.statsTitle')}</h2>
        <EmptyState icon={<HistogramOutline />} title={t('home.statsEmptyTitle')} body={t('home.statsEmptyBody')} />
      </section>
    </>
  );
}
