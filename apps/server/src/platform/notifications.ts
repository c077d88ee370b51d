/**
 * Notifications are stored as a type and its parameters, never as text: the reader's app renders
 * them in whatever language the reader uses at the time. A campaign is stored by id; the list
 * adds its current names per locale (`campaign`) when it is read. Written in the transaction of the change
 * they report, so a notification exists exactly when its change does.
 */
import type { NotificationType } from '@pa/shared';
import { newId } from './ids';
import { writeRows } from '../db/hot';
import type { Db, NotificationsTable } from '../db/types';
import { COLLECTOR_ORDER, type Collector, type CollectorKind } from '../db/unit-of-work';

export type NotificationParams = Record<string, string | number | boolean | null>;

interface NotificationInput {
  userId: string;
  type: NotificationType;
  params: NotificationParams;
}

/** Inserts notifications (one statement for all of them). Call inside the change's transaction. */
export async function notify(q: Db, items: NotificationInput[], now: number): Promise<void> {
  const batch = new NotificationBatch();
  batch.notify(items, now);
  await batch.flush(q);
}

/** Notifications collected over a unit of work (a whole group commit), inserted together before its commit. */
class NotificationBatch implements Collector {
  readonly rows: NotificationsTable[] = [];
  notify(items: NotificationInput[], now: number) {
    for (const n of items) this.rows.push({ id: newId(now), user_id: n.userId, type: n.type, params_json: JSON.stringify(n.params), read_at: null, created_at: now });
  }
  merge(other: NotificationBatch) {
    this.rows.push(...other.rows);
  }
  async flush(q: Db) {
    await writeRows(q, 'notifications', this.rows);
  }
}

/** After the rows, journals and rollups: notifications of every change in the transaction (COLLECTOR_ORDER). */
export const NOTIFICATIONS: CollectorKind<NotificationBatch> = { order: COLLECTOR_ORDER.notifications, create: () => new NotificationBatch() };
