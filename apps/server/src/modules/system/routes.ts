import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { HealthSchema, OpenApiDocumentSchema, ReadySchema } from '@pa/shared';
import type { AppContext } from '../../context';
import { PUBLIC, errorResponses } from '../../platform/openapi';
import { checkReady } from './service';

export function systemRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/health', {
      schema: { security: PUBLIC, tags: ['system'], summary: 'Liveness', response: { 200: HealthSchema, ...errorResponses } },
    }, async () => ({ status: 'ok' as const, version: ctx.config.version }));

    app.get('/api/ready', {
      schema: { security: PUBLIC, tags: ['system'], summary: 'Readiness: the database answers', response: { 200: ReadySchema, ...errorResponses } },
    }, async (request) => {
      await checkReady(ctx, request.log);
      return { status: 'ready' as const, database: 'ok' as const };
    });

    app.get('/api/openapi.json', { schema: { hide: true, response: { 200: OpenApiDocumentSchema } } }, async () => app.swagger() as unknown as { openapi: string; paths: Record<string, unknown> });
  };
}
