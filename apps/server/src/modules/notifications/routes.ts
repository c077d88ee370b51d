import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { IdParamsSchema, NotificationListSchema, NotificationQuerySchema, OkSchema, UnreadCountSchema, type NotificationType } from '@pa/shared';
import type { AppContext } from '../../context';
import type { Db } from '../../db/types';
import { AppError } from '../../platform/errors';
import { olderThan, pageOf } from '../../platform/listing';
import { errorResponses } from '../../platform/openapi';
import { authenticated, requireAuth } from '../../platform/session';
import { readSettings } from '../../platform/settings';

async function unreadCount(db: Db, userId: string): Promise<number> {
  const row = await db.selectFrom('notifications').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).where('read_at', 'is', null).executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** The reader's own notifications: stored as type + parameters, rendered by the app in the reader's language. */
export function notificationRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(async (scope) => {
      const user = scope.withTypeProvider<ZodTypeProvider>();
      user.addHook('preValidation', authenticated);

      user.get('/api/notifications', {
        schema: { tags: ['notifications'], summary: 'My notifications, newest first', querystring: NotificationQuerySchema, response: { 200: NotificationListSchema, ...errorResponses } },
      }, async (request) => {
        const auth = requireAuth(request);
        const { limit, cursor, unread } = request.query;
        let q = ctx.db.selectFrom('notifications').selectAll().where('user_id', '=', auth.userId).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit + 1);
        if (unread === 'true') q = q.where('read_at', 'is', null);
        if (unread === 'false') q = q.where('read_at', 'is not', null);
        if (cursor) q = q.where(olderThan(cursor, 'created_at', 'id'));
        const [{ rows, nextCursor }, count, settings] = await Promise.all([q.execute().then((r) => pageOf(r, limit)), unreadCount(ctx.db, auth.userId), readSettings(ctx.db)]);
        return {
          items: rows.map((r) => ({ id: r.id, type: r.type as NotificationType, params: JSON.parse(r.params_json) as Record<string, unknown>, readAt: r.read_at === null ? null : Number(r.read_at), createdAt: Number(r.created_at) })),
          nextCursor,
          unread: count,
          currency: settings.currency,
        };
      });

      user.get('/api/notifications/unread-count', {
        schema: { tags: ['notifications'], summary: 'How many of my notifications are unread (the badge)', response: { 200: UnreadCountSchema, ...errorResponses } },
      }, async (request) => ({ unread: await unreadCount(ctx.db, requireAuth(request).userId) }));

      user.post('/api/notifications/read-all', {
        schema: { tags: ['notifications'], summary: 'Mark all my notifications read', response: { 200: OkSchema, ...errorResponses } },
      }, async (request) => {
        const auth = requireAuth(request);
        await ctx.db.updateTable('notifications').set({ read_at: Date.now() }).where('user_id', '=', auth.userId).where('read_at', 'is', null).execute();
        return { ok: true as const };
      });

      user.post('/api/notifications/:id/read', {
        schema: { tags: ['notifications'], summary: 'Mark one of my notifications read', params: IdParamsSchema, response: { 200: OkSchema, ...errorResponses } },
      }, async (request) => {
        const auth = requireAuth(request);
        const row = await ctx.db.selectFrom('notifications').select(['id', 'read_at']).where('id', '=', request.params.id).where('user_id', '=', auth.userId).executeTakeFirst();
        if (!row) throw new AppError('NOT_FOUND');
        if (row.read_at === null) await ctx.db.updateTable('notifications').set({ read_at: Date.now() }).where('id', '=', row.id).where('read_at', 'is', null).execute();
        return { ok: true as const };
      });
    });
  };
}
