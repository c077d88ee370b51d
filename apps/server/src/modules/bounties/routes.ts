/**
 * Bounties' routes (issue 31 item 5; docs/bounties.md, docs/api.md "Bounties"): staff's under
 * api/admin — making and changing a bounty is an admin's (as a campaign's rewards are), reading
 * and deciding proof is staff's (as the other commission decisions) — and the promoter's signed-in.
 */
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AdminBountyEnvelopeSchema, AdminBountyListSchema, BountyCreateSchema, BountyImageSchema, BountyPatchSchema, BountySubmissionCreateSchema, BountySubmissionEnvelopeSchema,
  BountySubmissionListSchema, BountySubmissionQuerySchema, BountySubmissionRejectSchema, IdParamsSchema, PromoterBountyListSchema,
} from '@pa/shared';
import type { AppContext } from '../../context';
import { actorOf } from '../../platform/audit';
import { IMAGE_BODY_LIMIT } from '../../platform/body-parser';
import { AppError, requestLocale } from '../../platform/errors';
import { errorResponses } from '../../platform/openapi';
import { adminOnly, authenticated, requireAuth, staffOnly } from '../../platform/session';
import { addProofImage, adminBounties, approveSubmission, createBounty, listSubmissions, promoterBounties, proofImage, rejectSubmission, submitProof, updateBounty } from './service';

export function bountyRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post('/api/admin/campaigns/:id/bounties', {
      preValidation: adminOnly,
      schema: {
        tags: ['bounties'],
        summary: 'Add a bounty to a campaign: a goal to reach (performance) or a task to prove (submission); audited as bounty.create',
        params: IdParamsSchema, body: BountyCreateSchema, response: { 201: AdminBountyEnvelopeSchema, ...errorResponses },
      },
    }, async (request, reply) => reply.status(201).send({ bounty: await createBounty(ctx, actorOf(request), request.params.id, request.body) }));

    app.get('/api/admin/campaigns/:id/bounties', {
      preValidation: staffOnly,
      schema: { tags: ['bounties'], summary: 'A campaign’s bounties, newest first, with how often each was earned and its submissions waiting', params: IdParamsSchema, response: { 200: AdminBountyListSchema, ...errorResponses } },
    }, async (request) => ({ items: await adminBounties(ctx, request.params.id) }));

    app.patch('/api/admin/bounties/:id', {
      preValidation: adminOnly,
      schema: {
        tags: ['bounties'],
        summary: 'Change a bounty or archive it (audited as bounty.update)',
        description: 'The goal of a bounty already earned cannot change (INVALID_STATE_TRANSITION); what was earned stays earned.',
        params: IdParamsSchema, body: BountyPatchSchema, response: { 200: AdminBountyEnvelopeSchema, ...errorResponses },
      },
    }, async (request) => ({ bounty: await updateBounty(ctx, actorOf(request), request.params.id, request.body) }));

    app.get('/api/admin/bounty-submissions', {
      preValidation: staffOnly,
      schema: { tags: ['bounties'], summary: 'Promoters’ proof, newest first, by status and bounty', querystring: BountySubmissionQuerySchema, response: { 200: BountySubmissionListSchema, ...errorResponses } },
    }, async (request) => listSubmissions(ctx, request.query, requestLocale(request)));

    app.post('/api/admin/bounty-submissions/:id/approve', {
      preValidation: staffOnly,
      schema: {
        tags: ['bounties'],
        summary: 'Approve a pending submission: the bounty’s reward is earned once (audited as bounty_submission.approve)',
        description: 'A submission no longer pending (decided meanwhile): INVALID_STATE_TRANSITION, and nothing is paid.',
        params: IdParamsSchema, body: z.strictObject({}).nullish(), response: { 200: BountySubmissionEnvelopeSchema, ...errorResponses },
      },
    }, async (request) => ({ submission: await approveSubmission(ctx, actorOf(request), request.params.id) }));

    app.post('/api/admin/bounty-submissions/:id/reject', {
      preValidation: staffOnly,
      schema: {
        tags: ['bounties'],
        summary: 'Reject a pending submission with a reason; the promoter is told (audited as bounty_submission.reject)',
        params: IdParamsSchema, body: BountySubmissionRejectSchema, response: { 200: BountySubmissionEnvelopeSchema, ...errorResponses },
      },
    }, async (request) => ({ submission: await rejectSubmission(ctx, actorOf(request), request.params.id, request.body.reason) }));

    // ——— The promoter's ———
    await app.register(async (scope) => {
      const promoter = scope.withTypeProvider<ZodTypeProvider>();
      promoter.addHook('preValidation', authenticated);

      promoter.get('/api/bounties', {
        schema: { tags: ['bounties'], summary: 'The bounties open to me, in my language, with my progress', response: { 200: PromoterBountyListSchema, ...errorResponses } },
      }, async (request) => promoterBounties(ctx, requireAuth(request).userId, requestLocale(request)));

      promoter.post('/api/bounties/:id/submissions', {
        schema: {
          tags: ['bounties'],
          summary: 'Send proof for a submission bounty (one waiting at a time)',
          description: 'The bounty must be open, of a campaign I joined, for my group, and not yet earned; a submission already waiting: INVALID_STATE_TRANSITION.',
          params: IdParamsSchema, body: BountySubmissionCreateSchema, response: { 201: BountySubmissionEnvelopeSchema, ...errorResponses },
        },
      }, async (request, reply) => reply.status(201).send({ submission: await submitProof(ctx, requireAuth(request).userId, request.params.id, request.body) }));

      promoter.post('/api/bounties/:id/images', {
        bodyLimit: IMAGE_BODY_LIMIT,
        schema: {
          tags: ['bounties'],
          summary: 'Upload an image as proof (PNG, JPEG or WebP, at most 2 MiB, raw bytes); send its id as the submission’s imageId',
          params: IdParamsSchema, response: { 201: BountyImageSchema, ...errorResponses },
        },
      }, async (request, reply) => {
        const auth = requireAuth(request);
        if (!Buffer.isBuffer(request.body)) throw new AppError('UNSUPPORTED_MEDIA_TYPE', { image: 'invalid' });
        return reply.status(201).send(await addProofImage(ctx, auth.userId, request.params.id, request.body));
      });

      promoter.get('/api/bounty-images/:id', {
        schema: { tags: ['bounties'], summary: 'A proof image: its promoter’s, or staff’s', params: IdParamsSchema },
      }, async (request, reply) => {
        const image = await proofImage(ctx, requireAuth(request), request.params.id);
        reply.header('cache-control', 'private, max-age=86400').header('cross-origin-resource-policy', 'same-origin').header('x-content-type-options', 'nosniff');
        return reply.type(image.content_type).send(image.data);
      });
    });
  };
}
