/**
 * The console shell at desk width: a fixed side navigation (grouped; admin-only entries hidden
 * from operators; the current page marked) with the signed-in person, the language and sign-out
 * at its foot, and the page in a wide content area. Top-level pages (those in the navigation)
 * show their title without the phone's back arrow; pages opened from a list keep it.
 */
import {
  AppOutline, BellOutline, BillOutline, CheckShieldOutline, FileOutline, KeyOutline, LinkOutline, MailOutline, ReceiptOutline, ReceivePaymentOutline,
  SendOutline, SetOutline, ShopbagOutline, SoundOutline, TagOutline, TeamOutline, UserAddOutline, UserContactOutline, UserSetOutline,
} from 'antd-mobile-icons';
import { Suspense, useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { LOCALES, type Locale } from '@pa/shared/locales';
import type { Role } from '@pa/shared';
import { appName, useTexts } from '@/i18n';
import { useChangeLocale } from '@/lib/locale';
import { Link, matchPath, navigate, useLocation } from '@/lib/hash-router';
import { meQuery, useMe, useSignOut } from '@/lib/session';
import { badgeText, useUnreadCount } from '@/lib/unread';
import { PageLoading } from '@/components/page-status';
import './desk-shell.css';

interface NavItem { path: string; label: string; id: string; icon: ReactNode; adminOnly?: boolean }
interface NavGroup { title?: string; items: NavItem[] }

const NAV: NavGroup[] = [
  {
    items: [
      { path: '/admin', label: 'console.nav.overview', id: 'overview', icon: <AppOutline /> },
      { path: '/admin/notifications', label: 'console.nav.notifications', id: 'notifications', icon: <BellOutline /> },
    ],
  },
  {
    title: 'console.nav.groups.people',
    items: [
      { path: '/admin/promoters', label: 'console.nav.promoters', id: 'promoters', icon: <TeamOutline /> },
      { path: '/admin/users', label: 'console.nav.registrations', id: 'users', icon: <UserSetOutline /> },
      { path: '/admin/groups', label: 'console.nav.promoterGroups', id: 'groups', icon: <TagOutline />, adminOnly: true },
    ],
  },
  {
    title: 'console.nav.groups.campaigns',
    items: [
      { path: '/admin/campaigns', label: 'console.nav.campaigns', id: 'campaigns', icon: <ShopbagOutline /> },
      { path: '/admin/enrollments', label: 'console.nav.enrollments', id: 'enrollments', icon: <UserAddOutline /> },
    ],
  },
  {
    title: 'console.nav.groups.money',
    items: [
      { path: '/admin/conversions', label: 'console.nav.conversions', id: 'conversions', icon: <ReceiptOutline /> },
      { path: '/admin/bindings', label: 'console.nav.bindings', id: 'bindings', icon: <LinkOutline /> },
      { path: '/admin/commissions', label: 'console.nav.commissions', id: 'commissions', icon: <BillOutline /> },
      { path: '/admin/bounties/submissions', label: 'console.nav.bountySubmissions', id: 'bounty-submissions', icon: <CheckShieldOutline /> },
      { path: '/admin/withdrawals', label: 'console.nav.withdrawals', id: 'withdrawals', icon: <ReceivePaymentOutline /> },
    ],
  },
  {
    title: 'console.nav.groups.communication',
    items: [{ path: '/admin/announcements', label: 'console.nav.announcements', id: 'announcements', icon: <SoundOutline /> }],
  },
  {
    title: 'console.nav.groups.administration',
    items: [
      { path: '/admin/staff', label: 'console.nav.staff', id: 'staff', icon: <UserContactOutline />, adminOnly: true },
      { path: '/admin/api-keys', label: 'console.nav.apiKeys', id: 'api-keys', icon: <KeyOutline />, adminOnly: true },
      { path: '/admin/webhooks', label: 'console.nav.webhooks', id: 'webhooks', icon: <SendOutline />, adminOnly: true },
      { path: '/admin/mail', label: 'console.nav.mail', id: 'mail', icon: <MailOutline />, adminOnly: true },
      { path: '/admin/settings', label: 'console.nav.settings', id: 'settings', icon: <SetOutline />, adminOnly: true },
      { path: '/admin/ledger-check', label: 'console.nav.ledgerCheck', id: 'ledger-check', icon: <CheckShieldOutline />, adminOnly: true },
      { path: '/admin/audit', label: 'console.nav.audit', id: 'audit', icon: <FileOutline />, adminOnly: true },
    ],
  },
];

/** The navigation as a role sees it: admin-only entries (and then empty groups) left out. */
function navFor(role: Role): NavGroup[] {
  return NAV.map((g) => ({ ...g, items: g.items.filter((i) => role === 'admin' || !i.adminOnly) })).filter((g) => g.items.length > 0);
}

/** The entry for an address: its own, else the list it was opened from (/admin/campaigns/x → Campaigns). */
function currentEntry(pathname: string): string | null {
  const paths = NAV.flatMap((g) => g.items.map((i) => i.path));
  if (paths.includes(pathname)) return pathname;
  const parents = paths.filter((p) => p !== '/admin' && pathname.startsWith(`${p}/`));
  return parents.sort((a, b) => b.length - a.length)[0] ?? null;
}

/** Pages of forms and cards, read best in a column rather than the full width. */
const NARROW = ['/admin/settings', '/admin/ledger-check', '/admin/campaigns/:id', '/admin/conversions/:id', '/admin/announcements/:id', '/admin/withdrawals/:id', '/admin/me', '/me/:page'];

function LanguageSelect() {
  const { t, i18n } = useTranslation();
  const change = useChangeLocale();
  const queryClient = useQueryClient();
  return (
    <label className="staff-lang">
      <span className="visually-hidden">{t('console.nav.language')}</span>
      <select
        value={i18n.language}
        disabled={change.isPending}
        onChange={(e) => change.mutate(e.target.value as Locale, { onSuccess: () => void queryClient.invalidateQueries({ queryKey: meQuery.queryKey }) })}
        data-testid="staff-language"
      >
        {LOCALES.map((l) => <option key={l} value={l} lang={l}>{t(`languages.${l}`)}</option>)}
      </select>
    </label>
  );
}

export default function StaffShell({ children }: { children: ReactNode }) {
  // The navigation's names are the console's texts (also around a person's own pages, #/me/…, which are the app's).
  useTexts('console');
  const { t, i18n } = useTranslation();
  const { pathname } = useLocation();
  const me = useMe();
  const signOut = useSignOut(false);
  const user = me.data!;
  // Staff notifications (awaiting review, the system's alerts): the count on the entry, polled like the phone's bell.
  const unread = useUnreadCount().data ?? 0;
  const current = currentEntry(pathname);
  const top = current === pathname;
  const narrow = NARROW.some((p) => matchPath(p, pathname) !== null) && !pathname.endsWith('/new');
  const navList = useRef<HTMLDivElement>(null);
  // On a short window the list scrolls: keep the current entry in view (only the list moves, not the page).
  useEffect(() => {
    const list = navList.current;
    const link = list?.querySelector<HTMLElement>('[aria-current="page"]');
    if (!list || !link) return;
    const top = link.offsetTop - list.offsetTop;
    if (top < list.scrollTop) list.scrollTop = top;
    else if (top + link.offsetHeight > list.scrollTop + list.clientHeight) list.scrollTop = top + link.offsetHeight - list.clientHeight;
  }, [current]);
  return (
    <div className="staff-shell" data-testid="staff-shell">
      <a className="staff-skip" href="#staff-main" onClick={(e) => { e.preventDefault(); document.getElementById('staff-main')?.focus(); }}>{t('console.nav.skip')}</a>
      <nav className="staff-nav" aria-label={t('console.nav.label')} data-testid="staff-nav">
        <p className="staff-brand">{appName(i18n.language as Locale)}</p>
        <div className="staff-nav-list" ref={navList}>
          {navFor(user.role).map((group, index) => (
            <section key={group.title ?? index} className="staff-nav-group" aria-label={group.title ? t(group.title) : undefined}>
              {group.title ? <h2 className="staff-nav-heading" aria-hidden>{t(group.title)}</h2> : null}
              <ul>
                {group.items.map((item) => (
                  <li key={item.path}>
                    <Link to={item.path} className="staff-nav-link" aria-current={current === item.path ? 'page' : undefined} data-testid={`nav-${item.id}`}>
                      <span className="staff-nav-icon" aria-hidden>{item.icon}</span>
                      <span className="staff-nav-text">{t(item.label)}</span>
                      {item.id === 'notifications' && unread > 0 ? (
                        <span className="staff-nav-badge" data-testid="nav-unread">
                          <span aria-hidden>{badgeText(unread)}</span>
                          <span className="visually-hidden">{t('tabs.unread', { count: unread })}</span>
                        </span>
                      ) : null}
                    </Link>
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </div>
        <div className="staff-nav-foot">
          <Link to="/admin/me" className="staff-me" aria-current={pathname === '/admin/me' || pathname.startsWith('/me/') ? 'page' : undefined} data-testid="staff-me">
            <span className="staff-avatar" aria-hidden>{[...user.displayName][0]?.toUpperCase()}</span>
            <span className="staff-me-text">
              <span className="staff-me-name">{user.displayName}</span>
              <span className="staff-me-role">{t(`me.roles.${user.role}`)}</span>
            </span>
          </Link>
          <div className="staff-foot-row">
            <LanguageSelect />
            <button
              type="button"
              className="staff-sign-out"
              disabled={signOut.isPending}
              onClick={() => signOut.mutate(undefined, { onSettled: () => navigate('/login', { replace: true }) })}
              data-testid="staff-sign-out"
            >
              {t('me.signOut')}
            </button>
          </div>
        </div>
      </nav>
      <main id="staff-main" tabIndex={-1} className={`staff-main${top ? ' staff-top' : ''}`}>
        <div className={`staff-content${narrow ? ' staff-narrow' : ''}`}>
          <Suspense fallback={<PageLoading />}>{children}</Suspense>
        </div>
      </main>
    </div>
  );
}
