import { Button, Toast } from 'antd-mobile';
import { BellOutline, BillOutline, CheckOutline, ExclamationTriangleOutline, FileOutline, MessageOutline, PayCircleOutline, ReceivePaymentOutline, UserAddOutline } from 'antd-mobile-icons';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { Notification } from '@pa/shared';
import { EmptyState } from '@/components/empty-state';
import { LoadMore } from '@/components/load-more';
import { PageNav } from '@/components/page-nav';
import { PageError, PageLoading } from '@/components/page-status';
import { errorText } from '@/lib/errors';
import { formatDateTime } from '@/lib/format';
import { navigate, useLocation, useSearchParams } from '@/lib/hash-router';
import { useMe } from '@/lib/session';
import { unreadCountQuery } from '@/lib/unread';
import { useMarkAllRead, useMarkRead, useNotifications } from '../api/notifications';
import { describeNotification, type NotificationMessage } from '../lib/message';

const ICONS: Record<NotificationMessage['group'], typeof BellOutline> = {
  enrollment: UserAddOutline,
  commission: BillOutline,
  withdrawal: ReceivePaymentOutline,
  adjustment: PayCircleOutline,
  review: FileOutline,
  system: ExclamationTriangleOutline,
  other: MessageOutline,
};

function Item({ n, currency, onOpen }: { n: Notification; currency: string; onOpen: (n: Notification, target: string | null) => void }) {
  const { t, i18n } = useTranslation();
  const m = describeNotification(n, t, i18n.language, currency);
  const Icon = ICONS[m.group];
  const unread = n.readAt === null;
  return (
    <li>
      <button
        type="button"
        className={`notification-item${unread ? ' notification-unread' : ''}`}
        onClick={() => onOpen(n, m.target)}
        data-testid="notification-item"
        data-id={n.id}
        data-type={n.type}
        data-unread={unread || undefined}
      >
        <span className={`notification-icon tone-${m.tone}`} aria-hidden><Icon /></span>
        <span className="notification-text">
          <span className="notification-title">
            {unread ? <span className="visually-hidden">{t('notifications.unreadLabel')}: </span> : null}
            {m.title}
          </span>
          <span className="notification-body">{m.body}</span>
          {m.details.map((d) => <span key={d} className="notification-detail">{d}</span>)}
          <span className="notification-time">{formatDateTime(n.createdAt, i18n.language)}</span>
        </span>
        {unread ? <span className="unread-dot" aria-hidden /> : null}
      </button>
    </li>
  );
}

export default function NotificationsPage() {
  const { t } = useTranslation();
  const params = useSearchParams();
  const { pathname } = useLocation();
  const staff = (useMe().data?.role ?? 'promoter') !== 'promoter';
  const unreadOnly = params.get('filter') === 'unread';
  const list = useNotifications(unreadOnly);
  const markRead = useMarkRead();
  const markAll = useMarkAllRead();
  const queryClient = useQueryClient();
  const first = list.data?.pages[0];
  const unread = first?.unread ?? 0;

  // The list answer carries the unread count too: keep the badge in step with what is shown.
  useEffect(() => {
    if (first) queryClient.setQueryData(unreadCountQuery.queryKey, first.unread);
  }, [first, queryClient]);

  const open = (n: Notification, target: string | null) => {
    if (n.readAt === null) markRead.mutate(n.id);
    if (target) navigate(target);
  };
  const readAll = async () => {
    try {
      await markAll.mutateAsync();
      Toast.show({ icon: 'success', content: t('notifications.allRead') });
    } catch (error) {
      Toast.show({ content: errorText(t, error) });
    }
  };
  // Staff read theirs at #/admin/notifications (inside the desk shell), promoters at #/notifications.
  const setFilter = (value: 'all' | 'unread') => navigate(value === 'all' ? pathname : `${pathname}?filter=unread`, { replace: true });

  const items = list.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <div className="sub-page">
      <PageNav title={t('notifications.title')} fallback={staff ? '/admin' : '/me'} />
      <div className="notifications-bar">
        <div className="filter-bar" role="group" aria-label={t('notifications.filterLabel')}>
          {(['all', 'unread'] as const).map((f) => (
            <button key={f} type="button" className={`chip${(f === 'unread') === unreadOnly ? ' chip-on' : ''}`} aria-pressed={(f === 'unread') === unreadOnly} onClick={() => setFilter(f)} data-testid={`notifications-filter-${f}`}>
              {f === 'all' ? t('notifications.filter.all') : t('notifications.filter.unread', { count: unread })}
            </button>
          ))}
        </div>
        <Button size="small" fill="none" color="primary" className="read-all" disabled={unread === 0} loading={markAll.isPending} onClick={readAll} data-testid="notifications-read-all">
          <CheckOutline aria-hidden /> {t('notifications.readAll')}
        </Button>
      </div>
      {list.isPending ? <PageLoading /> : list.isError ? <PageError error={list.error} onRetry={() => list.refetch()} /> : items.length === 0 ? (
        <EmptyState
          icon={<BellOutline />}
          title={unreadOnly ? t('notifications.emptyUnreadTitle') : t('notifications.emptyTitle')}
          body={unreadOnly ? t('notifications.emptyUnreadBody') : staff ? t('notifications.emptyBodyStaff') : t('notifications.emptyBody')}
        />
      ) : (
        <>
          <ul className="notification-list" data-testid="notification-list">
            {items.map((n) => <Item key={n.id} n={n} currency={first!.currency} onOpen={open} />)}
          </ul>
          <LoadMore query={list} />
        </>
      )}
    </div>
  );
}
