import { lazy, Suspense, useState, type ComponentType, type ReactNode } from 'react';
import { browserLocale, i18next, preloadTexts, type TextArea } from '../i18n';
import { currentLocation, matchPath, Routes, type RouteDef } from '../lib/hash-router';
import { queryClient } from '../lib/query-client';
import { meQuery } from '../lib/me-query';
import { useAppStore } from '../stores/app-store';
import type { Locale } from '@pa/shared/locales';
import { PageLoading } from '../components/page-status';
import LoginPage from '../features/auth/pages/login-page';
/*
 * The styles of Home's first screen are part of the entry's stylesheet (about 2 KB compressed):
 * Home is where signed-in people land, and its code then comes without a stylesheet of its own
 * to fetch and insert first.
 */
import '../components/pull-to-refresh.css';
import '../features/announcements/components/announcement-list.css';
import '../features/home/home.css';

type Layout = ComponentType<{ children: ReactNode }>;
const loaders = new Map<unknown, () => Promise<unknown>>();
const pageData = new Map<ComponentType, (locale: Locale) => void>();
const textGates = new Map<unknown, readonly TextArea[]>();

/**
 * React.lazy, remembering how to load the part so it can be fetched ahead (preloadOpeningPage,
 * prepareRoute). A part whose module has already arrived renders at once: React.lazy would
 * suspend for a tick even then, and React 19 keeps a fallback it has shown for at least 300 ms.
 */
function lazyPart<P extends object>(load: () => Promise<{ default: ComponentType<P> }>): ComponentType<P> {
  let pending: Promise<{ default: ComponentType<P> }> | null = null;
  let loaded: ComponentType<P> | null = null;
  const once = () =>
    (pending ??= load().then(
      (m) => ((loaded = m.default), m),
      (error: unknown) => ((pending = null), Promise.reject(error)),
    ));
  const Lazy = lazy(once);
  function Part(props: P) {
    // Chosen once per mount: switching from Lazy to the module later would remount the part.
    const [Component] = useState<ComponentType<P>>(() => loaded ?? (Lazy as unknown as ComponentType<P>));
    return <Component {...props} />;
  }
  loaders.set(Part, once);
  return Part;
}

/** A page on demand; `prefetch` starts its first requests alongside its code (rather than once its code has arrived and rendered). */
function page(load: () => Promise<{ default: ComponentType }>, prefetch?: (locale: Locale) => void): ComponentType {
  const Page = lazyPart(load);
  if (prefetch) pageData.set(Page, prefetch);
  return Page;
}

/** A layout on demand (the session check, the texts, the phone's tab bar, the staff layouts): sign-in never downloads them. */
const layout = (load: () => Promise<{ default: Layout }>): Layout => lazyPart(load);

/** A layout holding its pages back (suspended) until the texts of `areas` are in (app/guards/texts.tsx). */
function texts(areas: TextArea[], load: () => Promise<{ default: Layout }>): Layout {
  const Texts = layout(load);
  textGates.set(Texts, areas);
  return Texts;
}

/** The language the app opens in: the one chosen on this device, else the browser's (main.tsx loads it). */
export const openingLocale = () => useAppStore.getState().locale ?? browserLocale();

const RequireAuth = layout(() => import('./guards/require-auth').then((m) => ({ default: m.RequireAuth })));
const RequireStaff = layout(() => import('./guards/require-role').then((m) => ({ default: m.requireRole('operator', 'admin') })));
const RequireAdmin = layout(() => import('./guards/require-role').then((m) => ({ default: m.requireRole('admin') })));
const TabLayout = layout(() => import('./shells/phone/tab-layout'));
const StaffLayout = layout(() => import('./shells/staff-layout'));
const DeskMe = layout(() => import('./shells/staff-layout').then((m) => ({ default: m.DeskMe })));
const StaffHome = layout(() => import('./shells/staff-layout').then((m) => ({ default: m.StaffHome })));
const PhoneMe = layout(() => import('./shells/staff-layout').then((m) => ({ default: m.PhoneMe })));
const NotFoundPage = page(() => import('./route-status-page').then((m) => ({ default: m.NotFoundPage })));

/**
 * What a promoter's Home shows first, asked for while Home's code downloads (app/home-prefetch.ts,
 * a small module of its own, in the list of files a returning visitor's index.html preloads).
 */
const prefetchHome = (locale: Locale) => void import('./home-prefetch').then((m) => m.prefetchHome(locale));

/**
 * Pages load on demand, except sign-in: it is where every first visit lands, and in the entry it
 * costs no extra round trips (its form pieces are shared by most other pages anyway).
 */
const RegisterPage = page(() => import('../features/auth/pages/register-page'));
const PendingPage = page(() => import('../features/auth/pages/pending-page'));
/** Home with the announcements list in its slot; its first data is asked for alongside (prefetchHome). */
const HomePage = page(() => import('./home-with-announcements'), prefetchHome);
const PromotePage = page(() => import('../features/campaigns/pages/promote-page'));
const CampaignPage = page(() => import('../features/campaigns/pages/campaign-page'));
const LinksPage = page(() => import('../features/campaigns/pages/links-page'));
const NewLinkPage = page(() => import('../features/campaigns/pages/new-link-page'));
const LinkPage = page(() => import('../features/campaigns/pages/link-page'));
const PosterPage = page(() => import('../features/campaigns/pages/poster-page'));
const WalletPage = page(() => import('../features/money/pages/wallet-page'));
const CommissionsPage = page(() => import('../features/money/pages/commissions-page'));
const CommissionPage = page(() => import('../features/money/pages/commission-page'));
const WithdrawPage = page(() => import('../features/withdrawals/pages/withdraw-page'));
const WithdrawalsPage = page(() => import('../features/withdrawals/pages/withdrawals-page'));
const WithdrawalPage = page(() => import('../features/withdrawals/pages/withdrawal-page'));
const PayoutAccountsPage = page(() => import('../features/withdrawals/pages/payout-accounts-page'));
const NotificationsPage = page(() => import('../features/notifications/pages/notifications-page'));
const TeamPage = page(() => import('../features/team/pages/team-page'));
/** A promoter's bounties and one bounty; the console's bounties of a campaign and review queue: one part each. */
const BountyPages = page(() => import('../features/bounties/pages/phone'));
const LeaderboardPage = page(() => import('../features/leaderboard/pages/leaderboard-page'));
const MePage = page(() => import('../features/me/pages/me-page'));
const ProfilePage = page(() => import('../features/me/pages/profile-page'));
const LanguagePage = page(() => import('../features/me/pages/language-page'));
const PasswordPage = page(() => import('../features/me/pages/password-page'));
const DevicesPage = page(() => import('../features/me/pages/devices-page'));
const AboutPage = page(() => import('../features/me/pages/about-page'));
const MailPreferencesPage = page(() => import('../features/me/pages/mail-preferences-page'));
const StaffMePage = page(() => import('../features/me/pages/staff-me-page'));
const UsersPage = page(() => import('../features/promoters/pages/users-page'));
const PromotersPage = page(() => import('../features/promoters/pages/promoters-page'));
const PromoterPage = page(() => import('../features/promoters/pages/promoter-page'));
const GroupsPage = page(() => import('../features/groups/pages/groups-page'));
const SettingsPage = page(() => import('../features/settings/pages/settings-page'));
const AdminCampaignsPage = page(() => import('../features/campaigns/pages/campaign-table-page'));
const AdminCampaignPage = page(() => import('../features/campaigns/pages/campaign-editor-page'));
const EnrollmentsPage = page(() => import('../features/campaigns/pages/enrollments-page'));
const ConversionsPage = page(() => import('../features/conversions/pages/conversions-page'));
const ConversionPage = page(() => import('../features/conversions/pages/conversion-page'));
const BindingsPage = page(() => import('../features/conversions/pages/bindings-page'));
const RewardRulesPage = page(() => import('../features/campaigns/pages/reward-rules-page'));
const BountyConsolePages = page(() => import('../features/bounties/pages/desk'));
const CommissionsReviewPage = page(() => import('../features/money/pages/commission-review-page'));
const AdminWithdrawalsPage = page(() => import('../features/withdrawals/pages/withdrawal-queue-page'));
const AdminWithdrawalPage = page(() => import('../features/withdrawals/pages/withdrawal-review-page'));
const ApiKeysPage = page(() => import('../features/integrations/pages/api-keys-page'));
const WebhooksPage = page(() => import('../features/integrations/pages/webhooks-page'));
const WebhookPage = page(() => import('../features/integrations/pages/webhook-page'));
const MailPage = page(() => import('../features/integrations/pages/mail-page'));
const LedgerCheckPage = page(() => import('../features/money/pages/ledger-check-page'));
const AdminAnnouncementsPage = page(() => import('../features/announcements/pages/announcements-page'));
const AdminAnnouncementPage = page(() => import('../features/announcements/pages/announcement-page'));
const AuditPage = page(() => import('../features/audit/pages/audit-page'));
const OverviewPage = page(() => import('../features/overview/pages/overview-page'));
const StaffPage = page(() => import('../features/staff/pages/staff-page'));
const ResetPasswordPage = page(() => import('../features/auth/pages/reset-password-page'));
const ForgotPasswordPage = page(() => import('../features/auth/pages/forgot-password-page'));
const VerifyEmailPage = page(() => import('../features/auth/pages/verify-email-page'));
const EmailPage = page(() => import('../features/me/pages/email-page'));

/** Texts beyond sign-in's (i18n/index.ts): the promoter's app (the console shows promoters' figures: it needs them too); the console's. */
const appTexts = texts(['app'], () => import('./guards/texts').then((m) => ({ default: m.AppTexts })));
const consoleTexts = texts(['console'], () => import('./guards/texts').then((m) => ({ default: m.ConsoleTexts })));
const signedIn = [RequireAuth, appTexts];
const tabs = [RequireAuth, appTexts, TabLayout];
/** Home: staff are sent on to the overview (#/admin), where they land after signing in. */
const home = [RequireAuth, appTexts, StaffHome, TabLayout];
/**
 * Staff pages: the console shell at desk width (outside the role check, so "not for you" shows
 * inside it); the console's texts inside the role check (a promoter who follows a staff link is not
 * made to wait for them) and inside the shell (which stays in place while a page's texts come).
 */
const staff = [RequireAuth, appTexts, StaffLayout, RequireStaff, consoleTexts];
const admins = [RequireAuth, appTexts, StaffLayout, RequireAdmin, consoleTexts];
/** A person's own settings: staff at a desk see them inside the console shell (which loads the console's texts); everyone else as before. */
const own = [RequireAuth, appTexts, StaffLayout];

export const routes: RouteDef[] = [
  { path: '/login', page: LoginPage },
  { path: '/register', page: RegisterPage },
  { path: '/pending', page: PendingPage },
  { path: '/reset-password', page: ResetPasswordPage },
  { path: '/forgot-password', page: ForgotPasswordPage },
  { path: '/verify-email', page: VerifyEmailPage },
  { path: '/', page: HomePage, layouts: home },
  { path: '/promote', page: PromotePage, layouts: tabs },
  { path: '/campaigns/:id', page: CampaignPage, layouts: signedIn },
  { path: '/links', page: LinksPage, layouts: signedIn },
  { path: '/links/new', page: NewLinkPage, layouts: signedIn },
  { path: '/links/:id', page: LinkPage, layouts: signedIn },
  { path: '/poster/:linkId', page: PosterPage, layouts: signedIn },
  { path: '/wallet', page: WalletPage, layouts: signedIn },
  { path: '/commissions', page: CommissionsPage, layouts: signedIn },
  { path: '/commissions/:id', page: CommissionPage, layouts: signedIn },
  { path: '/withdraw', page: WithdrawPage, layouts: signedIn },
  { path: '/withdrawals', page: WithdrawalsPage, layouts: signedIn },
  { path: '/withdrawals/:id', page: WithdrawalPage, layouts: signedIn },
  { path: '/payout-accounts', page: PayoutAccountsPage, layouts: signedIn },
  { path: '/notifications', page: NotificationsPage, layouts: signedIn },
  { path: '/team', page: TeamPage, layouts: tabs },
  { path: '/leaderboard', page: LeaderboardPage, layouts: signedIn },
  { path: '/bounties', page: BountyPages, layouts: signedIn },
  { path: '/bounties/:id', page: BountyPages, layouts: signedIn },
  // Staff at a desk have their own page in the console (#/admin/me); the phone's Me has promoter tabs.
  { path: '/me', page: MePage, layouts: [RequireAuth, appTexts, DeskMe, TabLayout] },
  { path: '/me/profile', page: ProfilePage, layouts: own },
  { path: '/me/language', page: LanguagePage, layouts: own },
  { path: '/me/password', page: PasswordPage, layouts: own },
  { path: '/me/devices', page: DevicesPage, layouts: own },
  { path: '/me/about', page: AboutPage, layouts: own },
  { path: '/me/mail', page: MailPreferencesPage, layouts: own },
  { path: '/me/email', page: EmailPage, layouts: own },
  { path: '/admin/me', page: StaffMePage, layouts: [...staff, PhoneMe] },
  { path: '/admin', page: OverviewPage, layouts: staff },
  { path: '/admin/users', page: UsersPage, layouts: staff },
  { path: '/admin/promoters', page: PromotersPage, layouts: staff },
  { path: '/admin/promoters/:id', page: PromoterPage, layouts: staff },
  { path: '/admin/groups', page: GroupsPage, layouts: admins },
  { path: '/admin/settings', page: SettingsPage, layouts: admins },
  { path: '/admin/campaigns', page: AdminCampaignsPage, layouts: staff },
  // Before `:id`, which would match "new" too.
  { path: '/admin/campaigns/new', page: AdminCampaignPage, layouts: admins },
  { path: '/admin/campaigns/:id', page: AdminCampaignPage, layouts: staff },
  { path: '/admin/campaigns/:id/rewards', page: RewardRulesPage, layouts: staff },
  { path: '/admin/campaigns/:id/bounties', page: BountyConsolePages, layouts: staff },
  { path: '/admin/bounties/submissions', page: BountyConsolePages, layouts: staff },
  { path: '/admin/enrollments', page: EnrollmentsPage, layouts: staff },
  { path: '/admin/conversions', page: ConversionsPage, layouts: staff },
  { path: '/admin/conversions/:id', page: ConversionPage, layouts: staff },
  { path: '/admin/bindings', page: BindingsPage, layouts: staff },
  { path: '/admin/commissions', page: CommissionsReviewPage, layouts: staff },
  { path: '/admin/withdrawals', page: AdminWithdrawalsPage, layouts: staff },
  { path: '/admin/withdrawals/:id', page: AdminWithdrawalPage, layouts: staff },
  { path: '/admin/api-keys', page: ApiKeysPage, layouts: admins },
  { path: '/admin/webhooks', page: WebhooksPage, layouts: admins },
  { path: '/admin/webhooks/:id', page: WebhookPage, layouts: admins },
  { path: '/admin/mail', page: MailPage, layouts: admins },
  { path: '/admin/ledger-check', page: LedgerCheckPage, layouts: admins },
  { path: '/admin/announcements', page: AdminAnnouncementsPage, layouts: staff },
  // Before `:id`, which would match "new" too.
  { path: '/admin/announcements/new', page: AdminAnnouncementPage, layouts: staff },
  { path: '/admin/announcements/:id', page: AdminAnnouncementPage, layouts: staff },
  { path: '/admin/audit', page: AuditPage, layouts: admins },
  { path: '/admin/staff', page: StaffPage, layouts: admins },
  // Staff's own notifications in the desk shell (the same page as the promoters' inbox).
  { path: '/admin/notifications', page: NotificationsPage, layouts: staff },
];

const isSignedIn = (route: RouteDef) => route.layouts?.includes(RequireAuth) ?? false;

/** Starts downloading every lazy part of a route at once: its layouts, its page and its texts. */
function prepare(route: RouteDef, locale: Locale) {
  for (const part of [...(route.layouts ?? []), route.page]) {
    // A failed download is tried again, and reported, when React renders the part.
    void loaders.get(part)?.().catch(() => undefined);
    const areas = textGates.get(part);
    if (areas) preloadTexts(locale, areas);
  }
}

/**
 * Told the matched route as it renders: its layouts, page and texts are asked for together rather
 * than each once the one around it has arrived. A signed-in page is only fetched ahead when a user
 * is remembered on this device; anyone else is on the way to sign-in.
 */
function prepareRoute(route: RouteDef) {
  if (isSignedIn(route) && useAppStore.getState().user === null) return;
  prepare(route, i18next.language as Locale);
}

/**
 * Starts downloading the page the app opens on (its layouts and texts too, and, for a signed-in
 * page, the session check and the page's own first requests) while the entry is still loading the
 * reader's language, instead of after the first render finds them: one round trip less before the
 * first screen.
 *
 * Called while the entry's modules run. The page's code is asked for as soon as they have run (a
 * microtask): it is the largest download. Its data follows from tasks of their own (the first
 * timers set, so they run before main.tsx's start-up; main.tsx has configured the API client by
 * then), rather than lengthening the entry's task, which the code request would wait for.
 */
function preloadOpeningPage(opening: string) {
  // Staff opening Home are sent on to the overview: fetch that instead.
  const remembered = useAppStore.getState().user;
  const pathname = opening === '/' && remembered && remembered.role !== 'promoter' ? '/admin' : opening;
  const route = routes.find((r) => matchPath(r.path, pathname)) ?? routes.find((r) => r.path === '/');
  if (!route) return;
  const signedIn = isSignedIn(route);
  if (signedIn && remembered === null) return;
  const locale = openingLocale();
  queueMicrotask(() => prepare(route, locale));
  if (!signedIn) return;
  setTimeout(() => void queryClient.prefetchQuery(meQuery), 0);
  const prefetch = pageData.get(route.page);
  if (prefetch) setTimeout(() => prefetch(locale), 0);
  // Signed-in pages show money and dates: their first formatters are made while all that loads.
  void import('../lib/format').then((m) => m.warmFormatters(locale));
}

if (typeof window !== 'undefined' && import.meta.env.PROD) preloadOpeningPage(currentLocation().pathname);

export function AppRoutes(): ReactNode {
  return (
    <Suspense fallback={<PageLoading />}>
      <Routes routes={routes} notFound={NotFoundPage} onMatch={prepareRoute} />
    </Suspense>
  );
}
