import { Button, Tag, Toast } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ExplanationSteps } from '@/components/explanation-steps';
import { PageNav } from '@/components/page-nav';
import { PageError, PageLoading } from '@/components/page-status';
import { useCurrency } from '@/lib/currency';
import { formatDateTime, formatMoney, formatNumber } from '@/lib/format';
import { Link, useParams } from '@/lib/hash-router';
import { CommissionStatusTag } from '@/components/commission-status-tag';
import { useAssignConversion, useConversion, useReverseCommission, type ConversionDetail } from '../api/conversions';
import { CorrectionSheet } from '../components/corrections';
import './conversion-page.css';
import { FactsList, type Fact } from '@/components/facts-list';

/** A country code with its name in the reader's language: "FR · France". */
function countryText(code: string, locale: string): string {
  try {
    const name = new Intl.DisplayNames([locale], { type: 'region' }).of(code);
    return name && name !== code ? `${code} · ${name}` : code;
  } catch {
    return code;
  }
}

function Sent({ d, currency }: { d: ConversionDetail; currency: string }) {
  const { t, i18n } = useTranslation();
  const c = d.conversion;
  const sent = d.sent;
  const locale = i18n.language;
  const code = (v: string | null, testId?: string) => (v ? <code className="console-code" data-testid={testId}>{v}</code> : <span className="conversion-none">{t('moneyAdmin.conversions.detail.notSent')}</span>);
  const rows: Fact[] = [
    [t('console.col.externalId'), <code className="console-code">{c.externalId}</code>, 'conversion-external-id'],
    [t('console.col.kind'), t(`conversions.kind.${c.kind}`)],
  ];
  if (c.kind !== 'lead' || c.amount > 0) rows.push([t('console.col.amount'), formatMoney(c.amount, currency, locale), 'conversion-amount']);
  if (c.refundedAmount > 0) rows.push([t('console.col.refunded'), formatMoney(c.refundedAmount, currency, locale)]);
  if (c.refundOf) rows.push([t('moneyAdmin.conversions.detail.refundOf'), <code className="console-code">{c.refundOf}</code>]);
  rows.push(
    [t('moneyAdmin.conversions.detail.occurredAt'), formatDateTime(c.occurredAt, locale)],
    [t('moneyAdmin.conversions.detail.receivedAt'), formatDateTime(c.receivedAt, locale)],
    [t('moneyAdmin.conversions.detail.clickId'), code(sent.clickId, 'conversion-click-id')],
    [t('moneyAdmin.conversions.detail.couponCode'), code(sent.couponCode)],
    [t('moneyAdmin.conversions.detail.linkCode'), code(sent.linkCode, 'conversion-link-code')],
    [t('moneyAdmin.conversions.detail.customerId'), code(sent.customerExternalId)],
  );
  if (sent.country) rows.push([t('moneyAdmin.conversions.detail.country'), countryText(sent.country, locale), 'conversion-country']);
  if (sent.newCustomer !== null) rows.push([t('moneyAdmin.conversions.detail.newCustomer'), sent.newCustomer ? t('moneyAdmin.conversions.detail.yes') : t('moneyAdmin.conversions.detail.no')]);
  if (sent.metadata && Object.keys(sent.metadata).length) {
    rows.push([t('moneyAdmin.conversions.detail.metadata'), (
      <span className="conversion-metadata" data-testid="conversion-metadata">
        {Object.entries(sent.metadata).map(([k, v]) => <span key={k}><code className="console-code">{k}</code> {v}</span>)}
      </span>
    )]);
  }
  return (
    <section className="card" aria-labelledby="conversion-sent">
      <h2 id="conversion-sent">{t('moneyAdmin.conversions.detail.sent')}</h2>
      <FactsList rows={rows} className="conversion-facts" />
    </section>
  );
}

function Lines({ d, currency }: { d: ConversionDetail; currency: string }) {
  const { t, i18n } = useTranslation();
  const money = (minor: number) => formatMoney(minor, currency, i18n.language);
  const items = d.sent.items;
  if (!items?.length) return null;
  const refund = d.conversion.kind === 'refund';
  const earned = !refund && d.commissions.length > 0;
  return (
    <section className="card" aria-labelledby="conversion-lines">
      <h2 id="conversion-lines">{t('moneyAdmin.conversions.detail.items')}</h2>
      <div className="conversion-lines-scroll">
        <table className="conversion-lines" data-testid="conversion-lines">
          <thead>
            <tr>
              <th scope="col">{t('moneyAdmin.conversions.detail.sku')}</th>
              {!refund ? <th scope="col">{t('moneyAdmin.conversions.detail.category')}</th> : null}
              {!refund ? <th scope="col" className="conversion-num">{t('moneyAdmin.conversions.detail.quantity')}</th> : null}
              <th scope="col" className="conversion-num">{refund ? t('moneyAdmin.conversions.detail.refundedAmount') : t('moneyAdmin.conversions.detail.lineAmount')}</th>
              {earned ? <th scope="col" className="conversion-num">{t('moneyAdmin.conversions.detail.lineCommission')}</th> : null}
            </tr>
          </thead>
          <tbody>
            {items.map((l) => (
              <tr key={l.sku}>
                <td><code className="console-code">{l.sku}</code></td>
                {!refund ? <td>{l.category ?? ''}</td> : null}
                {!refund ? <td className="conversion-num">{formatNumber(l.quantity, i18n.language)}</td> : null}
                <td className="conversion-num">{money(l.amount)}</td>
                {earned ? <td className="conversion-num">{money(l.commission)}</td> : null}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function Why({ steps }: { steps: ConversionDetail['explanation'] }) {
  const { t } = useTranslation();
  return (
    <section className="card" aria-labelledby="conversion-why">
      <h2 id="conversion-why">{t('moneyAdmin.conversions.detail.explanation')}</h2>
      {steps.length ? <ExplanationSteps steps={steps} testId="conversion-explanation" /> : <p className="hint" data-testid="conversion-explanation-empty">{t('moneyAdmin.conversions.detail.noExplanation')}</p>}
    </section>
  );
}

type Commission = ConversionDetail['commissions'][number];

/** Every commission ever made for it (the reversed ones of earlier attributions kept), with Reverse on a live one. */
function Commissions({ d, currency, onReverse }: { d: ConversionDetail; currency: string; onReverse: (c: Commission) => void }) {
  const { t, i18n } = useTranslation();
  const money = (minor: number) => formatMoney(minor, currency, i18n.language);
  if (d.conversion.kind === 'refund') return null;
  return (
    <section className="card" aria-labelledby="conversion-commissions">
      <h2 id="conversion-commissions">{t('corrections.commissions.title')}</h2>
      {d.commissions.length === 0 ? <p className="hint" data-testid="conversion-commissions-empty">{t('corrections.commissions.none')}</p> : (
        <ul className="corr-rows" data-testid="conversion-commissions">
          {d.commissions.map((c) => (
            <li key={c.id} className="corr-row" data-testid={`conversion-commission-${c.id}`}>
              <span className="corr-row-main">
                <span className="corr-row-title">
                  <Link to={`/admin/promoters/${encodeURIComponent(c.promoterId)}`}>{c.promoterName}</Link>
                </span>
                <span className="corr-row-meta">
                  {t(c.level === 1 ? 'corrections.commissions.level1' : 'corrections.commissions.levelN', { level: c.level })}
                  {' · '}
                  {c.assignment === 0 ? t('corrections.commissions.asRecorded') : t('corrections.commissions.assignment', { n: c.assignment })}
                </span>
                {c.reversedAmount > 0 ? <span className="corr-row-meta" data-testid={`conversion-commission-reversed-${c.id}`}>{t('corrections.commissions.reversed', { amount: money(c.reversedAmount) })}</span> : null}
                {c.reason ? <span className="corr-row-meta console-reason">{c.reason}</span> : null}
              </span>
              <span className="corr-row-end">
                <CommissionStatusTag status={c.status} desk testId={`conversion-commission-status-${c.id}`} />
                <span className="corr-row-amount" data-testid={`conversion-commission-amount-${c.id}`}>{c.reversedAmount > 0 && c.reversedAmount < c.amount ? <><s>{money(c.amount)}</s> {money(c.amount - c.reversedAmount)}</> : money(c.amount)}</span>
                {c.status === 'pending' || c.status === 'approved' ? (
                  <Button size="small" color="danger" fill="outline" onClick={() => onReverse(c)} data-testid={`reverse-commission-${c.id}`}>{t('corrections.reverse.button')}</Button>
                ) : null}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The refunds of a sale. */
function Refunds({ d, currency }: { d: ConversionDetail; currency: string }) {
  const { t, i18n } = useTranslation();
  if (d.refunds.length === 0) return null;
  return (
    <section className="card" aria-labelledby="conversion-refunds">
      <h2 id="conversion-refunds">{t('corrections.refunds.title')}</h2>
      <ul className="corr-rows" data-testid="conversion-refunds">
        {d.refunds.map((r) => (
          <li key={r.id} className="corr-row">
            <span className="corr-row-main">
              <Link className="corr-row-title" to={`/admin/conversions/${encodeURIComponent(r.id)}`}><code className="console-code">{r.externalId}</code></Link>
              <span className="corr-row-meta">{formatDateTime(r.occurredAt, i18n.language)}</span>
            </span>
            <span className="corr-row-end"><span className="corr-row-amount">{formatMoney(-r.amount, currency, i18n.language)}</span></span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** A sale or lead can be credited to a promoter by staff: unattributed, rejected, or credited to the wrong one. */
const assignable = (c: ConversionDetail['conversion']) => c.kind !== 'refund';

function Detail({ d, currency }: { d: ConversionDetail; currency: string }) {
  const { t, i18n } = useTranslation();
  const c = d.conversion;
  const [assigning, setAssigning] = useState(false);
  const [reversing, setReversing] = useState<Commission | null>(null);
  const assign = useAssignConversion();
  const reverse = useReverseCommission();
  const money = (minor: number) => formatMoney(minor, currency, i18n.language);
  const outcome = c.status === 'attributed' && c.attributedBy ? t(`conversions.attributedBy.${c.attributedBy}`) : c.reason ? t(`moneyAdmin.conversions.reason.${c.reason}`, { defaultValue: c.reason }) : null;
  const signed = c.kind === 'refund' ? -c.amount : c.amount;
  return (
    <>
      <section className="card conversion-head" data-testid={`conversion-detail-${c.id}`}>
        <div className="conversion-head-row">
          <Tag className="console-kind-tag" color={c.kind === 'refund' ? 'danger' : c.kind === 'sale' ? 'primary' : 'default'} fill="outline">{t(`conversions.kind.${c.kind}`)}</Tag>
          <code className="console-code conversion-external-id">{c.externalId}</code>
        </div>
        {c.kind !== 'lead' || c.amount > 0 ? <p className="conversion-big">{formatMoney(signed, currency, i18n.language)}</p> : null}
        {outcome ? <p className={c.status === 'attributed' ? 'conversion-outcome' : 'conversion-outcome console-reason'} data-testid="conversion-outcome">{outcome}</p> : null}
        <p className="conversion-who">
          <span>{c.campaignName}</span>
          <span aria-hidden> · </span>
          {c.promoterId && c.promoterName ? <Link to={`/admin/promoters/${encodeURIComponent(c.promoterId)}`} data-testid="conversion-promoter">{c.promoterName}</Link> : <span data-testid="conversion-promoter">{c.promoterName ?? t('moneyAdmin.conversions.noPromoter')}</span>}
        </p>
        {assignable(c) ? (
          <div className="corr-actions">
            <Button color="primary" fill={c.status === 'attributed' ? 'outline' : 'solid'} onClick={() => setAssigning(true)} data-testid="conversion-assign">
              {c.status === 'attributed' ? t('corrections.assign.reassignButton') : t('corrections.assign.button')}
            </Button>
          </div>
        ) : null}
      </section>
      <Why steps={d.explanation} />
      <Commissions d={d} currency={currency} onReverse={setReversing} />
      <Refunds d={d} currency={currency} />
      <Lines d={d} currency={currency} />
      <Sent d={d} currency={currency} />
      <CorrectionSheet
        id="assign-conversion"
        visible={assigning}
        title={c.status === 'attributed' ? t('corrections.assign.reassignTitle') : t('corrections.assign.title')}
        intro={t(`corrections.assign.intro.${c.kind === 'lead' ? 'lead' : 'sale'}`)}
        warning={c.status === 'attributed' && c.promoterName ? t('corrections.assign.warning', { name: c.promoterName }) : undefined}
        action={t('corrections.assign.submit')}
        pickPromoter={{ campaignId: c.campaignId, exclude: c.promoterId }}
        onClose={() => setAssigning(false)}
        run={async ({ reason, promoter }) => {
          await assign.mutateAsync({ id: c.id, promoterId: promoter!.id, reason });
          Toast.show({ icon: 'success', content: t('corrections.assign.done', { name: promoter!.name }) });
        }}
      />
      <CorrectionSheet
        id="reverse-commission"
        visible={reversing !== null}
        title={t('corrections.reverse.title', { name: reversing?.promoterName ?? '' })}
        intro={t('corrections.reverse.intro', { amount: reversing ? money(reversing.amount - reversing.reversedAmount) : '' })}
        warning={reversing ? t(reversing.status === 'approved' ? 'corrections.reverse.warningApproved' : 'corrections.reverse.warningPending') : undefined}
        action={t('corrections.reverse.submit')}
        danger
        onClose={() => setReversing(null)}
        run={async ({ reason }) => {
          await reverse.mutateAsync({ id: reversing!.id, reason });
          Toast.show({ icon: 'success', content: t('corrections.reverse.done') });
        }}
      />
    </>
  );
}

/** `/admin/conversions/:id` (staff): what the shop sent, its lines, and how it was decided. */
export default function ConversionPage() {
  const { t, i18n } = useTranslation();
  const { id = '' } = useParams();
  const conversion = useConversion(id, i18n.language);
  const { currency } = useCurrency();
  return (
    <div className="sub-page conversion-page">
      <PageNav title={t('moneyAdmin.conversions.detail.title')} fallback="/admin/conversions" />
      {conversion.isError ? <PageError error={conversion.error} onRetry={() => conversion.refetch()} /> : conversion.isPending || !currency ? <PageLoading /> : <Detail key={id} d={conversion.data} currency={currency} />}
    </div>
  );
}
