/**
 * The money engine's queries (Kysely, explicit columns). Every function takes the query builder of
 * the transaction it runs in (`tx.q`), or the database for a plain read.
 */
import { sql, type RawBuilder } from 'kysely';
import { hot, onPostgres, writeRows } from '../../db/hot';
import type { CommissionsTable, ConversionsTable, CustomerBindingsTable, Db, Dialect, ReadOnlyDb } from '../../db/types';
import { olderThan, pageOf } from '../../platform/listing';

export type ConversionRow = ConversionsTable;
export type CommissionRow = CommissionsTable;

const CONVERSION_COLUMNS = ['id', 'campaign_id', 'kind', 'external_id', 'amount', 'refunded_amount', 'refund_of', 'customer_external_id', 'customer_email_sha256', 'click_id', 'coupon_code', 'link_code', 'promoter_id', 'link_id', 'attributed_by', 'status', 'reason', 'occurred_at', 'received_at', 'api_key_id'] as const;
const COMMISSION_COLUMNS = ['id', 'conversion_id', 'campaign_id', 'promoter_id', 'link_id', 'source_promoter_id', 'level', 'kind', 'rule', 'base', 'rate_bps', 'amount', 'reversed_amount', 'status', 'occurred_at', 'month', 'available_at', 'created_at', 'decided_at', 'decided_by', 'reason', 'binding_month', 'binding_months', 'assignment', 'bounty_id', 'bounty_period'] as const;
/** A promoter as attribution needs them (users as u, their inviter as i). */
const PROMOTER_COLUMNS = ['u.id', 'u.account', 'u.display_name', 'u.status', 'u.parent_id', 'u.group_id', 'i.status as inviter_status'] as const;
const CAMPAIGN_TERMS = ['id', 'status', 'starts_at', 'ends_at', 'updated_at', 'names_json', 'attribution_window_days', 'hold_days', 'lead_reward', 'sale_reward_type', 'sale_reward', 'tiers_json', 'override_bps', 'binding_months', 'rules_json', 'budget_per_month'] as const;

/** The id of the conversion recorded under (campaign, kind, externalId), if any. */
export async function conversionIdByKey(q: ReadOnlyDb, campaignId: string, kind: ConversionRow['kind'], externalId: string): Promise<string | undefined> {
  return (await byKey.first(q, campaignId, kind, externalId))?.id;
}
const byKey = hot((q: Db, campaignId: string, kind: ConversionRow['kind'], externalId: string) =>
  q.selectFrom('conversions').select('id').where('campaign_id', '=', campaignId).where('kind', '=', kind).where('external_id', '=', externalId));

export function findConversion(q: Db, campaignId: string, kind: ConversionRow['kind'], externalId: string) {
  return q.selectFrom('conversions').select(CONVERSION_COLUMNS).where('campaign_id', '=', campaignId).where('kind', '=', kind).where('external_id', '=', externalId).executeTakeFirst();
}

/** What recording a conversion needs of its campaign: state, schedule and terms. */
const terms = hot((q: Db, campaignId: string) => q.selectFrom('campaigns').select(CAMPAIGN_TERMS).where('id', '=', campaignId));
export function campaignTerms(q: ReadOnlyDb, campaignId: string) {
  return terms.first(q, campaignId);
}
export type CampaignTerms = NonNullable<Awaited<ReturnType<typeof campaignTerms>>>;

/** The approved enrollment holding a coupon code, with the promoter's default link. */
export function couponOwner(q: ReadOnlyDb, campaignId: string, couponCode: string) {
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
export function clickOf(q: ReadOnlyDb, campaignId: string, clickId: string) {
  return q
    .selectFrom('clicks as c')
    .leftJoin('links as l', 'l.id', 'c.link_id')
    .select(['c.promoter_id', 'c.link_id', 'c.at', 'c.attributed', 'c.is_bot', 'l.code'])
    .where('c.id', '=', clickId)
    .where('c.campaign_id', '=', campaignId)
    .executeTakeFirst();
}

/** The customer's latest attributed lead or sale of the campaign at or before `occurredAt`. */
export function customerEarlier(q: ReadOnlyDb, campaignId: string, customerExternalId: string, occurredAt: number) {
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

/** The customer's binding to a promoter in the campaign (recurring campaigns), with its link's code. */
export function bindingOf(q: ReadOnlyDb, campaignId: string, customerExternalId: string) {
  return q
    .selectFrom('customer_bindings as b')
    .leftJoin('links as l', 'l.id', 'b.link_id')
    .select(['b.id', 'b.promoter_id', 'b.link_id', 'b.conversion_id', 'b.started_at', 'b.months', 'b.ended_at', 'l.code'])
    .where('b.campaign_id', '=', campaignId)
    .where('b.customer_external_id', '=', customerExternalId)
    .executeTakeFirst();
}

/**
 * Starts a binding, or replaces the one with the id `replaces` (it no longer holds). If another
 * writer bound the customer meanwhile (or staff moved the binding), theirs stays: the binding read
 * is replaced or nothing is.
 */
export async function upsertBindings(q: Db, bindings: { row: CustomerBindingsTable; replaces: string | null }[]) {
  for (const { row, replaces } of bindings) {
    await q.insertInto('customer_bindings').values(row)
      .onConflict((oc) => {
        const target = oc.columns(['campaign_id', 'customer_external_id']);
        return replaces === null
          ? target.doNothing()
          : target.doUpdateSet({ id: row.id, promoter_id: row.promoter_id, link_id: row.link_id, conversion_id: row.conversion_id, started_at: row.started_at, months: row.months, ended_at: null, created_at: row.created_at })
            .where('customer_bindings.id', '=', replaces);
      })
      .execute();
  }
}

/** Ends the customer's binding at `at` (their subscription ended); false when none held. */
export async function endBinding(q: Db, campaignId: string, customerExternalId: string, at: number): Promise<boolean> {
  const r = await q.updateTable('customer_bindings').set({ ended_at: at })
    .where('campaign_id', '=', campaignId).where('customer_external_id', '=', customerExternalId).where('ended_at', 'is', null)
    // A late cancellation does not end a binding that started after it (the customer came back).
    .where('started_at', '<=', at)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

const link = hot((q: Db, campaignId: string, codeKey: string) => q.selectFrom('links').select(['id', 'promoter_id', 'status', 'code']).where('code_key', '=', codeKey).where('campaign_id', '=', campaignId));
export function linkByCode(q: ReadOnlyDb, campaignId: string, codeKey: string) {
  return link.first(q, campaignId, codeKey);
}

/** The promoter a conversion points to: status, enrollment in the campaign, inviter and the inviter's status. */
export function attributedPromoter(q: ReadOnlyDb, campaignId: string, promoterId: string) {
  return promoterOf.first(q, campaignId, promoterId);
}
const promoterOf = hot((q: Db, campaignId: string, promoterId: string) =>
  q
    .selectFrom('users as u')
    .leftJoin('enrollments as e', (j) => j.onRef('e.promoter_id', '=', 'u.id').on('e.campaign_id', '=', campaignId))
    .leftJoin('users as i', 'i.id', 'u.parent_id')
    .select([...PROMOTER_COLUMNS, 'e.status as enrollment'])
    .where('u.id', '=', promoterId));

/** The promoter's earlier sales this month that still count towards a volume tier. */
export async function countTierSales(q: ReadOnlyDb, promoterId: string, campaignId: string, month: string): Promise<number> {
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
  await writeRows(q, 'conversions', sorted, { chunk: 200 });
}

export async function insertCommissions(q: Db, rows: CommissionRow[]) {
  await writeRows(q, 'commissions', rows, { chunk: 200 });
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
/** A stored conversion with its commissions as they are shown (campaign names, link code, source promoter's name). */
export type StoredConversion = Awaited<ReturnType<typeof conversionWithCommissions>>;

/** The commissions of a conversion as `conversionWithCommissions` shows them (`conversionId`: a value or a reference). */
const storedCommissions = (q: Db, conversionId: string | RawBuilder<string>) => q
  .selectFrom('commissions as c')
  .select(COMMISSION_COLUMNS.map((col) => `c.${col}` as const))
  // Looked up one row each (a conversion has one or two commissions): joined, the planner may
  // hash whole tables for them while its statistics are young.
  .select((eb) => [
    eb.selectFrom('campaigns as p').select('p.names_json').whereRef('p.id', '=', 'c.campaign_id').$asScalar().$notNull().as('names_json'),
    eb.selectFrom('links as l').select('l.code').whereRef('l.id', '=', 'c.link_id').$asScalar().as('link_code'),
    eb.selectFrom('users as s').select('s.display_name').whereRef('s.id', '=', 'c.source_promoter_id').$asScalar().as('source_name'),
  ])
  .where('c.conversion_id', '=', conversionId)
  .orderBy('c.level');

export async function conversionWithCommissions(q: Db, id: string) {
  // Independent reads at once (on PostgreSQL, two connections of the pool).
  const [conversion, commissions] = await Promise.all([
    q.selectFrom('conversions').select(CONVERSION_COLUMNS).where('id', '=', id).executeTakeFirstOrThrow(),
    storedCommissions(q, id).execute(),
  ]);
  return { conversion, commissions };
}

// ——— The read side (reads.ts): the operators' lists, the promoter's commissions ———

/** Commissions with what they are shown with: the campaign's names, the link's code and, for level 2, the source promoter's name. */
function commissionViews(q: Db) {
  return q
    .selectFrom('commissions as c')
    .innerJoin('campaigns as p', 'p.id', 'c.campaign_id')
    .leftJoin('links as l', 'l.id', 'c.link_id')
    .leftJoin('users as s', 's.id', 'c.source_promoter_id')
    .select(COMMISSION_COLUMNS.map((col) => `c.${col}` as const))
    .select(['p.names_json', 'l.code as link_code', 's.display_name as source_name']);
}

export interface Page {
  limit: number;
  cursor?: string | undefined;
}

/** The operators' conversion filters: `from` and `before` are instants (occurred_at ≥ from, < before). */
export interface ConversionFilters {
  q?: string | undefined;
  campaignId?: string | undefined;
  promoterId?: string | undefined;
  kind?: ConversionRow['kind'] | undefined;
  status?: ConversionRow['status'] | undefined;
  reason?: string | undefined;
  from?: number | undefined;
  before?: number | undefined;
}

/** Reported conversions, newest received first, with the campaign's names and the promoter's name. */
export async function conversionsPage(q: Db, filters: ConversionFilters, page: Page) {
  let query = q
    .selectFrom('conversions as v')
    .innerJoin('campaigns as p', 'p.id', 'v.campaign_id')
    .leftJoin('users as u', 'u.id', 'v.promoter_id')
    .select(CONVERSION_COLUMNS.map((col) => `v.${col}` as const))
    .select(['p.names_json', 'u.display_name'])
    .orderBy('v.received_at', 'desc')
    .orderBy('v.id', 'desc')
    .limit(page.limit + 1);
  if (filters.q !== undefined) {
    // An order id, exactly: found through the idempotency key (campaign, kind, external id), one
    // probe per campaign and kind, with no index of its own on the busiest table.
    // (`campaign_id in (campaigns)` puts the few campaigns outside and the probes inside.)
    query = query.where('v.external_id', '=', filters.q).where('v.kind', 'in', filters.kind ? [filters.kind] : ['lead', 'sale', 'refund'])
      .where('v.campaign_id', 'in', (eb) => eb.selectFrom('campaigns').select('id'));
  } else if (filters.kind) query = query.where('v.kind', '=', filters.kind);
  if (filters.campaignId) query = query.where('v.campaign_id', '=', filters.campaignId);
  if (filters.promoterId) query = query.where('v.promoter_id', '=', filters.promoterId);
  if (filters.status) query = query.where('v.status', '=', filters.status);
  if (filters.reason) query = query.where('v.reason', '=', filters.reason);
  if (filters.from !== undefined) query = query.where('v.occurred_at', '>=', filters.from);
  if (filters.before !== undefined) query = query.where('v.occurred_at', '<', filters.before);
  if (page.cursor) query = query.where(olderThan(page.cursor, 'v.received_at', 'v.id'));
  return pageOf(await query.execute(), page.limit, (r) => [Number(r.received_at), r.id]);
}

/** Commissions to review, newest first, with the promoter's name and account and the order's id (the conversion's externalId). */
export async function commissionsPage(q: Db, filters: { status?: CommissionRow['status'] | undefined; campaignId?: string | undefined }, page: Page) {
  let query = commissionViews(q)
    .innerJoin('users as u', 'u.id', 'c.promoter_id')
    // Left: a bounty's reward has no conversion (its external_id is null).
    .leftJoin('conversions as v', 'v.id', 'c.conversion_id')
    .select(['u.display_name', 'u.account', 'v.external_id'])
    .orderBy('c.created_at', 'desc')
    .orderBy('c.id', 'desc')
    .limit(page.limit + 1);
  if (filters.status) query = query.where('c.status', '=', filters.status);
  if (filters.campaignId) query = query.where('c.campaign_id', '=', filters.campaignId);
  if (page.cursor) query = query.where(olderThan(page.cursor, 'c.created_at', 'c.id'));
  return pageOf(await query.execute(), page.limit, (r) => [Number(r.created_at), r.id]);
}

/** A promoter's filters: `from` and `before` are instants (occurred_at ≥ from, < before). */
export interface PromoterCommissionFilters {
  status?: CommissionRow['status'] | undefined;
  campaignId?: string | undefined;
  from?: number | undefined;
  before?: number | undefined;
}

function promoterCommissions(q: Db, promoterId: string, filters: PromoterCommissionFilters) {
  let query = commissionViews(q).where('c.promoter_id', '=', promoterId);
  if (filters.status) query = query.where('c.status', '=', filters.status);
  if (filters.campaignId) query = query.where('c.campaign_id', '=', filters.campaignId);
  if (filters.from !== undefined) query = query.where('c.occurred_at', '>=', filters.from);
  if (filters.before !== undefined) query = query.where('c.occurred_at', '<', filters.before);
  return query;
}

/** The promoter's commissions, newest first. */
export async function promoterCommissionsPage(q: Db, promoterId: string, filters: PromoterCommissionFilters, page: Page) {
  let query = promoterCommissions(q, promoterId, filters).orderBy('c.created_at', 'desc').orderBy('c.id', 'desc').limit(page.limit + 1);
  if (page.cursor) query = query.where(olderThan(page.cursor, 'c.created_at', 'c.id'));
  return pageOf(await query.execute(), page.limit, (r) => [Number(r.created_at), r.id]);
}

/** The promoter's commissions for the export, latest occurred first, with their conversion's externalId; at most `max`. */
export function promoterCommissionsExport(q: Db, promoterId: string, filters: PromoterCommissionFilters, max: number) {
  return promoterCommissions(q, promoterId, filters)
    // Left: a bounty's reward has no conversion (its external_id is null).
    .leftJoin('conversions as v', 'v.id', 'c.conversion_id')
    .select(['v.external_id'])
    .orderBy('c.occurred_at', 'desc')
    .limit(max)
    .execute();
}

/** One commission as it is shown. */
export function commissionView(q: Db, id: string) {
  return commissionViews(q).where('c.id', '=', id).executeTakeFirst();
}

/** What a commission's page shows of its conversion. */
export function conversionSummary(q: Db, id: string) {
  return q.selectFrom('conversions').select(['kind', 'external_id', 'amount', 'refunded_amount', 'attributed_by', 'occurred_at']).where('id', '=', id).executeTakeFirstOrThrow();
}

/** A commission's events in the order they happened. */
export function commissionEvents(q: Db, commissionId: string) {
  return q.selectFrom('commission_events').select(['status', 'amount', 'reason', 'at']).where('commission_id', '=', commissionId).orderBy('at').orderBy('id').execute();
}

// ——— Read ahead for a whole group commit (one query each instead of one per delivery) ———

/** Stored conversions of one campaign and kind among these external ids (through the idempotency key's index). */


/** What a batch of deliveries asks before its items run (commissions service, READ_AHEAD). */
export interface ReadAheadRequest {
  keys: { campaignId: string; kind: ConversionRow['kind']; externalId: string }[];
  campaignIds: string[];
  /** Lower-cased link codes. */
  codeKeys: string[];
}
type AttributedPromoter = NonNullable<Awaited<ReturnType<typeof attributedPromoter>>>;
interface ReadAheadLink {
  id: string;
  promoter_id: string;
  status: string;
  code: string;
  code_key: string;
  campaign_id: string;
  /** The link's promoter as attribution needs them (enrollment in the link's campaign), if they exist. */
  promoter: AttributedPromoter | null;
}
interface ReadAheadResult {
  /** The stored conversions among the keys; on PostgreSQL with what a repeat is answered with. */
  keys: { campaign_id: string; kind: string; external_id: string; id: string; stored?: StoredConversion }[];
  campaigns: CampaignTerms[];
  links: ReadAheadLink[];
}

/** A raw query as `hot` takes it (RawBuilder compiles with the executor it runs on). */
const compilable = <O>(q: Db, raw: RawBuilder<O>) => ({ compile: () => raw.compile(q) });

/** The read-ahead on PostgreSQL, compiled once (see `readAhead`). */
const readAheadStatement = hot((q: Db, keyCampaigns: string[], keyKinds: string[], keyExternalIds: string[], campaignIds: string[], codeKeys: string[]) => compilable(q, sql<{ keys: ReadAheadResult['keys']; campaigns: CampaignTerms[]; links: ReadAheadLink[] }>`select
      (select coalesce(json_agg(json_build_object('campaign_id', k.campaign_id, 'kind', k.kind, 'external_id', k.external_id, 'id', conv.id, 'stored', json_build_object(
          'conversion', to_json(conv),
          'commissions', (select coalesce(json_agg(v order by v.level), '[]'::json) from (${storedCommissions(q, sql<string>`conv.id`)}) as v)))), '[]'::json)
        from unnest(${keyCampaigns}::text[], ${keyKinds}::text[], ${keyExternalIds}::text[]) as k(campaign_id, kind, external_id)
        cross join lateral (select ${sql.join(CONVERSION_COLUMNS.map((col) => sql.ref(col)))} from conversions where campaign_id = k.campaign_id and kind = k.kind and external_id = k.external_id offset 0) as conv) as keys,
      (select coalesce(json_agg(c), '[]'::json) from (select ${sql.join(CAMPAIGN_TERMS.map((c) => sql.ref(c)))} from campaigns where id = any(${campaignIds}::text[])) as c) as campaigns,
      (select coalesce(json_agg(x), '[]'::json) from (
        select l.id, l.promoter_id, l.status, l.code, l.code_key, l.campaign_id,
          case when u.id is null then null else json_build_object('id', u.id, 'account', u.account, 'display_name', u.display_name, 'status', u.status, 'parent_id', u.parent_id, 'group_id', u.group_id, 'enrollment', e.status, 'inviter_status', i.status) end as promoter
        from links l
        left join users u on u.id = l.promoter_id
        left join users i on i.id = u.parent_id
        left join enrollments e on e.promoter_id = l.promoter_id and e.campaign_id = l.campaign_id
        where l.code_key = any(${codeKeys}::text[])) as x) as links`));

/**
 * A batch's reads at once. PostgreSQL answers them in one statement (one round trip; each part
 * as JSON); SQLite, in-process, a statement per question.
 */
export async function readAhead(q: ReadOnlyDb, ask: ReadAheadRequest): Promise<ReadAheadResult> {
  if (onPostgres(q)) {
    // The stored keys: one probe of the (campaign, kind, external id) key per key. Asked as
    // `external_id in (…)`, PostgreSQL may walk every conversion of the campaign while its
    // statistics are young (a fresh database, a new campaign): it takes campaign and kind as the
    // key's prefix and filters the ids, at a cost growing with the campaign. `offset 0` keeps the
    // lateral probe a probe.
    return (await readAheadStatement.first(q, ask.keys.map((k) => k.campaignId), ask.keys.map((k) => k.kind), ask.keys.map((k) => k.externalId), ask.campaignIds, ask.codeKeys))!;
  }
  const keys: ReadAheadResult['keys'] = [];
  const scopes = new Map<string, ReadAheadRequest['keys']>();
  for (const k of ask.keys) {
    const scope = `${k.campaignId}|${k.kind}`;
    const list = scopes.get(scope);
    if (list) list.push(k);
    else scopes.set(scope, [k]);
  }
  for (const list of scopes.values()) {
    const { campaignId, kind } = list[0]!;
    const found = await q.selectFrom('conversions').select(['id', 'external_id']).where('campaign_id', '=', campaignId).where('kind', '=', kind).where('external_id', 'in', list.map((k) => k.externalId)).execute();
    for (const r of found) keys.push({ campaign_id: campaignId, kind, external_id: r.external_id, id: r.id });
  }
  const campaigns = ask.campaignIds.length > 0 ? await q.selectFrom('campaigns').select(CAMPAIGN_TERMS).where('id', 'in', ask.campaignIds).execute() : [];
  const found = ask.codeKeys.length > 0 ? await q.selectFrom('links').select(['id', 'promoter_id', 'status', 'code', 'code_key', 'campaign_id']).where('code_key', 'in', ask.codeKeys).execute() : [];
  const promoterIds = [...new Set(found.map((l) => l.promoter_id))];
  const users = promoterIds.length > 0
    ? await q.selectFrom('users as u').leftJoin('users as i', 'i.id', 'u.parent_id').select(PROMOTER_COLUMNS).where('u.id', 'in', promoterIds).execute()
    : [];
  const enrollments = promoterIds.length > 0
    ? await q.selectFrom('enrollments').select(['promoter_id', 'campaign_id', 'status']).where('promoter_id', 'in', promoterIds).where('campaign_id', 'in', [...new Set(found.map((l) => l.campaign_id))]).execute()
    : [];
  const byId = new Map(users.map((u) => [u.id, u]));
  const enrolled = new Map(enrollments.map((e) => [`${e.campaign_id}|${e.promoter_id}`, e.status]));
  const links = found.map((l): ReadAheadLink => {
    const u = byId.get(l.promoter_id);
    return { ...l, promoter: u ? { ...u, enrollment: enrolled.get(`${l.campaign_id}|${l.promoter_id}`) ?? null } : null };
  });
  return { keys, campaigns, links };
}

// ——— Caps (issue 31) ———

/**
 * What the caps named have used this month, each row locked until the transaction ends (made first
 * when missing), so concurrent sales of a capped campaign take turns: on PostgreSQL by the row
 * locks, on SQLite by its one writer. Only in a transaction of its own (not a batch).
 */
export async function lockUsage(q: Db, dialect: Dialect, campaignId: string, month: string, scopes: string[]): Promise<Map<string, number>> {
  if (scopes.length === 0) return new Map();
  await q.insertInto('reward_usage').values(scopes.map((scope) => ({ campaign_id: campaignId, scope, month, used: 0 }))).onConflict((oc) => oc.columns(['campaign_id', 'scope', 'month']).doNothing()).execute();
  let query = q.selectFrom('reward_usage').select(['scope', 'used']).where('campaign_id', '=', campaignId).where('month', '=', month).where('scope', 'in', scopes);
  if (dialect === 'postgres') query = query.forUpdate();
  return new Map((await query.execute()).map((r) => [r.scope, Number(r.used)]));
}

export async function addUsage(q: Db, campaignId: string, month: string, scope: string, amount: number): Promise<void> {
  await q.updateTable('reward_usage').set((eb) => ({ used: eb('used', '+', amount) })).where('campaign_id', '=', campaignId).where('month', '=', month).where('scope', '=', scope).execute();
}

/** A sale's stored lines and explanation (refunds by line, the explanation endpoints). */
export function conversionExtras(q: ReadOnlyDb, id: string) {
  return q.selectFrom('conversions').select(['kind', 'items_json', 'country', 'metadata_json', 'new_customer', 'explanation_json']).where('id', '=', id).executeTakeFirst();
}

export async function setLines(q: Db, id: string, itemsJson: string): Promise<void> {
  await q.updateTable('conversions').set({ items_json: itemsJson }).where('id', '=', id).execute();
}

/** The names of these promoter groups, by id. */
export async function groupNames(q: ReadOnlyDb, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  return new Map((await q.selectFrom('promoter_groups').select(['id', 'name']).where('id', 'in', ids).execute()).map((g) => [g.id, g.name]));
}

// ——— Operators' corrections (issue 31, item 7: corrections.ts) ———

const EXTRA_COLUMNS = ['items_json', 'country', 'metadata_json', 'new_customer', 'explanation_json'] as const;

/**
 * A conversion with what the business sent, locked for the rest of the transaction on PostgreSQL
 * (`for update`, the row `lockSale` locks): an assignment and the sale's refunds take turns. SQLite
 * has one writer.
 */
export function lockConversion(q: Db, dialect: Dialect, id: string) {
  const query = q.selectFrom('conversions').select([...CONVERSION_COLUMNS, ...EXTRA_COLUMNS]).where('id', '=', id);
  return (dialect === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
}

/** Every commission of a conversion (all assignments), oldest first; locked on PostgreSQL. */
export function lockCommissionsOf(q: Db, dialect: Dialect, conversionId: string) {
  const query = q.selectFrom('commissions').select(COMMISSION_COLUMNS).where('conversion_id', '=', conversionId).orderBy('assignment').orderBy('level');
  return (dialect === 'postgres' ? query.forUpdate() : query).execute();
}

/** One commission, locked on PostgreSQL (a reversal by staff decides it against what is stored). */
export function lockCommission(q: Db, dialect: Dialect, id: string) {
  const query = q.selectFrom('commissions').select(COMMISSION_COLUMNS).where('id', '=', id);
  return (dialect === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
}

/** The promoter's default link in the campaign (what a commission assigned by staff is counted on). */
export function defaultLinkOf(q: ReadOnlyDb, campaignId: string, promoterId: string) {
  return q.selectFrom('links').select(['id', 'code']).where('campaign_id', '=', campaignId).where('promoter_id', '=', promoterId).where('is_default', '=', 1).executeTakeFirst();
}

type Attribution = Pick<ConversionRow, 'promoter_id' | 'link_id' | 'attributed_by' | 'status' | 'reason'>;

/** A conversion credited anew (its refunds follow it), with its lines and explanation. */
export async function setAttribution(q: Db, id: string, set: Attribution & Pick<ConversionRow, 'items_json' | 'explanation_json'>): Promise<void> {
  await q.updateTable('conversions').set(set).where('id', '=', id).execute();
  const { promoter_id, link_id, attributed_by, status, reason } = set;
  await q.updateTable('conversions').set({ promoter_id, link_id, attributed_by, status, reason }).where('refund_of', '=', id).execute();
}

/** A sale's refunds, oldest first. */
export function refundsOf(q: ReadOnlyDb, saleId: string) {
  return q.selectFrom('conversions').select(['id', 'external_id', 'amount', 'occurred_at']).where('refund_of', '=', saleId).orderBy('occurred_at').orderBy('id').execute();
}

/** A conversion as its detail shows it: every column, the campaign's names and the promoter's name. */
export function conversionDetailRow(q: ReadOnlyDb, id: string) {
  return q
    .selectFrom('conversions as v')
    .innerJoin('campaigns as p', 'p.id', 'v.campaign_id')
    .leftJoin('users as u', 'u.id', 'v.promoter_id')
    .select([...CONVERSION_COLUMNS.map((col) => `v.${col}` as const), ...EXTRA_COLUMNS.map((col) => `v.${col}` as const), 'v.customer_email_sha256', 'p.names_json', 'u.display_name'])
    .where('v.id', '=', id)
    .executeTakeFirst();
}

/** A conversion's commissions as shown, with their promoters' names; by assignment, then level. */
export function conversionCommissionViews(q: Db, conversionId: string) {
  return commissionViews(q)
    .innerJoin('users as u', 'u.id', 'c.promoter_id')
    .select(['u.display_name'])
    .where('c.conversion_id', '=', conversionId)
    .orderBy('c.assignment')
    .orderBy('c.level')
    .execute();
}

// ——— Customer bindings, for operators ———

const BINDING_COLUMNS = ['b.id', 'b.campaign_id', 'b.customer_external_id', 'b.promoter_id', 'b.link_id', 'b.conversion_id', 'b.started_at', 'b.months', 'b.ended_at', 'b.created_at'] as const;

function bindingViews(q: ReadOnlyDb) {
  return q
    .selectFrom('customer_bindings as b')
    .innerJoin('campaigns as p', 'p.id', 'b.campaign_id')
    .leftJoin('users as u', 'u.id', 'b.promoter_id')
    .select([...BINDING_COLUMNS, 'p.names_json', 'u.display_name']);
}
export type BindingView = NonNullable<Awaited<ReturnType<typeof bindingView>>>;

export function bindingView(q: ReadOnlyDb, id: string) {
  return bindingViews(q).where('b.id', '=', id).executeTakeFirst();
}

/** Bindings, latest started first; `customer` exactly as sent. */
export async function bindingsPage(q: Db, filters: { customer?: string | undefined; campaignId?: string | undefined; promoterId?: string | undefined; active?: boolean | undefined }, page: Page) {
  let query = bindingViews(q).orderBy('b.started_at', 'desc').orderBy('b.id', 'desc').limit(page.limit + 1);
  if (filters.customer !== undefined) query = query.where('b.customer_external_id', '=', filters.customer);
  if (filters.campaignId) query = query.where('b.campaign_id', '=', filters.campaignId);
  if (filters.promoterId) query = query.where('b.promoter_id', '=', filters.promoterId);
  if (filters.active !== undefined) query = query.where('b.ended_at', filters.active ? 'is' : 'is not', null);
  if (page.cursor) query = query.where(olderThan(page.cursor, 'b.started_at', 'b.id'));
  return pageOf(await query.execute(), page.limit, (r) => [Number(r.started_at), r.id]);
}

/** One binding, locked on PostgreSQL (staff end or move it against what is stored). */
export function lockBinding(q: Db, dialect: Dialect, id: string) {
  const query = q.selectFrom('customer_bindings').select(['id', 'campaign_id', 'customer_external_id', 'promoter_id', 'link_id', 'conversion_id', 'started_at', 'months', 'ended_at', 'created_at']).where('id', '=', id);
  return (dialect === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
}

/** Changes the binding with this id (a new id when it moves: writers that read the old one no longer replace it). */
export async function updateBinding(q: Db, id: string, set: Partial<CustomerBindingsTable>): Promise<boolean> {
  const r = await q.updateTable('customer_bindings').set(set).where('id', '=', id).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

// ——— Bounties' rewards (commissions of kind `bounty`, docs/bounties.md) ———

/** A bounty as its reward and explanation need it. */
export function bountyById(q: ReadOnlyDb, id: string) {
  return q.selectFrom('bounties').select(['id', 'campaign_id', 'kind', 'names_json', 'descriptions_json', 'reward', 'goal_json', 'group_ids_json', 'starts_at', 'ends_at', 'status', 'created_at', 'updated_at']).where('id', '=', id).executeTakeFirst();
}

/** Whether the promoter earned the bounty for this period. */
export async function hasEarnedBounty(q: ReadOnlyDb, bountyId: string, promoterId: string, period: string): Promise<boolean> {
  const row = await q.selectFrom('commissions').select('id').where('bounty_id', '=', bountyId).where('promoter_id', '=', promoterId).where('bounty_period', '=', period).executeTakeFirst();
  return !!row;
}

/**
 * A campaign's active performance bounties (checked when one of its leads or sales is attributed),
 * by id: their locks are taken in this order in every transaction, so two never wait on each other.
 */
export function activePerformanceBounties(q: ReadOnlyDb, campaignId: string) {
  return q.selectFrom('bounties').select(['id', 'campaign_id', 'kind', 'names_json', 'descriptions_json', 'reward', 'goal_json', 'group_ids_json', 'starts_at', 'ends_at', 'status', 'created_at', 'updated_at']).where('campaign_id', '=', campaignId).where('kind', '=', 'performance').where('status', '=', 'active').orderBy('id').execute();
}

/**
 * Progress towards a goal: the promoter's attributed sales (count or amount less refunds) or leads
 * of the campaign with occurred_at in [from, before).
 */
export async function bountyProgress(q: ReadOnlyDb, campaignId: string, promoterId: string, metric: 'sales' | 'saleAmount' | 'leads', from: number | null, before: number | null): Promise<number> {
  let query = q
    .selectFrom('conversions')
    .where('campaign_id', '=', campaignId)
    .where('promoter_id', '=', promoterId)
    .where('status', '=', 'attributed')
    .where('kind', '=', metric === 'leads' ? 'lead' : 'sale');
  if (from !== null) query = query.where('occurred_at', '>=', from);
  if (before !== null) query = query.where('occurred_at', '<', before);
  const row = metric === 'saleAmount'
    ? await query.select(sql<number>`coalesce(sum(amount - refunded_amount), 0)`.as('n')).executeTakeFirst()
    : await query.select((e) => e.fn.countAll<number>().as('n')).executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Inserts a bounty's reward unless the promoter already earned it for that period: true when inserted. */
export async function insertBountyCommission(q: Db, row: CommissionsTable): Promise<boolean> {
  const result = await q.insertInto('commissions').values(row).onConflict((oc) => oc.columns(['bounty_id', 'promoter_id', 'bounty_period']).doNothing()).executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
}
