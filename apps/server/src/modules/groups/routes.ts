/**
 * `api/admin/groups…`: promoter groups (issue 31). Operators read them (the promoters table filters
 * by group); admins create, change and delete them, since reward rules follow groups. HTTP only:
 * schema in, service call, schema out.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { GroupCreateSchema, GroupDeletedSchema, GroupEnvelopeSchema, GroupListSchema, GroupPatchSchema, IdParamsSchema } from '@pa/shared';
import type { AppContext } from '../../context';
import { actorOf } from '../../platform/audit';
import { errorResponses } from '../../platform/openapi';
import { adminOnly, staffOnly } from '../../platform/session';
import { changeGroup, createGroup, groups, removeGroup, renewGroupLink } from './service';

export function groupRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['admin'];

    app.get('/api/admin/groups', {
      preValidation: staffOnly,
      schema: { tags, summary: 'Promoter groups with how many promoters each holds: the default first, then by name', response: { 200: GroupListSchema, ...errorResponses } },
    }, async () => ({ items: await groups(ctx) }));

    app.post('/api/admin/groups', {
      preValidation: adminOnly,
      schema: { tags, summary: 'Create a group (names unique regardless of case: GROUP_NAME_TAKEN); it gets its own invite link', body: GroupCreateSchema, response: { 201: GroupEnvelopeSchema, ...errorResponses } },
    }, async (request, reply) => reply.status(201).send({ group: await createGroup(ctx, actorOf(request), request.body) }));

    app.patch('/api/admin/groups/:id', {
      preValidation: adminOnly,
      schema: { tags, summary: 'Rename a group or change its description', params: IdParamsSchema, body: GroupPatchSchema, response: { 200: GroupEnvelopeSchema, ...errorResponses } },
    }, async (request) => ({ group: await changeGroup(ctx, actorOf(request), request.params.id, request.body) }));

    app.delete('/api/admin/groups/:id', {
      preValidation: adminOnly,
      schema: { tags, summary: 'Delete a group: its promoters move to the default group, which cannot be deleted (DEFAULT_GROUP)', params: IdParamsSchema, response: { 200: GroupDeletedSchema, ...errorResponses } },
    }, async (request) => removeGroup(ctx, actorOf(request), request.params.id));

    app.post('/api/admin/groups/:id/invite-code', {
      preValidation: adminOnly,
      schema: { tags, summary: 'A new invite link for the group; the old one stops working', params: IdParamsSchema, response: { 200: GroupEnvelopeSchema, ...errorResponses } },
    }, async (request) => ({ group: await renewGroupLink(ctx, actorOf(request), request.params.id) }));
  };
}
