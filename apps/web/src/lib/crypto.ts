/**
 * WebCrypto on the client: SHA-256 Content-Digest for request bodies (RFC 9530) and RSA-OAEP
 * (SHA-256) sealing of secrets with the server's public key, with a timestamp and a nonce
 * inside so a captured ciphertext cannot be replayed.
 */
import type { PublicKey, Sealed } from '@pa/shared';
import { base64ToBytes, bytesToBase64 } from './encoding';

export async function contentDigest(body: string | ArrayBuffer): Promise<string> {
  const hash = await crypto.subtle.digest('SHA-256', typeof body === 'string' ? new TextEncoder().encode(body) : body);
  return `sha-256=:${bytesToBase64(hash)}:`;
}

interface LoadedKey {
  keyId: string;
  key: CryptoKey;
  /** Server clock minus ours, from the response's Date header, so `ts` is fresh by the server's clock. */
  skewMs: number;
}

let keyPromise: Promise<LoadedKey> | null = null;

async function loadKey(): Promise<LoadedKey> {
  const started = Date.now();
  const res = await fetch('api/auth/public-key', { headers: { accept: 'application/json' }, cache: 'no-store' });
  if (!res.ok) throw new Error(`public key request failed: ${res.status}`);
  const body = (await res.json()) as PublicKey;
  const key = await crypto.subtle.importKey('spki', base64ToBytes(body.spki), { name: 'RSA-OAEP', hash: 'SHA-256' }, false, ['encrypt']);
  const serverDate = Date.parse(res.headers.get('date') ?? '');
  const local = (started + Date.now()) / 2;
  // The Date header has one-second resolution: only correct clocks that are clearly off.
  const skew = Number.isFinite(serverDate) && Math.abs(serverDate - local) > 30_000 ? serverDate - local : 0;
  return { keyId: body.keyId, key, skewMs: skew };
}

/** Forgets the cached key (after ENCRYPTION_INVALID: the key was rotated). */
export function resetPublicKey() {
  keyPromise = null;
}

export async function seal(secret: string): Promise<Sealed> {
  keyPromise ??= loadKey().catch((error: unknown) => {
    keyPromise = null;
    throw error;
  });
  const { keyId, key, skewMs } = await keyPromise;
  const nonce = bytesToBase64(crypto.getRandomValues(new Uint8Array(16)));
  const plaintext = new TextEncoder().encode(JSON.stringify({ v: secret, ts: Date.now() + skewMs, nonce }));
  const ciphertext = await crypto.subtle.encrypt({ name: 'RSA-OAEP' }, key, plaintext);
  return { keyId, ciphertext: bytesToBase64(ciphertext) };
}
