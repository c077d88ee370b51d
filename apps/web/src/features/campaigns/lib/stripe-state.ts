import type { StripeStatus } from '@pa/shared';

/**
 * What the Stripe card says of the connection: not connected (no signing secret); connected and
 * waiting for the first event since the secret was set; or connected and receiving events.
 */
export function stripeState(status: Pick<StripeStatus, 'configured' | 'updatedAt' | 'events'>): 'notConnected' | 'waiting' | 'receiving' {
  if (!status.configured) return 'notConnected';
  const since = status.updatedAt ?? 0;
  return status.events.some((e) => e.receivedAt >= since) ? 'receiving' : 'waiting';
}
