import { Button, Dialog, List, Tabs, Toast } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { UserStatus } from '@pa/shared';
import { EmptyState } from '../../../components/empty-state';
import { PageNav } from '../../../components/page-nav';
import { PageError, PageLoading } from '../../../components/page-status';
import { errorText } from '../../../lib/errors';
import { formatDate } from '../../../lib/format';
import { useMe } from '../../../lib/session';
import { useUsers } from '../api/get-users';
import { useUserAction, type UserAction } from '../api/user-action';
import { LoadMore } from '../../../components/load-more';

const STATUSES: UserStatus[] = ['pending', 'active', 'suspended', 'rejected'];
const ACTIONS: Record<UserStatus, UserAction[]> = { pending: ['approve', 'reject'], active: ['suspend'], suspended: ['reactivate'], rejected: [] };

function UserList({ status }: { status: UserStatus }) {
  const { t, i18n } = useTranslation();
  const me = useMe();
  const users = useUsers(status);
  const act = useUserAction();
  if (users.isPending) return <PageLoading />;
  if (users.isError) return <PageError error={users.error} onRetry={() => users.refetch()} />;
  const items = users.data.pages.flatMap((p) => p.items);
  if (items.length === 0) return <EmptyState title={t(`admin.empty.${status}`)} body={t('admin.emptyBody')} />;

  const run = async (id: string, name: string, action: UserAction) => {
    const confirmed = action === 'approve' || (await Dialog.confirm({ content: t(`admin.confirm.${action}`, { name }), confirmText: t('app.confirm'), cancelText: t('app.cancel') }));
    if (!confirmed) return;
    try {
      await act.mutateAsync({ id, action });
      Toast.show({ icon: 'success', content: t(`admin.done.${action}`, { name }) });
    } catch (error) {
      Toast.show({ content: errorText(t, error) });
    }
  };

  return (
    <>
      <List data-testid={`users-${status}`}>
        {items.map((u) => {
          const allowed = u.id !== me.data?.id && (u.role === 'promoter' || me.data?.role === 'admin');
          return (
            <List.Item
              key={u.id}
              description={
                <>
                  <span className="list-value">{u.account}</span>
                  <br />
                  <span>{t('admin.joined', { date: formatDate(u.createdAt, i18n.language) })}</span>
                  {u.inviterName ? <><br /><span>{t('home.invitedBy', { name: u.inviterName })}</span></> : null}
                </>
              }
              extra={allowed ? (
                <div className="row-actions">
                  {ACTIONS[status].map((action) => (
                    <Button key={action} size="small" color={action === 'approve' || action === 'reactivate' ? 'primary' : 'danger'} fill={action === 'approve' ? 'solid' : 'outline'} onClick={() => run(u.id, u.displayName, action)} data-testid={`${action}-${u.account}`}>
                      {t(`admin.actions.${action}`)}
                    </Button>
                  ))}
                </div>
              ) : <span className="role-tag">{t(`me.roles.${u.role}`)}</span>}
            >
              {u.displayName}
            </List.Item>
          );
        })}
      </List>
      <LoadMore query={users} />
    </>
  );
}

export default function UsersPage() {
  const { t } = useTranslation();
  const [status, setStatus] = useState<UserStatus>('pending');
  return (
    <div className="sub-page">
      <PageNav title={t('admin.users')} fallback="/me" />
      <Tabs activeKey={status} onChange={(key) => setStatus(key as UserStatus)}>
        {STATUSES.map((s) => <Tabs.Tab key={s} title={t(`admin.status.${s}`)} />)}
      </Tabs>
      <UserList key={status} status={status} />
    </div>
  );
}
