/**
 * The money engine's reads (service.ts is the write side): the operators' conversion and commission
 * lists, the promoter's commissions (list, export, one with its timeline), wallet and ledger, the
 * ledger check, and the conversions API's answer — stored rows mapped to the shared contract.
 */
import type {
  AdminCommissionListSchema, AdminConversionDetail, AdminConversionListSchema, AdminConversionQuerySchema, Binding, BindingList, BindingQuerySchema, CommissionDetailSchema, CommissionListSchema, CommissionQuerySchema,
  ConversionResult, Explanation, LedgerCheckSchema, LedgerListSchema, Locale, Wallet,
} from '@pa/shared';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import { csvAmount, csvId, decimalAmount } from '@pa/shared/csv';
import { CONVERSION_TEXTS, csvOf, explainSteps, SERVER_TEXTS, type ExplanationStep } from '@pa/shared/texts';
import { AppError } from '../../platform/errors';
import { checkLedger, ledgerPage, walletOf } from '../../platform/ledger';
import { pickLocalized } from '../../platform/localized';
import type { AuthState } from '../../platform/session';
import { readSettings, zoneOf } from '../../platform/settings';
import { dayKey } from '../../platform/time';
import {
  commissionEvents, commissionsPage, commissionView, conversionIdByKey, conversionsPage, conversionSummary, conversionWithCommissions, promoterCommissionsExport,
  promoterCommissionsPage, conversionExtras, groupNames, conversionDetailRow, conversionCommissionViews, refundsOf, bindingsPage,
  type BindingView, type CommissionRow, type ConversionRow, type Page, type PromoterCommissionFilters, type StoredConversion,
} from './repository';
import type { StoredLine } from './rewards';
import { bountySteps } from './bounty-earning';
import { tellLedgerBreaches } from '../staff-alerts/service';
import type { RecordResult } from './service';
import { toCommission, toConversion, type CommissionView } from './views';

export { toCommission, toConversion, type CommissionView };

/** Epoch ms of 00:00 on a YYYY-MM-DD day in the installation's zone (found by stepping from UTC noon). */
export function dayStart(day: string, timeZone: string): number {
  let t = Date.parse(`${day}T00:00:00Z`) - 14 * 3600_000;
  while (dayKey(t, timeZone) < day) t += 15 * 60_000;
  return t;
}

export function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

// ——— The conversions API ———

/** The stored conversion and its commissions (as the API reports them, in English). */
async function storedResult(ctx: AppContext, id: string, known?: StoredConversion): Promise<ConversionResult> {
  const { conversion, commissions } = known ?? (await conversionWithCommissions(ctx.db, id));
  return { conversion: toConversion(conversion), commissions: commissions.map((c) => toCommission(c, 'en')) };
}

/** The answer to a reported conversion: what a new lead or sale wrote, else the stored result (a repeat, a refund). */
export async function conversionAnswer(ctx: AppContext, result: RecordResult): Promise<ConversionResult> {
  const { written } = result;
  if (!written) return storedResult(ctx, result.conversionId, result.stored);
  return {
    conversion: toConversion(written.conversion),
    commissions: written.commissions.map((c) =>
      toCommission({ ...c, names_json: written.campaignNamesJson, link_code: c.link_id ? written.linkCode : null, source_name: c.level === 2 ? written.promoterName : null }, 'en')),
  };
}

/** A conversion by its idempotency key; NOT_FOUND when none was reported. */
export async function conversionByKey(ctx: AppContext, campaignId: string, kind: ConversionRow['kind'], externalId: string): Promise<ConversionResult> {
  const id = await conversionIdByKey(ctx.db, campaignId, kind, externalId);
  if (!id) throw new AppError('NOT_FOUND');
  return storedResult(ctx, id);
}

// ——— Operators ———

/** The operators' conversions: `q` an order id exactly; `from`/`to` days (occurred) in the installation's zone, both included. */
export async function listConversions(ctx: AppContext, query: z.infer<typeof AdminConversionQuerySchema>, locale: string): Promise<z.infer<typeof AdminConversionListSchema>> {
  const { limit, cursor, from, to, ...filters } = query;
  if (from && to && from > to) throw new AppError('VALIDATION_FAILED', { 'querystring.from': 'after_to' });
  const zone = zoneOf(ctx);
  const { rows, nextCursor } = await conversionsPage(ctx.db, { ...filters, from: from ? dayStart(from, zone) : undefined, before: to ? dayStart(nextDay(to), zone) : undefined }, { limit, cursor });
  return { items: rows.map((r) => ({ ...toConversion(r), promoterName: r.display_name, campaignName: pickLocalized(r.names_json, locale) })), nextCursor };
}

export async function listCommissions(ctx: AppContext, filters: { status?: CommissionRow['status'] | undefined; campaignId?: string | undefined }, page: Page, locale: string): Promise<z.infer<typeof AdminCommissionListSchema>> {
  const { rows, nextCursor } = await commissionsPage(ctx.db, filters, page);
  return { items: rows.map((r) => ({ ...toCommission(r, locale), promoterName: r.display_name, promoterAccount: r.account, externalId: r.external_id })), nextCursor };
}

/** Every ledger invariant, read in one snapshot (platform/ledger.ts); what it found is also on /metrics. */
export async function ledgerCheck(ctx: AppContext): Promise<z.infer<typeof LedgerCheckSchema>> {
  const breaches = await checkLedger(ctx.db);
  ctx.metrics.ledgerChecked(breaches.length);
  await tellLedgerBreaches(ctx, breaches);
  return { ok: breaches.length === 0, breaches };
}

// ——— The promoter's own ———

export async function walletFor(ctx: AppContext, userId: string): Promise<Wallet> {
  const [wallet, settings] = await Promise.all([walletOf(ctx.db, userId), readSettings(ctx.db)]);
  return { currency: settings.currency, available: wallet.available, pending: wallet.pending, withdrawing: wallet.withdrawing + wallet.payable, paidOut: wallet.paid_out };
}

export const ledgerFor = (ctx: AppContext, userId: string, page: Page): Promise<z.infer<typeof LedgerListSchema>> => ledgerPage(ctx.db, userId, page);

type CommissionQuery = Omit<z.infer<typeof CommissionQuerySchema>, 'limit' | 'cursor'>;

/** The query's days (in the installation's zone) as instants: from 00:00 of `from` to before 00:00 after `to`. */
function filtersOf(ctx: AppContext, query: CommissionQuery): PromoterCommissionFilters {
  return {
    status: query.status,
    campaignId: query.campaignId,
    from: query.from ? dayStart(query.from, zoneOf(ctx)) : undefined,
    before: query.to ? dayStart(nextDay(query.to), zoneOf(ctx)) : undefined,
  };
}

export async function myCommissions(ctx: AppContext, userId: string, query: z.infer<typeof CommissionQuerySchema>, locale: string): Promise<z.infer<typeof CommissionListSchema>> {
  const { rows, nextCursor } = await promoterCommissionsPage(ctx.db, userId, filtersOf(ctx, query), { limit: query.limit, cursor: query.cursor });
  return { items: rows.map((r) => toCommission(r, locale)), nextCursor };
}

/**
 * The promoter's commissions as CSV (at most 50,000 rows, latest first): the catalogue's column
 * names, one snake_case English set whatever the language, like every export's (csv-columns.ts,
 * docs/api.md "CSV exports"); the values in the reader's language.
 */
export async function exportMyCommissions(ctx: AppContext, userId: string, query: CommissionQuery, locale: Locale): Promise<{ csv: string; filename: string }> {
  const texts = SERVER_TEXTS[locale].commissionCsv;
  const kinds = CONVERSION_TEXTS[locale].kind;
  const { currency } = await readSettings(ctx.db);
  const rows = await promoterCommissionsExport(ctx.db, userId, filtersOf(ctx, query), 50_000);
  const time = (ms: number) => `${dayKey(ms, zoneOf(ctx))} ${new Intl.DateTimeFormat('en-GB', { timeZone: zoneOf(ctx), hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(ms)}`;
  const csv = csvOf('promoterCommissions', rows.map((r) => ({
    occurred_at: time(Number(r.occurred_at)),
    campaign: pickLocalized(r.names_json, locale),
    kind: kinds[r.kind],
    level: r.level === 1 ? texts.level.direct : texts.level.team,
    external_id: csvId(r.external_id),
    base: csvAmount(Number(r.base), currency),
    rate: r.rate_bps === null ? '' : `${decimalAmount(r.rate_bps, 2)}%`,
    amount: csvAmount(Number(r.amount), currency),
    reversed_amount: csvAmount(Number(r.reversed_amount), currency),
    status: texts.status[r.status],
    available_at: dayKey(Number(r.available_at), zoneOf(ctx)),
    link_code: csvId(r.link_code),
    currency,
  })));
  return { csv, filename: `commissions-${dayKey(Date.now(), zoneOf(ctx))}.csv` };
}

/** One commission with its conversion and timeline. Another promoter's commission looks unknown; staff may read any. */
export async function commissionDetail(ctx: AppContext, viewer: Pick<AuthState, 'userId' | 'role'>, id: string, locale: string): Promise<z.infer<typeof CommissionDetailSchema>> {
  const row = await commissionView(ctx.db, id);
  if (!row || (row.promoter_id !== viewer.userId && viewer.role === 'promoter')) throw new AppError('NOT_FOUND');
  // A bounty's reward has no conversion (docs/bounties.md).
  const conversion = row.conversion_id === null ? null : await conversionSummary(ctx.db, row.conversion_id);
  const events = await commissionEvents(ctx.db, row.id);
  const { currency } = await readSettings(ctx.db);
  return {
    commission: toCommission(row, locale),
    conversion: conversion && { kind: conversion.kind, externalId: conversion.external_id, amount: Number(conversion.amount), refundedAmount: Number(conversion.refunded_amount), attributedBy: conversion.attributed_by, occurredAt: Number(conversion.occurred_at) },
    events: [
      { status: 'pending', amount: Number(row.amount), reason: null, at: Number(row.created_at) },
      ...events.map((e) => ({ status: e.status, amount: Number(e.amount), reason: e.reason, at: Number(e.at) })),
    ],
    currency,
  };
}

// ——— Why it earned what it did (issue 31) ———

/** A conversion's explanation in the reader's language (NOT_FOUND when there is no such conversion). */
export async function conversionExplanation(ctx: AppContext, conversionId: string, locale: Locale): Promise<Explanation> {
  const extras = await conversionExtras(ctx.db, conversionId);
  if (!extras) throw new AppError('NOT_FOUND');
  const { currency } = await readSettings(ctx.db);
  return { steps: await explained(ctx, extras.kind, extras.explanation_json, locale, currency) };
}

/** The explanation of the conversion behind one of the promoter's commissions; another promoter's looks unknown. */
export async function commissionExplanation(ctx: AppContext, viewer: Pick<AuthState, 'userId' | 'role'>, commissionId: string, locale: Locale): Promise<Explanation> {
  const row = await commissionView(ctx.db, commissionId);
  if (!row || (row.promoter_id !== viewer.userId && viewer.role === 'promoter')) throw new AppError('NOT_FOUND');
  const { currency } = await readSettings(ctx.db);
  if (row.kind === 'bounty') {
    // The hold it was given (the campaign's when it was earned).
    const steps = await bountySteps(ctx.db, row, Math.round((Number(row.available_at) - Number(row.occurred_at)) / 86_400_000), locale);
    return { steps: explainSteps(steps, { locale, currency, timeZone: zoneOf(ctx), event: 'sale' }) };
  }
  const extras = row.conversion_id === null ? undefined : await conversionExtras(ctx.db, row.conversion_id);
  if (!extras) throw new AppError('NOT_FOUND');
  // A commission an assignment by staff superseded: its explanation ends with that assignment (what
  // the conversion earned the promoter credited since is theirs, not this reader's).
  return { steps: await explained(ctx, extras.kind, extras.explanation_json, locale, currency, Number(row.assignment)) };
}

// ——— Operators' look-ups (issue 31, item 7) ———

/** The steps stored with a conversion in the reader's language. */
async function explained(ctx: AppContext, kind: ConversionRow['kind'], explanationJson: string | null, locale: Locale, currency: string, ofAssignment?: number) {
  // Conversions recorded before issue 31 have no stored explanation: an empty list.
  let steps = explanationJson ? (JSON.parse(explanationJson) as ExplanationStep[]) : [];
  const assigned = steps.flatMap((s, i) => (s.step === 'assigned' ? [i] : []));
  if (ofAssignment !== undefined && ofAssignment < assigned.length) steps = steps.slice(0, assigned.at(-1)! + 1);
  const groupIds = [...new Set(steps.filter((s) => s.step === 'group').map((s) => String(s.detail.groupId)))];
  return explainSteps(steps, { locale, currency, timeZone: zoneOf(ctx), event: kind === 'lead' ? 'lead' : 'sale', groupNames: await groupNames(ctx.db, groupIds) });
}

/** `GET api/admin/conversions/:id`: what was sent, its commissions (every assignment's), its refunds and its explanation. */
export async function conversionDetail(ctx: AppContext, id: string, locale: Locale): Promise<AdminConversionDetail> {
  const row = await conversionDetailRow(ctx.db, id);
  if (!row) throw new AppError('NOT_FOUND');
  const [commissions, refunds, { currency }] = await Promise.all([conversionCommissionViews(ctx.db, id), refundsOf(ctx.db, id), readSettings(ctx.db)]);
  return {
    conversion: { ...toConversion(row), promoterName: row.display_name, campaignName: pickLocalized(row.names_json, locale) },
    sent: {
      clickId: row.click_id, couponCode: row.coupon_code, linkCode: row.link_code, customerExternalId: row.customer_external_id,
      customerEmail: row.customer_email_sha256 !== null,
      items: row.items_json ? (JSON.parse(row.items_json) as StoredLine[]) : null,
      country: row.country,
      metadata: row.metadata_json ? (JSON.parse(row.metadata_json) as Record<string, string>) : null,
      newCustomer: row.new_customer === null ? null : row.new_customer === 1,
    },
    commissions: commissions.map((c) => ({ ...toCommission(c, locale), promoterName: c.display_name, assignment: Number(c.assignment) })),
    refunds: refunds.map((r) => ({ id: r.id, externalId: r.external_id, amount: Number(r.amount), occurredAt: Number(r.occurred_at) })),
    explanation: await explained(ctx, row.kind, row.explanation_json, locale, currency),
    currency,
  };
}

export function toBinding(b: BindingView, locale: string): Binding {
  return {
    id: b.id, campaignId: b.campaign_id, campaignName: pickLocalized(b.names_json, locale), customerExternalId: b.customer_external_id,
    promoterId: b.promoter_id, promoterName: b.display_name, linkId: b.link_id, conversionId: b.conversion_id,
    startedAt: Number(b.started_at), months: b.months, endedAt: b.ended_at === null ? null : Number(b.ended_at),
  };
}

/** `GET api/admin/bindings`, latest started first. */
export async function listBindings(ctx: AppContext, query: z.infer<typeof BindingQuerySchema>, locale: string): Promise<BindingList> {
  const { limit, cursor, ...filters } = query;
  const { rows, nextCursor } = await bindingsPage(ctx.db, filters, { limit, cursor });
  return { items: rows.map((b) => toBinding(b, locale)), nextCursor };
}
