import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AdminCampaignEnvelopeSchema, AdminCampaignListSchema, AdminEnrollmentListSchema, CampaignCreateSchema, CampaignListSchema,
  CampaignPatchSchema, CampaignQuerySchema, CampaignSchema, EnrollmentActionParamsSchema, EnrollmentPatchSchema, EnrollmentSchema, EnrollmentStatusSchema,
  IdParamsSchema, ImageSchema, OkSchema, PageQuerySchema,
} from '@pa/shared';
import type { AppContext } from '../../context';
import { IMAGE_BODY_LIMIT } from '../../platform/body-parser';
import { likePattern, olderThan, pageOf } from '../../platform/listing';
import { actorOf, audit } from '../../platform/audit';
import { AppError, requestLocale } from '../../platform/errors';
import { isUniqueViolation } from '../users/repository';
import { errorResponses } from '../../platform/openapi';
import { adminOnly, authenticated, requireAuth, staffOnly } from '../../platform/session';
import { readSettings } from '../../platform/settings';
import { pickLocalized } from '../../platform/localized';
import { CAMPAIGN_COLUMNS, imagesOf, imageUrl, toAdminCampaign, toCampaign } from './repository';
import { addImage, createCampaign, decideEnrollment, join, removeImage, updateCampaign, type CampaignValues } from './service';

export function campaignRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const adminCampaign = async (id: string) => {
      const row = await ctx.db.selectFrom('campaigns').select(CAMPAIGN_COLUMNS).where('id', '=', id).executeTakeFirst();
      if (!row) throw new AppError('NOT_FOUND');
      return toAdminCampaign(row, (await imagesOf(ctx.db, [id])).get(id) ?? []);
    };

    app.post('/api/admin/campaigns', {
      preValidation: adminOnly,
      schema: { tags: ['campaigns'], summary: 'Create a campaign (draft)', body: CampaignCreateSchema, response: { 201: AdminCampaignEnvelopeSchema, ...errorResponses } },
    }, async (request, reply) => {
      const id = await createCampaign(ctx, actorOf(request), request.body as CampaignValues);
      return reply.status(201).send({ campaign: await adminCampaign(id) });
    });

    app.get('/api/admin/campaigns', {
      preValidation: staffOnly,
      schema: { tags: ['campaigns'], summary: 'All campaigns', querystring: PageQuerySchema.extend({ status: z.enum(['draft', 'active', 'paused', 'ended']).optional() }), response: { 200: AdminCampaignListSchema, ...errorResponses } },
    }, async (request) => {
      const { limit, cursor, status } = request.query;
      let q = ctx.db.selectFrom('campaigns').select(CAMPAIGN_COLUMNS).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit + 1);
      if (status) q = q.where('status', '=', status);
      if (cursor) q = q.where(olderThan(cursor, 'campaigns.created_at', 'campaigns.id'));
      const { rows, nextCursor } = pageOf(await q.execute(), limit);
      const images = await imagesOf(ctx.db, rows.map((r) => r.id));
      return { items: rows.map((r) => toAdminCampaign(r, images.get(r.id) ?? [])), nextCursor };
    });

    app.get('/api/admin/campaigns/:id', {
      preValidation: staffOnly,
      schema: { tags: ['campaigns'], summary: 'One campaign, every field', params: IdParamsSchema, response: { 200: AdminCampaignEnvelopeSchema, ...errorResponses } },
    }, async (request) => ({ campaign: await adminCampaign(request.params.id) }));

    app.patch('/api/admin/campaigns/:id', {
      preValidation: adminOnly,
      schema: { tags: ['campaigns'], summary: 'Edit a campaign or move its status', params: IdParamsSchema, body: CampaignPatchSchema, response: { 200: AdminCampaignEnvelopeSchema, ...errorResponses } },
    }, async (request) => {
      await updateCampaign(ctx, actorOf(request), request.params.id, request.body as Parameters<typeof updateCampaign>[3]);
      return { campaign: await adminCampaign(request.params.id) };
    });

    app.post('/api/admin/campaigns/:id/images', {
      preValidation: adminOnly,
      bodyLimit: IMAGE_BODY_LIMIT,
      schema: {
        tags: ['campaigns'],
        summary: 'Upload a cover or poster template (PNG, JPEG or WebP, at most 2 MiB, raw bytes)',
        params: IdParamsSchema,
        querystring: z.strictObject({ kind: z.enum(['cover', 'poster']) }),
        response: { 201: ImageSchema, ...errorResponses },
      },
    }, async (request, reply) => {
      const actor = actorOf(request);
      if (!Buffer.isBuffer(request.body)) throw new AppError('UNSUPPORTED_MEDIA_TYPE', { image: 'invalid' });
      const image = await addImage(ctx, actor, request.params.id, request.query.kind, request.body);
      return reply.status(201).send({ id: image.id, url: imageUrl(image.id), width: image.width, height: image.height, contentType: image.contentType });
    });

    app.delete('/api/admin/campaigns/:id/images/:imageId', {
      preValidation: adminOnly,
      schema: { tags: ['campaigns'], summary: 'Remove an image', params: z.strictObject({ id: z.string().max(64), imageId: z.string().max(64) }), response: { 200: OkSchema, ...errorResponses } },
    }, async (request) => {
      await removeImage(ctx, actorOf(request), request.params.id, request.params.imageId);
      return { ok: true as const };
    });

    /** Images are immutable (a new upload gets a new id): cached for a year, revalidated by ETag. */
    app.get('/api/images/:id', {
      schema: { tags: ['campaigns'], summary: 'A campaign image', params: IdParamsSchema },
    }, async (request, reply) => {
      const row = await ctx.db.selectFrom('campaign_images').select(['content_type', 'data', 'sha256']).where('id', '=', request.params.id).executeTakeFirst();
      if (!row) throw new AppError('NOT_FOUND');
      const etag = `"${row.sha256}"`;
      reply.header('etag', etag).header('cache-control', 'public, max-age=31536000, immutable').header('cross-origin-resource-policy', 'same-origin');
      if (request.headers['if-none-match'] === etag) return reply.status(304).send();
      return reply.type(row.content_type).send(Buffer.from(row.data));
    });

    app.get('/api/admin/enrollments', {
      preValidation: staffOnly,
      schema: { tags: ['campaigns'], summary: 'Enrollments to review', querystring: PageQuerySchema.extend({ status: EnrollmentStatusSchema.optional() }), response: { 200: AdminEnrollmentListSchema, ...errorResponses } },
    }, async (request) => {
      const { limit, cursor, status } = request.query;
      let q = ctx.db
        .selectFrom('enrollments')
        .innerJoin('users', 'users.id', 'enrollments.promoter_id')
        .innerJoin('campaigns', 'campaigns.id', 'enrollments.campaign_id')
        .select(['enrollments.id', 'enrollments.campaign_id', 'enrollments.status', 'enrollments.created_at', 'enrollments.coupon_code', 'enrollments.promoter_id', 'users.display_name', 'users.account', 'campaigns.names_json'])
        .orderBy('enrollments.created_at', 'desc')
        .orderBy('enrollments.id', 'desc')
        .limit(limit + 1);
      if (status) q = q.where('enrollments.status', '=', status);
      if (cursor) q = q.where(olderThan(cursor, 'enrollments.created_at', 'enrollments.id'));
      const { rows, nextCursor } = pageOf(await q.execute(), limit);
      const locale = requestLocale(request);
      return {
        items: rows.map((r) => ({ id: r.id, campaignId: r.campaign_id, status: r.status, createdAt: r.created_at, couponCode: r.coupon_code, promoterId: r.promoter_id, promoterName: r.display_name, promoterAccount: r.account, campaignName: pickLocalized(r.names_json, locale) })),
        nextCursor,
      };
    });

    app.patch('/api/admin/enrollments/:id', {
      preValidation: staffOnly,
      schema: { tags: ['campaigns'], summary: 'Give an enrolled promoter a coupon code (or take it away with null)', params: IdParamsSchema, body: EnrollmentPatchSchema, response: { 200: OkSchema, ...errorResponses } },
    }, async (request) => {
      const auth = requireAuth(request);
      const { couponCode } = request.body;
      const now = Date.now();
      try {
        await ctx.db.transaction().execute(async (trx) => {
          const row = await trx.selectFrom('enrollments').select(['id', 'status', 'coupon_code']).where('id', '=', request.params.id).executeTakeFirst();
          if (!row) throw new AppError('NOT_FOUND');
          if (row.status !== 'approved' && couponCode !== null) throw new AppError('INVALID_STATE_TRANSITION');
          await trx.updateTable('enrollments').set({ coupon_code: couponCode }).where('id', '=', row.id).execute();
          await audit(trx, { actorId: auth.userId, action: 'enrollment.coupon', entity: 'enrollment', entityId: row.id, before: { couponCode: row.coupon_code }, after: { couponCode }, ip: request.ip }, now);
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw new AppError('VALIDATION_FAILED', { couponCode: 'taken' });
        throw error;
      }
      return { ok: true as const };
    });

    app.post('/api/admin/enrollments/:id/:action', {
      preValidation: staffOnly,
      schema: { tags: ['campaigns'], summary: 'Approve or reject an enrollment', params: EnrollmentActionParamsSchema, response: { 200: OkSchema, ...errorResponses } },
    }, async (request) => {
      await decideEnrollment(ctx, actorOf(request), request.params.id, request.params.action);
      return { ok: true as const };
    });

    await app.register(async (scope) => {
      const promoter = scope.withTypeProvider<ZodTypeProvider>();
      promoter.addHook('preValidation', authenticated);

      /** Promoters see active campaigns, and every non-draft campaign they have joined. */
      const visible = (userId: string) =>
        ctx.db
          .selectFrom('campaigns')
          .leftJoin('enrollments', (j) => j.onRef('enrollments.campaign_id', '=', 'campaigns.id').on('enrollments.promoter_id', '=', userId))
          .select([...CAMPAIGN_COLUMNS, 'enrollments.id as enrollment_id', 'enrollments.status as enrollment_status', 'enrollments.created_at as enrolled_at', 'enrollments.coupon_code'])
          .where((eb) => eb.or([eb('campaigns.status', '=', 'active'), eb.and([eb('campaigns.status', '!=', 'draft'), eb('enrollments.id', 'is not', null)])]));

      const present = async (rows: Awaited<ReturnType<ReturnType<typeof visible>['execute']>>, locale: string) => {
        const images = await imagesOf(ctx.db, rows.map((r) => r.id));
        const { currency } = await readSettings(ctx.db);
        return rows.map((r) =>
          toCampaign(r, images.get(r.id) ?? [], locale, r.enrollment_id && r.enrollment_status && r.enrolled_at !== null ? { id: r.enrollment_id, status: r.enrollment_status, created_at: r.enrolled_at, coupon_code: r.coupon_code } : null, currency),
        );
      };

      promoter.get('/api/campaigns', {
        schema: { tags: ['campaigns'], summary: 'Campaigns I can promote (joined and open)', querystring: CampaignQuerySchema, response: { 200: CampaignListSchema, ...errorResponses } },
      }, async (request) => {
        const auth = requireAuth(request);
        const { limit, cursor, q, joined } = request.query;
        let query = visible(auth.userId).orderBy('campaigns.created_at', 'desc').orderBy('campaigns.id', 'desc').limit(limit + 1);
        if (joined === 'true') query = query.where('enrollments.id', 'is not', null);
        if (joined === 'false') query = query.where('enrollments.id', 'is', null);
        if (q) query = query.where((eb) => eb.or([eb(eb.fn('lower', ['campaigns.names_json']), 'like', likePattern(q)), eb(eb.fn('lower', ['campaigns.descriptions_json']), 'like', likePattern(q))]));
        if (cursor) query = query.where(olderThan(cursor, 'campaigns.created_at', 'campaigns.id'));
        const { rows, nextCursor } = pageOf(await query.execute(), limit);
        return { items: await present(rows, requestLocale(request)), nextCursor };
      });

      promoter.get('/api/campaigns/:id', {
        schema: { tags: ['campaigns'], summary: 'One campaign', params: IdParamsSchema, response: { 200: z.object({ campaign: CampaignSchema }), ...errorResponses } },
      }, async (request) => {
        const auth = requireAuth(request);
        const rows = await visible(auth.userId).where('campaigns.id', '=', request.params.id).execute();
        if (rows.length === 0) throw new AppError('NOT_FOUND');
        return { campaign: (await present(rows, requestLocale(request)))[0]! };
      });

      promoter.post('/api/campaigns/:id/join', {
        schema: { tags: ['campaigns'], summary: 'Join a campaign', params: IdParamsSchema, response: { 200: z.object({ enrollment: EnrollmentSchema }), 201: z.object({ enrollment: EnrollmentSchema }), ...errorResponses } },
      }, async (request, reply) => {
        const auth = requireAuth(request);
        if (auth.role !== 'promoter') throw new AppError('FORBIDDEN');
        const { enrollment, created } = await join(ctx, auth.userId, request.params.id);
        return reply.status(created ? 201 : 200).send({ enrollment: { id: enrollment.id, campaignId: request.params.id, status: enrollment.status, createdAt: enrollment.created_at, couponCode: enrollment.coupon_code } });
      });
    });
  };
}
