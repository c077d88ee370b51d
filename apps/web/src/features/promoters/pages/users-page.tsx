import { Button, Dialog, List, Tabs, Toast } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import type { AdminUserList, UserStatus } from '@pa/shared';
import { AccountText } from '@/components/account-text';
import { DataTable, type Column } from '@/components/data-table';
import { EmptyState } from '@/components/empty-state';
import { PageNav } from '@/components/page-nav';
import { PageError, PageLoading } from '@/components/page-status';
import { csvId } from '@pa/shared/csv';
import { csvFilename, csvTime, exportList, listPages } from '@/lib/csv-export';
import { useDesk } from '@/lib/desk';
import { errorText } from '@/lib/errors';
import { formatDate } from '@/lib/format';
import { navigate } from '@/lib/hash-router';
import { useMe } from '@/lib/session';
import { useUsers } from '../api/get-users';
import { useUserAction, type UserAction } from '../api/user-action';
import { LoadMore } from '@/components/load-more';
import { DeskToolbar, ExportButton, StatusFilter, useApproveRejectBulk } from '@/components/desk-toolbar';
import { useUrlFilter } from '@/lib/url-filter';
import { ApplicationAnswers } from '../components/application-answers';
import '../components/promoters.css';
import { useGroupName } from '@/lib/group-name';

const STATUSES: UserStatus[] = ['pending', 'active', 'suspended', 'rejected'];
const ACTIONS: Record<UserStatus, UserAction[]> = { pending: ['approve', 'reject'], active: ['suspend'], suspended: ['reactivate'], rejected: [] };

function UserList({ status }: { status: UserStatus }) {
  const { t, i18n } = useTranslation();
  const groupName = useGroupName();
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
                  {u.group ? <><br /><span>{t('promotersAdmin.group.value', { group: groupName(u.group) })}</span></> : null}
                  {status === 'pending' && u.application.length > 0 ? <span className="users-application"><ApplicationAnswers answers={u.application} compact /></span> : null}
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

type AdminUser = AdminUserList['items'][number];

/** At desk: the registrations as a table, pending ones selectable for approving or rejecting many at once. */
function UsersDesk({ status, onStatus }: { status: UserStatus; onStatus: (s: UserStatus) => void }) {
  const { t, i18n } = useTranslation();
  const groupName = useGroupName();
  const me = useMe();
  const users = useUsers(status);
  const act = useUserAction();
  const { selected, setSelected, busy, bulkActions } = useApproveRejectBulk((id, action) => act.mutateAsync({ id, action }), t('admin.actions.reject'));
  const allowed = (u: AdminUser) => u.id !== me.data?.id && (u.role === 'promoter' || me.data?.role === 'admin');

  const run = async (u: AdminUser, action: UserAction) => {
    const confirmed = action === 'approve' || (await Dialog.confirm({ content: t(`admin.confirm.${action}`, { name: u.displayName }), confirmText: t('app.confirm'), cancelText: t('app.cancel') }));
    if (!confirmed) return;
    try {
      await act.mutateAsync({ id: u.id, action });
      setSelected((keys) => keys.filter((k) => k !== u.id));
      Toast.show({ icon: 'success', content: t(`admin.done.${action}`, { name: u.displayName }) });
    } catch (error) {
      Toast.show({ content: errorText(t, error) });
    }
  };

  const columns: Column<AdminUser>[] = [
    {
      key: 'name',
      title: t('console.col.name'),
      sortValue: (u) => u.displayName,
      // The account under the name (as in the promoters table): the queue's answers need the room.
      render: (u) => (
        <span className="promoter-name-cell users-name">
          <span className="data-table-strong">{u.displayName}</span>
          <AccountText account={u.account} className="promoter-sub" />
          {u.group ? <span className="promoter-sub" data-testid={`user-group-${u.account}`}>{t('promotersAdmin.group.value', { group: groupName(u.group) })}</span> : null}
        </span>
      ),
    },
    { key: 'joined', title: t('console.col.joined'), sortValue: (u) => u.createdAt, render: (u) => <span className="data-table-nowrap">{formatDate(u.createdAt, i18n.language)}</span> },
    { key: 'inviter', priority: 'lowest', title: t('console.col.inviter'), sortValue: (u) => u.inviterName, render: (u) => u.inviterName ?? <span className="data-table-muted">—</span> },
    // Registrations waiting are promoters' (staff are never pending): their role goes without saying, their answers need the room.
    ...(status === 'pending' ? [] : [{ key: 'role', title: t('console.col.role'), sortValue: (u: AdminUser) => t(`me.roles.${u.role}`), render: (u: AdminUser) => t(`me.roles.${u.role}`) }]),
    // The queue: what each applicant answered, to decide on (the promoter's page shows it for everyone).
    ...(status === 'pending' ? [{ key: 'application', title: t('promotersAdmin.application.column'), render: (u: AdminUser) => <ApplicationAnswers answers={u.application} compact /> }] : []),
    {
      key: 'actions',
      title: <span className="visually-hidden">{t('console.col.actions')}</span>,
      align: 'end',
      render: (u) => allowed(u) ? (
        <span className="data-table-actions">
          {ACTIONS[status].map((action) => (
            <Button key={action} size="small" disabled={busy} color={action === 'approve' || action === 'reactivate' ? 'primary' : 'danger'} fill={action === 'approve' ? 'solid' : 'outline'} onClick={() => void run(u, action)} data-testid={`${action}-${u.account}`}>
              {t(`admin.actions.${action}`)}
            </Button>
          ))}
        </span>
      ) : null,
    },
  ];

  const exportCsv = (onProgress: (rows: number) => void) => exportList<AdminUser>({
    filename: csvFilename(`registrations-${status}`),
    fetchPage: listPages('admin/users', { status }),
    onProgress,
    csv: 'users',
    columns: {
      display_name: (u) => u.displayName,
      account: (u) => csvId(u.account),
      role: (u) => t(`me.roles.${u.role}`),
      status: (u) => t(`admin.status.${u.status}`),
      joined_at: (u) => csvTime(u.createdAt),
      inviter_name: (u) => u.inviterName,
      group: (u) => u.group?.name ?? null,
      application: (u) => u.application.map((a) => `${a.question}: ${a.answer}`).join('\n') || null,
      id: (u) => csvId(u.id),
    },
  });

  if (users.isError) return <PageError error={users.error} onRetry={() => users.refetch()} />;
  const items = users.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <DataTable
      data-testid={`users-${status}`}
      caption={t('console.nav.registrations')}
      rows={items}
      rowKey={(u) => u.id}
      rowTestId={(u) => `user-row-${u.account}`}
      rowLabel={(u) => u.displayName}
      columns={columns}
      loading={users.isPending}
      pagination={users}
      empty={<EmptyState title={t(`admin.empty.${status}`)} body={t('admin.emptyBody')} />}
      onRowClick={(u) => { if (u.role === 'promoter') navigate(`/admin/promoters/${encodeURIComponent(u.id)}`); }}
      selected={status === 'pending' ? selected : undefined}
      onSelectedChange={status === 'pending' ? setSelected : undefined}
      selectable={allowed}
      bulkActions={bulkActions}
      toolbar={
        <DeskToolbar
          filters={<StatusFilter label={t('console.filter.status')} value={status} onChange={onStatus} options={STATUSES.map((s) => ({ value: s, label: t(`admin.filter.${s}`) }))} testId="users-filter" />}
          actions={<ExportButton run={exportCsv} />}
        />
      }
    />
  );
}

export default function UsersPage() {
  const { t } = useTranslation();
  const desk = useDesk();
  // In the address, so the overview's work queue can link to the pending ones.
  const [status, setStatus] = useUrlFilter<UserStatus>('status', STATUSES, 'pending');
  return (
    <div className={`sub-page${desk ? ' desk-page' : ''}`}>
      <PageNav title={t('console.nav.registrations')} fallback="/me" />
      {desk ? <UsersDesk key={status} status={status} onStatus={setStatus} /> : (
        <>
          <Tabs activeKey={status} onChange={(key) => setStatus(key as UserStatus)}>
            {STATUSES.map((s) => <Tabs.Tab key={s} title={t(`admin.filter.${s}`)} />)}
          </Tabs>
          <UserList key={status} status={status} />
        </>
      )}
    </div>
  );
}
