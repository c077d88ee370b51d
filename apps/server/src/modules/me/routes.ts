import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ChangePasswordBodySchema, IdParamsSchema, MePatchSchema, OkSchema, SessionListSchema, UserEnvelopeSchema } from '@pa/shared';
import type { AppContext } from '../../context';
import { audit } from '../../platform/audit';
import { AppError } from '../../platform/errors';
import { errorResponses } from '../../platform/openapi';
import { authenticated, requireAuth } from '../../platform/session';
import { changePassword } from './service';
import { findUserById, toUser } from '../users/repository';

export function meRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('preValidation', authenticated);

    app.get('/api/me', {
      schema: { tags: ['me'], summary: 'The signed-in user', response: { 200: UserEnvelopeSchema, ...errorResponses } },
    }, async (request) => {
      const auth = requireAuth(request);
      return { user: toUser((await findUserById(ctx.db, auth.userId))!) };
    });

    app.patch('/api/me', {
      schema: { tags: ['me'], summary: 'Edit display name, language or leaderboard opt-out', body: MePatchSchema, response: { 200: UserEnvelopeSchema, ...errorResponses } },
    }, async (request) => {
      const auth = requireAuth(request);
      const { displayName, locale, leaderboardOptOut } = request.body;
      if (displayName !== undefined || locale !== undefined || leaderboardOptOut !== undefined) {
        await ctx.db.transaction().execute(async (trx) => {
          const row = await trx.selectFrom('users').select(['display_name', 'locale', 'leaderboard_opt_out']).where('id', '=', auth.userId).executeTakeFirstOrThrow();
          const before = { displayName: row.display_name, locale: row.locale, leaderboardOptOut: Number(row.leaderboard_opt_out) === 1 };
          await trx
            .updateTable('users')
            .set({
              ...(displayName !== undefined ? { display_name: displayName } : {}),
              ...(locale ? { locale } : {}),
              ...(leaderboardOptOut !== undefined ? { leaderboard_opt_out: leaderboardOptOut ? 1 : 0 } : {}),
              updated_at: Date.now(),
            })
            .where('id', '=', auth.userId)
            .execute();
          await audit(trx, { actorId: auth.userId, action: 'user.profile_update', entity: 'user', entityId: auth.userId, before, after: { displayName, locale, leaderboardOptOut }, ip: request.ip });
        });
      }
      return { user: toUser((await findUserById(ctx.db, auth.userId))!) };
    });

    app.post('/api/me/password', {
      config: { authRateLimit: true },
      schema: { tags: ['me'], summary: 'Change password (other sessions are signed out)', body: ChangePasswordBodySchema, response: { 200: OkSchema, ...errorResponses } },
    }, async (request) => {
      const auth = requireAuth(request);
      await changePassword(ctx, { userId: auth.userId, ip: request.ip }, auth.sessionId, request.body.current, request.body.next);
      return { ok: true as const };
    });

    app.get('/api/me/sessions', {
      schema: { tags: ['me'], summary: 'Signed-in devices', response: { 200: SessionListSchema, ...errorResponses } },
    }, async (request) => {
      const auth = requireAuth(request);
      const rows = await ctx.db
        .selectFrom('sessions')
        .select(['id', 'device', 'created_at', 'last_seen_at'])
        .where('user_id', '=', auth.userId)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', Date.now())
        .orderBy('last_seen_at', 'desc')
        .limit(100)
        .execute();
      return {
        items: rows.map((r) => ({ id: r.id, device: r.device, createdAt: r.created_at, lastSeenAt: r.last_seen_at, current: r.id === auth.sessionId })),
      };
    });

    app.delete('/api/me/sessions/:id', {
      schema: { tags: ['me'], summary: 'Sign out one device', params: IdParamsSchema, response: { 200: OkSchema, ...errorResponses } },
    }, async (request) => {
      const auth = requireAuth(request);
      const result = await ctx.db.transaction().execute(async (trx) => {
        const updated = await trx
          .updateTable('sessions')
          .set({ revoked_at: Date.now() })
          .where('id', '=', request.params.id)
          .where('user_id', '=', auth.userId)
          .where('revoked_at', 'is', null)
          .executeTakeFirst();
        if (Number(updated.numUpdatedRows) > 0) {
          await audit(trx, { actorId: auth.userId, action: 'session.revoke', entity: 'session', entityId: request.params.id, ip: request.ip });
        }
        return Number(updated.numUpdatedRows);
      });
      // Another user's session id looks exactly like an unknown one.
      if (result === 0) throw new AppError('NOT_FOUND');
      return { ok: true as const };
    });
  };
}
