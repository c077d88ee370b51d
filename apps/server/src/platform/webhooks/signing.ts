/**
 * Webhook signatures per the Standard Webhooks specification (the scheme Svix and others
 * implement, with libraries in many languages): each delivery carries
 *
 *   webhook-id:        the message's id (the same on every attempt: receivers deduplicate by it)
 *   webhook-timestamp: seconds since the epoch, when this attempt was signed
 *   webhook-signature: `v1,` + base64 of HMAC-SHA256 over `${id}.${timestamp}.${body}`
 *
 * The key is the base64 after the secret's `whsec_` prefix (32 random bytes). During a rotation
 * the header carries one signature per secret, separated by spaces, so receivers holding either
 * secret verify.
 */
import { createHmac, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';

/** A new endpoint secret: `whsec_` + base64 of 32 random bytes. */
export function newWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

/** Keys by secret (the few endpoints' secrets sign every delivery). */
const keys = new Map<string, KeyObject>();
function keyOf(secret: string): KeyObject {
  let key = keys.get(secret);
  if (!key) {
    if (!secret.startsWith(SECRET_PREFIX)) throw new Error('not a webhook secret');
    const bytes = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
    if (bytes.length < 24) throw new Error('webhook secret too short');
    if (keys.size >= 1000) keys.clear();
    key = createSecretKey(bytes);
    keys.set(secret, key);
  }
  return key;
}

/** The `v1,<base64>` signature of one message with one secret. */
export function signature(secret: string, id: string, timestampS: number, body: string): string {
  return `v1,${createHmac('sha256', keyOf(secret)).update(`${id}.${timestampS}.${body}`).digest('base64')}`;
}

/** The three headers of a delivery attempt, signed with every secret given (the current one first). */
export function webhookHeaders(secrets: readonly string[], id: string, timestampS: number, body: string): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampS),
    'webhook-signature': secrets.map((s) => signature(s, id, timestampS, body)).join(' '),
  };
}
