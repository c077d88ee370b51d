import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { IdParamsSchema, LinkCreateSchema, LinkEnvelopeSchema, LinkListSchema, LinkPatchSchema, LinkQuerySchema, LinkStatsQuerySchema, LinkStatsSchema } from '@pa/shared';
import type { AppContext } from '../../context';
import { withClickId } from '../../domain/destination';
import { olderThan, pageOf } from '../../platform/listing';
import { AppError, requestLocale } from '../../platform/errors';
import { renderErrorPage } from '../../platform/html-pages';
import { ERROR_PAGE_CSP } from '../../platform/security';
import { newId } from '../../platform/ids';
import { errorResponses } from '../../platform/openapi';
import { authenticated, requireAuth } from '../../platform/session';
import { classifyUserAgent } from '../../platform/visitor';
import { selectLinks, toLink } from './repository';
import { createLink, linkStats } from './service';

/**
 * The tracked redirect. Registered outside the site's context (app.ts): none of the app's page
 * headers, cookies, session or CSRF hooks run for it — it sets the few headers it needs itself.
 */
export function redirectRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    /** The tracked redirect: answered from the cache; the click is buffered, never awaited. */
    app.get('/r/:code', {
      // Visitors are not users: no per-request log lines (they would hold their addresses).
      logLevel: 'warn',
      schema: { tags: ['links'], summary: 'Tracked redirect (302 with pa_click)', params: z.object({ code: z.string().max(200) }) },
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
      ctx.clicks.push({
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
      });
      const location = target.attributable ? withClickId(target.destination, clickId) : target.landingUrl;
      return reply.status(302).headers({ location, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer-when-downgrade' }).send();
    });
  };
}

export function linkRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(async (scope) => {
      const promoter = scope.withTypeProvider<ZodTypeProvider>();
      promoter.addHook('preValidation', authenticated);

      promoter.get('/api/links', {
        schema: { tags: ['links'], summary: 'My links', querystring: LinkQuerySchema, response: { 200: LinkListSchema, ...errorResponses } },
      }, async (request) => {
        const auth = requireAuth(request);
        const { limit, cursor, campaignId } = request.query;
        let q = selectLinks(ctx.db).where('links.promoter_id', '=', auth.userId).orderBy('links.created_at', 'desc').orderBy('links.id', 'desc').limit(limit + 1);
        if (campaignId) q = q.where('links.campaign_id', '=', campaignId);
        if (cursor) q = q.where(olderThan(cursor, 'links.created_at', 'links.id'));
        const { rows, nextCursor } = pageOf(await q.execute(), limit);
        const locale = requestLocale(request);
        return { items: rows.map((r) => toLink(r, locale)), nextCursor };
      });

      promoter.post('/api/links', {
        schema: { tags: ['links'], summary: 'Create a link', body: LinkCreateSchema, response: { 201: LinkEnvelopeSchema, ...errorResponses } },
      }, async (request, reply) => {
        const auth = requireAuth(request);
        const id = await createLink(ctx, auth.userId, request.body);
        const row = await selectLinks(ctx.db).where('links.id', '=', id).executeTakeFirstOrThrow();
        return reply.status(201).send({ link: toLink(row, requestLocale(request)) });
      });

      /** A promoter sees only their own links; staff may read any. Others' ids look unknown. */
      const ownLink = async (id: string, userId: string, role: string) => {
        const row = await selectLinks(ctx.db).where('links.id', '=', id).executeTakeFirst();
        if (!row || (row.promoter_id !== userId && role === 'promoter')) throw new AppError('NOT_FOUND');
        return row;
      };

      promoter.get('/api/links/:id', {
        schema: { tags: ['links'], summary: 'One link', params: IdParamsSchema, response: { 200: LinkEnvelopeSchema, ...errorResponses } },
      }, async (request) => {
        const auth = requireAuth(request);
        return { link: toLink(await ownLink(request.params.id, auth.userId, auth.role), requestLocale(request)) };
      });

      promoter.patch('/api/links/:id', {
        schema: { tags: ['links'], summary: 'Edit label or channel; enable or disable', params: IdParamsSchema, body: LinkPatchSchema, response: { 200: LinkEnvelopeSchema, ...errorResponses } },
      }, async (request) => {
        const auth = requireAuth(request);
        const row = await ownLink(request.params.id, auth.userId, 'promoter');
        const { label, channel, status } = request.body;
        await ctx.db
          .updateTable('links')
          .set({
            ...(label !== undefined ? { label: label || null } : {}),
            ...(channel !== undefined ? { channel: channel || null } : {}),
            ...(status ? { status } : {}),
            updated_at: Date.now(),
          })
          .where('id', '=', row.id)
          .execute();
        ctx.links.invalidateCode(row.code.toLowerCase());
        return { link: toLink(await ownLink(row.id, auth.userId, 'promoter'), requestLocale(request)) };
      });

      promoter.get('/api/links/:id/stats', {
        schema: { tags: ['links'], summary: 'Per-day clicks (people), unique clicks and bot visits', params: IdParamsSchema, querystring: LinkStatsQuerySchema, response: { 200: LinkStatsSchema, ...errorResponses } },
      }, async (request) => {
        const auth = requireAuth(request);
        const row = await ownLink(request.params.id, auth.userId, auth.role);
        return linkStats(ctx, row, request.query);
      });
    });
  };
}
