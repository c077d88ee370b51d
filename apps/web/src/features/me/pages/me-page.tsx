import { Badge, Button, Dialog, List, Switch, Toast } from 'antd-mobile';
import {
  BankcardOutline, BellOutline, BillOutline, CheckShieldOutline, GlobalOutline, InformationCircleOutline, KeyOutline, LinkOutline, LockOutline, MailOutline, PayCircleOutline, PhonebookOutline, ReceiptOutline, ReceivePaymentOutline, SendOutline, SetOutline, ShopbagOutline, SoundOutline, StarOutline, TagOutline, TeamOutline, UserAddOutline, UserOutline, UserSetOutline,
} from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { accountKind } from '@pa/shared/rules';
import { useTexts } from '@/i18n';
import { errorText } from '@/lib/errors';
import { useNavigate } from '@/lib/hash-router';
import { PageError, PageLoading } from '@/components/page-status';
import { useMe, useSignOut } from '@/lib/session';
import { MeHeader } from '../components/me-header';
import { badgeText, useUnreadCount } from '@/lib/unread';
import { useUpdateMe } from '../api/update-me';

export default function MePage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const me = useMe();
  const signOut = useSignOut(false);
  const signOutAll = useSignOut(true);
  const unread = useUnreadCount(me.data?.role === 'promoter').data ?? 0;
  const updateMe = useUpdateMe();
  // Staff on a phone find the console's pages here, under the console's names (its texts).
  useTexts(...(me.data && me.data.role !== 'promoter' ? (['console'] as const) : []));

  if (me.isPending) return <PageLoading />;
  if (me.isError) return <PageError error={me.error} onRetry={() => me.refetch()} />;
  const user = me.data;

  return (
    <div className="me-page">
      <MeHeader user={user} />
      {user.role === 'promoter' ? (
        <List className="me-list">
          <List.Item
            prefix={<BellOutline />}
            extra={unread > 0 ? <Badge content={<span data-testid="me-unread">{badgeText(unread)}</span>} aria-label={t('tabs.unread', { count: unread })} /> : null}
            onClick={() => navigate('/notifications')}
            data-testid="me-notifications"
          >
            {t('me.notifications')}
          </List.Item>
          <List.Item prefix={<PayCircleOutline />} onClick={() => navigate('/wallet')} data-testid="me-wallet">{t('me.wallet')}</List.Item>
          <List.Item prefix={<ReceivePaymentOutline />} onClick={() => navigate('/withdrawals')} data-testid="me-withdrawals">{t('me.withdrawals')}</List.Item>
          <List.Item prefix={<BankcardOutline />} onClick={() => navigate('/payout-accounts')} data-testid="me-payout-accounts">{t('me.payoutAccounts')}</List.Item>
          <List.Item prefix={<BillOutline />} onClick={() => navigate('/commissions')} data-testid="me-commissions">{t('me.commissions')}</List.Item>
          <List.Item prefix={<LinkOutline />} onClick={() => navigate('/links')} data-testid="me-links">{t('me.links')}</List.Item>
        </List>
      ) : null}
      {user.role === 'promoter' ? (
        <List className="me-list" header={t('leaderboard.title')}>
          <List.Item prefix={<StarOutline />} onClick={() => navigate('/leaderboard')} data-testid="me-leaderboard">{t('leaderboard.open')}</List.Item>
          <List.Item
            description={t('leaderboard.meSwitchHelp')}
            extra={
              <Switch
                checked={!user.leaderboardOptOut}
                loading={updateMe.isPending}
                aria-label={t('leaderboard.meSwitch')}
                data-testid="me-leaderboard-visible"
                onChange={async (visible) => {
                  try {
                    await updateMe.mutateAsync({ leaderboardOptOut: !visible });
                    Toast.show({ icon: 'success', content: t('app.saved') });
                  } catch (error) {
                    Toast.show({ content: errorText(t, error) });
                  }
                }}
              />
            }
          >
            {t('leaderboard.meSwitch')}
          </List.Item>
        </List>
      ) : null}
      <List className="me-list">
        <List.Item prefix={<UserOutline />} onClick={() => navigate('/me/profile')}>{t('me.profile')}</List.Item>
        <List.Item prefix={<GlobalOutline />} extra={t(`languages.${i18n.language}`)} onClick={() => navigate('/me/language')} data-testid="me-language">
          {t('app.language')}
        </List.Item>
        <List.Item prefix={<LockOutline />} onClick={() => navigate('/me/password')} data-testid="me-password">{t('me.password')}</List.Item>
        {accountKind(user.account) === 'phone' ? (
          <List.Item prefix={<MailOutline />} extra={user.email ? <span className="list-value list-value-cut" title={user.email}>{user.email}</span> : <span className="list-value">{t('emailAddress.none')}</span>} onClick={() => navigate('/me/email')} data-testid="me-email">
            {t('emailAddress.title')}
          </List.Item>
        ) : null}
        <List.Item prefix={<MailOutline />} onClick={() => navigate('/me/mail')} data-testid="me-mail">{t('me.mail')}</List.Item>
        <List.Item prefix={<PhonebookOutline />} onClick={() => navigate('/me/devices')}>{t('me.devices')}</List.Item>
        <List.Item prefix={<InformationCircleOutline />} onClick={() => navigate('/me/about')}>{t('me.about')}</List.Item>
      </List>
      {user.role !== 'promoter' ? (
        <List className="me-list" header={t('me.staff')}>
          <List.Item prefix={<TeamOutline />} onClick={() => navigate('/admin/promoters')} data-testid="me-promoters">{t('console.nav.promoters')}</List.Item>
          <List.Item prefix={<UserSetOutline />} onClick={() => navigate('/admin/users')} data-testid="me-users">{t('console.nav.registrations')}</List.Item>
          {user.role === 'admin' ? <List.Item prefix={<TagOutline />} onClick={() => navigate('/admin/groups')} data-testid="me-groups">{t('console.nav.promoterGroups')}</List.Item> : null}
          <List.Item prefix={<ShopbagOutline />} onClick={() => navigate('/admin/campaigns')} data-testid="me-campaigns">{t('me.campaigns')}</List.Item>
          <List.Item prefix={<UserAddOutline />} onClick={() => navigate('/admin/enrollments')} data-testid="me-enrollments">{t('me.enrollments')}</List.Item>
          {user.role === 'admin' ? <List.Item prefix={<SetOutline />} onClick={() => navigate('/admin/settings')} data-testid="me-settings">{t('me.settings')}</List.Item> : null}
          <List.Item prefix={<ReceiptOutline />} onClick={() => navigate('/admin/conversions')} data-testid="me-conversions">{t('me.conversions')}</List.Item>
          <List.Item prefix={<LinkOutline />} onClick={() => navigate('/admin/bindings')} data-testid="me-bindings">{t('me.bindings')}</List.Item>
          <List.Item prefix={<CheckShieldOutline />} onClick={() => navigate('/admin/commissions')} data-testid="me-commissions-review">{t('me.commissionsReview')}</List.Item>
          <List.Item prefix={<CheckShieldOutline />} onClick={() => navigate('/admin/bounties/submissions')} data-testid="me-bounty-submissions">{t('bounties.reviewMenu')}</List.Item>
          <List.Item prefix={<ReceivePaymentOutline />} onClick={() => navigate('/admin/withdrawals')} data-testid="me-withdrawals-review">{t('withdrawalsAdmin.menu')}</List.Item>
          <List.Item prefix={<SoundOutline />} onClick={() => navigate('/admin/announcements')} data-testid="me-announcements">{t('me.announcements')}</List.Item>
          {user.role === 'admin' ? <List.Item prefix={<KeyOutline />} onClick={() => navigate('/admin/api-keys')} data-testid="me-api-keys">{t('me.apiKeys')}</List.Item> : null}
          {user.role === 'admin' ? <List.Item prefix={<SendOutline />} onClick={() => navigate('/admin/webhooks')} data-testid="me-webhooks">{t('console.nav.webhooks')}</List.Item> : null}
          {user.role === 'admin' ? <List.Item prefix={<MailOutline />} onClick={() => navigate('/admin/mail')} data-testid="me-mail-admin">{t('console.nav.mail')}</List.Item> : null}
          {user.role === 'admin' ? <List.Item prefix={<CheckShieldOutline />} onClick={() => navigate('/admin/ledger-check')} data-testid="me-ledger-check">{t('me.ledgerCheck')}</List.Item> : null}
        </List>
      ) : null}
      <div className="me-actions">
        <Button
          block
          size="large"
          data-testid="sign-out"
          loading={signOut.isPending}
          onClick={() => signOut.mutate(undefined, { onSettled: () => navigate('/login', { replace: true }) })}
        >
          {t('me.signOut')}
        </Button>
        <Button
          block
          fill="none"
          color="danger"
          onClick={async () => {
            if (await Dialog.confirm({ content: t('me.signOutAllConfirm'), confirmText: t('app.confirm'), cancelText: t('app.cancel') })) {
              signOutAll.mutate(undefined, { onSettled: () => navigate('/login', { replace: true }) });
            }
          }}
        >
          {t('me.signOutAll')}
        </Button>
      </div>
    </div>
  );
}
