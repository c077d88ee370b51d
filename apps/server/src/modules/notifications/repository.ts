/** Notification queries: the reader's own rows and their unread mark. Explicit columns, never `select *`. */
import type { Db, NotificationsTable } from '../../db/types';

export type NotificationRow = Pick<NotificationsTable, 'id' | 'type' | 'params_json' | 'read_at' | 'created_at'>;

/** Below this id every notification of the user is read (so counting and listing unread ones start here). */
export async function findUnreadFrom(db: Db, userId: string): Promise<string> {
  return (await db.selectFrom('notification_marks').select('unread_from').where('user_id', '=', userId).executeTakeFirst())?.unread_from ?? '';
}

/** How many unread notifications the user has at or above `from`, counted up to `cap`. */
export async function countUnread(db: Db, userId: string, from: string, cap: number): Promise<number> {
  const row = await db
    .selectFrom((eb) => eb.selectFrom('notifications').select('id').where('user_id', '=', userId).where('id', '>=', from).where('read_at', 'is', null).limit(cap).as('u'))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * One page of the user's notifications, newest first (ids grow with time: the primary key's order
 * within the reader's rows), one row more than `limit` to tell whether another page follows.
 * `read`: true only read ones, false only unread ones at or above `unreadFrom`, undefined all.
 */
export async function listNotifications(
  db: Db,
  userId: string,
  page: { limit: number; beforeId?: string; read?: boolean; unreadFrom?: string },
): Promise<NotificationRow[]> {
  let q = db
    .selectFrom('notifications')
    .select(['id', 'type', 'params_json', 'read_at', 'created_at'])
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .limit(page.limit + 1);
  if (page.read === false) q = q.where('read_at', 'is', null).where('id', '>=', page.unreadFrom ?? '');
  if (page.read === true) q = q.where('read_at', 'is not', null);
  if (page.beforeId !== undefined) q = q.where('id', '<', page.beforeId);
  return q.execute();
}

/** The campaigns' names per locale (as stored, JSON), by id. */
export async function findCampaignNames(db: Db, campaignIds: string[]): Promise<{ id: string; names_json: string }[]> {
  if (campaignIds.length === 0) return [];
  return db.selectFrom('campaigns').select(['id', 'names_json']).where('id', 'in', campaignIds).execute();
}

export async function findOwnNotification(db: Db, userId: string, id: string): Promise<Pick<NotificationsTable, 'id' | 'read_at'> | undefined> {
  return db.selectFrom('notifications').select(['id', 'read_at']).where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
}

/** Marks every unread notification of the user at or above `from` read. */
export async function markAllRead(db: Db, userId: string, from: string, now: number): Promise<void> {
  await db.updateTable('notifications').set({ read_at: now }).where('user_id', '=', userId).where('id', '>=', from).where('read_at', 'is', null).execute();
}

/** Marks one of the user's notifications read, if it is still unread. */
export async function markOneRead(db: Db, userId: string, id: string, now: number): Promise<void> {
  await db.updateTable('notifications').set({ read_at: now }).where('user_id', '=', userId).where('id', '=', id).where('read_at', 'is', null).execute();
}

/** The id of the user's oldest unread notification at or above `from`. */
export async function findOldestUnreadId(db: Db, userId: string, from: string): Promise<string | undefined> {
  return (await db.selectFrom('notifications').select('id').where('user_id', '=', userId).where('id', '>=', from).where('read_at', 'is', null).orderBy('id').limit(1).executeTakeFirst())?.id;
}

/** The id of the user's newest notification ('' when they have none). */
export async function findNewestId(db: Db, userId: string): Promise<string> {
  return (await db.selectFrom('notifications').select((eb) => eb.fn.max('id').as('id')).where('user_id', '=', userId).executeTakeFirst())?.id ?? '';
}

export async function setUnreadFrom(db: Db, userId: string, unreadFrom: string): Promise<void> {
  await db.insertInto('notification_marks').values({ user_id: userId, unread_from: unreadFrom }).onConflict((oc) => oc.column('user_id').doUpdateSet({ unread_from: unreadFrom })).execute();
}

/** Bounties' names (per locale), for the bounty notifications. */
export async function findBountyNames(db: Db, bountyIds: string[]): Promise<{ id: string; names_json: string }[]> {
  if (bountyIds.length === 0) return [];
  return db.selectFrom('bounties').select(['id', 'names_json']).where('id', 'in', bountyIds).execute();
}
