/** The audit log's queries: reads only (entries are append-only; platform/audit.ts is the one writer). */
import { sql, type SqlBool } from 'kysely';
import type { Db } from '../../db/types';
import { olderThan } from '../../platform/listing';

/** The filters as instants and exact values (the service turns days into instants). */
export interface AuditFilters {
  /** A user id, or null for the system's entries. */
  actorId?: string | null | undefined;
  /** One action exactly, or every action starting with `actionPrefix` (ends with a dot). */
  action?: string | undefined;
  actionPrefix?: string | undefined;
  entityType?: string | undefined;
  entityId?: string | undefined;
  /** Instants: from included, until excluded. */
  from?: number | undefined;
  until?: number | undefined;
}

const COLUMNS = [
  'a.id', 'a.at', 'a.actor_id', 'a.action', 'a.entity', 'a.entity_id', 'a.before_json', 'a.after_json', 'a.ip',
  'u.display_name as actor_name', 'u.account as actor_account', 'u.role as actor_role',
] as const;

function filtered(db: Db, f: AuditFilters) {
  let q = db.selectFrom('audit_entries as a').leftJoin('users as u', 'u.id', 'a.actor_id').select(COLUMNS);
  if (f.actorId === null) q = q.where('a.actor_id', 'is', null);
  else if (f.actorId !== undefined) q = q.where('a.actor_id', '=', f.actorId);
  if (f.action !== undefined) q = q.where('a.action', '=', f.action);
  // substr rather than LIKE: `_` in action names is a LIKE wildcard, and the escape rules differ between the databases.
  if (f.actionPrefix !== undefined) q = q.where(sql<SqlBool>`substr(${sql.ref('a.action')}, 1, ${f.actionPrefix.length}) = ${f.actionPrefix}`);
  if (f.entityType !== undefined) q = q.where('a.entity', '=', f.entityType);
  if (f.entityId !== undefined) q = q.where('a.entity_id', '=', f.entityId);
  if (f.from !== undefined) q = q.where('a.at', '>=', f.from);
  if (f.until !== undefined) q = q.where('a.at', '<', f.until);
  return q.orderBy('a.at', 'desc').orderBy('a.id', 'desc');
}

export type AuditRow = Awaited<ReturnType<ReturnType<typeof filtered>['executeTakeFirstOrThrow']>>;

/** One page, newest first: `limit + 1` rows after the cursor (the extra one says there is a next page). */
export function auditPage(db: Db, f: AuditFilters, limit: number, cursor?: string): Promise<AuditRow[]> {
  let q = filtered(db, f).limit(limit + 1);
  if (cursor) q = q.where(olderThan(cursor, 'a.at', 'a.id'));
  return q.execute();
}

/** Every entry the filters match, newest first, up to `max` (the export). */
export function auditRows(db: Db, f: AuditFilters, max: number): Promise<AuditRow[]> {
  return filtered(db, f).limit(max).execute();
}

/**
 * What the entities of a page are called now, by type and id: people, campaigns (their names
 * JSON), webhook endpoints (description, else address), API keys and promoter groups. One query per type present.
 */
export async function entityNames(db: Db, ids: { user: string[]; campaign: string[]; webhook: string[]; api_key: string[]; group: string[] }) {
  const [users, campaigns, webhooks, keys, groups] = await Promise.all([
    ids.user.length ? db.selectFrom('users').select(['id', 'display_name as name']).where('id', 'in', ids.user).execute() : [],
    ids.campaign.length ? db.selectFrom('campaigns').select(['id', 'names_json']).where('id', 'in', ids.campaign).execute() : [],
    ids.webhook.length ? db.selectFrom('webhook_endpoints').select(['id', 'description', 'url']).where('id', 'in', ids.webhook).execute() : [],
    ids.api_key.length ? db.selectFrom('api_keys').select(['id', 'name']).where('id', 'in', ids.api_key).execute() : [],
    ids.group.length ? db.selectFrom('promoter_groups').select(['id', 'name']).where('id', 'in', ids.group).execute() : [],
  ]);
  return { users, campaigns, webhooks, keys, groups };
}
