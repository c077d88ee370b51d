import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { InviteLookupSchema, InviteParamsSchema, LoginBodySchema, OkSchema, PublicKeySchema, RegisterBodySchema, ResetPasswordBodySchema, ResetPasswordResultSchema, RevokedSchema, UserEnvelopeSchema } from '@pa/shared';
import type { AppContext } from '../../context';
import { requestLocale } from '../../platform/errors';
import { authenticated, clearSessionCookie, describeDevice, requireAuth, startSession } from '../../platform/session';
import { lookUpInvite, register, resetPassword, signIn, signOut, signOutEverywhere } from './service';
import { PUBLIC, PUBLIC_WRITE, errorResponses } from '../../platform/openapi';

export function authRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/auth/public-key', {
      schema: { security: PUBLIC, tags: ['auth'], summary: 'The RSA-OAEP-256 public key secrets are sealed with', response: { 200: PublicKeySchema, ...errorResponses } },
    }, async (_request, reply) => {
      const key = await ctx.keyring.current();
      reply.header('Cache-Control', 'no-cache');
      return { keyId: key.keyId, algorithm: 'RSA-OAEP-256' as const, spki: key.spki };
    });

    // Public, so limited like sign-in: the register page asks once, a prober guessing codes is stopped.
    app.get('/api/auth/invites/:code', {
      config: { authRateLimit: true },
      schema: { security: PUBLIC, tags: ['auth'], summary: 'Whose invite code this is (the name masked), for the register page', params: InviteParamsSchema, response: { 200: InviteLookupSchema, ...errorResponses } },
    }, async (request) => lookUpInvite(ctx, request.params.code));

    app.post('/api/auth/register', {
      config: { authRateLimit: true },
      schema: { security: PUBLIC_WRITE, tags: ['auth'], summary: 'Create a promoter account', body: RegisterBodySchema, response: { 201: UserEnvelopeSchema, ...errorResponses } },
    }, async (request, reply) => {
      const input = { ...request.body, locale: request.body.locale ?? requestLocale(request), ip: request.ip };
      const user = await register(ctx, input, (db, userId) => startSession(ctx, db, request, reply, userId));
      return reply.status(201).send({ user });
    });

    app.post('/api/auth/login', {
      config: { authRateLimit: true },
      schema: { security: PUBLIC_WRITE, tags: ['auth'], summary: 'Sign in', body: LoginBodySchema, response: { 200: UserEnvelopeSchema, ...errorResponses } },
    }, async (request, reply) => {
      const client = { ip: request.ip, device: describeDevice(request.headers['user-agent']) };
      return { user: await signIn(ctx, request.body.account, request.body.password, client, (db, userId) => startSession(ctx, db, request, reply, userId)) };
    });

    // Public (the person has no session yet), so limited like sign-in; CSRF is the pre-session double submit.
    app.post('/api/auth/reset-password', {
      config: { authRateLimit: true },
      schema: { security: PUBLIC_WRITE, tags: ['auth'], summary: 'Set the password with a one-time link (a reset made by staff, or a staff invitation); every session of the person ends', body: ResetPasswordBodySchema, response: { 200: ResetPasswordResultSchema, ...errorResponses } },
    }, async (request) => {
      const { account } = await resetPassword(ctx, { token: request.body.token, password: request.body.password, ip: request.ip });
      return { ok: true as const, account };
    });

    app.post('/api/auth/logout', {
      schema: { security: PUBLIC_WRITE, tags: ['auth'], summary: 'End this session', response: { 200: OkSchema, ...errorResponses } },
    }, async (request, reply) => {
      const auth = request.auth;
      if (auth) await signOut(ctx, auth, request.ip);
      clearSessionCookie(ctx, request, reply);
      return { ok: true as const };
    });

    app.post('/api/auth/logout-all', {
      preValidation: authenticated,
      schema: { tags: ['auth'], summary: 'End every session of the user', response: { 200: RevokedSchema, ...errorResponses } },
    }, async (request, reply) => {
      const auth = requireAuth(request);
      const revoked = await signOutEverywhere(ctx, auth.userId, request.ip);
      clearSessionCookie(ctx, request, reply);
      return { revoked };
    });
  };
}
