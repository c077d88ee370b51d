/** Link queries: the redirect lookup, inserting links (with generated codes), listing, editing and stats. */
import { randomBytes } from 'node:crypto';
import { RESERVED_CODES } from '@pa/shared';
import type { Updateable } from 'kysely';
import type { Db, LinksTable } from '../../db/types';
import { isStillAllowed } from '../../domain/destination';
import { newId } from '../../platform/ids';
import type { RedirectTarget } from '../../platform/link-cache';
import { olderThan, pageOf } from '../../platform/listing';
import { isUniqueViolation } from '../users/repository';

export async function loadRedirectTarget(db: Db, codeKey: string, now = Date.now()): Promise<RedirectTarget | null> {
  const row = await db
    .selectFrom('links')
    .innerJoin('campaigns', 'campaigns.id', 'links.campaign_id')
    .innerJoin('users', 'users.id', 'links.promoter_id')
    .select([
      'links.id', 'links.promoter_id', 'links.campaign_id', 'links.status', 'links.destination',
      'campaigns.status as campaign_status', 'campaigns.landing_url', 'campaigns.allowed_hosts_json', 'campaigns.starts_at', 'campaigns.ends_at',
      'users.status as promoter_status',
    ])
    .where('links.code_key', '=', codeKey)
    .executeTakeFirst();
  if (!row) return null;
  const hosts = JSON.parse(row.allowed_hosts_json) as string[];
  const running = row.campaign_status === 'active' && (row.starts_at === null || row.starts_at <= now) && (row.ends_at === null || row.ends_at > now);
  return {
    linkId: row.id,
    promoterId: row.promoter_id,
    campaignId: row.campaign_id,
    attributable: row.status === 'active' && running && row.promoter_status === 'active',
    destination: row.destination && isStillAllowed(row.landing_url, hosts, row.destination) ? row.destination : row.landing_url,
    landingUrl: row.landing_url,
  };
}

const CODE_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** A short random code: 7 characters without look-alikes (0/o, 1/l/i). */
function generateCode(): string {
  let out = '';
  for (const b of randomBytes(7)) out += CODE_ALPHABET[b % CODE_ALPHABET.length];
  return out;
}

interface NewLink {
  promoterId: string;
  campaignId: string;
  code?: string;
  label?: string | null;
  channel?: string | null;
  destination?: string | null;
  isDefault?: boolean;
}

/** Inserts a link; a given code that is taken returns null, a generated one is retried. */
export async function insertLink(db: Db, link: NewLink, now = Date.now()): Promise<{ id: string; code: string } | null> {
  for (let attempt = 0; attempt < 6; attempt++) {
    const code = link.code ?? generateCode();
    if (RESERVED_CODES.includes(code.toLowerCase())) return null;
    const id = newId(now);
    try {
      const inserted = await db
        .insertInto('links')
        .values({
          id,
          code,
          code_key: code.toLowerCase(),
          promoter_id: link.promoterId,
          campaign_id: link.campaignId,
          label: link.label ?? null,
          channel: link.channel ?? null,
          destination: link.destination ?? null,
          status: 'active',
          is_default: link.isDefault ? 1 : 0,
          created_at: now,
          updated_at: now,
        })
        .onConflict((oc) => oc.column('code_key').doNothing())
        .returning('id')
        .executeTakeFirst();
      if (inserted) return { id, code };
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
    if (link.code) return null;
  }
  throw new Error('could not generate a free link code');
}

function selectLinks(db: Db) {
  return db
    .selectFrom('links')
    .innerJoin('campaigns', 'campaigns.id', 'links.campaign_id')
    .select((eb) => [
      'links.id', 'links.code', 'links.campaign_id', 'links.label', 'links.channel', 'links.destination', 'links.status',
      'links.is_default', 'links.created_at', 'links.promoter_id', 'campaigns.names_json',
      // The link's rows of the promoter's per-day figures (clustered by promoter).
      eb.selectFrom('daily_stats').select((s) => s.fn.coalesce(s.fn.sum<number>('clicks'), s.lit(0)).as('c')).whereRef('daily_stats.promoter_id', '=', 'links.promoter_id').whereRef('daily_stats.link_id', '=', 'links.id').as('clicks'),
      eb.selectFrom('daily_stats').select((s) => s.fn.coalesce(s.fn.sum<number>('unique_clicks'), s.lit(0)).as('u')).whereRef('daily_stats.promoter_id', '=', 'links.promoter_id').whereRef('daily_stats.link_id', '=', 'links.id').as('unique_clicks'),
      eb.selectFrom('daily_stats').select((s) => s.fn.coalesce(s.fn.sum<number>('bot_clicks'), s.lit(0)).as('b')).whereRef('daily_stats.promoter_id', '=', 'links.promoter_id').whereRef('daily_stats.link_id', '=', 'links.id').as('bot_clicks'),
    ]);
}

export type LinkRow = Awaited<ReturnType<ReturnType<typeof selectLinks>['executeTakeFirstOrThrow']>>;

export async function findLink(db: Db, id: string): Promise<LinkRow | undefined> {
  return selectLinks(db).where('links.id', '=', id).executeTakeFirst();
}

/** A page of the promoter's links, newest first, optionally of one campaign. */
export async function promoterLinksPage(db: Db, promoterId: string, page: { limit: number; cursor?: string | undefined; campaignId?: string | undefined }) {
  let q = selectLinks(db).where('links.promoter_id', '=', promoterId).orderBy('links.created_at', 'desc').orderBy('links.id', 'desc').limit(page.limit + 1);
  if (page.campaignId) q = q.where('links.campaign_id', '=', page.campaignId);
  if (page.cursor) q = q.where(olderThan(page.cursor, 'links.created_at', 'links.id'));
  return pageOf(await q.execute(), page.limit);
}

export async function updateLink(db: Db, id: string, values: Updateable<LinksTable>): Promise<void> {
  await db.updateTable('links').set(values).where('id', '=', id).execute();
}

/** The campaign a link would be for, with the promoter's enrollment in it (null when they have none). */
export async function campaignForLink(db: Db, campaignId: string, promoterId: string) {
  return db
    .selectFrom('campaigns')
    .leftJoin('enrollments', (j) => j.onRef('enrollments.campaign_id', '=', 'campaigns.id').on('enrollments.promoter_id', '=', promoterId))
    .select(['campaigns.status', 'campaigns.landing_url', 'campaigns.allowed_hosts_json', 'enrollments.status as enrollment_status'])
    .where('campaigns.id', '=', campaignId)
    .executeTakeFirst();
}

/** A link's per-day rollup rows over [from, to] (the promoter's rows, clustered by promoter). */
export async function linkDays(db: Db, link: { id: string; promoter_id: string }, from: string, to: string) {
  return db
    .selectFrom('daily_stats')
    .select(['day', 'clicks', 'unique_clicks', 'bot_clicks'])
    .where('promoter_id', '=', link.promoter_id)
    .where('day', '>=', from)
    .where('day', '<=', to)
    .where('link_id', '=', link.id)
    .execute();
}
