/**
 * `api/admin/promoters…`: the console's promoters. Operators and admins read everything and make
 * password reset links; only admins adjust balances. HTTP only: schema in, service call, schema out.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AdjustmentCreateSchema, AdjustmentHeadersSchema, AdjustmentResultSchema, AdminPromoterCommissionListSchema, AdminPromoterDetailSchema,
  AdminPromoterExportQuerySchema, AdminPromoterLedgerSchema, AdminPromoterLinkListSchema, AdminPromoterListSchema, AdminPromoterPayoutAccountListSchema,
  AdminPromoterQuerySchema, AdminPromoterSessionListSchema, AdminPromoterWithdrawalListSchema, IdParamsSchema, PageQuerySchema, PasswordResetLinkSchema,
  PromoterGroupMovedSchema, PromoterGroupMoveSchema, PromoterPatchSchema,
} from '@pa/shared';
import type { AppContext } from '../../context';
import { sendCsv } from '../../platform/csv';
import { requestLocale } from '../../platform/errors';
import { errorResponses } from '../../platform/openapi';
import { adminOnly, requireAuth, staffOnly } from '../../platform/session';
import { linkOrigin } from '../auth/password-tokens';
import { actorOf } from '../../platform/audit';
import { adjustBalance, changePromoter, exportPromoters, findPromoters, makeResetLink, movePromoters, promoterDetail, promoterTab } from './service';

export function promoterRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['admin'];

    app.get('/api/admin/promoters', {
      preValidation: staffOnly,
      schema: {
        tags,
        summary: 'Find promoters by name, account, invite code, link code or coupon code; sorted on the server',
        querystring: AdminPromoterQuerySchema,
        response: { 200: AdminPromoterListSchema, ...errorResponses },
      },
    }, async (request) => {
      const { limit, cursor, ...filters } = request.query;
      return findPromoters(ctx, filters, { limit, cursor });
    });

    app.get('/api/admin/promoters/export', {
      preValidation: staffOnly,
      schema: { tags, summary: 'The promoters the filters find, as CSV (audited as promoter.export)', querystring: AdminPromoterExportQuerySchema },
    }, async (request, reply) => {
      const auth = requireAuth(request);
      const { csv, filename } = await exportPromoters(ctx, auth.userId, request.query, request.ip);
      return sendCsv(reply, filename, csv);
    });

    app.get('/api/admin/promoters/:id', {
      preValidation: staffOnly,
      schema: { tags, summary: 'A promoter: profile, status and its actions, inviter, group, application answers, team size, wallet', params: IdParamsSchema, response: { 200: AdminPromoterDetailSchema, ...errorResponses } },
    }, async (request) => promoterDetail(ctx, request.params.id, requestLocale(request)));

    app.patch('/api/admin/promoters/:id', {
      preValidation: adminOnly,
      schema: { tags, summary: 'Move a promoter into a group (admin; audited as promoter.group)', params: IdParamsSchema, body: PromoterPatchSchema, response: { 200: AdminPromoterDetailSchema, ...errorResponses } },
    }, async (request) => changePromoter(ctx, actorOf(request), request.params.id, request.body, requestLocale(request)));

    app.post('/api/admin/promoters/group', {
      preValidation: adminOnly,
      schema: { tags, summary: 'Move many promoters into a group at once, all or none (admin; one promoter.group entry per promoter moved)', body: PromoterGroupMoveSchema, response: { 200: PromoterGroupMovedSchema, ...errorResponses } },
    }, async (request) => movePromoters(ctx, actorOf(request), request.body.promoterIds, request.body.groupId));

    app.get('/api/admin/promoters/:id/ledger', {
      preValidation: staffOnly,
      schema: { tags, summary: 'A promoter’s ledger lines, newest first', params: IdParamsSchema, querystring: PageQuerySchema, response: { 200: AdminPromoterLedgerSchema, ...errorResponses } },
    }, async (request) => promoterTab(ctx, request.params.id, 'ledger', request.query, requestLocale(request)));

    app.get('/api/admin/promoters/:id/commissions', {
      preValidation: staffOnly,
      schema: { tags, summary: 'A promoter’s commissions, newest first', params: IdParamsSchema, querystring: PageQuerySchema, response: { 200: AdminPromoterCommissionListSchema, ...errorResponses } },
    }, async (request) => promoterTab(ctx, request.params.id, 'commissions', request.query, requestLocale(request)));

    app.get('/api/admin/promoters/:id/withdrawals', {
      preValidation: staffOnly,
      schema: { tags, summary: 'A promoter’s withdrawals, newest first (last four of the account only)', params: IdParamsSchema, querystring: PageQuerySchema, response: { 200: AdminPromoterWithdrawalListSchema, ...errorResponses } },
    }, async (request) => promoterTab(ctx, request.params.id, 'withdrawals', request.query, requestLocale(request)));

    app.get('/api/admin/promoters/:id/links', {
      preValidation: staffOnly,
      schema: { tags, summary: 'A promoter’s links, newest first', params: IdParamsSchema, querystring: PageQuerySchema, response: { 200: AdminPromoterLinkListSchema, ...errorResponses } },
    }, async (request) => promoterTab(ctx, request.params.id, 'links', request.query, requestLocale(request)));

    app.get('/api/admin/promoters/:id/payout-accounts', {
      preValidation: staffOnly,
      schema: { tags, summary: 'A promoter’s payout accounts: method, holder and last four only', params: IdParamsSchema, querystring: PageQuerySchema, response: { 200: AdminPromoterPayoutAccountListSchema, ...errorResponses } },
    }, async (request) => promoterTab(ctx, request.params.id, 'payoutAccounts', request.query, requestLocale(request)));

    app.get('/api/admin/promoters/:id/sessions', {
      preValidation: staffOnly,
      schema: { tags, summary: 'A promoter’s signed-in devices', params: IdParamsSchema, querystring: PageQuerySchema, response: { 200: AdminPromoterSessionListSchema, ...errorResponses } },
    }, async (request) => promoterTab(ctx, request.params.id, 'sessions', request.query, requestLocale(request)));

    app.post('/api/admin/promoters/:id/adjustments', {
      preValidation: adminOnly,
      schema: {
        tags,
        summary: 'Credit or debit a promoter’s available balance (admin); Idempotency-Key required',
        params: IdParamsSchema,
        headers: AdjustmentHeadersSchema,
        body: AdjustmentCreateSchema,
        response: { 200: AdjustmentResultSchema, 201: AdjustmentResultSchema, ...errorResponses },
      },
    }, async (request, reply) => {
      const auth = requireAuth(request);
      const { adjustment, available, replayed } = await adjustBalance(ctx, {
        promoterId: request.params.id,
        actorId: auth.userId,
        amount: request.body.amount,
        reason: request.body.reason,
        allowNegative: request.body.allowNegative === true,
        idempotencyKey: request.headers['idempotency-key'],
        ip: request.ip,
      });
      if (replayed) reply.header('idempotent-replayed', 'true');
      return reply.status(replayed ? 200 : 201).send({ adjustment, available });
    });

    app.post('/api/admin/promoters/:id/password-reset', {
      preValidation: staffOnly,
      schema: { tags, summary: 'A one-time link (30 minutes) for the promoter to set a new password; shown once', params: IdParamsSchema, response: { 201: PasswordResetLinkSchema, ...errorResponses } },
    }, async (request, reply) => {
      const auth = requireAuth(request);
      const link = await makeResetLink(ctx, { promoterId: request.params.id, actorId: auth.userId, origin: linkOrigin(request), ip: request.ip });
      return reply.status(201).header('cache-control', 'no-store').send(link);
    });
  };
}
