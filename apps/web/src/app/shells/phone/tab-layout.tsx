import { TabBar } from 'antd-mobile';
import { AppOutline, ShopbagOutline, TeamOutline, UserOutline } from 'antd-mobile-icons';
import { Suspense, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from '@/lib/hash-router';
import { PageLoading } from '@/components/page-status';
import { useMe } from '@/lib/session';
import { badgeText, useUnreadCount } from '@/lib/unread';

const TABS = [
  { key: '/', icon: <AppOutline />, label: 'tabs.home', id: 'home' },
  { key: '/promote', icon: <ShopbagOutline />, label: 'tabs.promote', id: 'promote' },
  { key: '/team', icon: <TeamOutline />, label: 'tabs.team', id: 'team' },
  { key: '/me', icon: <UserOutline />, label: 'tabs.me', id: 'me' },
] as const;

/** The phone's tab bar around a page (loaded with the first page that has it: app/routes.tsx). */
export default function TabLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  // Only promoters have an inbox; the count is polled (focus, every minute) while a tab page is open.
  const me = useMe();
  const unread = useUnreadCount(me.data?.role === 'promoter').data ?? 0;
  const meBadge = unread > 0 ? <><span data-testid="tab-badge-me">{badgeText(unread)}</span><span className="visually-hidden">{t('tabs.unread', { count: unread })}</span></> : undefined;
  return (
    <div className="tab-shell">
      <main className="tab-content">
        <Suspense fallback={<PageLoading />}>{children}</Suspense>
      </main>
      <nav className="tab-bar">
        <TabBar activeKey={location.pathname} onChange={(key) => navigate(key)} safeArea>
          {TABS.map((tab) => (
            // Staff's Home is the overview (#/admin); the tab follows it there.
            <TabBar.Item key={tab.id === 'home' && me.data && me.data.role !== 'promoter' ? '/admin' : tab.key} icon={tab.icon} badge={tab.id === 'me' ? meBadge : undefined} title={<span data-testid={`tab-${tab.id}`}>{t(tab.label)}</span>} />
          ))}
        </TabBar>
      </nav>
    </div>
  );
}
