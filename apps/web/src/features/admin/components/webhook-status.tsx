import { useTranslation } from 'react-i18next';
import type { WebhookDelivery, WebhookEndpoint } from '../api/webhooks';
import './webhooks.css';

/** Enabled or disabled, with why it was disabled (an answer 410 Gone, failing for days, an admin). */
export function EndpointStatus({ endpoint, detail = true }: { endpoint: WebhookEndpoint; detail?: boolean }) {
  const { t } = useTranslation();
  const reason = endpoint.status === 'disabled' && endpoint.disabledReason ? t(`webhooksAdmin.disabledReason.${endpoint.disabledReason}`, { defaultValue: endpoint.disabledReason }) : null;
  return (
    <span className="wh-status">
      <span className={`wh-tag wh-tag-${endpoint.status}`} data-testid={`webhook-status-${endpoint.id}`}>{t(`webhooksAdmin.status.${endpoint.status}`)}</span>
      {detail && reason ? <span className="wh-reason">{reason}</span> : null}
    </span>
  );
}

export function DeliveryStatus({ delivery }: { delivery: WebhookDelivery }) {
  const { t } = useTranslation();
  return <span className={`wh-tag wh-tag-${delivery.status}`} data-testid={`delivery-status-${delivery.id}`}>{t(`webhooksAdmin.deliveryStatus.${delivery.status}`)}</span>;
}
