/**
 * The reader's own notifications: stored as type + parameters, rendered by the app in the reader's
 * language. A per-user mark (`notification_marks.unread_from`) keeps counting and listing unread
 * ones off the rows already read.
 */
import type { Notification, NotificationListSchema, NotificationType } from '@pa/shared';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import type { Db } from '../../db/types';
import { AppError } from '../../platform/errors';
import { decodeCursor, pageOf } from '../../platform/listing';
import { readSettings } from '../../platform/settings';
import {
  countUnread, findBountyNames, findCampaignNames, findNewestId, findOldestUnreadId, findOwnNotification, findUnreadFrom, listNotifications, markAllRead, markOneRead,
  setUnreadFrom, type NotificationRow,
} from './repository';

/** The badge counts at most this many (the app shows "99+"). */
const UNREAD_CAP = 100;

async function unreadOf(db: Db, userId: string): Promise<number> {
  return countUnread(db, userId, await findUnreadFrom(db, userId), UNREAD_CAP);
}

/** The badge: how many of the reader's notifications are unread, up to UNREAD_CAP. */
export const unreadCount = (ctx: AppContext, userId: string) => unreadOf(ctx.db, userId);

/** Moves the user's mark up to their oldest unread notification (or past the newest when all are read). */
async function advanceMark(db: Db, userId: string): Promise<void> {
  const from = await findUnreadFrom(db, userId);
  // Ids have one length and grow with time, so "newest id + '!'" sorts above it and below every later id.
  const next = (await findOldestUnreadId(db, userId, from)) ?? `${await findNewestId(db, userId)}!`;
  if (next === from) return;
  await setUnreadFrom(db, userId, next);
}

const toNotification = (r: NotificationRow): Notification => ({
  id: r.id,
  type: r.type as NotificationType,
  params: JSON.parse(r.params_json) as Record<string, unknown>,
  readAt: r.read_at === null ? null : Number(r.read_at),
  createdAt: Number(r.created_at),
});

/** One page of the reader's notifications, newest first, with the unread count and the currency amounts are in. */
export async function myNotifications(
  ctx: AppContext,
  userId: string,
  query: { limit: number; cursor?: string; unread?: 'true' | 'false' },
): Promise<z.infer<typeof NotificationListSchema>> {
  const { limit, cursor, unread } = query;
  const page = {
    limit,
    ...(unread === 'true' ? { read: false, unreadFrom: await findUnreadFrom(ctx.db, userId) } : unread === 'false' ? { read: true } : {}),
    ...(cursor ? { beforeId: decodeCursor(cursor).id } : {}),
  };
  const [{ rows, nextCursor }, count, settings] = await Promise.all([
    listNotifications(ctx.db, userId, page).then((r) => pageOf(r, limit)),
    unreadOf(ctx.db, userId),
    readSettings(ctx.db),
  ]);
  const items = rows.map(toNotification);
  // The campaigns' current names, per locale, for the reader's app to pick from.
  const campaignIds = [...new Set(items.map((n) => n.params.campaignId).filter((id): id is string => typeof id === 'string'))];
  const names = new Map((await findCampaignNames(ctx.db, campaignIds)).map((c) => [c.id, JSON.parse(c.names_json) as Record<string, string>]));
  for (const n of items) if (typeof n.params.campaignId === 'string' && names.has(n.params.campaignId)) n.params.campaign = names.get(n.params.campaignId);
  // Bounties' names the same way (`bounty`, per locale).
  const bountyIds = [...new Set(items.map((n) => n.params.bountyId).filter((id): id is string => typeof id === 'string'))];
  const bounties = new Map((await findBountyNames(ctx.db, bountyIds)).map((b) => [b.id, JSON.parse(b.names_json) as Record<string, string>]));
  for (const n of items) if (typeof n.params.bountyId === 'string' && bounties.has(n.params.bountyId)) n.params.bounty = bounties.get(n.params.bountyId);
  return { items, nextCursor, unread: count, currency: settings.currency };
}

export async function readAll(ctx: AppContext, userId: string): Promise<void> {
  await ctx.uow.run(async ({ q: trx }) => {
    await markAllRead(trx, userId, await findUnreadFrom(trx, userId), Date.now());
    await advanceMark(trx, userId);
  });
}

/** Marks one of the reader's notifications read; another user's looks exactly like an unknown one (NOT_FOUND). */
export async function readOne(ctx: AppContext, userId: string, id: string): Promise<void> {
  const row = await findOwnNotification(ctx.db, userId, id);
  if (!row) throw new AppError('NOT_FOUND');
  if (row.read_at !== null) return;
  await ctx.uow.run(async ({ q: trx }) => {
    await markOneRead(trx, userId, row.id, Date.now());
    await advanceMark(trx, userId);
  });
}
