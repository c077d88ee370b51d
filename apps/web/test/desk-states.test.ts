/** The console's small state words (issue 28, item 16): Stripe's connection, a webhook endpoint's health. */
import { describe, expect, it } from 'vitest';
import { endpointHealth } from '../src/features/admin/lib/webhook-health';
import { stripeState } from '../src/features/admin/lib/stripe-state';

const event = (receivedAt: number) => ({ eventId: `evt_${receivedAt}`, type: 'invoice.paid', outcome: 'recorded' as const, detail: null, conversionId: null, receivedAt });

describe('the Stripe card', () => {
  it('says "waiting for the first event" until one arrives after the secret was set', () => {
    expect(stripeState({ configured: false, updatedAt: null, events: [] })).toBe('notConnected');
    expect(stripeState({ configured: true, updatedAt: 1000, events: [] })).toBe('waiting');
    // Events from before a new secret do not count: it has not been shown to work yet.
    expect(stripeState({ configured: true, updatedAt: 1000, events: [event(900)] })).toBe('waiting');
    expect(stripeState({ configured: true, updatedAt: 1000, events: [event(1000)] })).toBe('receiving');
  });
});

describe('a webhook endpoint', () => {
  it('is failing while enabled with deliveries failing, not "enabled"', () => {
    expect(endpointHealth({ status: 'enabled', failingSince: null })).toBe('enabled');
    expect(endpointHealth({ status: 'enabled', failingSince: 5 })).toBe('failing');
    expect(endpointHealth({ status: 'disabled', failingSince: null })).toBe('disabled');
  });
});
