import { Button, Dialog, List, Toast } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { PageNav } from '@/components/page-nav';
import { PageError, PageLoading } from '@/components/page-status';
import { errorText } from '@/lib/errors';
import { formatDateTime, keepTogether } from '@/lib/format';
import { useSessions } from '../api/get-sessions';
import { useRevokeSession } from '../api/revoke-session';

export default function DevicesPage() {
  const { t, i18n } = useTranslation();
  const sessions = useSessions();
  const revoke = useRevokeSession();
  // The server labels sessions whose browser it could not identify with this fixed text.
  const deviceName = (device: string) => (device === 'Unknown device' ? t('devices.unknownDevice') : device);

  return (
    <div className="sub-page">
      <PageNav title={t('devices.title')} fallback="/me" />
      {sessions.isPending ? <PageLoading /> : sessions.isError ? <PageError error={sessions.error} onRetry={() => sessions.refetch()} /> : (
        <List data-testid="devices">
          {sessions.data.map((s) => (
            <List.Item
              key={s.id}
              description={
                <>
                  <span>{t('devices.lastActive', { date: keepTogether(formatDateTime(s.lastSeenAt, i18n.language)) })}</span>
                  <br />
                  <span>{t('devices.signedIn', { date: keepTogether(formatDateTime(s.createdAt, i18n.language)) })}</span>
                </>
              }
              extra={s.current ? <span className="current-tag">{t('devices.thisDevice')}</span> : (
                <Button
                  size="mini"
                  color="danger"
                  fill="outline"
                  data-testid="device-sign-out"
                  onClick={async () => {
                    if (!(await Dialog.confirm({ content: t('devices.signOutConfirm', { device: deviceName(s.device) }), confirmText: t('app.confirm'), cancelText: t('app.cancel') }))) return;
                    try {
                      await revoke.mutateAsync(s.id);
                      Toast.show({ icon: 'success', content: t('devices.signedOut') });
                    } catch (error) {
                      Toast.show({ content: errorText(t, error) });
                    }
                  }}
                >
                  {t('devices.signOut')}
                </Button>
              )}
            >
              {deviceName(s.device)}
            </List.Item>
          ))}
        </List>
      )}
    </div>
  );
}
