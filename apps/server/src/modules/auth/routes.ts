import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { InviteLookupSchema, InviteParamsSchema, LoginBodySchema, OkSchema, PublicKeySchema, RegisterBodySchema, RevokedSchema, UserEnvelopeSchema } from '@pa/shared';
import type { AppContext } from '../../context';
import { requestLocale } from '../../platform/errors';
import { audit } from '../../platform/audit';
import { authenticated, clearSessionCookie, requireAuth, startSession } from '../../platform/session';
import { toUser } from '../users/repository';
import { authenticate, lookUpInvite, register } from './service';
import { errorResponses } from '../../platform/openapi';

export function authRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/auth/public-key', {
      schema: { tags: ['auth'], summary: 'The RSA-OAEP-256 public key secrets are sealed with', response: { 200: PublicKeySchema } },
    }, async (_request, reply) => {
      const key = await ctx.keyring.current();
      reply.header('Cache-Control', 'no-cache');
      return { keyId: key.keyId, algorithm: 'RSA-OAEP-256' as const, spki: key.spki };
    });

    // Public, so limited like sign-in: the register page asks once, a prober guessing codes is stopped.
    app.get('/api/auth/invites/:code', {
      config: { authRateLimit: true },
      schema: { tags: ['auth'], summary: 'Whose invite code this is (the name masked), for the register page', params: InviteParamsSchema, response: { 200: InviteLookupSchema, ...errorResponses } },
    }, async (request) => lookUpInvite(ctx, request.params.code));

    app.post('/api/auth/register', {
      config: { authRateLimit: true },
      schema: { tags: ['auth'], summary: 'Create a promoter account', body: RegisterBodySchema, response: { 201: UserEnvelopeSchema, ...errorResponses } },
    }, async (request, reply) => {
      const row = await register(ctx, { ...request.body, locale: request.body.locale ?? requestLocale(request) });
      if (row.status === 'active') await startSession(ctx, ctx.db, request, reply, row.id);
      return reply.status(201).send({ user: toUser(row) });
    });

    app.post('/api/auth/login', {
      config: { authRateLimit: true },
      schema: { tags: ['auth'], summary: 'Sign in', body: LoginBodySchema, response: { 200: UserEnvelopeSchema, ...errorResponses } },
    }, async (request, reply) => {
      const row = await authenticate(ctx, request.body.account, request.body.password);
      await startSession(ctx, ctx.db, request, reply, row.id);
      return { user: toUser(row) };
    });

    app.post('/api/auth/logout', {
      schema: { tags: ['auth'], summary: 'End this session', response: { 200: OkSchema, ...errorResponses } },
    }, async (request, reply) => {
      if (request.auth) {
        await ctx.db.updateTable('sessions').set({ revoked_at: Date.now() }).where('id', '=', request.auth.sessionId).execute();
      }
      clearSessionCookie(ctx, request, reply);
      return { ok: true as const };
    });

    app.post('/api/auth/logout-all', {
      preValidation: authenticated,
      schema: { tags: ['auth'], summary: 'End every session of the user', response: { 200: RevokedSchema, ...errorResponses } },
    }, async (request, reply) => {
      const auth = requireAuth(request);
      const now = Date.now();
      const revoked = await ctx.db.transaction().execute(async (trx) => {
        const result = await trx.updateTable('sessions').set({ revoked_at: now }).where('user_id', '=', auth.userId).where('revoked_at', 'is', null).executeTakeFirst();
        await audit(trx, { actorId: auth.userId, action: 'session.revoke_all', entity: 'user', entityId: auth.userId });
        return Number(result.numUpdatedRows);
      });
      clearSessionCookie(ctx, request, reply);
      return { revoked };
    });
  };
}
