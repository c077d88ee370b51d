import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ApiKeyCreatedSchema, ApiKeyCreateSchema, ApiKeyListSchema, IdParamsSchema, OkSchema } from '@pa/shared';
import type { AppContext } from '../../context';
import { actorOf } from '../../platform/audit';
import { errorResponses } from '../../platform/openapi';
import { adminOnly } from '../../platform/session';
import { apiKeys, createApiKey, revokeApiKey } from './service';

/** Keys for the business's systems: made by admins, the secret shown once, stored hashed (and sealed for signatures). */
export function apiKeyRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/admin/api-keys', {
      preValidation: adminOnly,
      schema: { tags: ['api-keys'], summary: 'API keys (never their secrets)', response: { 200: ApiKeyListSchema, ...errorResponses } },
    }, async () => ({ items: await apiKeys(ctx) }));

    app.post('/api/admin/api-keys', {
      preValidation: adminOnly,
      schema: { tags: ['api-keys'], summary: 'Create an API key; the secret is in this answer only', body: ApiKeyCreateSchema, response: { 201: ApiKeyCreatedSchema, ...errorResponses } },
    }, async (request, reply) => {
      const created = await createApiKey(ctx, actorOf(request), request.body);
      reply.header('cache-control', 'no-store');
      return reply.status(201).send(created);
    });

    app.post('/api/admin/api-keys/:id/revoke', {
      preValidation: adminOnly,
      schema: { tags: ['api-keys'], summary: 'Revoke an API key (at once, on every instance)', params: IdParamsSchema, response: { 200: OkSchema, ...errorResponses } },
    }, async (request) => {
      await revokeApiKey(ctx, actorOf(request), request.params.id);
      return { ok: true as const };
    });
  };
}
