import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { HealthSchema, OpenApiDocumentSchema, ReadySchema } from '@pa/shared';
import type { AppContext } from '../../context';
import { PUBLIC, errorResponses } from '../../platform/openapi';
import { checkMetricsToken, checkReady, scrapeMetrics } from './service';

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

/**
 * `GET /metrics` in the Prometheus text format (issue 29): on the main listener when METRICS_TOKEN
 * is set (asked for as a bearer token), or alone on the listener of METRICS_HOST/METRICS_PORT
 * (main.ts; the token asked for there too when one is set). Not in the API document: it is for
 * the monitoring system, not for API clients.
 */
export function metricsRoutes(ctx: AppContext, token: string | null): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/metrics', { schema: { hide: true }, logLevel: 'warn' }, async (request, reply) => {
      checkMetricsToken(token, request.headers.authorization);
      const { body, contentType } = await scrapeMetrics(ctx);
      return reply.type(contentType).headers({ 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' }).send(body);
    });
  };
}
