import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { IdParamsSchema, NotificationListSchema, NotificationQuerySchema, OkSchema, UnreadCountSchema, type NotificationType } from '@pa/shared';
import type { AppContext } from '../../context';
import type { Db } from '../../db/types';
import { AppError } from '../../platform/errors';
import { decodeCursor, pageOf } from '../../platform/listing';
import { errorResponses } from '../../platform/openapi';
import { authenticated, requireAuth } from '../../platform/session';
import { readSettings } from '../../platform/settings';

/** The badge counts at most this many (the app shows "99+"). */
export const UNREAD_CAP = 100;

/** Below this id every notification of the user is read (so counting and listing unread ones start here). */
async function unreadFrom(db: Db, userId: string): Promise<string> {
  return (await db.selectFrom('notification_marks').select('unread_from').where('user_id', '=', userId).executeTakeFirst())?.unread_from ?? '';
}

async function unreadCount(db: Db, userId: string): Promise<number> {
  const from = await unreadFrom(db, userId);
  const row = await db
    .selectFrom((eb) => eb.selectFrom('notifications').select('id').where('user_id', '=', userId).where('id', '>=', from).where('read_at', 'is', null).limit(UNREAD_CAP).as('u'))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Moves the user's mark up to their oldest unread notification (or past the newest when all are read). */
async function advanceMark(db: Db, userId: string): Promise<void> {
  const from = await unreadFrom(db, userId);
  const oldest = await db.selectFrom('notifications').select('id').where('user_id', '=', userId).where('id', '>=', from).where('read_at', 'is', null).orderBy('id').limit(1).executeTakeFirst();
  // Ids have one length and grow with time, so "newest id + '!'" sorts above it and below every later id.
  const next = oldest?.id ?? `${(await db.selectFrom('notifications').select((eb) => eb.fn.max('id').as('id')).where('user_id', '=', userId).executeTakeFirst())?.id ?? ''}!`;
  if (next === from) return;
  await db.insertInto('notification_marks').values({ user_id: userId, unread_from: next }).onConflict((oc) => oc.column('user_id').doUpdateSet({ unread_from: next })).execute();
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
        // Ids grow with time: newest first is the primary key's order within the reader's rows.
        let q = ctx.db.selectFrom('notifications').selectAll().where('user_id', '=', auth.userId).orderBy('id', 'desc').limit(limit + 1);
        if (unread === 'true') q = q.where('read_at', 'is', null).where('id', '>=', await unreadFrom(ctx.db, auth.userId));
        if (unread === 'false') q = q.where('read_at', 'is not', null);
        if (cursor) q = q.where('id', '<', decodeCursor(cursor).id);
        const [{ rows, nextCursor }, count, settings] = await Promise.all([q.execute().then((r) => pageOf(r, limit)), unreadCount(ctx.db, auth.userId), readSettings(ctx.db)]);
        const items = rows.map((r) => ({ id: r.id, type: r.type as NotificationType, params: JSON.parse(r.params_json) as Record<string, unknown>, readAt: r.read_at === null ? null : Number(r.read_at), createdAt: Number(r.created_at) }));
        // The campaigns' current names, per locale, for the reader's app to pick from.
        const campaignIds = [...new Set(items.map((n) => n.params.campaignId).filter((id): id is string => typeof id === 'string'))];
        const names = new Map(campaignIds.length ? (await ctx.db.selectFrom('campaigns').select(['id', 'names_json']).where('id', 'in', campaignIds).execute()).map((c) => [c.id, JSON.parse(c.names_json) as Record<string, string>]) : []);
        for (const n of items) if (typeof n.params.campaignId === 'string' && names.has(n.params.campaignId)) n.params.campaign = names.get(n.params.campaignId);
        return {
          items,
          nextCursor,
          unread: count,
          currency: settings.currency,
        };
      });

      user.get('/api/notifications/unread-count', {
        schema: { tags: ['notifications'], summary: 'How many of my notifications are unread (the badge; counted up to 100)', response: { 200: UnreadCountSchema, ...errorResponses } },
      }, async (request) => ({ unread: await unreadCount(ctx.db, requireAuth(request).userId) }));

      user.post('/api/notifications/read-all', {
        schema: { tags: ['notifications'], summary: 'Mark all my notifications read', response: { 200: OkSchema, ...errorResponses } },
      }, async (request) => {
        const auth = requireAuth(request);
        await ctx.db.transaction().execute(async (trx) => {
          await trx.updateTable('notifications').set({ read_at: Date.now() }).where('user_id', '=', auth.userId).where('id', '>=', await unreadFrom(trx, auth.userId)).where('read_at', 'is', null).execute();
          await advanceMark(trx, auth.userId);
        });
        return { ok: true as const };
      });

      user.post('/api/notifications/:id/read', {
        schema: { tags: ['notifications'], summary: 'Mark one of my notifications read', params: IdParamsSchema, response: { 200: OkSchema, ...errorResponses } },
      }, async (request) => {
        const auth = requireAuth(request);
        const row = await ctx.db.selectFrom('notifications').select(['id', 'read_at']).where('id', '=', request.params.id).where('user_id', '=', auth.userId).executeTakeFirst();
        if (!row) throw new AppError('NOT_FOUND');
        if (row.read_at === null) {
          await ctx.db.transaction().execute(async (trx) => {
            await trx.updateTable('notifications').set({ read_at: Date.now() }).where('user_id', '=', auth.userId).where('id', '=', row.id).where('read_at', 'is', null).execute();
            await advanceMark(trx, auth.userId);
          });
        }
        return { ok: true as const };
      });
    });
  };
}
