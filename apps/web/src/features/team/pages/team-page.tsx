import { Button, Skeleton, Tag } from 'antd-mobile';
import { PictureOutline, TeamOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import type { Team, TeamMember } from '@pa/shared';
import { CopyField } from '@/components/copy-field';
import { EmptyState } from '@/components/empty-state';
import { LoadMore } from '@/components/load-more';
import { PageError, PageLoading } from '@/components/page-status';
import { PullToRefresh } from '@/components/pull-to-refresh';
import { formatDate, formatMoney, formatNumber } from '@/lib/format';
import { inviteLink } from '@/lib/links';
import { navigate } from '@/lib/hash-router';
import { useMe } from '@/lib/session';
import { useTeam } from '../api/get-team';
import '../team.css';

function Counts({ team }: { team: Team }) {
  const { t, i18n } = useTranslation();
  const n = (v: number) => formatNumber(v, i18n.language);
  return (
    <section className="card flush-card" aria-labelledby="team-counts-title">
      <h2 id="team-counts-title">{t('team.countsTitle')}</h2>
      <dl className="team-figures team-counts">
        <div><dt>{t('team.counts.direct')}</dt><dd data-testid="team-direct">{n(team.counts.direct)}</dd></div>
        <div><dt>{t('team.counts.active')}</dt><dd data-testid="team-active">{n(team.counts.active)}</dd></div>
        <div><dt>{t('team.counts.secondLevel')}</dt><dd data-testid="team-second-level">{n(team.counts.secondLevel)}</dd></div>
      </dl>
      <p className="hint">{t('team.countsHelp')}</p>
    </section>
  );
}

function ThisMonth({ team }: { team: Team }) {
  const { t, i18n } = useTranslation();
  const money = (v: number) => formatMoney(v, team.currency, i18n.language);
  return (
    <section className="card flush-card" aria-labelledby="team-month-title">
      <h2 id="team-month-title">{t('team.thisMonth')}</h2>
      <dl className="team-figures team-month">
        <div><dt>{t('team.month.leads')}</dt><dd data-testid="team-month-leads">{formatNumber(team.thisMonth.leads, i18n.language)}</dd></div>
        <div><dt>{t('team.month.sales')}</dt><dd data-testid="team-month-sales">{formatNumber(team.thisMonth.sales, i18n.language)}</dd></div>
        <div><dt>{t('team.month.saleAmount')}</dt><dd data-testid="team-month-sale-amount">{money(team.thisMonth.saleAmount)}</dd></div>
        <div className="is-override"><dt>{t('team.month.override')}</dt><dd data-testid="team-month-override">{money(team.thisMonth.override)}</dd></div>
      </dl>
      <div className="team-override-total">
        <span>{t('team.overrideTotal')}</span>
        <strong data-testid="team-override-total">{money(team.overrideTotal)}</strong>
      </div>
      <p className="hint">{t('team.overrideHelp')}</p>
    </section>
  );
}

function MemberRow({ member, currency }: { member: TeamMember; currency: string }) {
  const { t, i18n } = useTranslation();
  const money = (v: number) => formatMoney(v, currency, i18n.language);
  return (
    <li className="team-member" data-testid={`team-member-${member.id}`}>
      <div className="team-member-main">
        <span className="team-member-name" data-testid="team-member-name">{member.name}</span>
        <Tag className="team-member-tag" color={member.active ? 'success' : 'default'} fill="outline" data-testid="team-member-status" data-active={member.active}>
          {t(member.active ? 'team.active' : 'team.inactive')}
        </Tag>
        <span className="team-member-joined">{t('team.joined', { date: formatDate(member.joinedAt, i18n.language) })}</span>
      </div>
      <dl className="team-member-override">
        <div><dt>{t('team.memberMonth')}</dt><dd data-testid="team-member-month">{money(member.overrideThisMonth)}</dd></div>
        <div><dt>{t('team.memberTotal')}</dt><dd data-testid="team-member-total">{money(member.overrideTotal)}</dd></div>
      </dl>
    </li>
  );
}

export default function TeamPage() {
  const { t } = useTranslation();
  const me = useMe();
  const team = useTeam();
  const first = team.data?.pages[0];
  const members = team.data?.pages.flatMap((p) => p.members) ?? [];
  return (
    <div className="tab-page team-page">
      <h1 className="tab-title">{t('team.title')}</h1>
      <PullToRefresh onRefresh={async () => { await team.refetch(); }}>
        {me.isPending ? <PageLoading /> : me.isError ? <PageError error={me.error} onRetry={() => me.refetch()} /> : (
          <section className="card flush-card" aria-labelledby="team-invite-title">
            <h2 id="team-invite-title">{t('home.inviteTitle')}</h2>
            <CopyField label={t('home.inviteCode')} value={first?.inviteCode ?? me.data.inviteCode} buttonLabel={t('home.copyCode')} testId="team-invite-code" />
            <CopyField label={t('home.inviteLink')} value={inviteLink(first?.inviteCode ?? me.data.inviteCode)} buttonLabel={t('home.copyLink')} testId="team-invite-link" />
            <Button block color="primary" onClick={() => navigate('/poster/invite')} data-testid="invite-poster">
              <PictureOutline aria-hidden /> {t('team.invitePoster')}
            </Button>
          </section>
        )}
        {team.isPending ? (
          <div role="status" className="team-skeleton">
            <span className="visually-hidden">{t('app.loading')}</span>
            <Skeleton animated className="skeleton-team" />
            <Skeleton animated className="skeleton-team" />
          </div>
        ) : team.isError ? (
          <PageError error={team.error} onRetry={() => team.refetch()} />
        ) : first ? (
          <>
            <Counts team={first} />
            <ThisMonth team={first} />
            <section className="card flush-card" aria-labelledby="team-members-title">
              <h2 id="team-members-title">{t('team.members')}</h2>
              {members.length === 0 ? (
                <EmptyState icon={<TeamOutline />} title={t('team.emptyTitle')} body={t('team.emptyBody')} />
              ) : (
                <>
                  <ul className="team-members" data-testid="team-members">
                    {members.map((m) => <MemberRow key={m.id} member={m} currency={first.currency} />)}
                  </ul>
                  <p className="hint">{t('team.activeHelp')}</p>
                  <LoadMore query={team} />
                </>
              )}
            </section>
          </>
        ) : null}
      </PullToRefresh>
    </div>
  );
}
