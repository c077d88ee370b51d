/**
 * Server-to-server authentication (`api/v1/…`): `Authorization: Bearer <secret>`, looked up by
 * the secret's SHA-256; scopes per key; an optional `X-Signature: t=<unix>,v1=<hex>` HMAC-SHA256
 * over `t + "." + body` with the key's secret, 5 minutes' tolerance, compared in constant time.
 * A key may require the signature; a signature that is sent is always checked.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { ApiScopeSchema } from '@pa/shared';
import type { z } from 'zod';
import type { Db } from '../db/types';
import type { MasterKey } from './crypto/master-key';
import { AppError } from './errors';

/** What API-key checks need of the app (platform/ never imports the app's own context type). */
interface ApiKeyContext {
  db: Db;
  master: Pick<MasterKey, 'encrypt' | 'decrypt'>;
}

export type ApiScope = z.infer<typeof ApiScopeSchema>;
const SIGNATURE_TOLERANCE_S = 300;
const SECRET_AAD = 'api-key-secret';

declare module 'fastify' {
  interface FastifyRequest {
    apiKey?: { id: string; scopes: ApiScope[] };
  }
}

const hashApiKey = (secret: string) => createHash('sha256').update(secret).digest('hex');

/** A new secret ("pa_" + 40 base64url characters), its display prefix, hash and sealed copy. */
export function newApiKeySecret(ctx: Pick<ApiKeyContext, 'master'>) {
  const secret = `pa_${randomBytes(30).toString('base64url')}`;
  return { secret, prefix: secret.slice(0, 10), hash: hashApiKey(secret), sealed: ctx.master.encrypt(secret, SECRET_AAD) };
}

export function signBody(secret: string, timestamp: number, body: string | Buffer): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');
}

/** Several `v1=` may be sent (a secret being rolled, as Stripe does): any one that matches will do. */
function checkSignature(header: string, secret: string, body: Buffer, nowS: number) {
  const parts = header.split(',').map((p) => p.trim().split('=')).filter((p) => p.length === 2) as [string, string][];
  const t = Number(parts.find(([k]) => k === 't')?.[1]);
  const given = parts.filter(([k, v]) => k === 'v1' && /^[0-9a-f]{64}$/i.test(v)).map(([, v]) => Buffer.from(v, 'hex'));
  if (!Number.isInteger(t) || given.length === 0) throw new AppError('SIGNATURE_INVALID', { 'X-Signature': 'invalid' });
  if (Math.abs(nowS - t) > SIGNATURE_TOLERANCE_S) throw new AppError('SIGNATURE_INVALID', { 'X-Signature': 'stale' });
  const expected = Buffer.from(signBody(secret, t, body), 'hex');
  // Every candidate is compared (no early exit), each in constant time.
  if (!given.map((g) => timingSafeEqual(expected, g)).includes(true)) throw new AppError('SIGNATURE_INVALID', { 'X-Signature': 'mismatch' });
}

/**
 * Keys looked up in the last 2 s are trusted without a query (the conversions endpoint is hot).
 * A revocation takes effect at once on the instance that made it and within 2 s on the others.
 */
export const API_KEY_CACHE_MS = 2000;
type KeyRow = { id: string; scopes_json: string; secret_sealed: string; require_signature: number; last_used_at: number | null };
const keyCache = new Map<string, { row: KeyRow | null; until: number }>();
export function forgetApiKeys() {
  keyCache.clear();
}

/** preValidation hook factory: a valid, unrevoked key with `scope` (and a good signature when required or sent). */
export function apiKeyAuth(ctx: ApiKeyContext, scope: ApiScope) {
  return async (request: FastifyRequest) => {
    const header = request.headers.authorization ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match) throw new AppError('UNAUTHENTICATED');
    const hash = hashApiKey(match[1]!);
    const now = Date.now();
    let cached = keyCache.get(hash);
    if (!cached || cached.until < now) {
      const found = await ctx.db
        .selectFrom('api_keys')
        .select(['id', 'scopes_json', 'secret_sealed', 'require_signature', 'last_used_at'])
        .where('secret_hash', '=', hash)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      cached = { row: found ?? null, until: now + API_KEY_CACHE_MS };
      keyCache.set(hash, cached);
      if (keyCache.size > 1000) keyCache.delete(keyCache.keys().next().value!);
    }
    const row = cached.row;
    if (!row) throw new AppError('UNAUTHENTICATED');
    const scopes = JSON.parse(row.scopes_json) as ApiScope[];
    if (!scopes.includes(scope)) throw new AppError('FORBIDDEN');
    const signature = request.headers['x-signature'];
    if (row.require_signature || signature !== undefined) {
      if (typeof signature !== 'string') throw new AppError('SIGNATURE_INVALID', { 'X-Signature': 'required' });
      const secret = ctx.master.decrypt(row.secret_sealed, SECRET_AAD).toString('utf8');
      checkSignature(signature, secret, request.rawBody ?? Buffer.alloc(0), Math.floor(Date.now() / 1000));
    }
    if (row.last_used_at === null || now - Number(row.last_used_at) > 60_000) {
      row.last_used_at = now;
      await ctx.db.updateTable('api_keys').set({ last_used_at: now }).where('id', '=', row.id).execute();
    }
    request.apiKey = { id: row.id, scopes };
  };
}
