/**
 * `api/admin/staff…`: operators and admins, managed by admins only (PRODUCT.md §7). HTTP only:
 * schema in, service call, schema out.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IdParamsSchema, StaffCreateBodySchema, StaffEnvelopeSchema, StaffInviteSchema, StaffListSchema, StaffPatchBodySchema } from '@pa/shared';
import type { AppContext } from '../../context';
import { requestLocale } from '../../platform/errors';
import { errorResponses } from '../../platform/openapi';
import { adminOnly, requireAuth } from '../../platform/session';
import { linkOrigin } from '../auth/password-tokens';
import { changeStaffMember, inviteStaff, reinviteStaff, staffMembers } from './service';

export function staffRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/admin/staff', {
      preValidation: adminOnly,
      schema: { tags: ['admin'], summary: 'Operators and admins, with role, status and last sign-in', response: { 200: StaffListSchema, ...errorResponses } },
    }, async () => ({ items: await staffMembers(ctx) }));

    app.post('/api/admin/staff', {
      preValidation: adminOnly,
      schema: { tags: ['admin'], summary: 'Add an operator or admin; answers a one-time set-password link (30 minutes), shown once', body: StaffCreateBodySchema, response: { 201: StaffInviteSchema, ...errorResponses } },
    }, async (request, reply) => {
      const auth = requireAuth(request);
      const invite = await inviteStaff(ctx, { ...request.body, locale: requestLocale(request), origin: linkOrigin(request) }, { userId: auth.userId, ip: request.ip });
      return reply.status(201).send(invite);
    });

    app.post('/api/admin/staff/:id/invite', {
      preValidation: adminOnly,
      schema: { tags: ['admin'], summary: 'A new set-password link for a staff member (ends any earlier one)', params: IdParamsSchema, response: { 200: StaffInviteSchema, ...errorResponses } },
    }, async (request) => reinviteStaff(ctx, request.params.id, linkOrigin(request), { userId: requireAuth(request).userId, ip: request.ip }));

    app.patch('/api/admin/staff/:id', {
      preValidation: adminOnly,
      schema: { tags: ['admin'], summary: 'Change a staff member\'s role or status; they are signed out everywhere. The last active admin cannot be demoted or suspended (LAST_ADMIN)', params: IdParamsSchema, body: StaffPatchBodySchema, response: { 200: StaffEnvelopeSchema, ...errorResponses } },
    }, async (request) => ({ user: await changeStaffMember(ctx, request.params.id, request.body, { userId: requireAuth(request).userId, ip: request.ip }) }));
  };
}
