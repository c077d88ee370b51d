/**
 * The fraud module's queries (Kysely, explicit columns): rule settings, risk cases, their evidence
 * and the commissions they hold. Every function takes the query handle of the transaction it runs
 * in, or the database for a plain read.
 */
import { sql } from 'kysely';
import type { Db, Dialect, FraudRulesTable, ReadOnlyDb, RiskCasesTable } from '../../db/types';
import { olderThan, pageOf } from '../../platform/listing';

export function ruleRows(q: ReadOnlyDb) {
  return q.selectFrom('fraud_rules').select(['rule', 'action', 'params_json']).execute();
}

export function ruleRow(q: ReadOnlyDb, rule: string) {
  return q.selectFrom('fraud_rules').select(['rule', 'action', 'params_json']).where('rule', '=', rule).executeTakeFirst();
}

export async function saveRule(q: Db, row: FraudRulesTable): Promise<void> {
  await q.insertInto('fraud_rules').values(row)
    .onConflict((oc) => oc.column('rule').doUpdateSet({ action: row.action, params_json: row.params_json, updated_at: row.updated_at, updated_by: row.updated_by }))
    .execute();
}

/**
 * Opens the promoter's case for the rule, or adds `atStake` to the one open: one statement, so
 * concurrent callers end with one case (the partial unique index decides — named with the
 * index's own literal predicate, which SQLite must match to use it; on PostgreSQL the second
 * waits for the first and then updates its row). Returns the case's id.
 */
export async function openOrAddCase(q: Db, c: { id: string; promoterId: string; rule: string; atStake: number; now: number }): Promise<string> {
  const row = await q.insertInto('risk_cases')
    .values({ id: c.id, promoter_id: c.promoterId, rule: c.rule, status: 'open', at_stake: c.atStake, opened_at: c.now, updated_at: c.now, decided_at: null, decided_by: null })
    .onConflict((oc) => oc.columns(['promoter_id', 'rule']).where('status', '=', sql.lit('open')).doUpdateSet({
      at_stake: (eb) => eb('risk_cases.at_stake', '+', eb.ref('excluded.at_stake')),
      updated_at: (eb) => eb.ref('excluded.updated_at'),
    }))
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function insertEvidence(q: Db, rows: { id: string; case_id: string; data_json: string; at: number }[]): Promise<void> {
  if (rows.length > 0) await q.insertInto('risk_evidence').values(rows).execute();
}

export async function insertHolds(q: Db, rows: { commission_id: string; case_id: string; created_at: number }[]): Promise<void> {
  if (rows.length > 0) await q.insertInto('risk_holds').values(rows).onConflict((oc) => oc.column('commission_id').doNothing()).execute();
}

const CASE_COLUMNS = ['c.id', 'c.promoter_id', 'c.rule', 'c.status', 'c.at_stake', 'c.opened_at', 'c.decided_at', 'u.display_name'] as const;
export type CaseRow = Pick<RiskCasesTable, 'id' | 'promoter_id' | 'rule' | 'status' | 'at_stake' | 'opened_at' | 'decided_at'> & { display_name: string };

const caseViews = (q: ReadOnlyDb) => q.selectFrom('risk_cases as c').innerJoin('users as u', 'u.id', 'c.promoter_id').select(CASE_COLUMNS);

export function caseView(q: ReadOnlyDb, id: string): Promise<CaseRow | undefined> {
  return caseViews(q).where('c.id', '=', id).executeTakeFirst();
}

/** The queue, newest opened first. */
export async function casesPage(q: ReadOnlyDb, filters: { status?: string | undefined; rule?: string | undefined; promoterId?: string | undefined }, page: { limit: number; cursor?: string | undefined }) {
  let query = caseViews(q).orderBy('c.opened_at', 'desc').orderBy('c.id', 'desc').limit(page.limit + 1);
  if (filters.status) query = query.where('c.status', '=', filters.status as RiskCasesTable['status']);
  if (filters.rule) query = query.where('c.rule', '=', filters.rule);
  if (filters.promoterId) query = query.where('c.promoter_id', '=', filters.promoterId);
  if (page.cursor) query = query.where(olderThan(page.cursor, 'c.opened_at', 'c.id'));
  return pageOf<CaseRow>(await query.execute(), page.limit, (r) => [Number(r.opened_at), r.id]);
}

/** The latest `perCase` findings of each case, oldest first within a case. */
export async function evidenceOf(q: ReadOnlyDb, caseIds: string[], perCase = 50): Promise<Map<string, { data_json: string; at: number }[]>> {
  const out = new Map<string, { data_json: string; at: number }[]>();
  if (caseIds.length === 0) return out;
  const rows = await q.selectFrom('risk_evidence').select(['case_id', 'data_json', 'at', 'id']).where('case_id', 'in', caseIds).orderBy('case_id').orderBy('at', 'desc').orderBy('id', 'desc').execute();
  for (const r of rows) {
    const list = out.get(r.case_id) ?? [];
    if (list.length < perCase) list.push({ data_json: r.data_json, at: Number(r.at) });
    out.set(r.case_id, list);
  }
  for (const list of out.values()) list.reverse();
  return out;
}

/**
 * Decides an open case: the one conditional update that lets exactly one of concurrent decisions
 * through (`… WHERE status = 'open'`). False: it was not open (decided meanwhile, or never).
 */
export async function decideCase(q: Db, id: string, to: 'dismissed' | 'rejected', by: string, now: number): Promise<boolean> {
  const r = await q.updateTable('risk_cases').set({ status: to, decided_at: now, decided_by: by, updated_at: now }).where('id', '=', id).where('status', '=', 'open').executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export function caseStatus(q: ReadOnlyDb, id: string) {
  return q.selectFrom('risk_cases').select(['id', 'status', 'promoter_id', 'rule', 'at_stake']).where('id', '=', id).executeTakeFirst();
}

/** The commissions a case holds, locked on PostgreSQL (a decision changes them against what is stored). */
export function heldCommissions(q: Db, dialect: Dialect, caseId: string) {
  const query = q
    .selectFrom('risk_holds as h')
    .innerJoin('commissions as c', 'c.id', 'h.commission_id')
    .select(['c.id', 'c.conversion_id', 'c.campaign_id', 'c.promoter_id', 'c.link_id', 'c.source_promoter_id', 'c.level', 'c.kind', 'c.occurred_at', 'c.amount', 'c.reversed_amount', 'c.status', 'c.available_at'])
    .where('h.case_id', '=', caseId)
    .orderBy('c.id');
  return (dialect === 'postgres' ? query.forUpdate() : query).execute();
}

export async function releaseHolds(q: Db, caseId: string): Promise<void> {
  await q.deleteFrom('risk_holds').where('case_id', '=', caseId).execute();
}

/** Whether the campaign approves commissions after the hold by itself (dismissed holds due now continue at once). */
export async function autoApproves(q: ReadOnlyDb, campaignId: string): Promise<boolean> {
  const row = await q.selectFrom('campaigns').select('approval_mode').where('id', '=', campaignId).executeTakeFirst();
  return row?.approval_mode === 'auto';
}

/** Other promoters holding a payout account with this number digest (at most `limit`). */
export async function promotersWithPayoutDigest(q: ReadOnlyDb, digest: string, exceptPromoterId: string, limit = 20): Promise<string[]> {
  const rows = await q.selectFrom('payout_accounts').select('promoter_id').distinct().where('number_digest', '=', digest).where('promoter_id', '<>', exceptPromoterId).orderBy('promoter_id').limit(limit).execute();
  return rows.map((r) => r.promoter_id);
}

/**
 * Records a registration's address key and answers the registrations from that key since `since`
 * (this one included), oldest first; forgets every key's rows from before `since`.
 */
export async function markRegistration(q: Db, row: { address_key: string; user_id: string; at: number }, since: number): Promise<{ user_id: string; at: number }[]> {
  await q.deleteFrom('registration_addresses').where('at', '<', since).execute();
  await q.insertInto('registration_addresses').values(row).execute();
  return q.selectFrom('registration_addresses').select(['user_id', 'at']).where('address_key', '=', row.address_key).where('at', '>=', since).orderBy('at').execute();
}
