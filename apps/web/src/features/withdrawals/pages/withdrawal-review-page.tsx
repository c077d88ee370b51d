import { useTranslation } from 'react-i18next';
import { PageNav } from '@/components/page-nav';
import { PageError, PageLoading } from '@/components/page-status';
import { formatDateTime, formatMoney } from '@/lib/format';
import { useParams } from '@/lib/hash-router';
import { useAdminWithdrawal, type AdminWithdrawal, type WithdrawalEvent } from '../api/withdrawal-queue';
import { SharedAccountFlag, WithdrawalActions } from '../components/withdrawal-actions';
import { accountText } from '@/lib/payout-account';
import { WithdrawalStatusTag } from '@/components/withdrawal-status-tag';
import { FactsList } from '@/components/facts-list';

function Facts({ w }: { w: AdminWithdrawal }) {
  const { t, i18n } = useTranslation();
  const money = (minor: number) => formatMoney(minor, w.currency, i18n.language);
  const time = (at: number) => formatDateTime(at, i18n.language);
  const rows: [string, string, string?][] = [
    [t('withdrawalsAdmin.amount'), money(w.amount), 'withdrawal-amount'],
    [t('withdrawalsAdmin.fee'), money(w.fee), 'withdrawal-fee'],
    [t('withdrawalsAdmin.net'), money(w.net), 'withdrawal-net'],
    [t('withdrawalsAdmin.account'), accountText(t, w.account), 'withdrawal-account'],
    [t('withdrawalsAdmin.requested'), time(w.requestedAt)],
  ];
  // The last decision before payment, named for what it was (approved, rejected, failed, cancelled).
  if (w.decidedAt !== null && w.status !== 'requested') rows.push([t(`withdrawalsAdmin.decidedAt.${w.status === 'paid' ? 'approved' : w.status}`), time(w.decidedAt)]);
  if (w.paidAt !== null) rows.push([t('withdrawalsAdmin.paid'), time(w.paidAt)]);
  if (w.payoutReference) rows.push([t('withdrawalsAdmin.referenceLabel'), w.payoutReference, 'withdrawal-payout-reference']);
  if (w.reason) rows.push([t('withdrawalsAdmin.reasonLabel'), w.reason, 'withdrawal-decision-reason']);
  return (
    <FactsList rows={rows} className="withdrawal-facts" />
  );
}

function Timeline({ events, w }: { events: WithdrawalEvent[]; w: AdminWithdrawal }) {
  const { t, i18n } = useTranslation();
  const values = { amount: formatMoney(w.amount, w.currency, i18n.language), net: formatMoney(w.net, w.currency, i18n.language) };
  const ordered = [...events].sort((a, b) => a.at - b.at);
  return (
    <section className="card">
      <h2>{t('withdrawalsAdmin.timeline')}</h2>
      <ol className="withdrawal-timeline" data-testid="withdrawal-timeline">
        {ordered.map((e, i) => (
          <li key={`${e.status}-${e.at}-${i}`} className={`withdrawal-event withdrawal-event-${e.status}`}>
            <span className="withdrawal-event-dot" aria-hidden />
            <span className="withdrawal-event-title">{t(`withdrawalsAdmin.event.${e.status}`, values)}</span>
            <time className="withdrawal-event-time" dateTime={new Date(e.at).toISOString()}>{formatDateTime(e.at, i18n.language)}</time>
            {e.reference ? <span className="withdrawal-event-note">{t('withdrawalsAdmin.referenceValue', { reference: e.reference })}</span> : null}
            {e.reason ? <span className="withdrawal-event-note console-reason">{t('withdrawalsAdmin.reasonValue', { reason: e.reason })}</span> : null}
          </li>
        ))}
      </ol>
    </section>
  );
}

/** `/admin/withdrawals/:id` (staff): one withdrawal, what can happen next, and its timeline. */
export default function WithdrawalPage() {
  const { t, i18n } = useTranslation();
  const { id = '' } = useParams();
  const detail = useAdminWithdrawal(id);
  return (
    <div className="sub-page withdrawal-page">
      <PageNav title={t('withdrawalsAdmin.detailTitle')} fallback="/admin/withdrawals" />
      {detail.isPending ? <PageLoading /> : detail.isError ? <PageError error={detail.error} onRetry={() => detail.refetch()} /> : (() => {
        const { withdrawal: w, events } = detail.data;
        return (
          <>
            <section className="card withdrawal-head" data-testid={`withdrawal-detail-${w.id}`}>
              <div className="console-status-head">
                <h2 className="withdrawal-head-name">{w.promoterName}</h2>
                <WithdrawalStatusTag desk status={w.status} testId="withdrawal-status" />
              </div>
              <p className="withdrawal-head-account list-value">{w.promoterAccount}</p>
              <p className="withdrawal-big">{formatMoney(w.net, w.currency, i18n.language)}</p>
              <p className="withdrawal-big-label">{t('withdrawalsAdmin.net')}</p>
              {w.sharedAccount ? <SharedAccountFlag id={w.id} long /> : null}
              <Facts w={w} />
              <p className="withdrawal-id">{t('withdrawalsAdmin.id')} <code className="console-code">{w.id}</code></p>
              <WithdrawalActions w={w} className="withdrawal-detail-actions" />
            </section>
            <Timeline events={events} w={w} />
          </>
        );
      })()}
    </div>
  );
}
