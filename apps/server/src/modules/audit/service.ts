/**
 * The audit log's rules: filters in the installation's calendar days, newest-first pages, and the
 * CSV export — itself an audited action (`audit.export`, with its filters and row count).
 */
import { AUDIT_SYSTEM_ACTOR, type AuditEntry, type AuditQuery, type Locale } from '@pa/shared';
import type { AppContext } from '../../context';
import { audit, type Actor } from '../../platform/audit';
import { csvId } from '@pa/shared/csv';
import { auditActionName, csvOf, SERVER_TEXTS } from '@pa/shared/texts';
import { AppError } from '../../platform/errors';
import { pageOf } from '../../platform/listing';
import { zoneOf } from '../../platform/settings';
import { dayKey } from '../../platform/time';
import { pickLocalized } from '../../platform/localized';
import { auditPage, auditRows, entityNames, type AuditFilters, type AuditRow } from './repository';

/** The most rows one export holds (newest first); narrow the filters for older ones. */
const AUDIT_EXPORT_MAX = 50_000;

type Filters = Omit<AuditQuery, 'cursor' | 'limit'>;

/** Offset of a zone from UTC at an instant, in ms. */
function offsetAt(instant: number, zone: string): number {
  const f = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
  const p = Object.fromEntries(f.formatToParts(instant).map((x) => [x.type, x.value]));
  return Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second)) - Math.floor(instant / 1000) * 1000;
}

/** The first instant of a calendar day in a zone (the offset taken twice: it may change that night). */
function dayStart(day: string, zone: string): number {
  const midnight = Date.parse(`${day}T00:00:00Z`);
  return midnight - offsetAt(midnight - offsetAt(midnight, zone), zone);
}

const nextDay = (day: string) => new Date(Date.parse(`${day}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/** The query's filters as the repository takes them; `from` after `to` is VALIDATION_FAILED. */
function toFilters(ctx: AppContext, q: Filters): AuditFilters {
  if (q.from && q.to && q.from > q.to) throw new AppError('VALIDATION_FAILED', { 'querystring.from': 'after_to' });
  const zone = zoneOf(ctx);
  const prefix = q.action?.endsWith('.') ? q.action : undefined;
  return {
    actorId: q.actor === undefined ? undefined : q.actor === AUDIT_SYSTEM_ACTOR ? null : q.actor,
    action: prefix ? undefined : q.action,
    actionPrefix: prefix,
    entityType: q.entityType,
    entityId: q.entityId,
    from: q.from ? dayStart(q.from, zone) : undefined,
    until: q.to ? dayStart(nextDay(q.to), zone) : undefined,
  };
}

const parse = (json: string | null): unknown => (json === null ? null : JSON.parse(json));

function toEntry(r: AuditRow, names: ReadonlyMap<string, string> = new Map()): AuditEntry {
  return {
    id: r.id,
    at: Number(r.at),
    actor: r.actor_id && r.actor_name !== null && r.actor_account !== null && r.actor_role !== null
      ? { id: r.actor_id, displayName: r.actor_name, account: r.actor_account, role: r.actor_role }
      : null,
    action: r.action,
    entityType: r.entity,
    entityId: r.entity_id,
    entityName: r.entity_id === null ? null : names.get(`${r.entity}:${r.entity_id}`) ?? null,
    before: parse(r.before_json),
    after: parse(r.after_json),
    ip: r.ip,
  };
}

/** Types whose entities have a name to show (a promoter's entries are of type `user` or `promoter`). */
const PERSON_TYPES = new Set(['user', 'promoter']);

/** The names of a page's entities, keyed `type:id` (the log keeps ids; names may have changed since). */
async function namesOf(ctx: AppContext, rows: AuditRow[], locale: Locale): Promise<Map<string, string>> {
  const ids = { user: new Set<string>(), campaign: new Set<string>(), webhook: new Set<string>(), api_key: new Set<string>(), group: new Set<string>() };
  for (const r of rows) {
    if (r.entity_id === null) continue;
    if (PERSON_TYPES.has(r.entity)) ids.user.add(r.entity_id);
    else if (r.entity === 'campaign' || r.entity === 'webhook' || r.entity === 'api_key' || r.entity === 'group') ids[r.entity].add(r.entity_id);
  }
  const found = await entityNames(ctx.db, { user: [...ids.user], campaign: [...ids.campaign], webhook: [...ids.webhook], api_key: [...ids.api_key], group: [...ids.group] });
  const names = new Map<string, string>();
  for (const u of found.users) for (const type of PERSON_TYPES) names.set(`${type}:${u.id}`, u.name);
  for (const c of found.campaigns) names.set(`campaign:${c.id}`, pickLocalized(c.names_json, locale));
  for (const w of found.webhooks) names.set(`webhook:${w.id}`, w.description || w.url);
  for (const k of found.keys) names.set(`api_key:${k.id}`, k.name);
  for (const g of found.groups) names.set(`group:${g.id}`, g.name);
  return names;
}

export async function listAudit(ctx: AppContext, q: AuditQuery & { limit: number }, locale: Locale = 'en'): Promise<{ items: AuditEntry[]; nextCursor: string | null }> {
  const rows = await auditPage(ctx.db, toFilters(ctx, q), q.limit, q.cursor);
  const { rows: page, nextCursor } = pageOf(rows, q.limit, (r) => [Number(r.at), r.id]);
  const names = await namesOf(ctx, page, locale);
  return { items: page.map((r) => toEntry(r, names)), nextCursor };
}

/**
 * The filtered log as CSV: the catalogue's column names (csv-columns.ts, one snake_case English set
 * in every language), the values a person reads — the system's name, each action's name beside its
 * code — in the reader's language. The export is recorded in the log it exports.
 */
export async function exportAudit(ctx: AppContext, actor: Actor, q: Filters, locale: Locale): Promise<{ csv: string; filename: string }> {
  const rows = await auditRows(ctx.db, toFilters(ctx, q), AUDIT_EXPORT_MAX);
  const csv = csvOf('audit', rows.map((r) => ({
    at: new Date(Number(r.at)).toISOString(),
    actor: r.actor_id ? (r.actor_name ?? r.actor_id) : SERVER_TEXTS[locale].auditCsv.system,
    actor_account: csvId(r.actor_account),
    actor_role: r.actor_role,
    action: r.action,
    action_name: auditActionName(r.action, locale),
    entity_type: r.entity,
    entity_id: csvId(r.entity_id),
    before: r.before_json,
    after: r.after_json,
    ip: csvId(r.ip),
    entry_id: csvId(r.id),
  })));
  const filters = Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined));
  await audit(ctx.db, { actorId: actor.userId, action: 'audit.export', entity: 'audit', after: { filters, count: rows.length }, ip: actor.ip });
  return { csv, filename: `audit-${dayKey(Date.now(), zoneOf(ctx))}.csv` };
}
