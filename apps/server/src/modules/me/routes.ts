import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ChangePasswordBodySchema, EmailBodySchema, EmailPendingSchema, IdParamsSchema, MePatchSchema, OkSchema, SessionListSchema, UserEnvelopeSchema, VerifyEmailBodySchema, VerifyEmailResultSchema } from '@pa/shared';
import type { AppContext } from '../../context';
import { actorOf } from '../../platform/audit';
import { errorResponses, PUBLIC_WRITE } from '../../platform/openapi';
import { requestEmailVerification, verifyEmail } from './email';
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

    // Limited like sign-in: each call mails a stranger's address.
    app.post('/api/me/email', {
      config: { authRateLimit: true },
      schema: { tags: ['me'], summary: 'Add an e-mail address to a phone account: a one-time link (24 hours) is mailed to it; it counts once opened', body: EmailBodySchema, response: { 202: EmailPendingSchema, ...errorResponses } },
    }, async (request, reply) => reply.status(202).send(await requestEmailVerification(ctx, actorOf(request), request.body.email)));

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

/** The link mailed by `POST api/me/email`: public (it may be opened in another browser), the token is the proof. */
export function emailVerificationRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post('/api/auth/verify-email', {
      config: { authRateLimit: true },
      schema: { security: PUBLIC_WRITE, tags: ['auth'], summary: 'Verify an e-mail address with the mailed one-time link', body: VerifyEmailBodySchema, response: { 200: VerifyEmailResultSchema, ...errorResponses } },
    }, async (request) => verifyEmail(ctx, request.body.token, request.ip));
  };
}
