/** Keys for the business's systems: made by admins, the secret shown once, stored hashed (and sealed for signatures). */
import type { ApiKey } from '@pa/shared';
import type { AppContext } from '../../context';
import type { ApiKeysTable } from '../../db/types';
import { forgetApiKeys, newApiKeySecret, type ApiScope } from '../../platform/api-keys';
import { audit, type Actor } from '../../platform/audit';
import { AppError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { findApiKeyState, insertApiKey, listApiKeys, setApiKeyRevoked, type ApiKeyRow } from './repository';

/** The list shows at most this many keys. */
const LIST_LIMIT = 200;

const toApiKey = (r: ApiKeyRow): ApiKey => ({
  id: r.id,
  name: r.name,
  prefix: r.prefix,
  scopes: JSON.parse(r.scopes_json) as ApiScope[],
  requireSignature: r.require_signature === 1,
  createdAt: Number(r.created_at),
  lastUsedAt: r.last_used_at === null ? null : Number(r.last_used_at),
  revokedAt: r.revoked_at === null ? null : Number(r.revoked_at),
});

export async function apiKeys(ctx: AppContext): Promise<ApiKey[]> {
  return (await listApiKeys(ctx.db, LIST_LIMIT)).map(toApiKey);
}

/** Makes a key; its secret is in this answer only. The key and its audit entry in one transaction. */
export async function createApiKey(
  ctx: AppContext,
  actor: Actor,
  input: { name: string; scopes: ApiScope[]; requireSignature: boolean },
): Promise<{ id: string; secret: string; apiKey: ApiKey }> {
  const { name, scopes, requireSignature } = input;
  const { secret, prefix, hash, sealed } = newApiKeySecret(ctx);
  const now = Date.now();
  const row: ApiKeysTable = {
    id: newId(now), name, prefix, secret_hash: hash, secret_sealed: sealed, scopes_json: JSON.stringify([...new Set(scopes)]),
    require_signature: requireSignature ? 1 : 0, created_by: actor.userId, created_at: now, last_used_at: null, revoked_at: null,
  };
  await ctx.uow.run(async ({ q: trx }) => {
    await insertApiKey(trx, row);
    await audit(trx, { actorId: actor.userId, action: 'api_key.create', entity: 'api_key', entityId: row.id, after: { name, prefix, scopes, requireSignature }, ip: actor.ip }, now);
  });
  return { id: row.id, secret, apiKey: toApiKey(row) };
}

/** Revokes a key: at once on this instance, within API_KEY_CACHE_MS on the others. A revoked key cannot be revoked again. */
export async function revokeApiKey(ctx: AppContext, actor: Actor, id: string): Promise<void> {
  const now = Date.now();
  await ctx.uow.run(async ({ q: trx }) => {
    const row = await findApiKeyState(trx, id);
    if (!row) throw new AppError('NOT_FOUND');
    if (row.revoked_at !== null) throw new AppError('INVALID_STATE_TRANSITION');
    await setApiKeyRevoked(trx, row.id, now);
    await audit(trx, { actorId: actor.userId, action: 'api_key.revoke', entity: 'api_key', entityId: row.id, before: { revokedAt: null }, after: { revokedAt: now }, ip: actor.ip }, now);
  });
  forgetApiKeys();
}
