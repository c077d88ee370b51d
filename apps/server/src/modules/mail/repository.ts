import { sql } from 'kysely';
import type { Db, MailMessagesTable } from '../../db/types';
import { olderThan, pageOf } from '../../platform/listing';

const MESSAGE_COLUMNS = ['id', 'recipient', 'template', 'subject', 'status', 'attempts', 'last_error', 'next_attempt_at', 'created_at', 'sent_at'] as const;
export type MessageRow = Pick<MailMessagesTable, (typeof MESSAGE_COLUMNS)[number]>;

export async function messagesPage(db: Db, page: { limit: number; cursor?: string | undefined }) {
  let query = db.selectFrom('mail_messages').select(MESSAGE_COLUMNS).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit + 1);
  if (page.cursor) query = query.where(olderThan(page.cursor, 'created_at', 'id'));
  return pageOf(await query.execute(), page.limit, (r) => [Number(r.created_at), r.id]);
}

export async function statusCounts(db: Db): Promise<Record<'pending' | 'sent' | 'failed', number>> {
  const rows = await db.selectFrom('mail_messages').select(['status', (eb) => eb.fn.countAll<number>().as('n')]).groupBy('status').execute();
  const counts = { pending: 0, sent: 0, failed: 0 };
  for (const r of rows) counts[r.status] = Number(r.n);
  return counts;
}

/** Mails waiting to be sent, retries included (for /metrics; the index on (status, next_attempt_at)). */
export async function pendingCount(db: Db): Promise<number> {
  const row = await db.selectFrom('mail_messages').select((eb) => eb.fn.countAll<number>().as('n')).where('status', '=', 'pending').executeTakeFirstOrThrow();
  return Number(row.n);
}

export function messagesToSend(db: Db, ids: string[]) {
  return db.selectFrom('mail_messages').select(['id', 'recipient', 'subject', 'body_sealed', 'attempts', 'status']).where('id', 'in', ids).execute();
}

/** Records an attempt's outcome when the claim is still this pass's; false when another instance took the message. */
export async function settleMessage(db: Db, id: string, claim: number, set: Pick<MailMessagesTable, 'status' | 'attempts' | 'next_attempt_at' | 'last_error' | 'sent_at'>): Promise<boolean> {
  const r = await db.updateTable('mail_messages').set({ ...set, claimed_until: null }).where('id', '=', id).where('claimed_until', '=', claim).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function optOutsOf(db: Db, userId: string): Promise<string[]> {
  return (await db.selectFrom('mail_opt_outs').select('category').where('user_id', '=', userId).execute()).map((r) => r.category);
}

export async function setOptOut(db: Db, userId: string, category: string, off: boolean, now: number): Promise<void> {
  if (off) await db.insertInto('mail_opt_outs').values({ user_id: userId, category, created_at: now }).onConflict((oc) => oc.columns(['user_id', 'category']).doNothing()).execute();
  else await db.deleteFrom('mail_opt_outs').where('user_id', '=', userId).where('category', '=', category).execute();
}

export function userForMail(db: Db, id: string) {
  return db.selectFrom('users').select(['id', 'account', 'email', 'display_name', 'locale', 'role', 'status']).where('id', '=', id).executeTakeFirst();
}

/** The person whose account is `account`, else whose verified e-mail address it is (a phone account's, issue 28). */
export async function userByAccount(db: Db, account: string) {
  const own = await db.selectFrom('users').select(['id', 'account', 'email', 'status']).where('account', '=', account).executeTakeFirst();
  return own ?? db.selectFrom('users').select(['id', 'account', 'email', 'status']).where('email', '=', account).executeTakeFirst();
}

/** Whether a mail of `template` was written for `userId` since `since` (a flood guard). */
export async function recentlyMailed(db: Db, userId: string, template: string, since: number): Promise<boolean> {
  const row = await db.selectFrom('mail_messages').select('id').where('user_id', '=', userId).where('template', '=', template).where('created_at', '>=', since).limit(1).executeTakeFirst();
  return row !== undefined;
}

/** Marks the daily mail of `kind` for `day` as written for the user; false when it already was (by any instance). */
export async function claimDigest(db: Db, userId: string, kind: string, day: string, now: number): Promise<boolean> {
  const rows = await db.insertInto('mail_digests').values({ user_id: userId, kind, day, created_at: now }).onConflict((oc) => oc.columns(['user_id', 'kind', 'day']).doNothing()).returning('user_id').execute();
  return rows.length > 0;
}

/** Per promoter: the commissions approved in [from, to) (and not reversed since), their count and total. */
export function approvedCommissionsBetween(db: Db, from: number, to: number) {
  return db
    .selectFrom('commissions')
    .select(['promoter_id', (eb) => eb.fn.countAll<number>().as('n'), (eb) => eb.fn.sum<number>(sql`amount - reversed_amount`).as('total')])
    .where('status', '=', 'approved')
    .where('decided_at', '>=', from)
    .where('decided_at', '<', to)
    .groupBy('promoter_id')
    .execute();
}

export function activeStaff(db: Db) {
  return db.selectFrom('users').select(['id', 'role']).where('role', 'in', ['operator', 'admin']).where('status', '=', 'active').execute();
}
