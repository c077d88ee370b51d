import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AdminCampaignEnvelopeSchema, AdminCampaignListSchema, AdminEnrollmentListSchema, CampaignCreateSchema, CampaignEnvelopeSchema, CampaignListSchema,
  CampaignPatchSchema, CampaignQuerySchema, EnrollmentActionParamsSchema, EnrollmentEnvelopeSchema, EnrollmentPatchSchema, EnrollmentStatusSchema,
  IdParamsSchema, ImageSchema, ImageUploadQuerySchema, OkSchema, PageQuerySchema, RewardsPutSchema, RewardsSchema,
} from '@pa/shared';
import { campaignRewards, putCampaignRewards } from './rewards';
import type { AppContext } from '../../context';
import { IMAGE_BODY_LIMIT } from '../../platform/body-parser';
import { actorOf } from '../../platform/audit';
import { AppError, requestLocale } from '../../platform/errors';
import { PUBLIC, errorResponses } from '../../platform/openapi';
import { adminOnly, authenticated, requireAuth, staffOnly } from '../../platform/session';
import {
  addImage, adminCampaign, adminCampaigns, adminEnrollments, campaignImage, createCampaign, decideEnrollment, join, promoterCampaign, promoterCampaigns,
  removeImage, setEnrollmentCoupon, updateCampaign, type CampaignValues,
} from './service';

export function campaignRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post('/api/admin/campaigns', {
      preValidation: adminOnly,
      schema: { tags: ['campaigns'], summary: 'Create a campaign (draft)', body: CampaignCreateSchema, response: { 201: AdminCampaignEnvelopeSchema, ...errorResponses } },
    }, async (request, reply) => {
      const id = await createCampaign(ctx, actorOf(request), request.body as CampaignValues);
      return reply.status(201).send({ campaign: await adminCampaign(ctx, id) });
    });

    app.get('/api/admin/campaigns', {
      preValidation: staffOnly,
      schema: { tags: ['campaigns'], summary: 'All campaigns', querystring: PageQuerySchema.extend({ status: z.enum(['draft', 'active', 'paused', 'ended']).optional() }), response: { 200: AdminCampaignListSchema, ...errorResponses } },
    }, async (request) => adminCampaigns(ctx, request.query));

    app.get('/api/admin/campaigns/:id', {
      preValidation: staffOnly,
      schema: { tags: ['campaigns'], summary: 'One campaign, every field', params: IdParamsSchema, response: { 200: AdminCampaignEnvelopeSchema, ...errorResponses } },
    }, async (request) => ({ campaign: await adminCampaign(ctx, request.params.id) }));

    app.patch('/api/admin/campaigns/:id', {
      preValidation: adminOnly,
      schema: { tags: ['campaigns'], summary: 'Edit a campaign or move its status', params: IdParamsSchema, body: CampaignPatchSchema, response: { 200: AdminCampaignEnvelopeSchema, ...errorResponses } },
    }, async (request) => {
      await updateCampaign(ctx, actorOf(request), request.params.id, request.body as Parameters<typeof updateCampaign>[3]);
      return { campaign: await adminCampaign(ctx, request.params.id) };
    });

    app.get('/api/admin/campaigns/:id/rewards', {
      preValidation: staffOnly,
      schema: { tags: ['campaigns'], summary: 'The campaign’s reward rules, in order, and its monthly budget (docs/rewards.md)', params: IdParamsSchema, response: { 200: RewardsSchema, ...errorResponses } },
    }, async (request) => campaignRewards(ctx, request.params.id));

    app.put('/api/admin/campaigns/:id/rewards', {
      preValidation: adminOnly,
      schema: {
        tags: ['campaigns'],
        summary: 'Replace the reward rules (first match decides, per lead and per sale line) and the monthly budget',
        description: 'Rules `lead` and `sale` are the base rules the campaign’s reward fields edit; a rule without an id gets one. Changing the rules changes nothing already earned.',
        params: IdParamsSchema, body: RewardsPutSchema, response: { 200: RewardsSchema, ...errorResponses },
      },
    }, async (request) => putCampaignRewards(ctx, actorOf(request), request.params.id, request.body));

    app.post('/api/admin/campaigns/:id/images', {
      preValidation: adminOnly,
      bodyLimit: IMAGE_BODY_LIMIT,
      schema: {
        tags: ['campaigns'],
        summary: 'Upload a cover or poster template (PNG, JPEG or WebP, at most 2 MiB, raw bytes)',
        params: IdParamsSchema,
        querystring: ImageUploadQuerySchema,
        response: { 201: ImageSchema, ...errorResponses },
      },
    }, async (request, reply) => {
      const actor = actorOf(request);
      if (!Buffer.isBuffer(request.body)) throw new AppError('UNSUPPORTED_MEDIA_TYPE', { image: 'invalid' });
      return reply.status(201).send(await addImage(ctx, actor, request.params.id, request.query.kind, request.body));
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
      schema: { security: PUBLIC, tags: ['campaigns'], summary: 'A campaign image', params: IdParamsSchema },
    }, async (request, reply) => {
      const image = await campaignImage(ctx, request.params.id);
      const etag = `"${image.sha256}"`;
      reply.header('etag', etag).header('cache-control', 'public, max-age=31536000, immutable').header('cross-origin-resource-policy', 'same-origin');
      if (request.headers['if-none-match'] === etag) return reply.status(304).send();
      return reply.type(image.contentType).send(image.data);
    });

    app.get('/api/admin/enrollments', {
      preValidation: staffOnly,
      schema: { tags: ['campaigns'], summary: 'Enrollments to review', querystring: PageQuerySchema.extend({ status: EnrollmentStatusSchema.optional() }), response: { 200: AdminEnrollmentListSchema, ...errorResponses } },
    }, async (request) => adminEnrollments(ctx, request.query, requestLocale(request)));

    app.patch('/api/admin/enrollments/:id', {
      preValidation: staffOnly,
      schema: { tags: ['campaigns'], summary: 'Give an enrolled promoter a coupon code (or take it away with null)', params: IdParamsSchema, body: EnrollmentPatchSchema, response: { 200: OkSchema, ...errorResponses } },
    }, async (request) => {
      await setEnrollmentCoupon(ctx, actorOf(request), request.params.id, request.body.couponCode);
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

      promoter.get('/api/campaigns', {
        schema: { tags: ['campaigns'], summary: 'Campaigns I can promote (joined and open)', querystring: CampaignQuerySchema, response: { 200: CampaignListSchema, ...errorResponses } },
      }, async (request) => promoterCampaigns(ctx, requireAuth(request).userId, request.query, requestLocale(request)));

      promoter.get('/api/campaigns/:id', {
        schema: { tags: ['campaigns'], summary: 'One campaign', params: IdParamsSchema, response: { 200: CampaignEnvelopeSchema, ...errorResponses } },
      }, async (request) => ({ campaign: await promoterCampaign(ctx, requireAuth(request).userId, request.params.id, requestLocale(request)) }));

      promoter.post('/api/campaigns/:id/join', {
        schema: { tags: ['campaigns'], summary: 'Join a campaign', params: IdParamsSchema, response: { 200: EnrollmentEnvelopeSchema, 201: EnrollmentEnvelopeSchema, ...errorResponses } },
      }, async (request, reply) => {
        const auth = requireAuth(request);
        if (auth.role !== 'promoter') throw new AppError('FORBIDDEN');
        const { enrollment, created } = await join(ctx, auth.userId, request.params.id);
        return reply.status(created ? 201 : 200).send({ enrollment });
      });
    });
  };
}
