/**
 * The application form (issue 31, item 8): what the register page asks (public), and the forms
 * admins edit — the registration's and each group's. HTTP only: schema in, service call, schema out.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ApplicationFormBodySchema, ApplicationFormSchema, IdParamsSchema, RegistrationFormQuerySchema, RegistrationFormSchema } from '@pa/shared';
import type { AppContext } from '../../context';
import { actorOf } from '../../platform/audit';
import { requestLocale } from '../../platform/errors';
import { PUBLIC, errorResponses } from '../../platform/openapi';
import { adminOnly, staffOnly } from '../../platform/session';
import { applicationForm, publicRegistrationForm, saveApplicationForm } from './service';

export function applicationRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    // Public (asked before there is an account). Not counted against sign-in's limit: every register
    // page asks it, and people registering together behind one address must not run out. A group's
    // code has 60 random bits, so trying codes finds nothing.
    app.get('/api/auth/application-form', {
      schema: {
        security: PUBLIC,
        tags: ['auth'],
        summary: 'The questions registering asks, in the request’s language: the registration’s (in approval mode), then those of the group whose invite code is given (an unknown code: NOT_FOUND)',
        querystring: RegistrationFormQuerySchema,
        response: { 200: RegistrationFormSchema, ...errorResponses },
      },
    }, async (request) => publicRegistrationForm(ctx, request.query.group, requestLocale(request)));

    app.get('/api/admin/application-form', {
      preValidation: staffOnly,
      schema: { tags: ['admin'], summary: 'The registration’s questions (asked while registration is in approval mode), every language', response: { 200: ApplicationFormSchema, ...errorResponses } },
    }, async () => applicationForm(ctx, null));

    app.put('/api/admin/application-form', {
      preValidation: adminOnly,
      schema: { tags: ['admin'], summary: 'Replace the registration’s questions (in order; ids kept for questions kept)', body: ApplicationFormBodySchema, response: { 200: ApplicationFormSchema, ...errorResponses } },
    }, async (request) => saveApplicationForm(ctx, actorOf(request), null, request.body));

    app.get('/api/admin/groups/:id/questions', {
      preValidation: staffOnly,
      schema: { tags: ['admin'], summary: 'The questions a group asks of those registering through its invite link', params: IdParamsSchema, response: { 200: ApplicationFormSchema, ...errorResponses } },
    }, async (request) => applicationForm(ctx, request.params.id));

    app.put('/api/admin/groups/:id/questions', {
      preValidation: adminOnly,
      schema: { tags: ['admin'], summary: 'Replace a group’s questions (in order; ids kept for questions kept)', params: IdParamsSchema, body: ApplicationFormBodySchema, response: { 200: ApplicationFormSchema, ...errorResponses } },
    }, async (request) => saveApplicationForm(ctx, actorOf(request), request.params.id, request.body));
  };
}
