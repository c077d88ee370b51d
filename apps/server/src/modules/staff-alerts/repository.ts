/** Staff alerts' queries: who is told, who already has one unread, and the once-per-spell claims. */
import type { Db } from '../../db/types';

/** Active staff of the given roles. */
export function activeStaffOf(db: Db, roles: readonly ('operator' | 'admin')[]) {
  return db.selectFrom('users').select('id').where('role', 'in', roles).where('status', '=', 'active').execute();
}

/** Of `userIds`, those with an unread notification of `type` (at or above their read mark). */
export async function withUnread(db: Db, userIds: string[], type: string): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('notifications as n')
    .leftJoin('notification_marks as m', 'm.user_id', 'n.user_id')
    .select('n.user_id')
    .distinct()
    .where('n.user_id', 'in', userIds)
    .where('n.type', '=', type)
    .where('n.read_at', 'is', null)
    .where((eb) => eb.or([eb('m.unread_from', 'is', null), eb('n.id', '>=', eb.ref('m.unread_from'))]))
    .execute();
  return new Set(rows.map((r) => r.user_id));
}

/**
 * Claims "told `userId` about `kind` for `key`" (a failing spell, a set of breaches); false when
 * already claimed, by any instance. The rows share `mail_digests` with the daily mails (there `key`
 * is the day), whose primary key makes the claim.
 */
export async function claimAlert(db: Db, userId: string, kind: string, key: string, now: number): Promise<boolean> {
  const rows = await db.insertInto('mail_digests').values({ user_id: userId, kind, day: key, created_at: now }).onConflict((oc) => oc.columns(['user_id', 'kind', 'day']).doNothing()).returning('user_id').execute();
  return rows.length > 0;
}

/** The id of the mail sent last ('' when none was): a failing spell lasts until another is sent. */
export async function lastSentMailId(db: Db): Promise<string> {
  const row = await db.selectFrom('mail_messages').select('id').where('status', '=', 'sent').orderBy('next_attempt_at', 'desc').limit(1).executeTakeFirst();
  return row?.id ?? '';
}
