import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@/lib/format';
import type { WebhookDelivery, WebhookEndpoint } from '../api/webhooks';
import { endpointHealth } from '../lib/webhook-health';
import './webhooks.css';

/**
 * Enabled, failing (enabled, but nothing delivered since a time: "Failing since …" with the last
 * error), or disabled with why (an answer 410 Gone, failing for days, an admin).
 */
export function EndpointStatus({ endpoint, detail = true }: { endpoint: WebhookEndpoint; detail?: boolean }) {
  const { t, i18n } = useTranslation();
  const health = endpointHealth(endpoint);
  let reason: string | null = null;
  if (health === 'disabled' && endpoint.disabledReason) reason = t(`webhooksAdmin.disabledReason.${endpoint.disabledReason}`, { defaultValue: endpoint.disabledReason });
  if (health === 'failing' && endpoint.lastError) {
    const { statusCode, error } = endpoint.lastError;
    const answer = statusCode === null ? t('webhooksAdmin.noAnswer') : `HTTP ${statusCode}`;
    reason = `${t('webhooksAdmin.lastError', { answer })}${error ? ` · ${error}` : ''}`;
  }
  const label = health === 'failing' ? t('webhooksAdmin.status.failing', { time: formatDateTime(endpoint.failingSince!, i18n.language) }) : t(`webhooksAdmin.status.${endpoint.status}`);
  return (
    <span className="webhook-status">
      <span className={`webhook-tag webhook-tag-${health === 'failing' ? 'failed' : endpoint.status}`} data-testid={`webhook-status-${endpoint.id}`}>{label}</span>
      {detail && reason ? <span className="webhook-reason" data-testid={`webhook-reason-${endpoint.id}`}>{reason}</span> : null}
    </span>
  );
}

export function DeliveryStatus({ delivery }: { delivery: WebhookDelivery }) {
  const { t } = useTranslation();
  return <span className={`webhook-tag webhook-tag-${delivery.status}`} data-testid={`delivery-status-${delivery.id}`}>{t(`webhooksAdmin.deliveryStatus.${delivery.status}`)}</span>;
}
