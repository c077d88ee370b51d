import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AdminAnnouncementEnvelopeSchema, AdminAnnouncementListSchema, AdminAnnouncementQuerySchema, AnnouncementCreateSchema, AnnouncementListSchema,
  AnnouncementPatchSchema, AnnouncementQuerySchema, IdParamsSchema, OkSchema,
} from '@pa/shared';
import type { AppContext } from '../../context';
import { requestLocale } from '../../platform/errors';
import { errorResponses } from '../../platform/openapi';
import { actorOf } from '../../platform/audit';
import { authenticated, staffOnly } from '../../platform/session';
import { adminAnnouncements, createAnnouncement, deleteAnnouncement, getAnnouncement, publishedAnnouncements, updateAnnouncement } from './service';

export function announcementRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    // ——— Everyone signed in: what Home shows ———
    await app.register(async (scope) => {
      const reader = scope.withTypeProvider<ZodTypeProvider>();
      reader.addHook('preValidation', authenticated);

      reader.get('/api/announcements', {
        schema: {
          tags: ['announcements'],
          summary: 'Published announcements, pinned first then newest, in the request’s language (else English, else the first one written)',
          querystring: AnnouncementQuerySchema,
          response: { 200: AnnouncementListSchema, ...errorResponses },
        },
      }, async (request) => ({ items: await publishedAnnouncements(ctx, requestLocale(request), request.query.limit) }));
    });

    // ——— Operators and admins ———
    await app.register(async (scope) => {
      const staff = scope.withTypeProvider<ZodTypeProvider>();
      staff.addHook('preValidation', staffOnly);

      staff.get('/api/admin/announcements', {
        schema: { tags: ['admin'], summary: 'Every announcement with all its texts, newest first', querystring: AdminAnnouncementQuerySchema, response: { 200: AdminAnnouncementListSchema, ...errorResponses } },
      }, async (request) => adminAnnouncements(ctx, request.query));

      staff.get('/api/admin/announcements/:id', {
        schema: { tags: ['admin'], summary: 'One announcement with all its texts', params: IdParamsSchema, response: { 200: AdminAnnouncementEnvelopeSchema, ...errorResponses } },
      }, async (request) => ({ announcement: await getAnnouncement(ctx, request.params.id) }));

      staff.post('/api/admin/announcements', {
        schema: { tags: ['admin'], summary: 'Write an announcement (draft, or published at once)', body: AnnouncementCreateSchema, response: { 201: AdminAnnouncementEnvelopeSchema, ...errorResponses } },
      }, async (request, reply) => {
        const announcement = await createAnnouncement(ctx, actorOf(request), request.body);
        return reply.status(201).send({ announcement });
      });

      staff.patch('/api/admin/announcements/:id', {
        schema: {
          tags: ['admin'],
          summary: 'Edit texts or pin, or move the status: draft → published, published → archived, archived → published',
          params: IdParamsSchema,
          body: AnnouncementPatchSchema,
          response: { 200: AdminAnnouncementEnvelopeSchema, ...errorResponses },
        },
      }, async (request) => ({ announcement: await updateAnnouncement(ctx, actorOf(request), request.params.id, request.body) }));

      staff.delete('/api/admin/announcements/:id', {
        schema: { tags: ['admin'], summary: 'Delete a draft (published and archived ones are kept: archive instead)', params: IdParamsSchema, response: { 200: OkSchema, ...errorResponses } },
      }, async (request) => {
        await deleteAnnouncement(ctx, actorOf(request), request.params.id);
        return { ok: true as const };
      });
    });
  };
}
