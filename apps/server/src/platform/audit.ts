/**
 * The audit log's one writer. Entries are append-only: the database refuses an UPDATE or DELETE
 * of audit_entries (triggers, migration 008), the Kysely type refuses them at compile time, and a
 * test scans the source for any attempt. `action` is typed against AUDIT_ACTIONS (@pa/shared), the
 * list docs/api.md documents.
 */
import type { FastifyRequest } from 'fastify';
import type { AuditAction } from '@pa/shared';
import type { Db } from '../db/types';
import { newId } from './ids';
import { requireAuth } from './session';

interface AuditInput {
  /** null: the server itself (the scheduler, the command line). */
  actorId: string | null;
  action: AuditAction;
  entity: string;
  entityId?: string | null;
  before?: unknown;
  after?: unknown;
  /** The client's address (request.ip); omitted for the scheduler and the command line. */
  ip?: string | null;
}

/** Who is acting, for a service that writes an audit entry: the signed-in user and their address. */
export interface Actor {
  userId: string;
  ip: string | null;
}

/**
 * An actor as services take it: from a request, `actorOf(request)` (with the client's address); a
 * bare user id from callers with no client (the demo seed, test set-ups), whose entries have no address.
 */
export type ActorArg = Actor | string;
export const asActor = (actor: ActorArg): Actor => (typeof actor === 'string' ? { userId: actor, ip: null } : actor);

/** The signed-in user making this request and the client's address (behind TRUST_PROXY, the forwarded one). */
export function actorOf(request: FastifyRequest): Actor {
  return { userId: requireAuth(request).userId, ip: request.ip };
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
