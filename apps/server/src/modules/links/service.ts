/** Link rules: who may create links for which campaign, where they may point, who may see them, and their stats. */
import type { Link } from '@pa/shared';
import type { AppContext } from '../../context';
import { resolveDestination } from '../../domain/destination';
import { AppError } from '../../platform/errors';
import { pickLocalized } from '../../platform/localized';
import { dayKey } from '../../platform/time';
import { zoneOf } from '../../platform/settings';
import { campaignForLink, findLink, insertLink, linkDays, promoterLinksPage, updateLink, type LinkRow } from './repository';

function toLink(row: LinkRow, locale: string): Link {
  return {
    id: row.id,
    code: row.code,
    campaignId: row.campaign_id,
    campaignName: pickLocalized(row.names_json, locale),
    label: row.label,
    channel: row.channel,
    destination: row.destination,
    status: row.status,
    isDefault: row.is_default === 1,
    clicks: Number(row.clicks ?? 0),
    uniqueClicks: Number(row.unique_clicks ?? 0),
    botClicks: Number(row.bot_clicks ?? 0),
    createdAt: row.created_at,
  };
}

/** Who is looking at a link: a promoter sees only their own links; staff may read any. */
interface LinkViewer {
  userId: string;
  role: string;
}

/** The link if the viewer may see it; others' ids look unknown (NOT_FOUND). */
async function visibleLink(ctx: AppContext, id: string, viewer: LinkViewer): Promise<LinkRow> {
  const row = await findLink(ctx.db, id);
  if (!row || (row.promoter_id !== viewer.userId && viewer.role === 'promoter')) throw new AppError('NOT_FOUND');
  return row;
}

export async function listLinks(ctx: AppContext, promoterId: string, page: { limit: number; cursor?: string | undefined; campaignId?: string | undefined }, locale: string) {
  const { rows, nextCursor } = await promoterLinksPage(ctx.db, promoterId, page);
  return { items: rows.map((r) => toLink(r, locale)), nextCursor };
}

export async function linkView(ctx: AppContext, id: string, viewer: LinkViewer, locale: string): Promise<Link> {
  return toLink(await visibleLink(ctx, id, viewer), locale);
}

/** Creates a link (see createLink) and answers it. */
export async function addLink(ctx: AppContext, promoterId: string, input: CreateLinkInput, locale: string): Promise<Link> {
  const id = await createLink(ctx, promoterId, input);
  const row = await findLink(ctx.db, id);
  if (!row) throw new AppError('NOT_FOUND');
  return toLink(row, locale);
}

/** Edits label or channel, enables or disables; only the link's own promoter may (staff too are NOT_FOUND here). */
export async function editLink(ctx: AppContext, id: string, promoterId: string, patch: { label?: string | null | undefined; channel?: string | null | undefined; status?: 'active' | 'disabled' | undefined }, locale: string): Promise<Link> {
  const viewer = { userId: promoterId, role: 'promoter' };
  const row = await visibleLink(ctx, id, viewer);
  const { label, channel, status } = patch;
  await updateLink(ctx.db, row.id, {
    ...(label !== undefined ? { label: label || null } : {}),
    ...(channel !== undefined ? { channel: channel || null } : {}),
    ...(status ? { status } : {}),
    updated_at: Date.now(),
  });
  ctx.links.invalidateCode(row.code.toLowerCase());
  return linkView(ctx, row.id, viewer, locale);
}

/** A link's stats, for a viewer who may see the link. */
export async function visibleLinkStats(ctx: AppContext, id: string, viewer: LinkViewer, range: Parameters<typeof linkStats>[2]) {
  return linkStats(ctx, await visibleLink(ctx, id, viewer), range);
}

interface CreateLinkInput {
  campaignId: string;
  code?: string;
  label?: string;
  channel?: string;
  path?: string;
}

export async function createLink(ctx: AppContext, promoterId: string, input: CreateLinkInput): Promise<string> {
  const campaign = await campaignForLink(ctx.db, input.campaignId, promoterId);
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
const MAX_STATS_DAYS = 366;

/** Per-day clicks (people's), unique clicks and bot visits of one link, every day of the range present (zeros included). */
async function linkStats(ctx: AppContext, link: { id: string; promoter_id: string }, range: { from?: string; to?: string }) {
  const today = dayKey(Date.now(), zoneOf(ctx));
  const to = range.to ?? today;
  const from = range.from ?? dayKey(Date.parse(`${to}T12:00:00Z`) - 29 * DAY_MS, 'UTC');
  const days = Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
  if (!Number.isFinite(days) || days < 1) throw new AppError('VALIDATION_FAILED', { 'querystring.from': 'invalid' });
  if (days > MAX_STATS_DAYS) throw new AppError('VALIDATION_FAILED', { 'querystring.from': 'too_long' });
  const rows = await linkDays(ctx.db, link, from, to);
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
