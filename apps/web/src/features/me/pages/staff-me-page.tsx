/**
 * `#/admin/me`: a staff member's own page inside the console (their name in the desk navigation
 * opens it) — who they are, and their own settings: profile, language, password, e-mail
 * notifications and signed-in devices, the same pages as on a phone, opening inside the console.
 * No promoter tabs, no promoter menu.
 */
import { Button, Dialog, List } from 'antd-mobile';
import { GlobalOutline, LockOutline, MailOutline, PhonebookOutline, UserOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { PageError, PageLoading } from '@/components/page-status';
import { useNavigate } from '@/lib/hash-router';
import { useMe, useSignOut } from '@/lib/session';
import { MeHeader } from '../components/me-header';

export default function StaffMePage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const me = useMe();
  const signOutAll = useSignOut(true);
  if (me.isPending) return <PageLoading />;
  if (me.isError) return <PageError error={me.error} onRetry={() => me.refetch()} />;
  const user = me.data;
  return (
    <div className="me-page staff-me-page" data-testid="staff-me-page">
      <MeHeader user={user} />
      <List className="me-list" header={t('me.staffProfile')}>
        <List.Item prefix={<UserOutline />} extra={user.displayName} onClick={() => navigate('/me/profile')} data-testid="me-profile">{t('me.profile')}</List.Item>
        <List.Item prefix={<GlobalOutline />} extra={t(`languages.${i18n.language}`)} onClick={() => navigate('/me/language')} data-testid="me-language">{t('app.language')}</List.Item>
        <List.Item prefix={<LockOutline />} onClick={() => navigate('/me/password')} data-testid="me-password">{t('me.password')}</List.Item>
        <List.Item prefix={<MailOutline />} onClick={() => navigate('/me/mail')} data-testid="me-mail">{t('me.mail')}</List.Item>
        <List.Item prefix={<PhonebookOutline />} onClick={() => navigate('/me/devices')} data-testid="me-devices">{t('me.devices')}</List.Item>
      </List>
      <div className="me-actions">
        <Button
          fill="none"
          color="danger"
          loading={signOutAll.isPending}
          onClick={async () => {
            if (await Dialog.confirm({ content: t('me.signOutAllConfirm'), confirmText: t('app.confirm'), cancelText: t('app.cancel') })) {
              signOutAll.mutate(undefined, { onSettled: () => navigate('/login', { replace: true }) });
            }
          }}
          data-testid="me-sign-out-all"
        >
          {t('me.signOutAll')}
        </Button>
      </div>
    </div>
  );
}
