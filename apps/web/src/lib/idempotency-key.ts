/**
 * The Idempotency-Key of a money-moving form (withdrawal request, manual adjustment): kept across
 * retries of the same attempt, so a lost answer can never move money twice; a changed request gets
 * a new key.
 */

/** A random UUID v4, also where `crypto.randomUUID` is missing (older in-app browsers). */
export function randomKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export interface Attempt {
  key: string;
  /** What was sent with the key: a retry reuses the key only for exactly the same request. */
  body: string;
}

/**
 * The key for a submission of `request` (the values that make it this request, in a fixed order):
 * the previous attempt's when the same request is sent again (its answer never arrived),
 * otherwise a new one.
 */
export function keyedAttempt(previous: Attempt | null, request: readonly unknown[], newKey: () => string = randomKey): Attempt {
  const body = JSON.stringify(request);
  return previous && previous.body === body ? previous : { key: newKey(), body };
}

/**
 * Whether the outcome of an attempt is unknown (no answer, or a server failure that may have
 * happened after the commit): then a retry must carry the same key so it cannot move money twice.
 * Any other answer settles the attempt.
 */
export const outcomeUnknown = (status: number) => status === 0 || status >= 500;
