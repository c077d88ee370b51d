/**
 * Bounties' queries (docs/bounties.md): the bounties, submissions and proof images, a promoter's
 * progress counted from their attributed conversions, and a bounty's reward (a commission of kind
 * `bounty`) inserted under the unique key (bounty_id, promoter_id, bounty_period).
 */
import type { BountiesTable, BountyImagesTable, BountySubmissionsTable, Db, ReadOnlyDb } from '../../db/types';
import { olderThan, pageOf } from '../../platform/listing';

export type BountyRow = BountiesTable;
export type SubmissionRow = BountySubmissionsTable;

const BOUNTY_COLUMNS = ['id', 'campaign_id', 'kind', 'names_json', 'descriptions_json', 'reward', 'goal_json', 'group_ids_json', 'starts_at', 'ends_at', 'status', 'created_at', 'updated_at'] as const;
const SUBMISSION_COLUMNS = ['s.id', 's.bounty_id', 's.promoter_id', 's.url', 's.text', 's.image_id', 's.status', 's.reason', 's.created_at', 's.decided_at', 's.decided_by', 's.commission_id'] as const;

export async function insertBounty(q: Db, row: BountyRow): Promise<void> {
  await q.insertInto('bounties').values(row).execute();
}

export function bountyById(q: ReadOnlyDb, id: string) {
  return q.selectFrom('bounties').select(BOUNTY_COLUMNS).where('id', '=', id).executeTakeFirst();
}

export async function updateBounty(q: Db, id: string, patch: Partial<BountyRow>): Promise<void> {
  await q.updateTable('bounties').set(patch).where('id', '=', id).execute();
}

/** A campaign's bounties, newest first, with how often each was earned and its submissions waiting. */
export function campaignBounties(q: ReadOnlyDb, campaignId: string) {
  return q
    .selectFrom('bounties as b')
    .select(BOUNTY_COLUMNS.map((c) => `b.${c}` as const))
    .select((eb) => [
      eb.selectFrom('commissions as c').select((e) => e.fn.countAll<number>().as('n')).whereRef('c.bounty_id', '=', 'b.id').as('earned_count'),
      eb.selectFrom('bounty_submissions as s').select((e) => e.fn.countAll<number>().as('n')).whereRef('s.bounty_id', '=', 'b.id').where('s.status', '=', 'pending').as('pending_submissions'),
    ])
    .where('b.campaign_id', '=', campaignId)
    .orderBy('b.created_at', 'desc')
    .orderBy('b.id', 'desc')
    .execute();
}

/** The counts `campaignBounties` shows, for one bounty. */
export async function bountyCounts(q: ReadOnlyDb, id: string): Promise<{ earned: number; pending: number }> {
  const earned = await q.selectFrom('commissions').select((e) => e.fn.countAll<number>().as('n')).where('bounty_id', '=', id).executeTakeFirst();
  const pending = await q.selectFrom('bounty_submissions').select((e) => e.fn.countAll<number>().as('n')).where('bounty_id', '=', id).where('status', '=', 'pending').executeTakeFirst();
  return { earned: Number(earned?.n ?? 0), pending: Number(pending?.n ?? 0) };
}


/** Active bounties of the campaigns the promoter is approved in, with the campaign's names. */
export function bountiesOpenTo(q: ReadOnlyDb, promoterId: string) {
  return q
    .selectFrom('bounties as b')
    .innerJoin('enrollments as e', (j) => j.onRef('e.campaign_id', '=', 'b.campaign_id').on('e.promoter_id', '=', promoterId).on('e.status', '=', 'approved'))
    .innerJoin('campaigns as c', 'c.id', 'b.campaign_id')
    .select(BOUNTY_COLUMNS.map((col) => `b.${col}` as const))
    .select(['c.names_json as campaign_names_json', 'c.status as campaign_status'])
    .where('b.status', '=', 'active')
    .orderBy('b.created_at', 'desc')
    .orderBy('b.id', 'desc')
    .execute();
}

/** The promoter's enrollment status in a campaign and their group. */
export function promoterStanding(q: ReadOnlyDb, campaignId: string, promoterId: string) {
  return q
    .selectFrom('users as u')
    .leftJoin('enrollments as e', (j) => j.onRef('e.promoter_id', '=', 'u.id').on('e.campaign_id', '=', campaignId))
    .select(['u.id', 'u.status', 'u.role', 'u.group_id', 'e.status as enrollment'])
    .where('u.id', '=', promoterId)
    .executeTakeFirst();
}


/** The promoter's bounty rewards among these bounties: bounty id → periods earned. */
export async function earnedPeriods(q: ReadOnlyDb, promoterId: string, bountyIds: string[]): Promise<Map<string, Set<string>>> {
  const out = new Map<string, Set<string>>();
  if (bountyIds.length === 0) return out;
  const rows = await q.selectFrom('commissions').select(['bounty_id', 'bounty_period']).where('promoter_id', '=', promoterId).where('bounty_id', 'in', bountyIds).execute();
  for (const r of rows) {
    if (!r.bounty_id || r.bounty_period === null) continue;
    const set = out.get(r.bounty_id) ?? new Set<string>();
    set.add(r.bounty_period);
    out.set(r.bounty_id, set);
  }
  return out;
}

/** Whether the promoter earned the bounty for this period. */
export async function hasEarned(q: ReadOnlyDb, bountyId: string, promoterId: string, period: string): Promise<boolean> {
  const row = await q.selectFrom('commissions').select('id').where('bounty_id', '=', bountyId).where('promoter_id', '=', promoterId).where('bounty_period', '=', period).executeTakeFirst();
  return !!row;
}


// ——— Submissions ———

export async function insertSubmission(q: Db, row: SubmissionRow): Promise<void> {
  await q.insertInto('bounty_submissions').values(row).execute();
}

function submissionViews(q: ReadOnlyDb) {
  return q
    .selectFrom('bounty_submissions as s')
    .innerJoin('users as u', 'u.id', 's.promoter_id')
    .innerJoin('bounties as b', 'b.id', 's.bounty_id')
    .innerJoin('campaigns as p', 'p.id', 'b.campaign_id')
    .select([...SUBMISSION_COLUMNS, 'u.display_name', 'b.names_json as bounty_names', 'p.names_json as campaign_names']);
}
export type SubmissionView = NonNullable<Awaited<ReturnType<typeof submissionById>>>;

export function submissionById(q: ReadOnlyDb, id: string) {
  return submissionViews(q).where('s.id', '=', id).executeTakeFirst();
}

/** The promoter's latest submission per bounty. */
export async function latestSubmissions(q: ReadOnlyDb, promoterId: string, bountyIds: string[]): Promise<Map<string, SubmissionRow>> {
  const out = new Map<string, SubmissionRow>();
  if (bountyIds.length === 0) return out;
  const rows = await q.selectFrom('bounty_submissions').selectAll().where('promoter_id', '=', promoterId).where('bounty_id', 'in', bountyIds).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
  for (const r of rows) if (!out.has(r.bounty_id)) out.set(r.bounty_id, r);
  return out;
}

export async function pendingSubmissionOf(q: ReadOnlyDb, bountyId: string, promoterId: string) {
  return q.selectFrom('bounty_submissions').select('id').where('bounty_id', '=', bountyId).where('promoter_id', '=', promoterId).where('status', '=', 'pending').executeTakeFirst();
}

/** Submissions newest first, by status and bounty. */
export async function submissionsPage(q: ReadOnlyDb, filters: { status?: SubmissionRow['status'] | undefined; bountyId?: string | undefined }, page: { limit: number; cursor?: string | undefined }) {
  let query = submissionViews(q).orderBy('s.created_at', 'desc').orderBy('s.id', 'desc').limit(page.limit + 1);
  if (filters.status) query = query.where('s.status', '=', filters.status);
  if (filters.bountyId) query = query.where('s.bounty_id', '=', filters.bountyId);
  if (page.cursor) query = query.where(olderThan(page.cursor, 's.created_at', 's.id'));
  return pageOf(await query.execute(), page.limit, (r) => [Number(r.created_at), r.id]);
}

/** pending → approved or rejected, only from pending: false when someone decided first. */
export async function decideSubmissionIf(q: Db, id: string, to: 'approved' | 'rejected', patch: { decided_at: number; decided_by: string | null; reason: string | null }): Promise<boolean> {
  const result = await q.updateTable('bounty_submissions').set({ status: to, ...patch }).where('id', '=', id).where('status', '=', 'pending').executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function setSubmissionCommission(q: Db, id: string, commissionId: string): Promise<void> {
  await q.updateTable('bounty_submissions').set({ commission_id: commissionId }).where('id', '=', id).execute();
}

// ——— Proof images ———

export async function insertImage(q: Db, row: BountyImagesTable): Promise<void> {
  await q.insertInto('bounty_images').values(row).execute();
}

export function imageById(q: ReadOnlyDb, id: string) {
  return q.selectFrom('bounty_images').select(['id', 'bounty_id', 'promoter_id', 'content_type', 'data', 'sha256']).where('id', '=', id).executeTakeFirst();
}

/** The campaign's names and reward terms a bounty's reward needs. */
export function campaignOf(q: ReadOnlyDb, id: string) {
  return q.selectFrom('campaigns').select(['id', 'status', 'names_json', 'hold_days', 'ends_at']).where('id', '=', id).executeTakeFirst();
}

/** Which of these promoter groups exist. */
export function existingGroups(q: ReadOnlyDb, ids: string[]) {
  return q.selectFrom('promoter_groups').select('id').where('id', 'in', ids).execute();
}

/** The promoter's group. */
export function groupOf(q: ReadOnlyDb, userId: string) {
  return q.selectFrom('users').select(['group_id']).where('id', '=', userId).executeTakeFirst();
}
