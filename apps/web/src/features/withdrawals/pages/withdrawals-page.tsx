import { Button, List } from 'antd-mobile';
import { ReceivePaymentOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import type { WithdrawalStatus } from '@pa/shared';
import { EmptyState } from '@/components/empty-state';
import { LoadMore } from '@/components/load-more';
import { PageNav } from '@/components/page-nav';
import { PageError, PageLoading } from '@/components/page-status';
import { formatDateTime, formatMoney } from '@/lib/format';
import { navigate, useSearchParams } from '@/lib/hash-router';
import { useWithdrawals } from '../api/withdrawals';
import { MethodIcon } from '../components/method-icon';
import { WithdrawalStatusTag } from '@/components/withdrawal-status-tag';
import { accountLabel } from '../lib/describe';

const STATUSES: (WithdrawalStatus | 'all')[] = ['all', 'requested', 'approved', 'paid', 'failed', 'rejected', 'cancelled'];

export default function WithdrawalsPage() {
  const { t, i18n } = useTranslation();
  const params = useSearchParams();
  const status = (STATUSES as string[]).includes(params.get('status') ?? '') ? (params.get('status') as WithdrawalStatus | 'all') : 'all';
  const list = useWithdrawals(status === 'all' ? undefined : status);
  const setStatus = (value: string) => navigate(value === 'all' ? '/withdrawals' : `/withdrawals?status=${value}`, { replace: true });
  const items = list.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <div className="sub-page">
      <PageNav title={t('withdrawals.title')} fallback="/wallet" />
      <div className="filter-bar" role="group" aria-label={t('withdrawals.filterStatus')}>
        {STATUSES.map((s) => (
          <button key={s} type="button" className={`chip${s === status ? ' chip-on' : ''}`} aria-pressed={s === status} onClick={() => setStatus(s)} data-testid={`filter-${s}`}>
            {s === 'all' ? t('withdrawals.all') : t(`withdrawals.status.${s}`)}
          </button>
        ))}
      </div>
      {list.isPending ? <PageLoading /> : list.isError ? <PageError error={list.error} onRetry={() => list.refetch()} /> : items.length === 0 ? (
        <EmptyState
          icon={<ReceivePaymentOutline />}
          title={t('withdrawals.emptyTitle')}
          body={status === 'all' ? t('withdrawals.emptyBody') : t('withdrawals.emptyFiltered')}
          action={status === 'all' ? <Button color="primary" className="empty-action" onClick={() => navigate('/withdraw')} data-testid="withdrawals-new">{t('withdrawals.new')}</Button> : undefined}
        />
      ) : (
        <>
          <List className="withdrawal-list" data-testid="withdrawal-list">
            {items.map((w) => (
              <List.Item
                key={w.id}
                onClick={() => navigate(`/withdrawals/${encodeURIComponent(w.id)}`)}
                data-testid="withdrawal-item"
                data-id={w.id}
                prefix={<MethodIcon method={w.account.method} />}
                description={
                  <>
                    {formatDateTime(w.requestedAt, i18n.language)}
                    {/* "you receive CN¥296.00" stays on one line when the description wraps. */}
                    {w.fee > 0 ? <> · <span className="withdrawal-net-short">{t('withdrawals.netShort', { net: formatMoney(w.net, w.currency, i18n.language) })}</span></> : null}
                  </>
                }
                extra={
                  <span className="commission-figures">
                    <span className="money commission-amount">{formatMoney(w.amount, w.currency, i18n.language)}</span>
                    <WithdrawalStatusTag status={w.status} />
                  </span>
                }
              >
                {accountLabel(w.account, t)}
              </List.Item>
            ))}
          </List>
          <LoadMore query={list} />
          <div className="page-actions withdrawals-actions">
            <Button block color="primary" onClick={() => navigate('/withdraw')} data-testid="withdrawals-new">{t('withdrawals.new')}</Button>
          </div>
        </>
      )}
    </div>
  );
}
