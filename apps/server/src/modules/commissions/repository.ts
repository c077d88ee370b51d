/**
 * The money engine's queries (Kysely, explicit columns). Every function takes the query builder of
 * the transaction it runs in (`tx.q`), or the database for a plain read.
 */
import type { CommissionsTable, ConversionsTable, Db } from '../../db/types';

export type ConversionRow = ConversionsTable;
export type CommissionRow = CommissionsTable;

export const CONVERSION_COLUMNS = ['id', 'campaign_id', 'kind', 'external_id', 'amount', 'refunded_amount', 'refund_of', 'customer_external_id', 'customer_email_sha256', 'click_id', 'coupon_code', 'link_code', 'promoter_id', 'link_id', 'attributed_by', 'status', 'reason', 'occurred_at', 'received_at', 'api_key_id'] as const;
export const COMMISSION_COLUMNS = ['id', 'conversion_id', 'campaign_id', 'promoter_id', 'link_id', 'source_promoter_id', 'level', 'kind', 'rule', 'base', 'rate_bps', 'amount', 'reversed_amount', 'status', 'occurred_at', 'month', 'available_at', 'created_at', 'decided_at', 'decided_by', 'reason'] as const;
const CAMPAIGN_TERMS = ['id', 'status', 'starts_at', 'ends_at', 'updated_at', 'names_json', 'attribution_window_days', 'hold_days', 'lead_reward', 'sale_reward_type', 'sale_reward', 'tiers_json', 'override_bps'] as const;

/** The id of the conversion recorded under (campaign, kind, externalId), if any. */
export async function conversionIdByKey(q: Db, campaignId: string, kind: ConversionRow['kind'], externalId: string): Promise<string | undefined> {
  return (await q.selectFrom('conversions').select('id').where('campaign_id', '=', campaignId).where('kind', '=', kind).where('external_id', '=', externalId).executeTakeFirst())?.id;
}

export function findConversion(q: Db, campaignId: string, kind: ConversionRow['kind'], externalId: string) {
  return q.selectFrom('conversions').select(CONVERSION_COLUMNS).where('campaign_id', '=', campaignId).where('kind', '=', kind).where('external_id', '=', externalId).executeTakeFirst();
}

/** What recording a conversion needs of its campaign: state, schedule and terms. */
export function campaignTerms(q: Db, campaignId: string) {
  return q.selectFrom('campaigns').select(CAMPAIGN_TERMS).where('id', '=', campaignId).executeTakeFirst();
}
export type CampaignTerms = NonNullable<Awaited<ReturnType<typeof campaignTerms>>>;

/** The approved enrollment holding a coupon code, with the promoter's default link. */
export function couponOwner(q: Db, campaignId: string, couponCode: string) {
  return q
    .selectFrom('enrollments as e')
    .leftJoin('links as l', (j) => j.onRef('l.promoter_id', '=', 'e.promoter_id').onRef('l.campaign_id', '=', 'e.campaign_id').on('l.is_default', '=', 1))
    .select(['e.promoter_id', 'l.id as link_id', 'l.code'])
    .where('e.campaign_id', '=', campaignId)
    .where('e.status', '=', 'approved')
    .where('e.coupon_code', '=', couponCode)
    .executeTakeFirst();
}

/** A click of the campaign by id, with its link's code. */
export function clickOf(q: Db, campaignId: string, clickId: string) {
  return q
    .selectFrom('clicks as c')
    .leftJoin('links as l', 'l.id', 'c.link_id')
    .select(['c.promoter_id', 'c.link_id', 'c.at', 'c.attributed', 'c.is_bot', 'l.code'])
    .where('c.id', '=', clickId)
    .where('c.campaign_id', '=', campaignId)
    .executeTakeFirst();
}

/** The customer's latest attributed lead or sale of the campaign at or before `occurredAt`. */
export function customerEarlier(q: Db, campaignId: string, customerExternalId: string, occurredAt: number) {
  return q
    .selectFrom('conversions as v')
    .leftJoin('links as l', 'l.id', 'v.link_id')
    .select(['v.promoter_id', 'v.link_id', 'v.occurred_at', 'l.code'])
    .where('v.campaign_id', '=', campaignId)
    .where('v.customer_external_id', '=', customerExternalId)
    .where('v.status', '=', 'attributed')
    .where('v.kind', 'in', ['lead', 'sale'])
    .where('v.occurred_at', '<=', occurredAt)
    .orderBy('v.occurred_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export function linkByCode(q: Db, campaignId: string, codeKey: string) {
  return q.selectFrom('links').select(['id', 'promoter_id', 'status', 'code']).where('code_key', '=', codeKey).where('campaign_id', '=', campaignId).executeTakeFirst();
}

/** The promoter a conversion points to: status, enrollment in the campaign, inviter and the inviter's status. */
export function attributedPromoter(q: Db, campaignId: string, promoterId: string) {
  return q
    .selectFrom('users as u')
    .leftJoin('enrollments as e', (j) => j.onRef('e.promoter_id', '=', 'u.id').on('e.campaign_id', '=', campaignId))
    .leftJoin('users as i', 'i.id', 'u.parent_id')
    .select(['u.id', 'u.account', 'u.display_name', 'u.status', 'u.parent_id', 'e.status as enrollment', 'i.status as inviter_status'])
    .where('u.id', '=', promoterId)
    .executeTakeFirst();
}

/** The promoter's earlier sales this month that still count towards a volume tier. */
export async function countTierSales(q: Db, promoterId: string, campaignId: string, month: string): Promise<number> {
  const row = await q
    .selectFrom('commissions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('promoter_id', '=', promoterId)
    .where('campaign_id', '=', campaignId)
    .where('month', '=', month)
    .where('level', '=', 1)
    .where('kind', '=', 'sale')
    .where('status', 'in', ['pending', 'approved'])
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Multi-row inserts, sorted by the idempotency key: two writers inserting the same keys queue instead of deadlocking. */
export async function insertConversions(q: Db, rows: ConversionRow[]) {
  const sorted = [...rows].sort((a, b) => (a.campaign_id + a.kind + a.external_id < b.campaign_id + b.kind + b.external_id ? -1 : 1));
  for (let i = 0; i < sorted.length; i += 200) await q.insertInto('conversions').values(sorted.slice(i, i + 200)).execute();
}

export async function insertCommissions(q: Db, rows: CommissionRow[]) {
  for (let i = 0; i < rows.length; i += 200) await q.insertInto('commissions').values(rows.slice(i, i + 200)).execute();
}

/**
 * The sale a refund names, locked for the rest of the transaction on PostgreSQL (`for update`), so
 * refunds of one sale run one after another; SQLite has one writer, which serializes them already.
 */
export function lockSale(q: Db, dialect: 'sqlite' | 'postgres', campaignId: string, externalId: string) {
  const query = q.selectFrom('conversions').select(CONVERSION_COLUMNS).where('campaign_id', '=', campaignId).where('kind', '=', 'sale').where('external_id', '=', externalId);
  return (dialect === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
}

export function addRefunded(q: Db, saleId: string, amount: number) {
  return q.updateTable('conversions').set((eb) => ({ refunded_amount: eb('refunded_amount', '+', amount) })).where('id', '=', saleId).execute();
}

export function insertConversion(q: Db, row: ConversionRow) {
  return q.insertInto('conversions').values(row).execute();
}

/** A sale's commissions that a refund can still take back, level 1 first. */
export function reversibleCommissions(q: Db, conversionId: string) {
  return q.selectFrom('commissions').select(COMMISSION_COLUMNS).where('conversion_id', '=', conversionId).where('status', 'in', ['pending', 'approved']).orderBy('level').execute();
}

export function commissionById(q: Db, id: string) {
  return q.selectFrom('commissions').select(COMMISSION_COLUMNS).where('id', '=', id).executeTakeFirst();
}

/** A conditional update: changes the commission only if it is still as read (`status`, `reversed_amount`). */
export async function updateCommissionIf(q: Db, id: string, expected: { status: CommissionRow['status']; reversedAmount?: number }, set: Partial<Pick<CommissionRow, 'status' | 'reversed_amount' | 'decided_at' | 'decided_by' | 'reason'>>): Promise<boolean> {
  let query = q.updateTable('commissions').set(set).where('id', '=', id).where('status', '=', expected.status);
  if (expected.reversedAmount !== undefined) query = query.where('reversed_amount', '=', expected.reversedAmount);
  return Number((await query.executeTakeFirst()).numUpdatedRows) === 1;
}

export function insertCommissionEvent(q: Db, row: { id: string; commission_id: string; status: string; amount: number; actor_id: string | null; reason: string | null; at: number }) {
  return q.insertInto('commission_events').values(row).execute();
}

/** Pending commissions whose hold has ended, on campaigns that approve automatically. */
export async function dueCommissionIds(q: Db, now: number, limit: number): Promise<string[]> {
  const rows = await q
    .selectFrom('commissions')
    .innerJoin('campaigns', 'campaigns.id', 'commissions.campaign_id')
    .select('commissions.id')
    .where('commissions.status', '=', 'pending')
    .where('commissions.available_at', '<=', now)
    .where('campaigns.approval_mode', '=', 'auto')
    .orderBy('commissions.available_at')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/** A stored conversion and its commissions with their campaign names, link codes and source promoters (the conversions API's answer). */
export async function conversionWithCommissions(q: Db, id: string) {
  const conversion = await q.selectFrom('conversions').select(CONVERSION_COLUMNS).where('id', '=', id).executeTakeFirstOrThrow();
  const commissions = await q
    .selectFrom('commissions as c')
    .innerJoin('campaigns as p', 'p.id', 'c.campaign_id')
    .leftJoin('links as l', 'l.id', 'c.link_id')
    .leftJoin('users as s', 's.id', 'c.source_promoter_id')
    .select(COMMISSION_COLUMNS.map((col) => `c.${col}` as const))
    .select(['p.names_json', 'l.code as link_code', 's.display_name as source_name'])
    .where('c.conversion_id', '=', id)
    .orderBy('c.level')
    .execute();
  return { conversion, commissions };
}
