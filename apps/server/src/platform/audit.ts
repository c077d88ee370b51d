import type { Db } from '../db/types';
import { newId } from './ids';

export interface AuditInput {
  actorId: string | null;
  action: string;
  entity: string;
  entityId?: string | null;
  before?: unknown;
  after?: unknown;
  /** The client's address (request.ip); omitted for the scheduler and the command line. */
  ip?: string | null;
}

/** Writes an audit entry; call it inside the transaction that makes the change. */
export async function audit(db: Db, entry: AuditInput, now = Date.now()) {
  await db
    .insertInto('audit_entries')
    .values({
      id: newId(now),
      actor_id: entry.actorId,
      action: entry.action,
      entity: entry.entity,
      entity_id: entry.entityId ?? null,
      before_json: entry.before === undefined ? null : JSON.stringify(entry.before),
      after_json: entry.after === undefined ? null : JSON.stringify(entry.after),
      at: now,
      ip: entry.ip ?? null,
    })
    .execute();
}
