/**
 * Queries of the console's promoters: the searchable list (sorted on the server, keyset pages),
 * the promoter's page and its tabs, and the adjustments table. Explicit columns, never `select *`;
 * never a sealed payout number, a session token digest or a password hash.
 */
import { checkInviteCode, normalizeInviteCode, type PromoterSort } from '@pa/shared';
import { sql, type Expression, type Insertable, type SqlBool } from 'kysely';
import type { AdjustmentsTable, Db, Dialect } from '../../db/types';
import { AppError } from '../../platform/errors';
import { foldForSearch } from '../../domain/search';
import { likePattern, olderThan, pageOf } from '../../platform/listing';
import { WITHDRAWAL_VIEW_COLUMNS } from '../../platform/withdrawal-view';

export interface PromoterFilters {
  q?: string | undefined;
  status?: 'pending' | 'active' | 'rejected' | 'suspended' | undefined;
  campaignId?: string | undefined;
  groupId?: string | undefined;
  sort: PromoterSort;
  dir: 'asc' | 'desc';
}

/** The value each sort orders by (ties broken by id, so every page boundary is exact). */
const SORT_EXPR: Record<PromoterSort, Expression<unknown>> = {
  createdAt: sql`u.created_at`,
  name: sql`lower(u.display_name)`,
  available: sql`coalesce(ba.balance, 0)`,
};

/** A list cursor: the sort value and the id of the last row, opaque to the client. */
function encodeSortCursor(value: string | number, id: string): string {
  return Buffer.from(JSON.stringify([value, id])).toString('base64url');
}

function decodeSortCursor(cursor: string, sort: PromoterSort): { value: string | number; id: string } {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(parsed) && parsed.length === 2 && typeof parsed[1] === 'string') {
      const [value, id] = parsed as [unknown, string];
      if (sort === 'name' ? typeof value === 'string' : typeof value === 'number' && Number.isSafeInteger(value)) return { value: value as string | number, id };
    }
  } catch {
    // falls through to the error below
  }
  throw new AppError('VALIDATION_FAILED', { 'querystring.cursor': 'invalid' });
}

function promoterRows(db: Db, filters: PromoterFilters) {
  let query = db
    .selectFrom('users as u')
    .leftJoin('users as inv', 'inv.id', 'u.parent_id')
    .leftJoin('promoter_groups as g', 'g.id', 'u.group_id')
    // The wallet's two figures the list shows, straight from the balances the ledger keeps.
    .leftJoin('ledger_balances as ba', (join) => join.on('ba.account', '=', sql<string>`'promoter:' || u.id || ':available'`))
    .leftJoin('ledger_balances as bp', (join) => join.on('bp.account', '=', sql<string>`'promoter:' || u.id || ':pending'`))
    .select([
      'u.id', 'u.display_name', 'u.account', 'u.status', 'u.invite_code', 'u.created_at',
      'inv.id as inviter_id', 'inv.display_name as inviter_name', 'inv.account as inviter_account',
      'u.group_id', 'g.name as group_name',
      sql<number>`coalesce(ba.balance, 0)`.as('available'),
      sql<number>`coalesce(bp.balance, 0)`.as('pending'),
      sql<string>`lower(u.display_name)`.as('name_key'),
    ])
    // Staff never appear among promoters.
    .where('u.role', '=', 'promoter');
  if (filters.status) query = query.where('u.status', '=', filters.status);
  if (filters.groupId) query = query.where('u.group_id', '=', filters.groupId);
  if (filters.campaignId) {
    const campaignId = filters.campaignId;
    query = query.where((eb) => eb.exists(eb.selectFrom('enrollments as e').select('e.id').whereRef('e.promoter_id', '=', 'u.id').where('e.campaign_id', '=', campaignId)));
  }
  const q = filters.q?.trim();
  if (q) {
    const like = likePattern(q);
    const folded = likePattern(foldForSearch(q));
    query = query.where((eb) => {
      const ors: Expression<SqlBool>[] = [
        // Accents ignored: the stored folded name against the folded query ("maria" finds "María").
        sql<SqlBool>`u.name_folded like ${folded} escape '\\'`,
        sql<SqlBool>`lower(u.display_name) like ${like} escape '\\'`,
        sql<SqlBool>`lower(u.account) like ${like} escape '\\'`,
        // Codes match exactly, as they are stored: invite codes normalized, link codes by their
        // case-folded key, coupon codes upper-case.
        eb.exists(eb.selectFrom('links as l').select('l.id').whereRef('l.promoter_id', '=', 'u.id').where('l.code_key', '=', q.toLowerCase())),
        eb.exists(eb.selectFrom('enrollments as c').select('c.id').whereRef('c.promoter_id', '=', 'u.id').where('c.coupon_code', '=', q.toUpperCase())),
      ];
      if (!checkInviteCode(q)) ors.push(eb('u.invite_code', '=', normalizeInviteCode(q)));
      return eb.or(ors);
    });
  }
  return query;
}

export type PromoterListRow = Awaited<ReturnType<ReturnType<typeof promoterRows>['execute']>>[number];

/** One page of the list in the chosen order (keyset over the sort value and the id). */
export async function listPromoters(db: Db, filters: PromoterFilters, page: { limit: number; cursor?: string | undefined }): Promise<{ rows: PromoterListRow[]; nextCursor: string | null }> {
  const expr = SORT_EXPR[filters.sort];
  const dir = filters.dir === 'asc' ? sql`asc` : sql`desc`;
  let query = promoterRows(db, filters).orderBy(sql`${expr} ${dir}`).orderBy(sql`u.id ${dir}`).limit(page.limit + 1);
  if (page.cursor) {
    const c = decodeSortCursor(page.cursor, filters.sort);
    const cmp = filters.dir === 'asc' ? sql`>` : sql`<`;
    query = query.where(sql<SqlBool>`(${expr} ${cmp} ${c.value} or (${expr} = ${c.value} and u.id ${cmp} ${c.id}))`);
  }
  const rows = await query.execute();
  const key = (r: PromoterListRow): string | number => (filters.sort === 'name' ? r.name_key : filters.sort === 'available' ? Number(r.available) : Number(r.created_at));
  const shown = rows.slice(0, page.limit);
  const last = shown[shown.length - 1];
  return { rows: shown, nextCursor: rows.length > page.limit && last ? encodeSortCursor(key(last), last.id) : null };
}

/** Every row the filters match, in their order, for the export (capped). */
export async function allPromoters(db: Db, filters: PromoterFilters, cap: number): Promise<PromoterListRow[]> {
  const dir = filters.dir === 'asc' ? sql`asc` : sql`desc`;
  return promoterRows(db, filters).orderBy(sql`${SORT_EXPR[filters.sort]} ${dir}`).orderBy(sql`u.id ${dir}`).limit(cap).execute();
}

/** A promoter (role promoter only: staff are not found here) with their inviter. */
export async function findPromoter(db: Db, id: string) {
  return db
    .selectFrom('users as u')
    .leftJoin('users as inv', 'inv.id', 'u.parent_id')
    .leftJoin('promoter_groups as g', 'g.id', 'u.group_id')
    .select([
      'u.id', 'u.display_name', 'u.account', 'u.status', 'u.locale', 'u.invite_code', 'u.leaderboard_opt_out', 'u.created_at',
      'inv.id as inviter_id', 'inv.display_name as inviter_name', 'inv.account as inviter_account',
      'u.group_id', 'g.name as group_name',
    ])
    .where('u.id', '=', id)
    .where('u.role', '=', 'promoter')
    .executeTakeFirst();
}

export async function countDirectMembers(db: Db, id: string): Promise<number> {
  const row = await db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).where('parent_id', '=', id).executeTakeFirst();
  return Number(row?.n ?? 0);
}

export interface Page {
  limit: number;
  cursor?: string | undefined;
}

export async function commissionsPage(db: Db, promoterId: string, page: Page) {
  let q = db
    .selectFrom('commissions as c')
    .innerJoin('campaigns as p', 'p.id', 'c.campaign_id')
    .select(['c.id', 'c.campaign_id', 'p.names_json', 'c.level', 'c.kind', 'c.amount', 'c.reversed_amount', 'c.status', 'c.created_at', 'c.available_at'])
    .where('c.promoter_id', '=', promoterId)
    .orderBy('c.created_at', 'desc')
    .orderBy('c.id', 'desc')
    .limit(page.limit + 1);
  if (page.cursor) q = q.where(olderThan(page.cursor, 'c.created_at', 'c.id'));
  return pageOf(await q.execute(), page.limit);
}

export async function withdrawalsPage(db: Db, promoterId: string, page: Page) {
  let q = db
    .selectFrom('withdrawals as w')
    // The columns the one withdrawal mapping reads (platform/withdrawal-view.ts).
    .select(WITHDRAWAL_VIEW_COLUMNS.map((c) => `w.${c}` as const))
    .where('w.promoter_id', '=', promoterId)
    .orderBy('w.requested_at', 'desc')
    .orderBy('w.id', 'desc')
    .limit(page.limit + 1);
  if (page.cursor) q = q.where(olderThan(page.cursor, 'w.requested_at', 'w.id'));
  return pageOf(await q.execute(), page.limit, (r) => [Number(r.requested_at), r.id]);
}

export async function linksPage(db: Db, promoterId: string, page: Page) {
  let q = db
    .selectFrom('links as l')
    .innerJoin('campaigns as p', 'p.id', 'l.campaign_id')
    .select(['l.id', 'l.code', 'l.campaign_id', 'p.names_json', 'l.label', 'l.channel', 'l.status', 'l.is_default', 'l.created_at'])
    .where('l.promoter_id', '=', promoterId)
    .orderBy('l.created_at', 'desc')
    .orderBy('l.id', 'desc')
    .limit(page.limit + 1);
  if (page.cursor) q = q.where(olderThan(page.cursor, 'l.created_at', 'l.id'));
  return pageOf(await q.execute(), page.limit);
}

export async function payoutAccountsPage(db: Db, promoterId: string, page: Page) {
  let q = db
    .selectFrom('payout_accounts as a')
    .select(['a.id', 'a.method', 'a.holder_name', 'a.last4', 'a.is_default', 'a.created_at'])
    .where('a.promoter_id', '=', promoterId)
    .orderBy('a.created_at', 'desc')
    .orderBy('a.id', 'desc')
    .limit(page.limit + 1);
  if (page.cursor) q = q.where(olderThan(page.cursor, 'a.created_at', 'a.id'));
  return pageOf(await q.execute(), page.limit);
}

/** Sessions still signed in (neither revoked nor expired), most recently seen first. */
export async function sessionsPage(db: Db, promoterId: string, page: Page, now: number) {
  let q = db
    .selectFrom('sessions as s')
    .select(['s.id', 's.device', 's.created_at', 's.last_seen_at', 's.expires_at'])
    .where('s.user_id', '=', promoterId)
    .where('s.revoked_at', 'is', null)
    .where('s.expires_at', '>', now)
    .orderBy('s.last_seen_at', 'desc')
    .orderBy('s.id', 'desc')
    .limit(page.limit + 1);
  if (page.cursor) q = q.where(olderThan(page.cursor, 's.last_seen_at', 's.id'));
  return pageOf(await q.execute(), page.limit, (r) => [Number(r.last_seen_at), r.id]);
}

const ADJUSTMENT_COLUMNS = [
  'id', 'promoter_id', 'amount', 'currency', 'reason', 'allow_negative', 'idempotency_key', 'request_hash', 'journal_id', 'created_by', 'created_at',
] as const;

export async function findAdjustmentByKey(db: Db, promoterId: string, idempotencyKey: string): Promise<AdjustmentsTable | undefined> {
  return db.selectFrom('adjustments').select(ADJUSTMENT_COLUMNS).where('promoter_id', '=', promoterId).where('idempotency_key', '=', idempotencyKey).executeTakeFirst();
}

export async function insertAdjustment(db: Db, row: Insertable<AdjustmentsTable>): Promise<void> {
  await db.insertInto('adjustments').values(row).execute();
}

/** A group, held for the rest of the transaction (PostgreSQL `for share`) while promoters move into it, so it is not deleted meanwhile. */
export async function holdGroup(db: Db, dialect: Dialect, id: string): Promise<{ id: string; name: string } | undefined> {
  const query = db.selectFrom('promoter_groups').select(['id', 'name']).where('id', '=', id);
  return dialect === 'postgres' ? query.forShare().executeTakeFirst() : query.executeTakeFirst();
}

/** The group of each of these ids that is a promoter's (staff and unknown ids are absent). */
export async function groupsOfPromoters(db: Db, ids: string[]): Promise<Map<string, string>> {
  const rows = await db.selectFrom('users').select(['id', 'group_id']).where('id', 'in', ids).where('role', '=', 'promoter').execute();
  return new Map(rows.map((r) => [r.id, r.group_id]));
}

export async function setPromoterGroup(db: Db, ids: string[], groupId: string, now: number): Promise<void> {
  if (ids.length > 0) await db.updateTable('users').set({ group_id: groupId, updated_at: now }).where('id', 'in', ids).where('role', '=', 'promoter').execute();
}
