import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { IdParamsSchema, NotificationListSchema, NotificationQuerySchema, OkSchema, UnreadCountSchema } from '@pa/shared';
import type { AppContext } from '../../context';
import { errorResponses } from '../../platform/openapi';
import { authenticated, requireAuth } from '../../platform/session';
import { myNotifications, readAll, readOne, unreadCount } from './service';

/** The reader's own notifications: stored as type + parameters, rendered by the app in the reader's language. */
export function notificationRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(async (scope) => {
      const user = scope.withTypeProvider<ZodTypeProvider>();
      user.addHook('preValidation', authenticated);

      user.get('/api/notifications', {
        schema: { tags: ['notifications'], summary: 'My notifications, newest first', querystring: NotificationQuerySchema, response: { 200: NotificationListSchema, ...errorResponses } },
      }, async (request) => myNotifications(ctx, requireAuth(request).userId, request.query));

      user.get('/api/notifications/unread-count', {
        schema: { tags: ['notifications'], summary: 'How many of my notifications are unread (the badge; counted up to 100)', response: { 200: UnreadCountSchema, ...errorResponses } },
      }, async (request) => ({ unread: await unreadCount(ctx, requireAuth(request).userId) }));

      user.post('/api/notifications/read-all', {
        schema: { tags: ['notifications'], summary: 'Mark all my notifications read', response: { 200: OkSchema, ...errorResponses } },
      }, async (request) => {
        await readAll(ctx, requireAuth(request).userId);
        return { ok: true as const };
      });

      user.post('/api/notifications/:id/read', {
        schema: { tags: ['notifications'], summary: 'Mark one of my notifications read', params: IdParamsSchema, response: { 200: OkSchema, ...errorResponses } },
      }, async (request) => {
        await readOne(ctx, requireAuth(request).userId, request.params.id);
        return { ok: true as const };
      });
    });
  };
}
