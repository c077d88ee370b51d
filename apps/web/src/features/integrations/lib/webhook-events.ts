/**
 * The webhook events as the form offers them: grouped by the object they are about (in the
 * shared list's order), each group and the whole list ticked at once.
 */
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '@pa/shared';

export const WEBHOOK_OBJECTS = ['conversion', 'commission', 'bounty', 'withdrawal', 'promoter', 'enrollment'] as const;
type WebhookObject = (typeof WEBHOOK_OBJECTS)[number];

interface EventGroup { object: WebhookObject; events: WebhookEventType[] }

/** `commission.approved` → `commission`. */
export const objectOf = (event: WebhookEventType) => event.slice(0, event.indexOf('.')) as WebhookObject;
/** `commission.approved` → `approved` (the i18n key of its verb). */
export const actionOf = (event: string) => event.slice(event.indexOf('.') + 1);

export function groupEvents(events: readonly WebhookEventType[] = WEBHOOK_EVENT_TYPES): EventGroup[] {
  return WEBHOOK_OBJECTS.map((object) => ({ object, events: events.filter((e) => objectOf(e) === object) })).filter((g) => g.events.length > 0);
}

export type Ticked = 'none' | 'some' | 'all';

/** How much of `events` is in `selected` (a group's or the whole list's checkbox). */
export function ticked(selected: readonly WebhookEventType[], events: readonly WebhookEventType[]): Ticked {
  const n = events.filter((e) => selected.includes(e)).length;
  return n === 0 ? 'none' : n === events.length ? 'all' : 'some';
}

/** Ticks (or unticks) `events` in `selected`; the answer keeps the shared list's order. */
export function toggle(selected: readonly WebhookEventType[], events: readonly WebhookEventType[], on: boolean): WebhookEventType[] {
  return WEBHOOK_EVENT_TYPES.filter((e) => (events.includes(e) ? on : selected.includes(e)));
}

interface Attempt { at: number; statusCode: number | null; durationMs: number; error: string | null }

/** A delivery's latest attempt (attempts come oldest first), or null before the first. */
export const lastAttempt = <A extends Attempt>(delivery: { attempts: readonly A[] }): A | null => delivery.attempts.at(-1) ?? null;

/** A delivery can be sent again once it has ended, either way (the server refuses a pending one). */
export const canRetry = (delivery: { status: 'pending' | 'succeeded' | 'failed' }) => delivery.status !== 'pending';

/** How an answer reads: 2xx succeeded, no answer at all (timeout, refused) is its own kind. */
export function responseKind(statusCode: number | null): 'ok' | 'error' | 'none' {
  if (statusCode === null) return 'none';
  return statusCode >= 200 && statusCode < 300 ? 'ok' : 'error';
}
