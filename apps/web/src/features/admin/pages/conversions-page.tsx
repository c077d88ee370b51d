import { List, Tabs, Tag } from 'antd-mobile';
import { ReceiptOutline } from 'antd-mobile-icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/empty-state';
import { PageNav } from '../../../components/page-nav';
import { PageError, PageLoading } from '../../../components/page-status';
import { formatDateTime, formatMoney } from '../../../lib/format';
import { useConversions, type AdminConversion, type ConversionStatus } from '../api/conversions';
import { useCurrency } from '../api/currency';
import { LoadMore } from '../../../components/load-more';

const STATUSES: ConversionStatus[] = ['attributed', 'unattributed', 'rejected'];

/** How it was credited (attributed) or why it was not (the others). */
function Outcome({ c }: { c: AdminConversion }) {
  const { t } = useTranslation();
  if (c.status === 'attributed' && c.attributedBy) return <span className="ca-line">{t(`moneyAdmin.conversions.by.${c.attributedBy}`)}</span>;
  if (!c.reason) return null;
  return <span className="ca-line ca-reason">{t(`moneyAdmin.conversions.reason.${c.reason}`, { defaultValue: c.reason })}</span>;
}

function ConversionRow({ c, currency }: { c: AdminConversion; currency: string }) {
  const { t, i18n } = useTranslation();
  const money = (minor: number) => formatMoney(minor, currency, i18n.language);
  const showAmount = c.kind !== 'lead' || c.amount > 0;
  return (
    <List.Item
      data-testid={`conversion-row-${c.id}`}
      description={
        <>
          <span className="ca-line ca-strong">{c.campaignName}</span>
          <span className="ca-line">{c.promoterName ?? t('moneyAdmin.conversions.noPromoter')}</span>
          <Outcome c={c} />
          {c.refundedAmount > 0 ? <span className="ca-line">{t('moneyAdmin.conversions.refunded', { amount: money(c.refundedAmount) })}</span> : null}
          <span className="ca-line">{formatDateTime(c.occurredAt, i18n.language)}</span>
        </>
      }
      extra={showAmount ? <span className="ca-amount">{money(c.kind === 'refund' ? -c.amount : c.amount)}</span> : null}
    >
      <span className="ca-row-title">
        <Tag className="ca-kind-tag" color={c.kind === 'refund' ? 'danger' : c.kind === 'sale' ? 'primary' : 'default'} fill="outline">{t(`moneyAdmin.kind.${c.kind}`)}</Tag>
        <code className="ca-code ca-external-id">{c.externalId}</code>
      </span>
    </List.Item>
  );
}

function ConversionList({ status }: { status: ConversionStatus }) {
  const { t, i18n } = useTranslation();
  const conversions = useConversions(status, i18n.language);
  const { currency } = useCurrency();
  if (conversions.isPending || !currency) return <PageLoading />;
  if (conversions.isError) return <PageError error={conversions.error} onRetry={() => conversions.refetch()} />;
  const items = conversions.data.pages.flatMap((p) => p.items);
  if (items.length === 0) return <EmptyState icon={<ReceiptOutline />} title={t(`moneyAdmin.conversions.empty.${status}`)} body={t('moneyAdmin.conversions.emptyBody')} />;
  return (
    <>
      <List data-testid={`conversions-${status}`}>
        {items.map((c) => <ConversionRow key={c.id} c={c} currency={currency} />)}
      </List>
      <LoadMore query={conversions} />
    </>
  );
}

/** `/admin/conversions` (staff): what the business's server reported, and how each was credited. */
export default function ConversionsPage() {
  const { t } = useTranslation();
  const [status, setStatus] = useState<ConversionStatus>('attributed');
  return (
    <div className="sub-page">
      <PageNav title={t('moneyAdmin.conversions.title')} fallback="/me" />
      <Tabs activeKey={status} onChange={(key) => setStatus(key as ConversionStatus)}>
        {STATUSES.map((s) => <Tabs.Tab key={s} title={<span data-testid={`conversion-tab-${s}`}>{t(`moneyAdmin.conversions.status.${s}`)}</span>} />)}
      </Tabs>
      <ConversionList key={status} status={status} />
    </div>
  );
}
