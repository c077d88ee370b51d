/**
 * `#/admin/webhooks/:id` (admins): one endpoint — its address, events and state; send a test,
 * change it, disable or enable it, rotate its secret (the new one shown once, the old one still
 * signing for 24 h), delete it — and its deliveries, newest first, each with every attempt and a
 * retry once it has ended. The list asks again every 2 s while a delivery is pending.
 */
import { Button, Dialog, Toast } from 'antd-mobile';
import { SendOutline } from 'antd-mobile-icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DateTimeText } from '@/components/date-time-text';
import { DataTable, type Column } from '@/components/data-table';
import { EmptyState } from '@/components/empty-state';
import { LoadMore } from '@/components/load-more';
import { PageNav } from '@/components/page-nav';
import { PageError, PageLoading } from '@/components/page-status';
import { useDesk } from '@/lib/desk';
import { errorText } from '@/lib/errors';
import { formatDateTime, numberFormat } from '@/lib/format';
import { navigate, useParams } from '@/lib/hash-router';
import {
  useDeleteWebhook, useDeliveries, useRetryDelivery, useRotateWebhookSecret, useTestWebhook, useUpdateWebhook, useWebhooks,
  type WebhookDelivery, type WebhookEndpoint,
} from '../api/webhooks';
import { Sheet } from '@/components/sheet';
import { EventName, WebhookForm, WebhookSecret } from '../components/webhook-form';
import { DeliveryStatus, EndpointStatus } from '../components/webhook-status';
import { canRetry, groupEvents, lastAttempt, responseKind } from '../lib/webhook-events';
import '@/components/desk.css';
import '../components/webhooks.css';

type Attempt = WebhookDelivery['attempts'][number];

function useDuration() {
  const { i18n } = useTranslation();
  const format = numberFormat(i18n.language, { style: 'unit', unit: 'millisecond', unitDisplay: 'short' });
  return (ms: number) => format.format(ms);
}

function Code({ attempt }: { attempt: Attempt | null }) {
  const { t } = useTranslation();
  if (!attempt) return <span className="data-table-muted">—</span>;
  const kind = responseKind(attempt.statusCode);
  return <span className={`webhook-code-tag webhook-code-${kind}`}>{attempt.statusCode ?? t('webhooksAdmin.noAnswer')}</span>;
}

/** Every attempt of a delivery, opened on demand. */
function Attempts({ delivery }: { delivery: WebhookDelivery }) {
  const { t, i18n } = useTranslation();
  const duration = useDuration();
  if (delivery.attempts.length === 0) return <span className="data-table-muted">{t('webhooksAdmin.noAttempt')}</span>;
  return (
    <details className="webhook-attempts" data-testid={`delivery-attempts-${delivery.id}`}>
      <summary>{t('webhooksAdmin.attempts', { count: delivery.attempts.length })}</summary>
      <ol>
        {delivery.attempts.map((a, i) => (
          <li key={`${a.at}-${i}`}>
            <span className="data-table-nowrap">{formatDateTime(a.at, i18n.language)}</span>
            <Code attempt={a} />
            <span className="data-table-nowrap">{duration(a.durationMs)}</span>
            {a.error ? <code className="webhook-error">{a.error}</code> : null}
          </li>
        ))}
      </ol>
    </details>
  );
}

/** Offered once a delivery has ended, while its endpoint is enabled (a disabled one is sent nothing). */
function RetryButton({ delivery, endpoint }: { delivery: WebhookDelivery; endpoint: WebhookEndpoint }) {
  const { t } = useTranslation();
  const retry = useRetryDelivery(endpoint.id);
  if (!canRetry(delivery) || endpoint.status !== 'enabled') return null;
  return (
    <Button
      size="small"
      fill="outline"
      loading={retry.isPending}
      onClick={async () => {
        try {
          await retry.mutateAsync(delivery.id);
          Toast.show({ icon: 'success', content: t('webhooksAdmin.retried') });
        } catch (error) {
          Toast.show({ content: errorText(t, error) });
        }
      }}
      data-testid={`delivery-retry-${delivery.id}`}
    >
      {t('webhooksAdmin.retry')}
    </Button>
  );
}

function Deliveries({ endpoint }: { endpoint: WebhookEndpoint }) {
  const { t, i18n } = useTranslation();
  const desk = useDesk();
  const duration = useDuration();
  const deliveries = useDeliveries(endpoint.id);
  const rows = deliveries.data?.pages.flatMap((p) => p.items) ?? [];
  const empty = <EmptyState icon={<SendOutline />} title={t('webhooksAdmin.noDeliveries')} body={t('webhooksAdmin.noDeliveriesBody')} />;
  const next = (d: WebhookDelivery) => (d.status === 'pending' && d.nextAttemptAt !== null ? <span className="webhook-next">{t('webhooksAdmin.nextAttempt', { time: formatDateTime(d.nextAttemptAt, i18n.language) })}</span> : null);
  const error = (d: WebhookDelivery) => {
    const e = lastAttempt(d)?.error;
    return e ? <code className="webhook-error">{e}</code> : <span className="data-table-muted">—</span>;
  };

  let list;
  if (desk) {
    const columns: Column<WebhookDelivery>[] = [
      { key: 'event', title: t('webhooksAdmin.col.event'), render: (d) => <EventName event={d.type} /> },
      { key: 'status', title: t('console.col.status'), render: (d) => <><DeliveryStatus delivery={d} />{next(d)}</> },
      { key: 'code', title: t('webhooksAdmin.col.response'), render: (d) => <Code attempt={lastAttempt(d)} /> },
      { key: 'time', title: t('webhooksAdmin.col.time'), render: (d) => <DateTimeText at={lastAttempt(d)?.at ?? d.createdAt} locale={i18n.language} /> },
      { key: 'duration', priority: 'low', title: t('webhooksAdmin.col.duration'), align: 'end', render: (d) => { const a = lastAttempt(d); return a ? <span className="data-table-nowrap">{duration(a.durationMs)}</span> : <span className="data-table-muted">—</span>; } },
      { key: 'error', title: t('webhooksAdmin.col.error'), render: error },
      { key: 'attempts', title: t('webhooksAdmin.col.attempts'), render: (d) => <Attempts delivery={d} /> },
      { key: 'actions', title: <span className="visually-hidden">{t('console.col.actions')}</span>, align: 'end', render: (d) => <span className="data-table-actions"><RetryButton delivery={d} endpoint={endpoint} /></span> },
    ];
    list = deliveries.isError ? <PageError error={deliveries.error} onRetry={() => void deliveries.refetch()} /> : (
      <DataTable
        data-testid="deliveries"
        caption={t('webhooksAdmin.deliveries')}
        rows={rows}
        rowKey={(d) => d.id}
        rowTestId={(d) => `delivery-${d.id}`}
        columns={columns}
        loading={deliveries.isPending}
        pagination={deliveries}
        empty={empty}
      />
    );
  } else if (deliveries.isPending) {
    list = <PageLoading />;
  } else if (deliveries.isError) {
    list = <PageError error={deliveries.error} onRetry={() => void deliveries.refetch()} />;
  } else if (rows.length === 0) {
    list = empty;
  } else {
    list = (
      <>
        <ul className="webhook-cards" data-testid="deliveries">
          {rows.map((d) => {
            const a = lastAttempt(d);
            return (
              <li key={d.id} className="webhook-card" data-testid={`delivery-${d.id}`}>
                <div className="webhook-card-head">
                  <EventName event={d.type} />
                  <DeliveryStatus delivery={d} />
                </div>
                <span className="webhook-card-meta">
                  <Code attempt={a} />
                  <span>{formatDateTime(a?.at ?? d.createdAt, i18n.language)}</span>
                  {a ? <span>{duration(a.durationMs)}</span> : null}
                </span>
                {next(d)}
                {a?.error ? error(d) : null}
                <div className="webhook-card-foot">
                  <Attempts delivery={d} />
                  <RetryButton delivery={d} endpoint={endpoint} />
                </div>
              </li>
            );
          })}
        </ul>
        <LoadMore query={deliveries} />
      </>
    );
  }

  return (
    <section className="webhook-deliveries" aria-labelledby="webhook-deliveries-title">
      <div className="webhook-section-head">
        <h2 id="webhook-deliveries-title">{t('webhooksAdmin.deliveries')}</h2>
        <p className="hint">{t('webhooksAdmin.deliveriesHint')}</p>
      </div>
      {list}
    </section>
  );
}

type Shown = { kind: 'edit' } | { kind: 'secret'; secret: string } | null;

function Actions({ endpoint, onShow }: { endpoint: WebhookEndpoint; onShow: (s: Shown) => void }) {
  const { t } = useTranslation();
  const test = useTestWebhook();
  const update = useUpdateWebhook();
  const rotate = useRotateWebhookSecret();
  const remove = useDeleteWebhook();
  const enabled = endpoint.status === 'enabled';
  const run = async (call: () => Promise<unknown>, done?: string) => {
    try {
      await call();
      if (done) Toast.show({ icon: 'success', content: done });
    } catch (error) {
      await Dialog.alert({ content: errorText(t, error), confirmText: t('app.confirm') });
    }
  };
  const confirm = (title: string, content: string, confirmText: string) => Dialog.confirm({ title, content, confirmText, cancelText: t('app.cancel') });

  return (
    <div className="webhook-actions">
      <Button color="primary" disabled={!enabled} loading={test.isPending} onClick={() => void run(() => test.mutateAsync(endpoint.id), t('webhooksAdmin.testSent'))} data-testid="webhook-test">
        {t('webhooksAdmin.test')}
      </Button>
      <Button fill="outline" onClick={() => onShow({ kind: 'edit' })} data-testid="webhook-edit">{t('webhooksAdmin.edit')}</Button>
      <Button
        fill="outline"
        loading={update.isPending}
        onClick={async () => {
          if (enabled && !(await confirm(t('webhooksAdmin.confirm.disableTitle'), t('webhooksAdmin.confirm.disable'), t('webhooksAdmin.disable')))) return;
          await run(() => update.mutateAsync({ id: endpoint.id, status: enabled ? 'disabled' : 'enabled' }), t(enabled ? 'webhooksAdmin.disabled' : 'webhooksAdmin.enabled'));
        }}
        data-testid={enabled ? 'webhook-disable' : 'webhook-enable'}
      >
        {t(enabled ? 'webhooksAdmin.disable' : 'webhooksAdmin.enable')}
      </Button>
      <Button
        fill="outline"
        loading={rotate.isPending}
        onClick={async () => {
          if (!(await confirm(t('webhooksAdmin.confirm.rotateTitle'), t('webhooksAdmin.confirm.rotate'), t('webhooksAdmin.rotate')))) return;
          await run(async () => onShow({ kind: 'secret', secret: (await rotate.mutateAsync(endpoint.id)).secret }));
        }}
        data-testid="webhook-rotate"
      >
        {t('webhooksAdmin.rotate')}
      </Button>
      <Button
        fill="outline"
        color="danger"
        loading={remove.isPending}
        onClick={async () => {
          if (!(await confirm(t('webhooksAdmin.confirm.deleteTitle'), t('webhooksAdmin.confirm.delete', { url: endpoint.url }), t('webhooksAdmin.delete')))) return;
          await run(async () => {
            await remove.mutateAsync(endpoint.id);
            navigate('/admin/webhooks', { replace: true });
          }, t('webhooksAdmin.deleted'));
        }}
        data-testid="webhook-delete"
      >
        {t('webhooksAdmin.delete')}
      </Button>
    </div>
  );
}

function Summary({ endpoint }: { endpoint: WebhookEndpoint }) {
  const { t, i18n } = useTranslation();
  return (
    <section className="card webhook-summary" data-testid="webhook-summary">
      <div className="webhook-summary-head">
        <span className="webhook-url webhook-url-big" data-testid="webhook-url-value">{endpoint.url}</span>
        <EndpointStatus endpoint={endpoint} />
      </div>
      {endpoint.description ? <p className="webhook-description">{endpoint.description}</p> : null}
      {endpoint.status === 'enabled' ? null : <p className="notice webhook-disabled-note">{t('webhooksAdmin.disabledNote')}</p>}
      <h3 className="webhook-subtitle">{t('webhooksAdmin.eventCount', { count: endpoint.events.length })}</h3>
      <ul className="webhook-event-groups">
        {groupEvents(endpoint.events).map((g) => (
          <li key={g.object}>
            <span className="webhook-event-group-name">{t(`webhooksAdmin.objects.${g.object}`)}</span>
            <span className="webhook-chips">{g.events.map((e) => <code key={e} className="webhook-chip">{e}</code>)}</span>
          </li>
        ))}
      </ul>
      <p className="hint">{t('webhooksAdmin.dates', { created: formatDateTime(endpoint.createdAt, i18n.language), updated: formatDateTime(endpoint.updatedAt, i18n.language) })}</p>
    </section>
  );
}

export default function WebhookPage() {
  const { t } = useTranslation();
  const desk = useDesk();
  const { id = '' } = useParams();
  const webhooks = useWebhooks();
  const [shown, setShown] = useState<Shown>(null);
  const endpoint = webhooks.data?.find((e) => e.id === id);

  let content;
  if (webhooks.isPending) content = <PageLoading />;
  else if (webhooks.isError) content = <PageError error={webhooks.error} onRetry={() => void webhooks.refetch()} />;
  else if (!endpoint) content = <EmptyState icon={<SendOutline />} title={t('webhooksAdmin.notFound')} body={t('webhooksAdmin.notFoundBody')} />;
  else {
    content = (
      <>
        <Summary endpoint={endpoint} />
        <Actions endpoint={endpoint} onShow={setShown} />
        <Deliveries endpoint={endpoint} />
        <Sheet visible={shown?.kind === 'edit'} onClose={() => setShown(null)} labelledBy="webhook-form-title" wide>
          <WebhookForm endpoint={endpoint} onCancel={() => setShown(null)} onSaved={() => { setShown(null); Toast.show({ icon: 'success', content: t('app.saved') }); }} />
        </Sheet>
        {/* Not closed by a tap outside: the secret is shown only once. */}
        <Sheet visible={shown?.kind === 'secret'} onClose={() => undefined} labelledBy="webhook-secret-title">
          {shown?.kind === 'secret' ? <WebhookSecret endpoint={endpoint} secret={shown.secret} rotated onDone={() => setShown(null)} /> : null}
        </Sheet>
      </>
    );
  }
  return (
    <div className={`sub-page webhook-page${desk ? ' desk-page' : ''}`}>
      <PageNav title={t('webhooksAdmin.endpointTitle')} fallback="/admin/webhooks" />
      {content}
    </div>
  );
}
