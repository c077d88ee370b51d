/** Announcement queries. Explicit columns, never `select *`. */
import type { AnnouncementStatus } from '@pa/shared';
import type { AnnouncementsTable, Db } from '../../db/types';
import { olderThan } from '../../platform/listing';

export type AnnouncementRow = Pick<AnnouncementsTable, 'id' | 'texts_json' | 'status' | 'pinned' | 'published_at' | 'created_at' | 'updated_at'>;

const ANNOUNCEMENT_COLUMNS = ['id', 'texts_json', 'status', 'pinned', 'published_at', 'created_at', 'updated_at'] as const;

/** Published announcements: pinned first, then newest published first. */
export async function listPublished(db: Db, limit: number): Promise<AnnouncementRow[]> {
  return db
    .selectFrom('announcements')
    .select(ANNOUNCEMENT_COLUMNS)
    .where('status', '=', 'published')
    .orderBy('pinned', 'desc')
    .orderBy('published_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** Every announcement (or those in `status`), newest first, one more than `limit` to tell whether another page follows. */
export async function listAnnouncements(db: Db, filter: { status?: AnnouncementStatus }, page: { limit: number; cursor?: string }): Promise<AnnouncementRow[]> {
  let q = db.selectFrom('announcements').select(ANNOUNCEMENT_COLUMNS).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit + 1);
  if (filter.status) q = q.where('status', '=', filter.status);
  if (page.cursor) q = q.where(olderThan(page.cursor, 'created_at', 'id'));
  return q.execute();
}

export async function findAnnouncement(db: Db, id: string): Promise<AnnouncementRow | undefined> {
  return db.selectFrom('announcements').select(ANNOUNCEMENT_COLUMNS).where('id', '=', id).executeTakeFirst();
}

export async function insertAnnouncement(db: Db, row: AnnouncementsTable): Promise<void> {
  await db.insertInto('announcements').values(row).execute();
}

/** Applies `changes` if the announcement is still in status `from`; false when it was not. */
export async function updateAnnouncementIf(
  db: Db,
  id: string,
  from: AnnouncementStatus,
  changes: Partial<Pick<AnnouncementsTable, 'texts_json' | 'pinned' | 'status' | 'published_at'>> & { updated_at: number },
): Promise<boolean> {
  const updated = await db.updateTable('announcements').set(changes).where('id', '=', id).where('status', '=', from).executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1;
}

/** Deletes the announcement if it is still a draft; false when it was not. */
export async function deleteDraft(db: Db, id: string): Promise<boolean> {
  const deleted = await db.deleteFrom('announcements').where('id', '=', id).where('status', '=', 'draft').executeTakeFirst();
  return Number(deleted.numDeletedRows) === 1;
}
