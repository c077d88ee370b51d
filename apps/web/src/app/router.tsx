import { lazy, Suspense, type ReactNode } from 'react';
import { Routes, type RouteDef } from '../lib/router';
import { PageLoading } from '../components/page-status';
import { RequireAuth } from './layouts/require-auth';
import { requireRole } from './layouts/require-role';
import { TabLayout } from './layouts/tab-layout';

/** Pages load on demand: a first visit to sign-in downloads only what sign-in needs. */
const LoginPage = lazy(() => import('../features/auth/pages/login-page'));
const RegisterPage = lazy(() => import('../features/auth/pages/register-page'));
const PendingPage = lazy(() => import('../features/auth/pages/pending-page'));
const HomePage = lazy(() => import('../features/home/pages/home-page'));
const PromotePage = lazy(() => import('../features/promote/pages/promote-page'));
const CampaignPage = lazy(() => import('../features/promote/pages/campaign-page'));
const LinksPage = lazy(() => import('../features/promote/pages/links-page'));
const NewLinkPage = lazy(() => import('../features/promote/pages/new-link-page'));
const LinkPage = lazy(() => import('../features/promote/pages/link-page'));
const PosterPage = lazy(() => import('../features/promote/pages/poster-page'));
const WalletPage = lazy(() => import('../features/wallet/pages/wallet-page'));
const CommissionsPage = lazy(() => import('../features/wallet/pages/commissions-page'));
const CommissionPage = lazy(() => import('../features/wallet/pages/commission-page'));
const WithdrawPage = lazy(() => import('../features/withdrawals/pages/withdraw-page'));
const WithdrawalsPage = lazy(() => import('../features/withdrawals/pages/withdrawals-page'));
const WithdrawalPage = lazy(() => import('../features/withdrawals/pages/withdrawal-page'));
const PayoutAccountsPage = lazy(() => import('../features/withdrawals/pages/payout-accounts-page'));
const NotificationsPage = lazy(() => import('../features/notifications/pages/notifications-page'));
const TeamPage = lazy(() => import('../features/team/pages/team-page'));
const MePage = lazy(() => import('../features/me/pages/me-page'));
const ProfilePage = lazy(() => import('../features/me/pages/profile-page'));
const LanguagePage = lazy(() => import('../features/me/pages/language-page'));
const PasswordPage = lazy(() => import('../features/me/pages/password-page'));
const DevicesPage = lazy(() => import('../features/me/pages/devices-page'));
const AboutPage = lazy(() => import('../features/me/pages/about-page'));
const UsersPage = lazy(() => import('../features/admin/pages/users-page'));
const SettingsPage = lazy(() => import('../features/admin/pages/settings-page'));
const AdminCampaignsPage = lazy(() => import('../features/admin/pages/campaigns-page'));
const AdminCampaignPage = lazy(() => import('../features/admin/pages/campaign-page'));
const EnrollmentsPage = lazy(() => import('../features/admin/pages/enrollments-page'));
const ConversionsPage = lazy(() => import('../features/admin/pages/conversions-page'));
const CommissionsReviewPage = lazy(() => import('../features/admin/pages/commissions-page'));
const AdminWithdrawalsPage = lazy(() => import('../features/admin/pages/withdrawals-page'));
const AdminWithdrawalPage = lazy(() => import('../features/admin/pages/withdrawal-page'));
const ApiKeysPage = lazy(() => import('../features/admin/pages/api-keys-page'));
const LedgerCheckPage = lazy(() => import('../features/admin/pages/ledger-check-page'));

const signedIn = [RequireAuth];
const tabs = [RequireAuth, TabLayout];
const staff = [RequireAuth, requireRole('operator', 'admin')];
const admins = [RequireAuth, requireRole('admin')];

export const routes: RouteDef[] = [
  { path: '/login', page: LoginPage },
  { path: '/register', page: RegisterPage },
  { path: '/pending', page: PendingPage },
  { path: '/', page: HomePage, layouts: tabs },
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
  { path: '/me', page: MePage, layouts: tabs },
  { path: '/me/profile', page: ProfilePage, layouts: signedIn },
  { path: '/me/language', page: LanguagePage, layouts: signedIn },
  { path: '/me/password', page: PasswordPage, layouts: signedIn },
  { path: '/me/devices', page: DevicesPage, layouts: signedIn },
  { path: '/me/about', page: AboutPage, layouts: signedIn },
  { path: '/admin/users', page: UsersPage, layouts: staff },
  { path: '/admin/settings', page: SettingsPage, layouts: admins },
  { path: '/admin/campaigns', page: AdminCampaignsPage, layouts: staff },
  // Before `:id`, which would match "new" too.
  { path: '/admin/campaigns/new', page: AdminCampaignPage, layouts: admins },
  { path: '/admin/campaigns/:id', page: AdminCampaignPage, layouts: staff },
  { path: '/admin/enrollments', page: EnrollmentsPage, layouts: staff },
  { path: '/admin/conversions', page: ConversionsPage, layouts: staff },
  { path: '/admin/commissions', page: CommissionsReviewPage, layouts: staff },
  { path: '/admin/withdrawals', page: AdminWithdrawalsPage, layouts: staff },
  { path: '/admin/withdrawals/:id', page: AdminWithdrawalPage, layouts: staff },
  { path: '/admin/api-keys', page: ApiKeysPage, layouts: admins },
  { path: '/admin/ledger-check', page: LedgerCheckPage, layouts: admins },
];

export function AppRoutes(): ReactNode {
  return (
    <Suspense fallback={<PageLoading />}>
      <Routes routes={routes} fallback="/" />
    </Suspense>
  );
}
