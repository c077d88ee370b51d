import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AdminWithdrawalDetailSchema, AdminWithdrawalEnvelopeSchema, AdminWithdrawalListSchema, AdminWithdrawalQuerySchema, IdParamsSchema, OkSchema, PayoutAccountCreateSchema,
  PayoutAccountEnvelopeSchema, PayoutAccountListSchema, PayoutAccountPatchSchema, WithdrawalActionBodySchema, WithdrawalActionParamsSchema, WithdrawalCreateSchema,
  WithdrawalDetailSchema, WithdrawalEnvelopeSchema, WithdrawalListSchema, WithdrawalQuerySchema, WithdrawalTermsSchema,
} from '@pa/shared';
import type { AppContext } from '../../context';
import { actorOf } from '../../platform/audit';
import { sendCsv } from '../../platform/csv';
import { errorResponses } from '../../platform/openapi';
import { authenticated, requireAuth, staffOnly } from '../../platform/session';
import { toWithdrawal } from '../../platform/withdrawal-view';
import {
  addPayoutAccount, adminWithdrawal, adminWithdrawalDetail, adminWithdrawals, deletePayoutAccount, exportApprovedWithdrawals, listPayoutAccounts, listWithdrawals,
  moveWithdrawal, requestWithdrawal, setDefaultPayoutAccount, withdrawalDetail, withdrawalTerms,
} from './service';

const IdempotencyHeaderSchema = z.looseObject({ 'idempotency-key': z.string().trim().min(1).max(100).optional() });

export function withdrawalRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    // ——— The promoter's own ———
    await app.register(async (scope) => {
      const promoter = scope.withTypeProvider<ZodTypeProvider>();
      promoter.addHook('preValidation', authenticated);

      promoter.get('/api/payout-accounts', {
        schema: { tags: ['withdrawals'], summary: 'My payout accounts (only the last four characters of each number)', response: { 200: PayoutAccountListSchema, ...errorResponses } },
      }, async (request) => ({ items: await listPayoutAccounts(ctx, requireAuth(request).userId) }));

      promoter.post('/api/payout-accounts', {
        schema: { tags: ['withdrawals'], summary: 'Add a payout account (number sealed with the RSA key)', body: PayoutAccountCreateSchema, response: { 201: PayoutAccountEnvelopeSchema, ...errorResponses } },
      }, async (request, reply) => {
        const auth = requireAuth(request);
        const payoutAccount = await addPayoutAccount(ctx, auth.userId, request.body, request.ip);
        return reply.status(201).send({ payoutAccount });
      });

      promoter.patch('/api/payout-accounts/:id', {
        schema: { tags: ['withdrawals'], summary: 'Make a payout account the default', params: IdParamsSchema, body: PayoutAccountPatchSchema, response: { 200: PayoutAccountEnvelopeSchema, ...errorResponses } },
      }, async (request) => {
        const auth = requireAuth(request);
        return { payoutAccount: await setDefaultPayoutAccount(ctx, auth.userId, request.params.id) };
      });

      promoter.delete('/api/payout-accounts/:id', {
        schema: { tags: ['withdrawals'], summary: 'Delete a payout account (not while a withdrawal in progress uses it)', params: IdParamsSchema, response: { 200: OkSchema, ...errorResponses } },
      }, async (request) => {
        const auth = requireAuth(request);
        await deletePayoutAccount(ctx, auth.userId, request.params.id, request.ip);
        return { ok: true as const };
      });

      promoter.get('/api/withdrawals/terms', {
        schema: { tags: ['withdrawals'], summary: 'What the withdrawal form needs: balance, limits, fee, today’s count', response: { 200: WithdrawalTermsSchema, ...errorResponses } },
      }, async (request) => withdrawalTerms(ctx, requireAuth(request).userId));

      promoter.post('/api/withdrawals', {
        schema: {
          tags: ['withdrawals'],
          summary: 'Request a withdrawal (available → withdrawing); Idempotency-Key makes a retry safe',
          headers: IdempotencyHeaderSchema,
          body: WithdrawalCreateSchema,
          response: { 201: WithdrawalEnvelopeSchema, ...errorResponses },
        },
      }, async (request, reply) => {
        const auth = requireAuth(request);
        const { withdrawal, replayed } = await requestWithdrawal(ctx, auth.userId, request.body, request.headers['idempotency-key'] ?? null, request.ip);
        if (replayed) reply.header('idempotent-replayed', 'true');
        return reply.status(201).send({ withdrawal: toWithdrawal(withdrawal) });
      });

      promoter.get('/api/withdrawals', {
        schema: { tags: ['withdrawals'], summary: 'My withdrawals, newest first', querystring: WithdrawalQuerySchema, response: { 200: WithdrawalListSchema, ...errorResponses } },
      }, async (request) => {
        const auth = requireAuth(request);
        return listWithdrawals(ctx, auth.userId, request.query);
      });

      promoter.get('/api/withdrawals/:id', {
        schema: { tags: ['withdrawals'], summary: 'One of my withdrawals with its status timeline', params: IdParamsSchema, response: { 200: WithdrawalDetailSchema, ...errorResponses } },
      }, async (request) => {
        const auth = requireAuth(request);
        return withdrawalDetail(ctx, auth.userId, request.params.id);
      });

      promoter.post('/api/withdrawals/:id/cancel', {
        schema: { tags: ['withdrawals'], summary: 'Cancel my withdrawal while it is requested (the money returns)', params: IdParamsSchema, response: { 200: WithdrawalEnvelopeSchema, ...errorResponses } },
      }, async (request) => {
        const auth = requireAuth(request);
        const row = await moveWithdrawal(ctx, request.params.id, 'cancel', { userId: auth.userId, promoterOnly: true, ip: request.ip }, {});
        return { withdrawal: toWithdrawal(row) };
      });
    });

    // ——— Operators ———
    await app.register(async (scope) => {
      const staff = scope.withTypeProvider<ZodTypeProvider>();
      staff.addHook('preValidation', staffOnly);

      staff.get('/api/admin/withdrawals', {
        schema: { tags: ['admin'], summary: 'The withdrawal queue (account numbers never shown: last four only)', querystring: AdminWithdrawalQuerySchema, response: { 200: AdminWithdrawalListSchema, ...errorResponses } },
      }, async (request) => adminWithdrawals(ctx, request.query));

      staff.get('/api/admin/withdrawals/export.csv', {
        schema: { tags: ['admin'], summary: 'Approved withdrawals as a CSV bank batch with full account numbers (recorded in the audit log)' },
      }, async (request, reply) => {
        const { csv, filename } = await exportApprovedWithdrawals(ctx, actorOf(request));
        return sendCsv(reply, filename, csv);
      });

      staff.get('/api/admin/withdrawals/:id', {
        schema: { tags: ['admin'], summary: 'One withdrawal with its timeline', params: IdParamsSchema, response: { 200: AdminWithdrawalDetailSchema, ...errorResponses } },
      }, async (request) => adminWithdrawalDetail(ctx, request.params.id));

      staff.post('/api/admin/withdrawals/:id/:action', {
        schema: {
          tags: ['admin'],
          summary: 'Approve, mark paid (reference), mark failed (reason; money returns) or reject (reason; money returns)',
          params: WithdrawalActionParamsSchema,
          body: WithdrawalActionBodySchema.nullish(),
          response: { 200: AdminWithdrawalEnvelopeSchema, ...errorResponses },
        },
      }, async (request) => {
        const auth = requireAuth(request);
        await moveWithdrawal(ctx, request.params.id, request.params.action, { userId: auth.userId, promoterOnly: false, ip: request.ip }, request.body ?? {});
        return { withdrawal: await adminWithdrawal(ctx, request.params.id) };
      });
    });
  };
}
