import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ApiKeyCreatedSchema, ApiKeyCreateSchema, ApiKeyListSchema, IdParamsSchema, OkSchema, type ApiKey } from '@pa/shared';
import type { AppContext } from '../../context';
import type { ApiKeysTable } from '../../db/types';
import { forgetApiKeys, newApiKeySecret, type ApiScope } from '../../platform/api-keys';
import { audit } from '../../platform/audit';
import { AppError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { errorResponses } from '../../platform/openapi';
import { adminOnly, requireAuth } from '../../platform/session';

const toApiKey = (r: Omit<ApiKeysTable, 'secret_hash' | 'secret_sealed' | 'created_by'>): ApiKey => ({
  id: r.id,
  name: r.name,
  prefix: r.prefix,
  scopes: JSON.parse(r.scopes_json) as ApiScope[],
  requireSignature: r.require_signature === 1,
  createdAt: Number(r.created_at),
  lastUsedAt: r.last_used_at === null ? null : Number(r.last_used_at),
  revokedAt: r.revoked_at === null ? null : Number(r.revoked_at),
});

const COLUMNS = ['id', 'name', 'prefix', 'scopes_json', 'require_signature', 'created_at', 'last_used_at', 'revoked_at'] as const;

/** Keys for the business's systems: made by admins, the secret shown once, stored hashed (and sealed for signatures). */
export function apiKeyRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/admin/api-keys', {
      preValidation: adminOnly,
      schema: { tags: ['api-keys'], summary: 'API keys (never their secrets)', response: { 200: ApiKeyListSchema, ...errorResponses } },
    }, async () => {
      const rows = await ctx.db.selectFrom('api_keys').select(COLUMNS).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(200).execute();
      return { items: rows.map(toApiKey) };
    });

    app.post('/api/admin/api-keys', {
      preValidation: adminOnly,
      schema: { tags: ['api-keys'], summary: 'Create an API key; the secret is in this answer only', body: ApiKeyCreateSchema, response: { 201: ApiKeyCreatedSchema, ...errorResponses } },
    }, async (request, reply) => {
      const auth = requireAuth(request);
      const { name, scopes, requireSignature } = request.body;
      const { secret, prefix, hash, sealed } = newApiKeySecret(ctx);
      const now = Date.now();
      const row = { id: newId(now), name, prefix, secret_hash: hash, secret_sealed: sealed, scopes_json: JSON.stringify([...new Set(scopes)]), require_signature: requireSignature ? 1 : 0, created_by: auth.userId, created_at: now, last_used_at: null, revoked_at: null };
      await ctx.db.transaction().execute(async (trx) => {
        await trx.insertInto('api_keys').values(row).execute();
        await audit(trx, { actorId: auth.userId, action: 'api_key.create', entity: 'api_key', entityId: row.id, after: { name, prefix, scopes, requireSignature }, ip: request.ip }, now);
      });
      reply.header('cache-control', 'no-store');
      return reply.status(201).send({ id: row.id, secret, apiKey: toApiKey(row) });
    });

    app.post('/api/admin/api-keys/:id/revoke', {
      preValidation: adminOnly,
      schema: { tags: ['api-keys'], summary: 'Revoke an API key (at once, on every instance)', params: IdParamsSchema, response: { 200: OkSchema, ...errorResponses } },
    }, async (request) => {
      const auth = requireAuth(request);
      const now = Date.now();
      await ctx.db.transaction().execute(async (trx) => {
        const row = await trx.selectFrom('api_keys').select(['id', 'revoked_at']).where('id', '=', request.params.id).executeTakeFirst();
        if (!row) throw new AppError('NOT_FOUND');
        if (row.revoked_at !== null) throw new AppError('INVALID_STATE_TRANSITION');
        await trx.updateTable('api_keys').set({ revoked_at: now }).where('id', '=', row.id).execute();
        await audit(trx, { actorId: auth.userId, action: 'api_key.revoke', entity: 'api_key', entityId: row.id, before: { revokedAt: null }, after: { revokedAt: now }, ip: request.ip }, now);
      });
      forgetApiKeys();
      return { ok: true as const };
    });
  };
}
