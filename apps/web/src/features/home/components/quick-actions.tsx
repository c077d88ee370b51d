import { useTranslation } from 'react-i18next';
import { Link } from '@/lib/hash-router';
import { FlagOutline, LinkOutline, RightOutline, PictureOutline, ReceivePaymentOutline, StarOutline } from './icons';

/** Share a poster (of the best link, else pick one), my links, withdraw, the leaderboard; then the way to the bounties. */
export function QuickActions({ posterLinkId }: { posterLinkId: string | null }) {
  const { t } = useTranslation();
  const actions = [
    { id: 'poster', to: posterLinkId ? `/poster/${encodeURIComponent(posterLinkId)}` : '/links', icon: <PictureOutline />, label: t('home.actionPoster') },
    { id: 'links', to: '/links', icon: <LinkOutline />, label: t('home.actionLinks') },
    { id: 'withdraw', to: '/withdraw', icon: <ReceivePaymentOutline />, label: t('home.actionWithdraw') },
    { id: 'leaderboard', to: '/leaderboard', icon: <StarOutline />, label: t('home.actionLeaderboard') },
  ];
  return (
    <nav className="quick-actions" aria-label={t('home.quickActions')}>
      {actions.map((a) => (
        <Link key={a.id} to={a.to} className="quick-action" data-testid={`action-${a.id}`}>
          <span className="quick-action-icon" aria-hidden>{a.icon}</span>
          <span className="quick-action-label">{a.label}</span>
        </Link>
      ))}
      {/* Bounties: a row of its own under the four (a fifth in the row split "Classement" in French). */}
      <Link to="/bounties" className="quick-action-row" data-testid="action-bounties">
        <span className="quick-action-icon" aria-hidden><FlagOutline /></span>
        <span className="quick-action-row-text">
          <span className="quick-action-row-title">{t('home.actionBounties')}</span>
          <span className="quick-action-row-help">{t('home.bountiesHelp')}</span>
        </span>
        <RightOutline aria-hidden className="quick-action-row-arrow" />
      </Link>
    </nav>
  );
}
