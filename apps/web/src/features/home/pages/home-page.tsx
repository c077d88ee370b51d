import { Badge } from 'antd-mobile';
import { BellOutline, HistogramOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import type { Locale } from '@pa/shared/locales';
import { CopyField } from '../../../components/copy-field';
import { EmptyState } from '../../../components/empty-state';
import { PageError, PageLoading } from '../../../components/page-status';
import { appName } from '../../../i18n';
import { inviteLink } from '../../../lib/links';
import { Link } from '../../../lib/router';
import { badgeText, useUnreadCount } from '../../../lib/unread';
import { useMe } from '../../../lib/session';

export default function HomePage() {
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
      <section className="card invite-card" aria-labelledby="invite-title">
        <h2 id="invite-title">{t('home.inviteTitle')}</h2>
        <CopyField label={t('home.inviteCode')} value={user.inviteCode} buttonLabel={t('home.copyCode')} testId="invite-code" />
        <CopyField label={t('home.inviteLink')} value={inviteLink(user.inviteCode)} buttonLabel={t('home.copyLink')} testId="invite-link" />
        <p className="hint">{t('home.inviteHint')}</p>
      </section>
      <section className="card" aria-labelledby="stats-title">
        <h2 id="stats-title">{t('home.statsTitle')}</h2>
        <EmptyState icon={<HistogramOutline />} title={t('home.statsEmptyTitle')} body={t('home.statsEmptyBody')} />
      </section>
    </div>
  );
}
