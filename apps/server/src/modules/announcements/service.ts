/**
 * Announcements: staff write them per language, promoters read the published ones on Home.
 *
 * Status moves (PRODUCT.md §5 style; anything else is INVALID_STATE_TRANSITION):
 *   draft → published       published_at = now
 *   published → archived    no longer shown; published_at kept
 *   archived → published    published again: published_at = now (it comes back as new)
 * Only drafts can be deleted. Every change and its audit entry are one transaction, and a change
 * is conditional on the status it read, so a concurrent move loses instead of overwriting.
 */
import {
  isLocale, type AdminAnnouncement, type AdminAnnouncementListSchema, type Announcement, type AnnouncementCreateSchema, type AnnouncementPatchSchema,
  type AnnouncementStatus, type Locale,
} from '@pa/shared';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import type { AnnouncementsTable, Db } from '../../db/types';
import { asActor, audit, type ActorArg } from '../../platform/audit';
import { AppError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { pageOf } from '../../platform/listing';
import { deleteDraft, findAnnouncement, insertAnnouncement, listAnnouncements, listPublished, updateAnnouncementIf, type AnnouncementRow } from './repository';

type CreateBody = z.output<typeof AnnouncementCreateSchema>;
type PatchBody = z.output<typeof AnnouncementPatchSchema>;
type AnnouncementTexts = Partial<Record<Locale, { title: string; body: string }>>;

const NEXT: Record<AnnouncementStatus, AnnouncementStatus[]> = {
  draft: ['published'],
  published: ['archived'],
  archived: ['published'],
};

const canMoveAnnouncement = (from: AnnouncementStatus, to: AnnouncementStatus) => NEXT[from].includes(to);

const textsOf = (row: Pick<AnnouncementsTable, 'texts_json'>): AnnouncementTexts => JSON.parse(row.texts_json) as AnnouncementTexts;

function toAdminAnnouncement(r: AnnouncementRow): AdminAnnouncement {
  return {
    id: r.id,
    texts: textsOf(r) as AdminAnnouncement['texts'],
    status: r.status,
    pinned: !!Number(r.pinned),
    publishedAt: r.published_at === null ? null : Number(r.published_at),
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}

/** The reader's text: their language, else English, else the first one written. */
function pickText(texts: AnnouncementTexts, locale: Locale): { locale: Locale; title: string; body: string } | null {
  const chosen = ([locale, 'en', ...Object.keys(texts)] as string[]).find((l): l is Locale => isLocale(l) && !!texts[l]?.title);
  if (!chosen) return null;
  const text = texts[chosen]!;
  return { locale: chosen, title: text.title, body: text.body };
}

/** Published announcements for the reader: pinned first, then newest published first. */
export async function publishedAnnouncements(ctx: AppContext, locale: Locale, limit: number): Promise<Announcement[]> {
  const rows = await listPublished(ctx.db, limit);
  return rows.flatMap((r) => {
    const text = pickText(textsOf(r), locale);
    return text ? [{ id: r.id, ...text, pinned: !!Number(r.pinned), publishedAt: Number(r.published_at) }] : [];
  });
}

/** Every announcement (or those in `status`) with all its texts, newest first. */
export async function adminAnnouncements(
  ctx: AppContext,
  query: { limit: number; cursor?: string; status?: AnnouncementStatus },
): Promise<z.infer<typeof AdminAnnouncementListSchema>> {
  const { limit, cursor, status } = query;
  const { rows, nextCursor } = pageOf(await listAnnouncements(ctx.db, status ? { status } : {}, { limit, ...(cursor ? { cursor } : {}) }), limit);
  return { items: rows.map(toAdminAnnouncement), nextCursor };
}

async function load(db: Db, id: string): Promise<AnnouncementRow> {
  const row = await findAnnouncement(db, id);
  if (!row) throw new AppError('NOT_FOUND');
  return row;
}

export const getAnnouncement = async (ctx: AppContext, id: string): Promise<AdminAnnouncement> => toAdminAnnouncement(await load(ctx.db, id));

/** What the audit log keeps of an announcement. */
const snapshot = (r: Pick<AnnouncementRow, 'status' | 'pinned' | 'texts_json'>) => ({ status: r.status, pinned: !!Number(r.pinned), texts: textsOf(r) });

export async function createAnnouncement(ctx: AppContext, by: ActorArg, body: CreateBody): Promise<AdminAnnouncement> {
  const actor = asActor(by);
  const now = Date.now();
  const status = body.status ?? 'draft';
  const row: AnnouncementsTable = {
    id: newId(now),
    texts_json: JSON.stringify(body.texts),
    status,
    pinned: body.pinned ? 1 : 0,
    published_at: status === 'published' ? now : null,
    created_by: actor.userId,
    created_at: now,
    updated_at: now,
  };
  await ctx.uow.run(async ({ q: trx }) => {
    await insertAnnouncement(trx, row);
    await audit(trx, { actorId: actor.userId, action: 'announcement.create', entity: 'announcement', entityId: row.id, after: snapshot(row), ip: actor.ip }, now);
  });
  return toAdminAnnouncement(row);
}

export async function updateAnnouncement(ctx: AppContext, by: ActorArg, id: string, patch: PatchBody): Promise<AdminAnnouncement> {
  const actor = asActor(by);
  const row = await ctx.uow.run(async ({ q: trx }) => {
    const before = await load(trx, id);
    const to = patch.status ?? before.status;
    const moving = to !== before.status;
    if (moving && !canMoveAnnouncement(before.status, to)) throw new AppError('INVALID_STATE_TRANSITION');
    const changes = {
      ...(patch.texts !== undefined ? { texts_json: JSON.stringify(patch.texts) } : {}),
      ...(patch.pinned !== undefined ? { pinned: patch.pinned ? 1 : 0 } : {}),
      ...(moving ? { status: to } : {}),
    };
    const next = { ...before, ...changes };
    // Nothing would change: no write, no audit entry.
    if (JSON.stringify(snapshot(next)) === JSON.stringify(snapshot(before))) return before;
    const now = Date.now();
    const updated = await updateAnnouncementIf(trx, id, before.status, { ...changes, ...(moving && to === 'published' ? { published_at: now } : {}), updated_at: now });
    if (!updated) throw new AppError('INVALID_STATE_TRANSITION');
    const after = await load(trx, id);
    const action = !moving ? 'announcement.update' : to === 'published' ? 'announcement.publish' : 'announcement.archive';
    await audit(trx, { actorId: actor.userId, action, entity: 'announcement', entityId: id, before: snapshot(before), after: snapshot(after), ip: actor.ip }, now);
    return after;
  });
  return toAdminAnnouncement(row);
}

export async function deleteAnnouncement(ctx: AppContext, by: ActorArg, id: string): Promise<void> {
  const actor = asActor(by);
  await ctx.uow.run(async ({ q: trx }) => {
    const before = await load(trx, id);
    if (before.status !== 'draft') throw new AppError('INVALID_STATE_TRANSITION');
    if (!(await deleteDraft(trx, id))) throw new AppError('INVALID_STATE_TRANSITION');
    await audit(trx, { actorId: actor.userId, action: 'announcement.delete', entity: 'announcement', entityId: id, before: snapshot(before), ip: actor.ip });
  });
}
