import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { SnippetInfoSchema } from '@pa/shared';
import { errorResponses, PUBLIC } from '../../platform/openapi';
import { staffOnly } from '../../platform/session';
import { snippet } from './snippet';

/**
 * `GET /pa.js`, the landing-page snippet, for merchants' pages on other sites: outside the site's
 * context (no session, no page headers that would keep another origin from loading it).
 */
export function snippetRoutes(): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/pa.js', {
      logLevel: 'warn',
      schema: {
        security: PUBLIC,
        tags: ['integrations'],
        summary: 'The landing-page snippet: keeps pa_click in a first-party cookie (docs/integrations.md)',
        querystring: z.object({ v: z.string().max(64).optional() }),
      },
    }, async (request, reply) => {
      const { source, gzip, version } = snippet();
      const etag = `"${version}"`;
      reply
        .header('content-type', 'text/javascript; charset=utf-8')
        .header('cache-control', request.query.v === version ? 'public, max-age=31536000, immutable' : 'public, max-age=3600')
        .header('etag', etag)
        .header('vary', 'accept-encoding')
        .header('cross-origin-resource-policy', 'cross-origin')
        .header('access-control-allow-origin', '*')
        .header('x-content-type-options', 'nosniff');
      if (request.headers['if-none-match'] === etag) return reply.status(304).send();
      if (/\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''))) return reply.header('content-encoding', 'gzip').send(gzip);
      return reply.send(source);
    });
  };
}

/** What the console's copy-paste block needs: the snippet's version (for its cacheable address) and size. */
export function integrationRoutes(): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/admin/integrations/snippet', {
      preValidation: staffOnly,
      schema: { tags: ['integrations'], summary: "The landing-page snippet's version and size", response: { 200: SnippetInfoSchema, ...errorResponses } },
    }, async () => {
      const { source, gzip, version } = snippet();
      return { version, bytes: source.length, gzipBytes: gzip.length };
    });
  };
}
