/** The console's small state words (issue 28, item 16): Stripe's connection, a webhook endpoint's health. */
import { describe, expect, it } from 'vitest';
import { endpointHealth } from '../src/features/integrations/lib/webhook-health';
import { stripeState } from '../src/features/campaigns/lib/stripe-state';
import { fitWithin, shrinkPlan } from '../src/lib/shrink-image';

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

describe('an image over 2 MB is made smaller before upload', () => {
  it('draws it at most 4096 px on the long side, keeping its proportions', () => {
    expect(fitWithin(8000, 6000, 4096)).toEqual({ width: 4096, height: 3072 });
    expect(fitWithin(1200, 1600, 4096)).toEqual({ width: 1200, height: 1600 });
    expect(fitWithin(3, 9000, 4096)).toEqual({ width: 1, height: 4096 });
  });

  it('tries smaller each time; a PNG becomes a JPEG after its first try, JPEG and WebP keep their type', () => {
    const png = shrinkPlan(6000, 4000, 'image/png');
    expect(png[0]).toEqual({ maxSide: 4096, type: 'image/png' });
    expect(png[1]).toEqual({ maxSide: 3277, type: 'image/jpeg' });
    expect(png.map((p) => p.maxSide)).toEqual([...png.map((p) => p.maxSide)].sort((a, b) => b - a));
    expect(new Set(shrinkPlan(3000, 2000, 'image/webp').map((p) => p.type))).toEqual(new Set(['image/webp']));
    expect(shrinkPlan(3000, 2000, 'image/jpeg')[0]).toEqual({ maxSide: 3000, type: 'image/jpeg' });
  });
});
