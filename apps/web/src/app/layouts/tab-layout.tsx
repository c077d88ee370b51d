import { TabBar } from 'antd-mobile';
import { AppOutline, ShopbagOutline, TeamOutline, UserOutline } from 'antd-mobile-icons';
import { Suspense, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from '../../lib/router';
import { PageLoading } from '../../components/page-status';

const TABS = [
  { key: '/', icon: <AppOutline />, label: 'tabs.home', id: 'home' },
  { key: '/promote', icon: <ShopbagOutline />, label: 'tabs.promote', id: 'promote' },
  { key: '/team', icon: <TeamOutline />, label: 'tabs.team', id: 'team' },
  { key: '/me', icon: <UserOutline />, label: 'tabs.me', id: 'me' },
] as const;

export function TabLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  return (
    <div className="tab-shell">
      <main className="tab-content">
        <Suspense fallback={<PageLoading />}>{children}</Suspense>
      </main>
      <nav className="tab-bar">
        <TabBar activeKey={location.pathname} onChange={(key) => navigate(key)} safeArea>
          {TABS.map((tab) => (
            <TabBar.Item key={tab.key} icon={tab.icon} title={<span data-testid={`tab-${tab.id}`}>{t(tab.label)}</span>} />
          ))}
        </TabBar>
      </nav>
    </div>
  );
}
