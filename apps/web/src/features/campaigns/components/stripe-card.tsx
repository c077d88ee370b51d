import { Button, Toast } from 'antd-mobile';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyField } from '@/components/copy-field';
import { Field, TextInput } from '@/components/field';
import { PageError } from '@/components/page-status';
import { ApiError } from '@/lib/api-client';
import { errorText } from '@/lib/errors';
import { formatDateTime } from '@/lib/format';
import { useSetStripeSecret, useStripe } from '../api/stripe';
import { stripeState } from '../lib/stripe-state';
import './stripe-card.css';

/** The events to choose in Stripe's dashboard for this endpoint (docs/integrations.md). */
const STRIPE_EVENTS = ['checkout.session.completed', 'invoice.paid', 'invoice_payment.paid', 'charge.refunded', 'customer.subscription.deleted'];
/** Outcome details the console words (the rest, a rule's error code, is shown as it is). */
const DETAILS = ['already_recorded', 'currency_mismatch', 'invalid_object', 'not_paid', 'no_amount', 'sale_unknown', 'already_refunded', 'binding_ended', 'no_binding', 'type_not_handled', 'payment_linked'];

/**
 * A campaign's Stripe connection: the address to give Stripe, the events to pick, the signing
 * secret (admins set it; it is never shown again), and what came of the latest events.
 */
export function StripeCard({ campaignId, canEdit }: { campaignId: string; canEdit: boolean }) {
  const { t, i18n } = useTranslation();
  const status = useStripe(campaignId);
  const save = useSetStripeSecret(campaignId);
  const [secret, setSecret] = useState('');
  const [error, setError] = useState<string | undefined>();
  const state = status.data ? stripeState(status.data) : null;
  const url = new URL(`api/v1/integrations/stripe/${encodeURIComponent(campaignId)}`, document.baseURI).href;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    if (!secret.trim()) return setError('required');
    try {
      await save.mutateAsync({ signingSecret: secret.trim() });
      setSecret('');
      Toast.show({ icon: 'success', content: t('integrations.stripe.saved') });
    } catch (e) {
      if (e instanceof ApiError && e.fields.signingSecret) setError(e.fields.signingSecret);
      else Toast.show({ content: errorText(t, e) });
    }
  };

  const detailText = (detail: string) => {
    if (DETAILS.includes(detail)) return t(`integrations.stripe.detail.${detail}`);
    if (detail.startsWith('mode_')) return t('integrations.stripe.detail.mode', { mode: detail.slice(5) });
    // A rule of the conversions API refused it: its catalogue code in words, then the field codes.
    const [code, ...fields] = detail.split(' ');
    return i18n.exists(`errors.${code}`) ? [t(`errors.${code}`), ...fields].join(' ') : detail;
  };

  return (
    <section className="card stripe-card" data-testid="stripe-card">
      <h2>{t('integrations.stripe.title')}</h2>
      {status.isError ? <PageError error={status.error} onRetry={() => status.refetch()} /> : (
        <p className={`stripe-state${state === 'receiving' ? ' stripe-on' : state === 'waiting' ? ' stripe-wait' : ''}`} data-testid="stripe-state">
          {state === 'receiving' || state === 'waiting'
            ? t(state === 'receiving' ? 'integrations.stripe.connected' : 'integrations.stripe.waiting', { date: formatDateTime(status.data!.updatedAt!, i18n.language) })
            : state === 'notConnected' ? t('integrations.stripe.notConnected') : '\u00a0'}
        </p>
      )}
      <ol className="stripe-steps">
        <li>{t('integrations.stripe.step1')}<CopyField label={t('integrations.stripe.endpoint')} value={url} buttonLabel={t('app.copy')} testId="stripe-endpoint" /></li>
        <li>{t('integrations.stripe.step2')}<span className="stripe-events">{STRIPE_EVENTS.map((e) => <code key={e} className="console-code">{e}</code>)}</span></li>
        <li>{t('integrations.stripe.step3')}</li>
      </ol>
      {canEdit ? (
        <form className="stripe-form" onSubmit={onSubmit} noValidate>
          <Field id="stripe-secret" label={t('integrations.stripe.secret')} error={error} help={t('integrations.stripe.secretHelp')}>
            <TextInput id="stripe-secret" data-testid="stripe-secret" type="password" autoComplete="off" spellCheck={false} value={secret} onChange={(v) => { setSecret(v); setError(undefined); }} invalid={!!error} placeholder="whsec_…" />
          </Field>
          <Button type="submit" color="primary" loading={save.isPending} data-testid="stripe-save">{status.data?.configured ? t('integrations.stripe.replace') : t('integrations.stripe.save')}</Button>
        </form>
      ) : null}
      <h3 className="stripe-events-title">{t('integrations.stripe.events')}</h3>
      {status.data && status.data.events.length === 0 ? <p className="hint" data-testid="stripe-no-events">{t('integrations.stripe.noEvents')}</p> : null}
      {status.data && status.data.events.length > 0 ? (
        <ul className="stripe-list" data-testid="stripe-events">
          {status.data.events.map((e) => (
            <li key={e.eventId} className="stripe-event">
              <span className={`stripe-outcome stripe-outcome-${e.outcome}`}>{t(`integrations.stripe.outcome.${e.outcome}`)}</span>
              <span className="stripe-event-main">
                <code className="console-code">{e.type}</code>
                <span className="stripe-event-sub">{formatDateTime(e.receivedAt, i18n.language)}{e.detail ? ` · ${detailText(e.detail)}` : ''}</span>
              </span>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
