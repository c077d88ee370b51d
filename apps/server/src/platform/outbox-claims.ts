/**
 * Claiming due rows of an outbox (webhook deliveries, mails) for one sending pass: a conditional
 * update of `claimed_until`, so that two instances (or two passes) never take the same row at once;
 * on PostgreSQL the candidates are also read `for update skip locked`, so passes do not queue behind
 * each other's claims. A claim left by an instance that died runs out at `until`, and the row is
 * taken again (at least once).
 */
import type { Db, Dialect } from '../db/types';

/** Claims up to `limit` pending rows due by `now` until `until`; returns their ids. */
export async function claimDue(db: Db, dialect: Dialect, table: 'webhook_deliveries' | 'mail_messages', now: number, until: number, limit: number): Promise<string[]> {
  // Both tables have the claim columns (id, status, next_attempt_at, claimed_until); one name keeps Kysely's types simple.
  const t = table as 'mail_messages';
  let due = db
    .selectFrom(t)
    .select('id')
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
    .orderBy('next_attempt_at')
    .limit(limit);
  if (dialect === 'postgres') due = due.forUpdate().skipLocked();
  const rows = await db
    .updateTable(t)
    .set({ claimed_until: until })
    .where('id', 'in', due)
    .where('status', '=', 'pending')
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}
