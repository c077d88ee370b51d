/**
 * The money engine's reads (service.ts is the write side): the operators' conversion and commission
 * lists, the promoter's commissions (list, export, one with its timeline), wallet and ledger, the
 * ledger check, and the conversions API's answer — stored rows mapped to the shared contract.
 */
import type {
  AdminCommissionListSchema, AdminConversionListSchema, CommissionDetailSchema, CommissionListSchema, CommissionQuerySchema,
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
  promoterCommissionsPage, conversionExtras, groupNames, type CommissionRow, type ConversionRow, type Page, type PromoterCommissionFilters, type StoredConversion,
} from './repository';
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

export async function listConversions(ctx: AppContext, filters: { status?: ConversionRow['status'] | undefined }, page: Page, locale: string): Promise<z.infer<typeof AdminConversionListSchema>> {
  const { rows, nextCursor } = await conversionsPage(ctx.db, filters, page);
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
  const conversion = await conversionSummary(ctx.db, row.conversion_id);
  const events = await commissionEvents(ctx.db, row.id);
  const { currency } = await readSettings(ctx.db);
  return {
    commission: toCommission(row, locale),
    conversion: { kind: conversion.kind, externalId: conversion.external_id, amount: Number(conversion.amount), refundedAmount: Number(conversion.refunded_amount), attributedBy: conversion.attributed_by, occurredAt: Number(conversion.occurred_at) },
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
  // Conversions recorded before issue 31 have no stored explanation: an empty list.
  const steps = extras.explanation_json ? (JSON.parse(extras.explanation_json) as ExplanationStep[]) : [];
  const groupIds = [...new Set(steps.filter((s) => s.step === 'group').map((s) => String(s.detail.groupId)))];
  const { currency } = await readSettings(ctx.db);
  const event = extras.kind === 'lead' ? 'lead' : 'sale';
  return { steps: explainSteps(steps, { locale, currency, timeZone: zoneOf(ctx), event, groupNames: await groupNames(ctx.db, groupIds) }) };
}

/** The explanation of the conversion behind one of the promoter's commissions; another promoter's looks unknown. */
export async function commissionExplanation(ctx: AppContext, viewer: Pick<AuthState, 'userId' | 'role'>, commissionId: string, locale: Locale): Promise<Explanation> {
  const row = await commissionView(ctx.db, commissionId);
  if (!row || (row.promoter_id !== viewer.userId && viewer.role === 'promoter')) throw new AppError('NOT_FOUND');
  return conversionExplanation(ctx, row.conversion_id, locale);
}
