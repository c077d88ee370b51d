/** Link rules: who may create links for which campaign, where they may point, and their stats. */
import type { AppContext } from '../../context';
import { resolveDestination } from '../../domain/destination';
import { AppError } from '../../platform/errors';
import { dayKey } from '../../platform/time';
import { zoneOf } from '../../platform/settings';
import { insertLink } from './repository';

export interface CreateLinkInput {
  campaignId: string;
  code?: string;
  label?: string;
  channel?: string;
  path?: string;
}

export async function createLink(ctx: AppContext, promoterId: string, input: CreateLinkInput): Promise<string> {
  const campaign = await ctx.db
    .selectFrom('campaigns')
    .leftJoin('enrollments', (j) => j.onRef('enrollments.campaign_id', '=', 'campaigns.id').on('enrollments.promoter_id', '=', promoterId))
    .select(['campaigns.status', 'campaigns.landing_url', 'campaigns.allowed_hosts_json', 'enrollments.status as enrollment_status'])
    .where('campaigns.id', '=', input.campaignId)
    .executeTakeFirst();
  if (!campaign || campaign.status === 'draft') throw new AppError('NOT_FOUND', { campaignId: 'invalid' });
  if (campaign.enrollment_status !== 'approved') throw new AppError('ENROLLMENT_REQUIRED');
  if (campaign.status !== 'active') throw new AppError('CAMPAIGN_NOT_ACTIVE');
  let destination: string | null = null;
  if (input.path) {
    const resolved = resolveDestination(campaign.landing_url, JSON.parse(campaign.allowed_hosts_json) as string[], input.path);
    if (!resolved.ok) {
      if (resolved.reason === 'not_allowed') throw new AppError('DESTINATION_NOT_ALLOWED', { path: 'not_allowed' });
      throw new AppError('VALIDATION_FAILED', { path: 'invalid' });
    }
    destination = resolved.url;
  }
  const created = await insertLink(ctx.db, {
    promoterId,
    campaignId: input.campaignId,
    code: input.code,
    label: input.label || null,
    channel: input.channel || null,
    destination,
  });
  if (!created) throw new AppError('LINK_CODE_TAKEN', { code: 'taken' });
  ctx.links.invalidateCode(created.code.toLowerCase());
  return created.id;
}

const DAY_MS = 86_400_000;
export const MAX_STATS_DAYS = 366;

/** Per-day clicks (people's), unique clicks and bot visits of one link, every day of the range present (zeros included). */
export async function linkStats(ctx: AppContext, link: { id: string; promoter_id: string }, range: { from?: string; to?: string }) {
  const today = dayKey(Date.now(), zoneOf(ctx));
  const to = range.to ?? today;
  const from = range.from ?? dayKey(Date.parse(`${to}T12:00:00Z`) - 29 * DAY_MS, 'UTC');
  const days = Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
  if (!Number.isFinite(days) || days < 1) throw new AppError('VALIDATION_FAILED', { 'querystring.from': 'invalid' });
  if (days > MAX_STATS_DAYS) throw new AppError('VALIDATION_FAILED', { 'querystring.from': 'too_long' });
  const rows = await ctx.db
    .selectFrom('daily_stats')
    .select(['day', 'clicks', 'unique_clicks', 'bot_clicks'])
    .where('promoter_id', '=', link.promoter_id)
    .where('day', '>=', from)
    .where('day', '<=', to)
    .where('link_id', '=', link.id)
    .execute();
  const byDay = new Map(rows.map((r) => [r.day, r]));
  const list = Array.from({ length: days }, (_, i) => {
    const day = new Date(Date.parse(`${from}T00:00:00Z`) + i * DAY_MS).toISOString().slice(0, 10);
    const r = byDay.get(day);
    return { day, clicks: Number(r?.clicks ?? 0), uniqueClicks: Number(r?.unique_clicks ?? 0), botClicks: Number(r?.bot_clicks ?? 0) };
  });
  return {
    from,
    to,
    days: list,
    totals: { clicks: list.reduce((s, d) => s + d.clicks, 0), uniqueClicks: list.reduce((s, d) => s + d.uniqueClicks, 0), botClicks: list.reduce((s, d) => s + d.botClicks, 0) },
  };
}
