import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ChangePasswordBodySchema, IdParamsSchema, MePatchSchema, OkSchema, SessionListSchema, UserEnvelopeSchema } from '@pa/shared';
import type { AppContext } from '../../context';
import { actorOf } from '../../platform/audit';
import { errorResponses } from '../../platform/openapi';
import { authenticated, requireAuth } from '../../platform/session';
import { changePassword, editProfile, me, mySessions, signOutDevice } from './service';

export function meRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('preValidation', authenticated);

    app.get('/api/me', {
      schema: { tags: ['me'], summary: 'The signed-in user', response: { 200: UserEnvelopeSchema, ...errorResponses } },
    }, async (request) => ({ user: await me(ctx, requireAuth(request).userId) }));

    app.patch('/api/me', {
      schema: { tags: ['me'], summary: 'Edit display name, language or leaderboard opt-out', body: MePatchSchema, response: { 200: UserEnvelopeSchema, ...errorResponses } },
    }, async (request) => ({ user: await editProfile(ctx, actorOf(request), request.body) }));

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
      return { items: await mySessions(ctx, auth.userId, auth.sessionId) };
    });

    app.delete('/api/me/sessions/:id', {
      schema: { tags: ['me'], summary: 'Sign out one device', params: IdParamsSchema, response: { 200: OkSchema, ...errorResponses } },
    }, async (request) => {
      await signOutDevice(ctx, actorOf(request), request.params.id);
      return { ok: true as const };
    });
  };
}
