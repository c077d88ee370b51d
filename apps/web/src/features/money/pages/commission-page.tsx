import { List } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { PageNav } from '@/components/page-nav';
import { PageError, PageLoading } from '@/components/page-status';
import { StatusTimeline } from '@/components/status-timeline';
import { formatDate, formatDateTime, formatMoney } from '@/lib/format';
import { Link, useParams } from '@/lib/hash-router';
import { ExplanationSteps } from '@/components/explanation-steps';
import { useCommission, useCommissionExplanation, type CommissionDetail } from '../api/wallet';
import { Money } from '../components/money';
import { CommissionStatusTag } from '@/components/commission-status-tag';
import { commissionTitle, ruleText } from '../lib/describe';

/** "Why this amount": how the sale was decided, step by step (left out for sales recorded before explanations were kept). */
function Why({ id }: { id: string }) {
  const { t, i18n } = useTranslation();
  const explanation = useCommissionExplanation(id, i18n.language);
  if (!explanation.data?.steps.length) return null;
  return (
    <section className="card commission-why" aria-labelledby="commission-why">
      <h2 id="commission-why">{t('commissions.why')}</h2>
      <ExplanationSteps steps={explanation.data.steps} testId="commission-explanation" />
    </section>
  );
}

function Detail({ data }: { data: CommissionDetail }) {
  const { t, i18n } = useTranslation();
  const { commission: c, conversion, events, currency } = data;
  const money = (minor: number) => formatMoney(minor, currency, i18n.language);
  const left = c.amount - c.reversedAmount;
  return (
    <>
      <section className="card commission-head">
        <p className="commission-kind">{commissionTitle(c, t)} · {c.campaignName}</p>
        <p className="commission-big" data-testid="commission-amount"><Money minor={left} currency={currency} locale={i18n.language} /></p>
        <CommissionStatusTag status={c.status} />
        {c.reversedAmount > 0 ? <p className="hint">{t('commissions.reversedPart', { amount: money(c.reversedAmount), original: money(c.amount) })}</p> : null}
        <p className="availability" data-testid="commission-availability">
          {c.status === 'pending'
            ? t('commissions.availableOn', { date: formatDate(c.availableAt, i18n.language) })
            : c.status === 'approved'
              ? t('commissions.availableSince', { date: formatDate(c.decidedAt ?? c.availableAt, i18n.language) })
              : c.status === 'rejected'
                ? t('commissions.rejectedBecause', { reason: c.reason ?? '—' })
                : t('commissions.reversedAll')}
        </p>
      </section>
      {conversion ? (
        <List className="info-list" header={t('commissions.whatWasSold')}>
          <List.Item extra={<span className="list-value">{t(`conversions.kind.${conversion.kind}`)}</span>}>{t('commissions.type')}</List.Item>
          {c.sourceName ? <List.Item extra={<span className="list-value">{c.sourceName}</span>}>{t('commissions.teamMember')}</List.Item> : null}
          <List.Item extra={<span className="list-value" data-testid="commission-order">{conversion.externalId}</span>}>{t('commissions.order')}</List.Item>
          {conversion.kind === 'sale' ? <List.Item extra={<span className="list-value">{money(conversion.amount)}</span>}>{t('commissions.orderAmount')}</List.Item> : null}
          {conversion.refundedAmount > 0 ? <List.Item extra={<span className="list-value">{money(conversion.refundedAmount)}</span>}>{t('commissions.refunded')}</List.Item> : null}
          <List.Item extra={<span className="list-value">{formatDateTime(conversion.occurredAt, i18n.language)}</span>}>{t('commissions.when')}</List.Item>
          {c.linkCode && c.linkId ? (
            <List.Item extra={<Link to={`/links/${encodeURIComponent(c.linkId)}`} className="list-link">{c.linkCode}</Link>}>{t('commissions.link')}</List.Item>
          ) : null}
          {conversion.attributedBy ? <List.Item extra={<span className="list-value">{t(`conversions.attributedBy.${conversion.attributedBy}`)}</span>}>{t('commissions.attributedBy')}</List.Item> : null}
          {c.recurring ? (
            <List.Item extra={<span className="list-value" data-testid="commission-recurring">{c.recurring.of === null ? t('commissions.recurring.lifetime', { month: c.recurring.month }) : t('commissions.recurring.months', { month: c.recurring.month, of: c.recurring.of })}</span>}>{t('commissions.recurring.title')}</List.Item>
          ) : null}
          <List.Item description={ruleText(c, currency, t, i18n.language)} data-testid="commission-rule">{t('commissions.ruleApplied')}</List.Item>
        </List>
      ) : (
        <List className="info-list">
          <List.Item description={ruleText(c, currency, t, i18n.language)} data-testid="commission-rule">{t('commissions.ruleApplied')}</List.Item>
        </List>
      )}
      <Why id={c.id} />
      <StatusTimeline
        title={t('commissions.timeline')}
        testId="commission-timeline"
        done={events.map((e, i) => ({
          key: `${e.status}-${e.at}-${i}`,
          title: t(`commissions.event.${e.status}`, { amount: money(e.amount) }),
          description: <>{formatDateTime(e.at, i18n.language)}{e.reason && e.reason !== 'refund' ? <><br />{e.reason}</> : null}</>,
        }))}
        upcoming={c.status === 'pending' ? [{ key: 'upcoming', title: t('commissions.event.upcoming', { date: formatDate(c.availableAt, i18n.language) }) }] : []}
      />
    </>
  );
}

export default function CommissionPage() {
  const { t, i18n } = useTranslation();
  const { id = '' } = useParams();
  const detail = useCommission(id, i18n.language);
  return (
    <div className="sub-page">
      <PageNav title={t('commissions.detail')} fallback="/commissions" />
      {detail.isPending ? <PageLoading /> : detail.isError ? <PageError error={detail.error} onRetry={() => detail.refetch()} /> : <Detail data={detail.data} />}
    </div>
  );
}
