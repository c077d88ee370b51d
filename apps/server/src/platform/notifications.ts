/**
 * Notifications are stored as a type and its parameters, never as text: the reader's app renders
 * them in whatever language the reader uses at the time. A campaign is stored by id; the list
 * adds its current names per locale (`campaign`) when it is read. Written in the transaction of the change
 * they report, so a notification exists exactly when its change does.
 */
import type { NotificationType } from '@pa/shared';
import { newId } from './ids';
import { valueRows, type Exec } from './sql-exec';

export type NotificationParams = Record<string, string | number | boolean | null>;

export interface NotificationInput {
  userId: string;
  type: NotificationType;
  params: NotificationParams;
}

/** Inserts notifications (one statement for all of them). Call inside the change's transaction. */
export async function notify(exec: Exec, items: NotificationInput[], now: number): Promise<void> {
  if (items.length === 0) return;
  const rows = items.map((n) => [newId(now), n.userId, n.type, JSON.stringify(n.params), null, now]);
  await exec.run(`insert into notifications (id, user_id, type, params_json, read_at, created_at) values ${valueRows(rows.length, 6)}`, rows.flat());
}
