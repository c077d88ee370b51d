import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AcceptedSchema, ForgotPasswordBodySchema, MailMessageEnvelopeSchema, MailMessageListSchema, MailMessageQuerySchema, MailPreferencePatchSchema, MailPreferencesSchema,
  MailSettingsSchema, MailTestBodySchema,
} from '@pa/shared';
import type { AppContext } from '../../context';
import { PUBLIC_WRITE, errorResponses } from '../../platform/openapi';
import { adminOnly, authenticated, requireAuth } from '../../platform/session';
import { forgotPassword, mailMessages, mailPreferences, mailSettings, sendTestMail, setMailPreference } from './service';

/** E-mail: the console's settings page and outbox, a person's categories, and "forgot password". */
export function mailRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/admin/mail', {
      preValidation: adminOnly,
      schema: { tags: ['mail'], summary: 'Whether e-mail is on, through which server (never its password), and the outbox counts', response: { 200: MailSettingsSchema, ...errorResponses } },
    }, async () => mailSettings(ctx));

    app.get('/api/admin/mail/messages', {
      preValidation: adminOnly,
      schema: { tags: ['mail'], summary: 'Mails written, newest first, with their sending status (never their bodies)', querystring: MailMessageQuerySchema, response: { 200: MailMessageListSchema, ...errorResponses } },
    }, async (request) => mailMessages(ctx, request.query));

    app.post('/api/admin/mail/test', {
      preValidation: adminOnly,
      schema: { tags: ['mail'], summary: 'Send a test message (to the admin’s own address unless `to` is given); 409 MAIL_DISABLED when e-mail is off', body: MailTestBodySchema, response: { 202: MailMessageEnvelopeSchema, ...errorResponses } },
    }, async (request, reply) => reply.status(202).send({ message: await sendTestMail(ctx, requireAuth(request).userId, request.body.to) }));

    app.get('/api/me/mail-preferences', {
      preValidation: authenticated,
      schema: { tags: ['me'], summary: 'The e-mail categories the person receives', response: { 200: MailPreferencesSchema, ...errorResponses } },
    }, async (request) => mailPreferences(ctx, requireAuth(request).userId));

    app.patch('/api/me/mail-preferences', {
      preValidation: authenticated,
      schema: { tags: ['me'], summary: 'Turn an e-mail category on or off', body: MailPreferencePatchSchema, response: { 200: MailPreferencesSchema, ...errorResponses } },
    }, async (request) => setMailPreference(ctx, requireAuth(request).userId, request.body.category, request.body.enabled));

    // Public, so limited like sign-in. Always 202: the answer says nothing about the account.
    app.post('/api/auth/forgot-password', {
      config: { authRateLimit: true },
      schema: { security: PUBLIC_WRITE, tags: ['auth'], summary: 'Mail a one-time password link to the account, when it exists and is an e-mail address (always 202)', body: ForgotPasswordBodySchema, response: { 202: AcceptedSchema, ...errorResponses } },
    }, async (request, reply) => {
      await forgotPassword(ctx, request.body.account);
      return reply.status(202).send({ ok: true as const });
    });
  };
}
