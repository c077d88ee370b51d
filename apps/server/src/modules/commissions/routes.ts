import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AdminCommissionListSchema, AdminConversionListSchema, CommissionBulkResultSchema, CommissionBulkSchema, OkSchema, CommissionDecisionSchema, CommissionDetailSchema, CommissionListSchema,
  CommissionQuerySchema, CommissionStatusSchema, ConversionCreateSchema, ConversionKindSchema, ConversionResultSchema, IdParamsSchema,
  ExplanationSchema, LedgerCheckSchema, LedgerListSchema, PageQuerySchema, WalletSchema,
  AdminConversionDetailSchema, AdminConversionQuerySchema, BindingEndSchema, BindingEnvelopeSchema, BindingListSchema, BindingMoveSchema, BindingQuerySchema,
  CommissionReverseResultSchema, CommissionReverseSchema, ConversionAssignResultSchema, ConversionAssignSchema,
} from '@pa/shared';
import type { AppContext } from '../../context';
import { apiKeyAuth } from '../../platform/api-keys';
import { actorOf } from '../../platform/audit';
import { sendCsv } from '../../platform/csv';
import { AppError, requestLocale } from '../../platform/errors';
import { API_KEY, errorResponses } from '../../platform/openapi';
import { adminOnly, authenticated, requireAuth, staffOnly } from '../../platform/session';
import { assignConversion, endBindingByStaff, moveBinding, reverseCommissionByStaff } from './corrections';
import { commissionDetail, commissionExplanation, conversionAnswer, conversionDetail, conversionExplanation, conversionByKey, exportMyCommissions, ledgerCheck, ledgerFor, listBindings, listCommissions, listConversions, myCommissions, toBinding, walletFor } from './reads';
import { decideCommission, recordConversion } from './service';

export function commissionRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    // ——— Server to server ———
    app.post('/api/v1/conversions', {
      // A JSON API for servers: the page security headers (CSP and the rest) are for browsers.
      helmet: false,
      // The answer is built by this code from stored rows: plain JSON, no second validation pass.
      serializerCompiler: () => (data) => JSON.stringify(data),
      preValidation: apiKeyAuth(ctx, 'conversions:write'),
      schema: {
        tags: ['conversions'],
        summary: 'Report a lead, sale or refund (idempotent on campaignId + kind + externalId)',
        description: 'Bearer API key with the conversions:write scope; optional X-Signature: t=<unix>,v1=<hex HMAC-SHA256(secret, t + "." + body)>. A repeated externalId returns the stored result with 200.',
        security: API_KEY,
        body: ConversionCreateSchema,
        response: { 200: ConversionResultSchema, 201: ConversionResultSchema, ...errorResponses },
      },
    }, async (request, reply) => {
      reply.header('x-content-type-options', 'nosniff').header('cache-control', 'no-store');
      const result = await recordConversion(ctx, request.apiKey?.id ?? null, request.body);
      return reply.status(result.created ? 201 : 200).send(await conversionAnswer(ctx, result));
    });

    app.get('/api/v1/conversions/:externalId', {
      preValidation: apiKeyAuth(ctx, 'conversions:read'),
      schema: {
        tags: ['conversions'],
        summary: 'A reported conversion and its commissions',
        security: API_KEY,
        params: z.strictObject({ externalId: z.string().min(1).max(128) }),
        querystring: z.strictObject({ campaignId: z.string().min(1).max(64), kind: ConversionKindSchema.default('sale') }),
        response: { 200: ConversionResultSchema, ...errorResponses },
      },
    }, async (request) => conversionByKey(ctx, request.query.campaignId, request.query.kind, request.params.externalId));

    // ——— Operators ———
    app.get('/api/admin/conversions', {
      preValidation: staffOnly,
      schema: {
        tags: ['conversions'],
        summary: 'Reported conversions, newest received first: by order id (`q`, exactly) and filters',
        description: '`from`/`to`: days the conversions occurred, in the installation’s time zone, both included.',
        querystring: AdminConversionQuerySchema,
        response: { 200: AdminConversionListSchema, ...errorResponses },
      },
    }, async (request) => listConversions(ctx, request.query, requestLocale(request)));

    app.get('/api/admin/conversions/:id', {
      preValidation: staffOnly,
      schema: { tags: ['conversions'], summary: 'One conversion: what was sent, its commissions and refunds, and how it was decided', params: IdParamsSchema, response: { 200: AdminConversionDetailSchema, ...errorResponses } },
    }, async (request) => conversionDetail(ctx, request.params.id, requestLocale(request)));

    app.post('/api/admin/conversions/:id/assign', {
      preValidation: staffOnly,
      schema: {
        tags: ['conversions'],
        summary: 'Credit an unattributed or misattributed lead or sale to a promoter (docs/rewards.md "Corrections")',
        description: 'Commissions of an earlier attribution are reversed in full with the reason; new ones are decided by the campaign’s rules as if attributed when it occurred, less what refunds took back. Audited as conversion.assign.',
        params: IdParamsSchema,
        body: ConversionAssignSchema,
        response: { 200: ConversionAssignResultSchema, ...errorResponses },
      },
    }, async (request) => assignConversion(ctx, request.params.id, request.body, actorOf(request)));

    app.get('/api/admin/conversions/:id/explanation', {
      preValidation: staffOnly,
      schema: { tags: ['conversions'], summary: 'How the conversion was decided, step by step, in the reader’s language (docs/rewards.md)', params: IdParamsSchema, response: { 200: ExplanationSchema, ...errorResponses } },
    }, async (request) => conversionExplanation(ctx, request.params.id, requestLocale(request)));

    app.get('/api/admin/commissions', {
      preValidation: staffOnly,
      schema: { tags: ['commissions'], summary: 'Commissions to review', querystring: PageQuerySchema.extend({ status: CommissionStatusSchema.optional(), campaignId: z.string().max(64).optional() }), response: { 200: AdminCommissionListSchema, ...errorResponses } },
    }, async (request) => {
      const { limit, cursor, status, campaignId } = request.query;
      return listCommissions(ctx, { status, campaignId }, { limit, cursor }, requestLocale(request));
    });

    app.post('/api/admin/commissions/:id/reverse', {
      preValidation: staffOnly,
      schema: {
        tags: ['commissions'],
        summary: 'Take back all that remains of a pending or approved commission (a clawback; the available balance may go below zero)',
        description: 'The promoter is told, with the reason (a notification and the commission’s timeline). A commission no longer pending or approved: INVALID_STATE_TRANSITION. Audited as commission.reverse.',
        params: IdParamsSchema,
        body: CommissionReverseSchema,
        response: { 200: CommissionReverseResultSchema, ...errorResponses },
      },
    }, async (request) => reverseCommissionByStaff(ctx, request.params.id, request.body.reason, actorOf(request)));

    app.get('/api/admin/commissions/:id/explanation', {
      preValidation: staffOnly,
      schema: { tags: ['commissions'], summary: 'Why a commission earned what it did, step by step (a bounty’s reward too, which has no conversion)', params: IdParamsSchema, response: { 200: ExplanationSchema, ...errorResponses } },
    }, async (request) => commissionExplanation(ctx, requireAuth(request), request.params.id, requestLocale(request)));

    app.post('/api/admin/commissions/:id/:action', {
      preValidation: staffOnly,
      schema: {
        tags: ['commissions'],
        summary: 'Approve or reject a pending commission (reject needs a reason)',
        params: z.strictObject({ id: z.string().min(1).max(64), action: z.enum(['approve', 'reject']) }),
        body: CommissionDecisionSchema.nullish(),
        response: { 200: OkSchema, ...errorResponses },
      },
    }, async (request) => {
      const actor = actorOf(request);
      const reason = request.body?.reason ?? null;
      if (request.params.action === 'reject' && !reason) throw new AppError('VALIDATION_FAILED', { reason: 'required' });
      const changed = await decideCommission(ctx, request.params.id, request.params.action, actor, reason);
      if (!changed) throw new AppError('INVALID_STATE_TRANSITION');
      return { ok: true as const };
    });

    app.post('/api/admin/commissions/bulk', {
      preValidation: staffOnly,
      schema: {
        tags: ['commissions'],
        summary: 'Approve or reject many pending commissions; reports which changed',
        body: CommissionBulkSchema,
        response: { 200: CommissionBulkResultSchema, ...errorResponses },
      },
    }, async (request) => {
      const actor = actorOf(request);
      const { ids, action, reason } = request.body;
      if (action === 'reject' && !reason) throw new AppError('VALIDATION_FAILED', { reason: 'required' });
      const changed: string[] = [];
      const skipped: string[] = [];
      for (const id of [...new Set(ids)]) {
        try {
          if (await decideCommission(ctx, id, action, actor, reason ?? null)) changed.push(id);
          else skipped.push(id);
        } catch (error) {
          if (error instanceof AppError && error.code === 'NOT_FOUND') skipped.push(id);
          else throw error;
        }
      }
      return { changed, skipped };
    });

    // ——— Customer bindings (recurring campaigns, docs/integrations.md) ———
    app.get('/api/admin/bindings', {
      preValidation: staffOnly,
      schema: { tags: ['conversions'], summary: 'Customer bindings, latest started first: by customer id (exactly), campaign, promoter', querystring: BindingQuerySchema, response: { 200: BindingListSchema, ...errorResponses } },
    }, async (request) => listBindings(ctx, request.query, requestLocale(request)));

    app.post('/api/admin/bindings/:id/end', {
      preValidation: staffOnly,
      schema: { tags: ['conversions'], summary: 'End a customer’s binding now (audited as binding.end)', params: IdParamsSchema, body: BindingEndSchema, response: { 200: BindingEnvelopeSchema, ...errorResponses } },
    }, async (request) => ({ binding: toBinding(await endBindingByStaff(ctx, request.params.id, request.body.reason, actorOf(request)), requestLocale(request)) }));

    app.post('/api/admin/bindings/:id/move', {
      preValidation: staffOnly,
      schema: {
        tags: ['conversions'],
        summary: 'Bind the customer to another promoter from now (audited as binding.move)',
        description: 'Ends the binding and starts one for the promoter named, under a new id, for the campaign’s binding length; later conversions of the customer credit them.',
        params: IdParamsSchema,
        body: BindingMoveSchema,
        response: { 200: BindingEnvelopeSchema, ...errorResponses },
      },
    }, async (request) => ({ binding: toBinding(await moveBinding(ctx, request.params.id, request.body, actorOf(request)), requestLocale(request)) }));

    app.get('/api/admin/ledger/check', {
      preValidation: adminOnly,
      schema: { tags: ['commissions'], summary: 'Verify every ledger invariant', response: { 200: LedgerCheckSchema, ...errorResponses } },
    }, async () => ledgerCheck(ctx));

    // ——— The promoter's own ———
    await app.register(async (scope) => {
      const promoter = scope.withTypeProvider<ZodTypeProvider>();
      promoter.addHook('preValidation', authenticated);

      promoter.get('/api/wallet', {
        schema: { tags: ['wallet'], summary: 'My balances (minor units)', response: { 200: WalletSchema, ...errorResponses } },
      }, async (request) => {
        const auth = requireAuth(request);
        return walletFor(ctx, auth.userId);
      });

      promoter.get('/api/commissions', {
        schema: { tags: ['commissions'], summary: 'My commissions, newest first, with filters', querystring: CommissionQuerySchema, response: { 200: CommissionListSchema, ...errorResponses } },
      }, async (request) => {
        const auth = requireAuth(request);
        return myCommissions(ctx, auth.userId, request.query, requestLocale(request));
      });

      promoter.get('/api/commissions/export', {
        schema: {
          tags: ['commissions'],
          summary: 'My commissions as CSV (UTF-8 with BOM, in my language)',
          querystring: CommissionQuerySchema.omit({ limit: true, cursor: true }),
        },
      }, async (request, reply) => {
        const auth = requireAuth(request);
        const { csv, filename } = await exportMyCommissions(ctx, auth.userId, request.query, requestLocale(request));
        return sendCsv(reply, filename, csv);
      });

      promoter.get('/api/commissions/:id', {
        schema: { tags: ['commissions'], summary: 'One of my commissions with its timeline', params: IdParamsSchema, response: { 200: CommissionDetailSchema, ...errorResponses } },
      }, async (request) => {
        const auth = requireAuth(request);
        return commissionDetail(ctx, auth, request.params.id, requestLocale(request));
      });

      promoter.get('/api/commissions/:id/explanation', {
        schema: { tags: ['commissions'], summary: 'Why one of my commissions earned what it did, step by step', params: IdParamsSchema, response: { 200: ExplanationSchema, ...errorResponses } },
      }, async (request) => commissionExplanation(ctx, requireAuth(request), request.params.id, requestLocale(request)));

      promoter.get('/api/ledger', {
        schema: { tags: ['wallet'], summary: 'Every movement of my money, newest first', querystring: PageQuerySchema, response: { 200: LedgerListSchema, ...errorResponses } },
      }, async (request) => {
        const auth = requireAuth(request);
        return ledgerFor(ctx, auth.userId, request.query);
      });
    });
  };
}
