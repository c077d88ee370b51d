import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AdminCommissionListSchema, AdminConversionListSchema, CommissionBulkSchema, CommissionDecisionSchema, CommissionDetailSchema, CommissionListSchema,
  CommissionQuerySchema, CommissionStatusSchema, ConversionCreateSchema, ConversionKindSchema, ConversionResultSchema, ConversionStatusSchema, IdParamsSchema,
  LedgerCheckSchema, LedgerListSchema, PageQuerySchema, WalletSchema, type Commission, type Conversion,
} from '@pa/shared';
import type { AppContext } from '../../context';
import type { CommissionsTable, ConversionsTable, Db } from '../../db/types';
import { apiKeyAuth } from '../../platform/api-keys';
import { actorOf } from '../../platform/audit';
import { csvAmount, csvId, currencyDigits, decimalAmount, sendCsv, toCsv } from '../../platform/csv';
import { AppError, requestLocale } from '../../platform/errors';
import { maskName } from '@pa/shared/rules';
import { COMMISSION_CSV } from '../../platform/i18n/csv';
import { checkLedger, ledgerPage, walletOf } from '../../platform/ledger';
import { olderThan, pageOf } from '../../platform/listing';
import { pickLocalized } from '../../platform/localized';
import { errorResponses } from '../../platform/openapi';
import { adminOnly, authenticated, requireAuth, staffOnly } from '../../platform/session';
import { readSettings, zoneOf } from '../../platform/settings';
import { dayKey } from '../../platform/time';
import { conversionWithCommissions } from './repository';
import { decideCommission, findConversion, recordConversion } from './service';

const toConversion = (r: ConversionsTable): Conversion => ({
  id: r.id,
  campaignId: r.campaign_id,
  kind: r.kind,
  externalId: r.external_id,
  amount: Number(r.amount),
  refundedAmount: Number(r.refunded_amount),
  refundOf: r.refund_of,
  customerExternalId: r.customer_external_id,
  clickId: r.click_id,
  couponCode: r.coupon_code,
  linkCode: r.link_code,
  promoterId: r.promoter_id,
  linkId: r.link_id,
  attributedBy: r.attributed_by,
  status: r.status,
  // Written only from CONVERSION_REASONS (commissions/service.ts).
  reason: r.reason as Conversion['reason'],
  occurredAt: Number(r.occurred_at),
  receivedAt: Number(r.received_at),
});

type CommissionRow = CommissionsTable & { names_json: string; link_code: string | null; source_name?: string | null };

const toCommission = (r: CommissionRow, locale: string): Commission => ({
  id: r.id,
  conversionId: r.conversion_id,
  campaignId: r.campaign_id,
  campaignName: pickLocalized(r.names_json, locale),
  promoterId: r.promoter_id,
  linkId: r.link_id,
  linkCode: r.link_code,
  sourceName: r.source_name ? maskName(r.source_name) : null,
  level: r.level,
  kind: r.kind,
  rule: r.rule,
  base: Number(r.base),
  rateBps: r.rate_bps,
  amount: Number(r.amount),
  reversedAmount: Number(r.reversed_amount),
  status: r.status,
  occurredAt: Number(r.occurred_at),
  availableAt: Number(r.available_at),
  createdAt: Number(r.created_at),
  decidedAt: r.decided_at === null ? null : Number(r.decided_at),
  reason: r.reason,
});

const selectCommissions = (db: Db) =>
  db
    .selectFrom('commissions')
    .innerJoin('campaigns', 'campaigns.id', 'commissions.campaign_id')
    .leftJoin('links', 'links.id', 'commissions.link_id')
    .leftJoin('users as source', 'source.id', 'commissions.source_promoter_id')
    .selectAll('commissions')
    .select(['campaigns.names_json', 'links.code as link_code', 'source.display_name as source_name']);

/** Epoch ms of 00:00 on a YYYY-MM-DD day in the installation's zone (found by stepping from UTC noon). */
function dayStart(day: string, timeZone: string): number {
  let t = Date.parse(`${day}T00:00:00Z`) - 14 * 3600_000;
  while (dayKey(t, timeZone) < day) t += 15 * 60_000;
  return t;
}

/** The answer to a reported conversion: the stored conversion and its commissions. */
async function conversionResult(ctx: AppContext, id: string, locale: string) {
  const { conversion, commissions } = await conversionWithCommissions(ctx.db, id);
  return { conversion: toConversion(conversion), commissions: commissions.map((c) => toCommission(c, locale)) };
}

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
        security: [{ apiKey: [] }],
        body: ConversionCreateSchema,
        response: { 200: ConversionResultSchema, 201: ConversionResultSchema, ...errorResponses },
      },
    }, async (request, reply) => {
      reply.header('x-content-type-options', 'nosniff').header('cache-control', 'no-store');
      const { created, conversionId, written } = await recordConversion(ctx, request.apiKey?.id ?? null, request.body);
      const body = written
        ? { conversion: toConversion(written.conversion), commissions: written.commissions.map((c) => toCommission({ ...c, names_json: written.campaignNamesJson, link_code: c.link_id ? written.linkCode : null, source_name: c.level === 2 ? written.promoterName : null }, 'en')) }
        : await conversionResult(ctx, conversionId, 'en');
      return reply.status(created ? 201 : 200).send(body);
    });

    app.get('/api/v1/conversions/:externalId', {
      preValidation: apiKeyAuth(ctx, 'conversions:read'),
      schema: {
        tags: ['conversions'],
        summary: 'A reported conversion and its commissions',
        security: [{ apiKey: [] }],
        params: z.strictObject({ externalId: z.string().min(1).max(128) }),
        querystring: z.strictObject({ campaignId: z.string().min(1).max(64), kind: ConversionKindSchema.default('sale') }),
        response: { 200: ConversionResultSchema, ...errorResponses },
      },
    }, async (request) => {
      const row = await findConversion(ctx.db, request.query.campaignId, request.query.kind, request.params.externalId);
      if (!row) throw new AppError('NOT_FOUND');
      return conversionResult(ctx, row.id, 'en');
    });

    // ——— Operators ———
    app.get('/api/admin/conversions', {
      preValidation: staffOnly,
      schema: { tags: ['conversions'], summary: 'Reported conversions', querystring: PageQuerySchema.extend({ status: ConversionStatusSchema.optional() }), response: { 200: AdminConversionListSchema, ...errorResponses } },
    }, async (request) => {
      const { limit, cursor, status } = request.query;
      let q = ctx.db
        .selectFrom('conversions')
        .innerJoin('campaigns', 'campaigns.id', 'conversions.campaign_id')
        .leftJoin('users', 'users.id', 'conversions.promoter_id')
        .selectAll('conversions')
        .select(['campaigns.names_json', 'users.display_name'])
        .orderBy('conversions.received_at', 'desc')
        .orderBy('conversions.id', 'desc')
        .limit(limit + 1);
      if (status) q = q.where('conversions.status', '=', status);
      if (cursor) q = q.where(olderThan(cursor, 'conversions.received_at', 'conversions.id'));
      const { rows, nextCursor } = pageOf(await q.execute(), limit, (r) => [Number(r.received_at), r.id]);
      const locale = requestLocale(request);
      return { items: rows.map((r) => ({ ...toConversion(r), promoterName: r.display_name, campaignName: pickLocalized(r.names_json, locale) })), nextCursor };
    });

    app.get('/api/admin/commissions', {
      preValidation: staffOnly,
      schema: { tags: ['commissions'], summary: 'Commissions to review', querystring: PageQuerySchema.extend({ status: CommissionStatusSchema.optional(), campaignId: z.string().max(64).optional() }), response: { 200: AdminCommissionListSchema, ...errorResponses } },
    }, async (request) => {
      const { limit, cursor, status, campaignId } = request.query;
      let q = selectCommissions(ctx.db)
        .innerJoin('users', 'users.id', 'commissions.promoter_id')
        .select(['users.display_name', 'users.account'])
        .orderBy('commissions.created_at', 'desc')
        .orderBy('commissions.id', 'desc')
        .limit(limit + 1);
      if (status) q = q.where('commissions.status', '=', status);
      if (campaignId) q = q.where('commissions.campaign_id', '=', campaignId);
      if (cursor) q = q.where(olderThan(cursor, 'commissions.created_at', 'commissions.id'));
      const { rows, nextCursor } = pageOf(await q.execute(), limit, (r) => [Number(r.created_at), r.id]);
      const locale = requestLocale(request);
      return { items: rows.map((r) => ({ ...toCommission(r, locale), promoterName: r.display_name, promoterAccount: r.account })), nextCursor };
    });

    app.post('/api/admin/commissions/:id/:action', {
      preValidation: staffOnly,
      schema: {
        tags: ['commissions'],
        summary: 'Approve or reject a pending commission (reject needs a reason)',
        params: z.strictObject({ id: z.string().min(1).max(64), action: z.enum(['approve', 'reject']) }),
        body: CommissionDecisionSchema.nullish(),
        response: { 200: z.object({ ok: z.literal(true) }), ...errorResponses },
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
        response: { 200: z.object({ changed: z.array(z.string()), skipped: z.array(z.string()) }), ...errorResponses },
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

    app.get('/api/admin/ledger/check', {
      preValidation: adminOnly,
      schema: { tags: ['commissions'], summary: 'Verify every ledger invariant', response: { 200: LedgerCheckSchema, ...errorResponses } },
    }, async () => {
      const breaches = await checkLedger(ctx.db);
      return { ok: breaches.length === 0, breaches };
    });

    // ——— The promoter's own ———
    await app.register(async (scope) => {
      const promoter = scope.withTypeProvider<ZodTypeProvider>();
      promoter.addHook('preValidation', authenticated);

      promoter.get('/api/wallet', {
        schema: { tags: ['wallet'], summary: 'My balances (minor units)', response: { 200: WalletSchema, ...errorResponses } },
      }, async (request) => {
        const auth = requireAuth(request);
        const [wallet, settings] = await Promise.all([walletOf(ctx.db, auth.userId), readSettings(ctx.db)]);
        return { currency: settings.currency, available: wallet.available, pending: wallet.pending, withdrawing: wallet.withdrawing + wallet.payable, paidOut: wallet.paid_out };
      });

      const myCommissions = (userId: string, query: z.infer<typeof CommissionQuerySchema>) => {
        let q = selectCommissions(ctx.db).where('commissions.promoter_id', '=', userId);
        if (query.status) q = q.where('commissions.status', '=', query.status);
        if (query.campaignId) q = q.where('commissions.campaign_id', '=', query.campaignId);
        if (query.from) q = q.where('commissions.occurred_at', '>=', dayStart(query.from, zoneOf(ctx)));
        if (query.to) q = q.where('commissions.occurred_at', '<', dayStart(nextDay(query.to), zoneOf(ctx)));
        return q;
      };

      promoter.get('/api/commissions', {
        schema: { tags: ['commissions'], summary: 'My commissions, newest first, with filters', querystring: CommissionQuerySchema, response: { 200: CommissionListSchema, ...errorResponses } },
      }, async (request) => {
        const auth = requireAuth(request);
        const { limit, cursor } = request.query;
        let q = myCommissions(auth.userId, request.query).orderBy('commissions.created_at', 'desc').orderBy('commissions.id', 'desc').limit(limit + 1);
        if (cursor) q = q.where(olderThan(cursor, 'commissions.created_at', 'commissions.id'));
        const { rows, nextCursor } = pageOf(await q.execute(), limit, (r) => [Number(r.created_at), r.id]);
        const locale = requestLocale(request);
        return { items: rows.map((r) => toCommission(r, locale)), nextCursor };
      });

      promoter.get('/api/commissions/export', {
        schema: {
          tags: ['commissions'],
          summary: 'My commissions as CSV (UTF-8 with BOM, in my language)',
          querystring: CommissionQuerySchema.omit({ limit: true, cursor: true }),
        },
      }, async (request, reply) => {
        const auth = requireAuth(request);
        const locale = requestLocale(request);
        const texts = COMMISSION_CSV[locale];
        const { currency } = await readSettings(ctx.db);
        const digits = currencyDigits(currency);
        const rows = await myCommissions(auth.userId, { ...request.query, limit: 100 })
          .innerJoin('conversions', 'conversions.id', 'commissions.conversion_id')
          .select(['conversions.external_id'])
          .orderBy('commissions.occurred_at', 'desc')
          .limit(50_000)
          .execute();
        const time = (ms: number) => `${dayKey(ms, zoneOf(ctx))} ${new Intl.DateTimeFormat('en-GB', { timeZone: zoneOf(ctx), hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(ms)}`;
        const csv = toCsv(texts.header, rows.map((r) => [
          time(Number(r.occurred_at)),
          pickLocalized(r.names_json, locale),
          texts.kind[r.kind],
          texts.level[r.level as 1 | 2],
          csvId(r.external_id),
          csvAmount(Number(r.base), digits),
          r.rate_bps === null ? '' : `${decimalAmount(r.rate_bps, 2)}%`,
          csvAmount(Number(r.amount), digits),
          csvAmount(Number(r.reversed_amount), digits),
          texts.status[r.status],
          dayKey(Number(r.available_at), zoneOf(ctx)),
          csvId(r.link_code),
          currency,
        ]));
        const filename = `commissions-${dayKey(Date.now(), zoneOf(ctx))}.csv`;
        return sendCsv(reply, filename, csv);
      });

      promoter.get('/api/commissions/:id', {
        schema: { tags: ['commissions'], summary: 'One of my commissions with its timeline', params: IdParamsSchema, response: { 200: CommissionDetailSchema, ...errorResponses } },
      }, async (request) => {
        const auth = requireAuth(request);
        const row = await selectCommissions(ctx.db).where('commissions.id', '=', request.params.id).executeTakeFirst();
        // Another promoter's commission looks unknown; staff may read any.
        if (!row || (row.promoter_id !== auth.userId && auth.role === 'promoter')) throw new AppError('NOT_FOUND');
        const conversion = await ctx.db.selectFrom('conversions').selectAll().where('id', '=', row.conversion_id).executeTakeFirstOrThrow();
        const events = await ctx.db.selectFrom('commission_events').select(['status', 'amount', 'reason', 'at']).where('commission_id', '=', row.id).orderBy('at').orderBy('id').execute();
        const { currency } = await readSettings(ctx.db);
        return {
          commission: toCommission(row, requestLocale(request)),
          conversion: { kind: conversion.kind, externalId: conversion.external_id, amount: Number(conversion.amount), refundedAmount: Number(conversion.refunded_amount), attributedBy: conversion.attributed_by, occurredAt: Number(conversion.occurred_at) },
          events: [
            { status: 'pending', amount: Number(row.amount), reason: null, at: Number(row.created_at) },
            ...events.map((e) => ({ status: e.status, amount: Number(e.amount), reason: e.reason, at: Number(e.at) })),
          ],
          currency,
        };
      });

      promoter.get('/api/ledger', {
        schema: { tags: ['wallet'], summary: 'Every movement of my money, newest first', querystring: PageQuerySchema, response: { 200: LedgerListSchema, ...errorResponses } },
      }, async (request) => {
        const auth = requireAuth(request);
        return ledgerPage(ctx.db, auth.userId, request.query);
      });
    });
  };
}

function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}
