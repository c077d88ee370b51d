import { Button, Dialog, List, Toast } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { canMoveWithdrawal, shownPayoutNumber, withdrawalCanReach } from '@pa/shared/rules';
import { PageNav } from '@/components/page-nav';
import { PageError, PageLoading } from '@/components/page-status';
import { StatusTimeline } from '@/components/status-timeline';
import { errorText } from '@/lib/errors';
import { formatDate, formatDateTime, formatMoney } from '@/lib/format';
import { useParams } from '@/lib/hash-router';
import { useCancelWithdrawal, useWithdrawal, type WithdrawalDetail } from '../api/withdrawals';
import { MethodIcon } from '../components/method-icon';
import { WithdrawalStatusTag } from '@/components/withdrawal-status-tag';

function Detail({ data }: { data: WithdrawalDetail }) {
  const { t, i18n } = useTranslation();
  const cancel = useCancelWithdrawal();
  const { withdrawal: w, events } = data;
  const locale = i18n.language;
  const money = (minor: number) => formatMoney(minor, w.currency, locale);

  const onCancel = async () => {
    const ok = await Dialog.confirm({
      title: t('withdrawals.cancelTitle'),
      content: t('withdrawals.cancelConfirm', { amount: money(w.amount) }),
      confirmText: t('withdrawals.cancelYes'),
      cancelText: t('withdrawals.cancelNo'),
    });
    if (!ok) return;
    try {
      await cancel.mutateAsync(w.id);
      Toast.show({ icon: 'success', content: t('withdrawals.cancelled') });
    } catch (error) {
      Toast.show({ content: errorText(t, error) });
    }
  };

  return (
    <>
      <section className="card commission-head">
        <p className="commission-kind">{t('withdrawals.detailKind')}</p>
        <p className="commission-big money" data-testid="withdrawal-amount">{money(w.amount)}</p>
        <WithdrawalStatusTag status={w.status} />
        <p className="availability" data-testid="withdrawal-state">
          {t(`withdrawals.explain.${w.status}`, { amount: money(w.amount), net: money(w.net), date: formatDate(w.paidAt ?? w.decidedAt ?? w.requestedAt, locale) })}
        </p>
        {canMoveWithdrawal(w.status, 'cancel') ? (
          <Button block color="danger" fill="outline" className="withdrawal-cancel" loading={cancel.isPending} onClick={onCancel} data-testid="withdrawal-cancel">
            {t('withdrawals.cancel')}
          </Button>
        ) : null}
      </section>
      <List className="info-list" header={t('withdrawals.details')}>
        <List.Item extra={<span className="list-value money">{money(w.amount)}</span>}>{t('withdrawals.amount')}</List.Item>
        <List.Item extra={<span className="list-value money" data-testid="withdrawal-fee">{money(w.fee)}</span>}>{t('withdrawals.fee')}</List.Item>
        <List.Item extra={<strong className="money money-strong" data-testid="withdrawal-net">{money(w.net)}</strong>}>{t('withdrawals.net')}</List.Item>
        <List.Item
          prefix={<MethodIcon method={w.account.method} />}
          description={w.account.holderName}
          extra={<span className="list-value" data-testid="withdrawal-account">{shownPayoutNumber(w.account.last4)}</span>}
        >
          {t(`payoutAccounts.method.${w.account.method}`)}
        </List.Item>
        <List.Item extra={<span className="list-value">{formatDateTime(w.requestedAt, locale)}</span>}>{t('withdrawals.requestedAt')}</List.Item>
        {w.paidAt ? <List.Item extra={<span className="list-value">{formatDateTime(w.paidAt, locale)}</span>}>{t('withdrawals.paidAt')}</List.Item> : null}
        {w.payoutReference ? <List.Item extra={<span className="list-value withdrawal-reference" data-testid="withdrawal-reference">{w.payoutReference}</span>}>{t('withdrawals.reference')}</List.Item> : null}
        {w.reason ? <List.Item description={<span data-testid="withdrawal-reason">{w.reason}</span>}>{t('withdrawals.reason')}</List.Item> : null}
      </List>
      <StatusTimeline
        title={t('withdrawals.timeline')}
        testId="withdrawal-timeline"
        done={events.map((e, i) => ({
          key: `${e.status}-${e.at}-${i}`,
          status: e.status === 'failed' || e.status === 'rejected' ? 'error' : 'finish',
          title: t(`withdrawals.event.${e.status}`, { amount: money(w.amount), net: money(w.net) }),
          description: (
            <>
              {formatDateTime(e.at, locale)}
              {e.reference ? <><br />{t('withdrawals.referenceLine', { reference: e.reference })}</> : null}
              {e.reason ? <><br />{t('withdrawals.reasonLine', { reason: e.reason })}</> : null}
            </>
          ),
        }))}
        upcoming={[
          // Still to come, by the shared transitions: an operator's review (approve), then the payment.
          ...(canMoveWithdrawal(w.status, 'approve') ? [{ key: 'review', title: t('withdrawals.event.nextReview') }] : []),
          ...(withdrawalCanReach(w.status, 'paid') ? [{ key: 'payment', title: t('withdrawals.event.nextPayment', { net: money(w.net) }) }] : []),
        ]}
      />
    </>
  );
}

export default function WithdrawalPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const detail = useWithdrawal(id);
  return (
    <div className="sub-page">
      <PageNav title={t('withdrawals.detail')} fallback="/withdrawals" />
      {detail.isPending ? <PageLoading /> : detail.isError ? <PageError error={detail.error} onRetry={() => detail.refetch()} /> : <Detail data={detail.data} />}
    </div>
  );
}
