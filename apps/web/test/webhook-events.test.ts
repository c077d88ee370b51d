import { describe, expect, it } from 'vitest';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '@pa/shared';
import { actionOf, canRetry, groupEvents, lastAttempt, objectOf, responseKind, ticked, toggle, WEBHOOK_OBJECTS } from '../src/features/integrations/lib/webhook-events';

describe('webhook events grouped by object', () => {
  it('puts every event in exactly one group, in the shared order', () => {
    const groups = groupEvents();
    expect(groups.map((g) => g.object)).toEqual([...WEBHOOK_OBJECTS]);
    expect(groups.flatMap((g) => g.events)).toEqual([...WEBHOOK_EVENT_TYPES]);
    expect(groups.find((g) => g.object === 'commission')!.events).toEqual(['commission.created', 'commission.approved', 'commission.rejected', 'commission.reversed']);
    for (const g of groups) for (const e of g.events) expect(objectOf(e)).toBe(g.object);
  });

  it('leaves out a group with no events (an endpoint subscribed to a few)', () => {
    expect(groupEvents(['withdrawal.paid', 'conversion.created']).map((g) => [g.object, g.events])).toEqual([
      ['conversion', ['conversion.created']],
      ['withdrawal', ['withdrawal.paid']],
    ]);
  });

  it('names the verb of an event', () => {
    expect(actionOf('withdrawal.cancelled')).toBe('cancelled');
    expect(actionOf('webhook.test')).toBe('test');
  });

  it('says whether none, some or all of a group is ticked', () => {
    const promoter: WebhookEventType[] = ['promoter.registered', 'promoter.approved', 'promoter.suspended'];
    expect(ticked([], promoter)).toBe('none');
    expect(ticked(['promoter.approved', 'conversion.created'], promoter)).toBe('some');
    expect(ticked(promoter, promoter)).toBe('all');
    expect(ticked([...WEBHOOK_EVENT_TYPES], WEBHOOK_EVENT_TYPES)).toBe('all');
  });

  it('ticks and unticks a group without touching the others, keeping the shared order', () => {
    const enrollment: WebhookEventType[] = ['enrollment.created', 'enrollment.approved', 'enrollment.rejected'];
    const start: WebhookEventType[] = ['enrollment.approved', 'conversion.created'];
    expect(toggle(start, enrollment, true)).toEqual(['conversion.created', ...enrollment]);
    expect(toggle(start, enrollment, false)).toEqual(['conversion.created']);
    expect(toggle([], WEBHOOK_EVENT_TYPES, true)).toEqual([...WEBHOOK_EVENT_TYPES]);
    expect(toggle([...WEBHOOK_EVENT_TYPES], WEBHOOK_EVENT_TYPES, false)).toEqual([]);
    // Twice the same is the same (a double click).
    expect(toggle(toggle(start, enrollment, true), enrollment, true)).toEqual(toggle(start, enrollment, true));
  });
});

describe('a delivery as the list shows it', () => {
  const attempt = (at: number, statusCode: number | null, error: string | null = null) => ({ at, statusCode, durationMs: 12, error });

  it('reads the latest attempt (they come oldest first)', () => {
    expect(lastAttempt({ attempts: [] })).toBeNull();
    expect(lastAttempt({ attempts: [attempt(1, 500), attempt(2, null, 'timeout'), attempt(3, 204)] })?.statusCode).toBe(204);
  });

  it('offers a retry only once a delivery has ended', () => {
    expect(canRetry({ status: 'pending' })).toBe(false);
    expect(canRetry({ status: 'failed' })).toBe(true);
    expect(canRetry({ status: 'succeeded' })).toBe(true);
  });

  it('tells a 2xx from an error answer and from no answer', () => {
    expect([200, 204, 299].map(responseKind)).toEqual(['ok', 'ok', 'ok']);
    expect([199, 301, 410, 500].map(responseKind)).toEqual(['error', 'error', 'error', 'error']);
    expect(responseKind(null)).toBe('none');
  });
});
