import type { FastifyBaseLogger } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { IdParamsSchema, LinkCreateSchema, LinkEnvelopeSchema, LinkListSchema, LinkPatchSchema, LinkQuerySchema, LinkStatsQuerySchema, LinkStatsSchema } from '@pa/shared';
import type { AppContext } from '../../context';
import { withClickId } from '../../domain/destination';
import { isDatabaseUnavailable, requestLocale } from '../../platform/errors';
import { renderErrorPage } from '../../platform/html-pages';
import { ERROR_PAGE_CSP } from '../../platform/security';
import { newId } from '../../platform/ids';
import { PUBLIC, errorResponses } from '../../platform/openapi';
import { authenticated, requireAuth } from '../../platform/session';
import { classifyUserAgent } from '../../platform/visitor';
import { addLink, editLink, linkView, listLinks, visibleLinkStats } from './service';

/**
 * The tracked redirect. Registered outside the site's context (app.ts): none of the app's page
 * headers, cookies, session or CSRF hooks run for it — it sets the few headers it needs itself.
 */
export function redirectRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    /** The tracked redirect: the link from the cache; answered once its click is stored (the click joins a group commit). */
    app.get('/r/:code', {
      // Visitors are not users: no per-request log lines (they would hold their addresses).
      logLevel: 'warn',
      // One logger for every redirect, not a child per request (a visitor has no request id worth
      // a logger; what the redirect logs is rare: a click it could not store).
      childLoggerFactory: redirectLogger,
      schema: { security: PUBLIC, tags: ['links'], summary: 'Tracked redirect (302 with pa_click)', params: z.object({ code: z.string().max(200) }) },
      // The schema documents the code; the handler checks it (a pattern stricter than the schema),
      // so the per-request validation step is skipped on this, the busiest route.
      validatorCompiler: () => (params) => ({ value: params }),
    }, async (request, reply) => {
      const code = request.params.code;
      const target = /^[A-Za-z0-9_-]{1,32}$/.test(code) ? await ctx.links.get(code.toLowerCase()) : null;
      if (!target) {
        return reply
          .status(404)
          .type('text/html; charset=utf-8')
          .headers({ 'cache-control': 'no-store', 'content-security-policy': ERROR_PAGE_CSP, 'x-content-type-options': 'nosniff' })
          .send(renderErrorPage(requestLocale(request), 'link_not_found'));
      }
      const now = Date.now();
      const userAgent = request.headers['user-agent'] ?? '';
      // A HEAD request takes nobody anywhere (link checkers, some preview fetchers): a bot's visit.
      const ua = request.method === 'HEAD' ? { bot: true, device: 'bot' as const } : classifyUserAgent(userAgent);
      const clickId = newId(now);
      let referrerHost: string | null = null;
      const referer = request.headers.referer;
      if (referer) {
        try {
          referrerHost = new URL(referer).hostname.slice(0, 253) || null;
        } catch {
          referrerHost = null;
        }
      }
      const stored = await ctx.clicks.push({
        id: clickId,
        linkId: target.linkId,
        campaignId: target.campaignId,
        promoterId: target.promoterId,
        at: now,
        visitorHash: ctx.visitors.hash(request.ip, userAgent, now),
        bot: ua.bot,
        device: ua.device,
        referrerHost,
        attributed: target.attributable,
      }).then(() => true, (error: unknown) => {
        // The database out of reach is a warning (the pool reconnects); anything else an error.
        if (isDatabaseUnavailable(error)) request.log.warn({ err: error }, 'click not stored: database unavailable');
        else request.log.error({ err: error }, 'click not stored');
        return false;
      });
      // A click that could not be stored is not acknowledged: the visitor still reaches the page, untracked.
      const location = target.attributable ? (stored ? withClickId(target.destination, clickId) : target.destination) : target.landingUrl;
      ctx.metrics.redirects.n++;
      return reply.status(302).headers({ location, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer-when-downgrade' }).send();
    });
  };
}

const redirectLoggers = new WeakMap<FastifyBaseLogger, FastifyBaseLogger>();
const redirectLogger = (logger: FastifyBaseLogger, _bindings: unknown, options: Parameters<FastifyBaseLogger['child']>[1]): FastifyBaseLogger => {
  let child = redirectLoggers.get(logger);
  if (!child) {
    child = logger.child({ route: 'redirect' }, options);
    redirectLoggers.set(logger, child);
  }
  return child;
};

export function linkRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(async (scope) => {
      const promoter = scope.withTypeProvider<ZodTypeProvider>();
      promoter.addHook('preValidation', authenticated);

      promoter.get('/api/links', {
        schema: { tags: ['links'], summary: 'My links', querystring: LinkQuerySchema, response: { 200: LinkListSchema, ...errorResponses } },
      }, async (request) => {
        const auth = requireAuth(request);
        return listLinks(ctx, auth.userId, request.query, requestLocale(request));
      });

      promoter.post('/api/links', {
        schema: { tags: ['links'], summary: 'Create a link', body: LinkCreateSchema, response: { 201: LinkEnvelopeSchema, ...errorResponses } },
      }, async (request, reply) => {
        const auth = requireAuth(request);
        const link = await addLink(ctx, auth.userId, request.body, requestLocale(request));
        return reply.status(201).send({ link });
      });

      promoter.get('/api/links/:id', {
        schema: { tags: ['links'], summary: 'One link', params: IdParamsSchema, response: { 200: LinkEnvelopeSchema, ...errorResponses } },
      }, async (request) => {
        const auth = requireAuth(request);
        return { link: await linkView(ctx, request.params.id, auth, requestLocale(request)) };
      });

      promoter.patch('/api/links/:id', {
        schema: { tags: ['links'], summary: 'Edit label or channel; enable or disable', params: IdParamsSchema, body: LinkPatchSchema, response: { 200: LinkEnvelopeSchema, ...errorResponses } },
      }, async (request) => {
        const auth = requireAuth(request);
        return { link: await editLink(ctx, request.params.id, auth.userId, request.body, requestLocale(request)) };
      });

      promoter.get('/api/links/:id/stats', {
        schema: { tags: ['links'], summary: 'Per-day clicks (people), unique clicks and bot visits', params: IdParamsSchema, querystring: LinkStatsQuerySchema, response: { 200: LinkStatsSchema, ...errorResponses } },
      }, async (request) => {
        const auth = requireAuth(request);
        return visibleLinkStats(ctx, request.params.id, auth, request.query);
      });
    });
  };
}
