import type { WebhookEndpoint } from '@pa/shared';

/**
 * How an endpoint is doing: disabled; failing — enabled, but no delivery has succeeded since
 * `failingSince` (the server disables it after 5 days of that); or enabled and delivering.
 */
export function endpointHealth(endpoint: Pick<WebhookEndpoint, 'status' | 'failingSince'>): 'enabled' | 'failing' | 'disabled' {
  if (endpoint.status === 'disabled') return 'disabled';
  return endpoint.failingSince !== null ? 'failing' : 'enabled';
}
