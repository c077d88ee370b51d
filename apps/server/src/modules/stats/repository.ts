/**
 * Queries of the promoter's figures, team and leaderboard: the rollups (`daily_stats`,
 * `period_stats`) summed per day or per key, and the few rows beside them (links, campaigns, users).
 */
import type { ExpressionBuilder } from 'kysely';
import type { Database, Db } from '../../db/types';
import { olderThan, pageOf } from '../../platform/listing';
import { ROLLUP_COLUMNS, TEAM_LINK_PREFIX, type RollupColumn } from '../../platform/rollups';

/** The rollup columns the figures are made of (bot clicks are not shown). */
export const SUM_COLUMNS = ROLLUP_COLUMNS.filter((c): c is Exclude<RollupColumn, 'bot_clicks'> => c !== 'bot_clicks');
type SumColumn = (typeof SUM_COLUMNS)[number];
/** A row of summed rollup columns (PostgreSQL answers sums as strings; null when nothing was summed). */
export type SumRow = Partial<Record<SumColumn, unknown>>;

/** A promoter's rollups over [from, to] summed per day. */
export async function sumsByDay(db: Db, promoterId: string, from: string, to: string): Promise<(SumRow & { day: string })[]> {
  const rows = await db
    .selectFrom('daily_stats')
    .select((eb) => ['day', ...SUM_COLUMNS.map((c) => eb.fn.sum<number>(c).as(c))])
    .where('promoter_id', '=', promoterId)
    .where('day', '>=', from)
    .where('day', '<=', to)
    .groupBy('day')
    .execute();
  return rows as (SumRow & { day: string })[];
}

/** A promoter's rollups over [from, to] summed per campaign or per link (level-2 overrides are the `team:<member>` links). */
export async function sumsByKey(db: Db, promoterId: string, from: string, to: string, column: 'campaign_id' | 'link_id'): Promise<(SumRow & { key: string })[]> {
  const rows = await db
    .selectFrom('daily_stats')
    .select((eb) => [column, ...SUM_COLUMNS.map((c) => eb.fn.sum<number>(c).as(c))])
    .where('promoter_id', '=', promoterId)
    .where('day', '>=', from)
    .where('day', '<=', to)
    .groupBy(column)
    .execute();
  return rows.map((r) => ({ ...(r as SumRow), key: String((r as unknown as Record<string, unknown>)[column]) }));
}

/** Links by id with their campaign's names. */
export async function linksWithCampaign(db: Db, ids: string[]) {
  if (!ids.length) return [];
  return db.selectFrom('links').innerJoin('campaigns', 'campaigns.id', 'links.campaign_id').select(['links.id', 'links.code', 'links.label', 'links.channel', 'campaigns.names_json']).where('links.id', 'in', ids).execute();
}

export async function campaignNames(db: Db, ids: string[]) {
  if (!ids.length) return [];
  return db.selectFrom('campaigns').select(['id', 'names_json']).where('id', 'in', ids).execute();
}

// ——— Team ———

/** A daily_stats row that makes its promoter active: a click, a lead or a sale. */
const hadActivity = (x: ExpressionBuilder<Database, 'daily_stats'>) => x.or([x('clicks', '>', 0), x('leads', '>', 0), x('sales', '>', 0)]);

/**
 * The team's counts: direct members, second-level members, and direct members who are active (an
 * active account with a click, lead or sale from `activeFrom` on; each member's rows from that day
 * on, first hit only).
 */
export async function teamCounts(db: Db, promoterId: string, activeFrom: string): Promise<{ direct: number; secondLevel: number; active: number }> {
  const [direct, second, active] = await Promise.all([
    db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).where('parent_id', '=', promoterId).executeTakeFirst(),
    db.selectFrom('users as u').innerJoin('users as m', 'm.id', 'u.parent_id').select((eb) => eb.fn.countAll<number>().as('n')).where('m.parent_id', '=', promoterId).executeTakeFirst(),
    db.selectFrom('users as m').select((eb) => eb.fn.countAll<number>().as('n')).where('m.parent_id', '=', promoterId).where('m.status', '=', 'active')
      .where((eb) => eb.exists(eb.selectFrom('daily_stats').select('day').whereRef('daily_stats.promoter_id', '=', 'm.id').where('day', '>=', activeFrom).where(hadActivity))).executeTakeFirst(),
  ]);
  return { direct: Number(direct?.n ?? 0), secondLevel: Number(second?.n ?? 0), active: Number(active?.n ?? 0) };
}

/** The direct members' leads, sales and sale amount over [from, to]. */
export async function membersSums(db: Db, promoterId: string, from: string, to: string): Promise<{ leads: number; sales: number; saleAmount: number }> {
  const members = db.selectFrom('users').select('id').where('parent_id', '=', promoterId);
  const row = await db.selectFrom('daily_stats').select((eb) => [eb.fn.sum<number>('leads').as('leads'), eb.fn.sum<number>('sales').as('sales'), eb.fn.sum<number>('sale_amount').as('sale_amount')])
    .where('promoter_id', 'in', members).where('day', '>=', from).where('day', '<=', to).executeTakeFirst();
  return { leads: Number(row?.leads ?? 0), sales: Number(row?.sales ?? 0), saleAmount: Number(row?.sale_amount ?? 0) };
}

/** The promoter's override rows (`team:<member>`), all time, per day. */
export async function overrideDays(db: Db, promoterId: string) {
  return db.selectFrom('daily_stats').select(['day', 'link_id', 'commission_pending', 'commission_approved']).where('promoter_id', '=', promoterId).where('link_id', '>=', TEAM_LINK_PREFIX).where('link_id', '<', `${TEAM_LINK_PREFIX}\uffff`).execute();
}

/** A page of the direct members, newest first. */
export async function membersPage(db: Db, promoterId: string, page: { limit: number; cursor?: string | undefined }) {
  let q = db.selectFrom('users').select(['id', 'display_name', 'status', 'created_at']).where('parent_id', '=', promoterId).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit + 1);
  if (page.cursor) q = q.where(olderThan(page.cursor, 'created_at', 'id'));
  return pageOf(await q.execute(), page.limit);
}

/** Which of these promoters had a click, lead or sale from `from` on. */
export async function activeAmong(db: Db, ids: string[], from: string): Promise<string[]> {
  if (!ids.length) return [];
  return (await db.selectFrom('daily_stats').select('promoter_id').distinct().where('promoter_id', 'in', ids).where('day', '>=', from).where(hadActivity).execute()).map((r) => r.promoter_id);
}

export async function inviteCodeOf(db: Db, userId: string): Promise<string> {
  return (await db.selectFrom('users').select('invite_code').where('id', '=', userId).executeTakeFirstOrThrow()).invite_code;
}

// ——— Leaderboard ———

/** Every promoter's figure for a period key (`w:…` or `m:…`) where it is above zero. */
export async function periodFigures(db: Db, period: string, by: 'earnings' | 'conversions'): Promise<{ promoterId: string; value: number }[]> {
  const rows = await db.selectFrom('period_stats').select(['promoter_id', by]).where('period', '=', period).where(by, '>', 0).execute();
  return rows.map((r) => ({ promoterId: r.promoter_id, value: Number((r as Record<string, unknown>)[by]) }));
}

/** Users left out of the leaderboard: opted out, not active (suspended…), not promoters — few. */
export async function leaderboardExcluded(db: Db): Promise<string[]> {
  return (await db.selectFrom('users').select('id').where((eb) => eb.or([eb('leaderboard_opt_out', '=', 1), eb('status', '<>', 'active'), eb('role', '<>', 'promoter')])).execute()).map((r) => r.id);
}

export async function displayNames(db: Db, ids: string[]): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  return new Map((await db.selectFrom('users').select(['id', 'display_name']).where('id', 'in', ids).execute()).map((u) => [u.id, u.display_name]));
}

/** The viewer's own period figures and whether they opted out. */
export async function viewerStanding(db: Db, period: string, viewerId: string) {
  const [figures, viewer] = await Promise.all([
    db.selectFrom('period_stats').select(['earnings', 'conversions']).where('period', '=', period).where('promoter_id', '=', viewerId).executeTakeFirst(),
    db.selectFrom('users').select('leaderboard_opt_out').where('id', '=', viewerId).executeTakeFirst(),
  ]);
  return { earnings: Number(figures?.earnings ?? 0), conversions: Number(figures?.conversions ?? 0), optedOut: Number(viewer?.leaderboard_opt_out ?? 0) === 1 };
}

/**
 * Which of a promoter's first steps are done, ever: joined a campaign (a pending request counts),
 * has a link, has had a click from a person (`clicks` counts people only, bots are in
 * `bot_clicks`). Three existence checks on indexed promoter columns; the click check stops at the
 * first rollup row with one.
 */
export async function firstSteps(db: Db, promoterId: string): Promise<{ joined: boolean; linked: boolean; clicked: boolean }> {
  const [joined, linked, clicked] = await Promise.all([
    db.selectFrom('enrollments').select('id').where('promoter_id', '=', promoterId).where('status', '!=', 'rejected').limit(1).executeTakeFirst(),
    db.selectFrom('links').select('id').where('promoter_id', '=', promoterId).limit(1).executeTakeFirst(),
    db.selectFrom('daily_stats').select('day').where('promoter_id', '=', promoterId).where('clicks', '>', 0).limit(1).executeTakeFirst(),
  ]);
  return { joined: !!joined, linked: !!linked, clicked: !!clicked };
}
