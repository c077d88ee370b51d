import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AdminWithdrawalEnvelopeSchema, AdminWithdrawalListSchema, AdminWithdrawalQuerySchema, IdParamsSchema, OkSchema, PayoutAccountCreateSchema,
  PayoutAccountEnvelopeSchema, PayoutAccountListSchema, WithdrawalActionBodySchema, WithdrawalActionParamsSchema, WithdrawalCreateSchema,
  WithdrawalDetailSchema, WithdrawalEnvelopeSchema, WithdrawalListSchema, WithdrawalQuerySchema, WithdrawalTermsSchema,
  type AdminWithdrawal, type PayoutAccount, type Withdrawal,
} from '@pa/shared';
import { sql } from 'kysely';
import type { AppContext } from '../../context';
import type { PayoutAccountsTable } from '../../db/types';
import { audit } from '../../platform/audit';
import { csvAmount, csvId, currencyDigits, sendCsv, toCsv } from '../../platform/csv';
import { AppError } from '../../platform/errors';
import { likePattern, olderThan, pageOf } from '../../platform/listing';
import { errorResponses } from '../../platform/openapi';
import { authenticated, requireAuth, staffOnly } from '../../platform/session';
import { dayKey } from '../../platform/time';
import { zoneOf } from '../../platform/settings';
import {
  addPayoutAccount, deletePayoutAccount, IN_FLIGHT, moveWithdrawal, requestWithdrawal, setDefaultPayoutAccount, withdrawalAccountNumber, withdrawalTerms,
  type WithdrawalRow,
} from './service';

const IdempotencyHeaderSchema = z.looseObject({ 'idempotency-key': z.string().trim().min(1).max(100).optional() });

const toPayoutAccount = (r: PayoutAccountsTable & { in_use?: unknown }): PayoutAccount => ({
  id: r.id,
  method: r.method,
  holderName: r.holder_name,
  last4: r.last4,
  isDefault: !!Number(r.is_default),
  inUse: !!Number(r.in_use ?? 0),
  createdAt: Number(r.created_at),
});

export const toWithdrawal = (r: WithdrawalRow): Withdrawal => ({
  id: r.id,
  amount: Number(r.amount),
  fee: Number(r.fee),
  net: Number(r.net),
  currency: r.currency,
  status: r.status,
  account: { method: r.account_method, holderName: r.account_holder, last4: r.account_last4 },
  requestedAt: Number(r.requested_at),
  decidedAt: r.decided_at === null ? null : Number(r.decided_at),
  paidAt: r.paid_at === null ? null : Number(r.paid_at),
  payoutReference: r.payout_reference,
  reason: r.reason,
});

export function withdrawalRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  /** Withdrawals with their promoter and whether another promoter has registered the same account number. */
  const selectAdmin = () =>
    ctx.db
      .selectFrom('withdrawals as w')
      .innerJoin('users as u', 'u.id', 'w.promoter_id')
      .selectAll('w')
      .select(['u.display_name as promoter_name', 'u.account as promoter_account'])
      .select(sql<number>`(case when exists (select 1 from payout_accounts p where p.number_digest = w.account_digest and p.promoter_id <> w.promoter_id)
        or exists (select 1 from withdrawals o where o.account_digest = w.account_digest and o.promoter_id <> w.promoter_id) then 1 else 0 end)`.as('shared'));
  type AdminRow = Awaited<ReturnType<ReturnType<typeof selectAdmin>['executeTakeFirstOrThrow']>>;
  const toAdmin = (r: AdminRow): AdminWithdrawal => ({ ...toWithdrawal(r), promoterId: r.promoter_id, promoterName: r.promoter_name, promoterAccount: r.promoter_account, sharedAccount: !!Number(r.shared) });
  const eventsOf = async (id: string) =>
    (await ctx.db.selectFrom('withdrawal_events').select(['status', 'reason', 'reference', 'at']).where('withdrawal_id', '=', id).orderBy('at').orderBy('id').execute())
      .map((e) => ({ status: e.status, reason: e.reason, reference: e.reference, at: Number(e.at) }));

  return async (app) => {
    // ——— The promoter's own ———
    await app.register(async (scope) => {
      const promoter = scope.withTypeProvider<ZodTypeProvider>();
      promoter.addHook('preValidation', authenticated);

      promoter.get('/api/payout-accounts', {
        schema: { tags: ['withdrawals'], summary: 'My payout accounts (only the last four characters of each number)', response: { 200: PayoutAccountListSchema, ...errorResponses } },
      }, async (request) => {
        const auth = requireAuth(request);
        const rows = await ctx.db
          .selectFrom('payout_accounts as p')
          .selectAll('p')
          .select((eb) => eb.exists(eb.selectFrom('withdrawals as w').select('w.id').whereRef('w.payout_account_id', '=', 'p.id').where('w.status', 'in', IN_FLIGHT)).as('in_use'))
          .where('p.promoter_id', '=', auth.userId)
          .orderBy('p.is_default', 'desc')
          .orderBy('p.created_at', 'desc')
          .execute();
        return { items: rows.map(toPayoutAccount) };
      });

      promoter.post('/api/payout-accounts', {
        schema: { tags: ['withdrawals'], summary: 'Add a payout account (number sealed with the RSA key)', body: PayoutAccountCreateSchema, response: { 201: PayoutAccountEnvelopeSchema, ...errorResponses } },
      }, async (request, reply) => {
        const auth = requireAuth(request);
        const row = await addPayoutAccount(ctx, auth.userId, request.body, request.ip);
        return reply.status(201).send({ payoutAccount: toPayoutAccount(row) });
      });

      promoter.patch('/api/payout-accounts/:id', {
        schema: { tags: ['withdrawals'], summary: 'Make a payout account the default', params: IdParamsSchema, body: z.strictObject({ isDefault: z.literal(true) }), response: { 200: PayoutAccountEnvelopeSchema, ...errorResponses } },
      }, async (request) => {
        const auth = requireAuth(request);
        await setDefaultPayoutAccount(ctx, auth.userId, request.params.id);
        const row = await ctx.db.selectFrom('payout_accounts').selectAll().where('id', '=', request.params.id).executeTakeFirstOrThrow();
        return { payoutAccount: toPayoutAccount(row) };
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
        const { limit, cursor, status } = request.query;
        let q = ctx.db.selectFrom('withdrawals').selectAll().where('promoter_id', '=', auth.userId).orderBy('requested_at', 'desc').orderBy('id', 'desc').limit(limit + 1);
        if (status) q = q.where('status', '=', status);
        if (cursor) q = q.where(olderThan(cursor, 'requested_at', 'id'));
        const { rows, nextCursor } = pageOf(await q.execute(), limit, (r) => [Number(r.requested_at), r.id]);
        return { items: rows.map(toWithdrawal), nextCursor };
      });

      promoter.get('/api/withdrawals/:id', {
        schema: { tags: ['withdrawals'], summary: 'One of my withdrawals with its status timeline', params: IdParamsSchema, response: { 200: WithdrawalDetailSchema, ...errorResponses } },
      }, async (request) => {
        const auth = requireAuth(request);
        const row = await ctx.db.selectFrom('withdrawals').selectAll().where('id', '=', request.params.id).where('promoter_id', '=', auth.userId).executeTakeFirst();
        if (!row) throw new AppError('NOT_FOUND');
        return { withdrawal: toWithdrawal(row), events: await eventsOf(row.id) };
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
      }, async (request) => {
        const { limit, cursor, status, q } = request.query;
        let query = selectAdmin().orderBy('w.requested_at', 'desc').orderBy('w.id', 'desc').limit(limit + 1);
        if (status) query = query.where('w.status', '=', status);
        if (q) {
          const like = likePattern(q);
          query = query.where((eb) => eb.or([eb(eb.fn('lower', ['u.display_name']), 'like', like), eb('u.account', 'like', like)]));
        }
        if (cursor) query = query.where(olderThan(cursor, 'w.requested_at', 'w.id'));
        const { rows, nextCursor } = pageOf(await query.execute(), limit, (r) => [Number(r.requested_at), r.id]);
        return { items: rows.map(toAdmin), nextCursor };
      });

      staff.get('/api/admin/withdrawals/export.csv', {
        schema: { tags: ['admin'], summary: 'Approved withdrawals as a CSV bank batch with full account numbers (recorded in the audit log)' },
      }, async (request, reply) => {
        const auth = requireAuth(request);
        const rows = await selectAdmin().where('w.status', '=', 'approved').orderBy('w.requested_at').limit(10_000).execute();
        const digits = currencyDigits(rows[0]?.currency ?? 'CNY');
        const csv = toCsv(
          ['withdrawal_id', 'requested_at', 'promoter_account', 'promoter_name', 'method', 'holder_name', 'account_number', 'amount', 'fee', 'net', 'currency'],
          rows.map((r) => [
            csvId(r.id),
            new Date(Number(r.requested_at)).toISOString(),
            csvId(r.promoter_account),
            r.promoter_name,
            r.account_method,
            r.account_holder,
            csvId(withdrawalAccountNumber(ctx, r)),
            csvAmount(Number(r.amount), digits),
            csvAmount(Number(r.fee), digits),
            csvAmount(Number(r.net), digits),
            r.currency,
          ]),
        );
        await audit(ctx.db, { actorId: auth.userId, action: 'withdrawal.export', entity: 'withdrawal', after: { status: 'approved', count: rows.length, ids: rows.map((r) => r.id) }, ip: request.ip });
        return sendCsv(reply, `withdrawals-approved-${dayKey(Date.now(), zoneOf(ctx))}.csv`, csv);
      });

      staff.get('/api/admin/withdrawals/:id', {
        schema: { tags: ['admin'], summary: 'One withdrawal with its timeline', params: IdParamsSchema, response: { 200: z.object({ withdrawal: AdminWithdrawalEnvelopeSchema.shape.withdrawal, events: WithdrawalDetailSchema.shape.events }), ...errorResponses } },
      }, async (request) => {
        const row = await selectAdmin().where('w.id', '=', request.params.id).executeTakeFirst();
        if (!row) throw new AppError('NOT_FOUND');
        return { withdrawal: toAdmin(row), events: await eventsOf(row.id) };
      });

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
        return { withdrawal: toAdmin(await selectAdmin().where('w.id', '=', request.params.id).executeTakeFirstOrThrow()) };
      });
    });
  };
}
