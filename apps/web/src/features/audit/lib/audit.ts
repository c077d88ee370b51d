/**
 * The audit log screen's pure rules: the filters as the address keeps them, the action filter as
 * typed (a code, an area, or a label in the reader's language), and an entry's before/after as
 * rows with what changed (features/audit/pages/audit-page.tsx shows them).
 */
import { AUDIT_ACTIONS } from '@pa/shared';

const AUDIT_FILTER_KEYS = ['actor', 'action', 'entityType', 'entityId', 'from', 'to'] as const;
type AuditFilterKey = (typeof AUDIT_FILTER_KEYS)[number];
export type AuditFilters = Partial<Record<AuditFilterKey, string>>;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const ACTION = /^[a-z_]+\.(?:[a-z_]+)?$/;
const ENTITY_TYPE = /^[a-z_]+$/;
/** AuditQuerySchema's limits: a value past them would only be refused by the server. */
const MAX: Record<AuditFilterKey, number> = { actor: 64, action: 64, entityType: 40, entityId: 64, from: 10, to: 10 };

/** The filters in an address (`?action=…&from=…`), each kept only when the server would take it. */
export function filtersFromParams(params: URLSearchParams): AuditFilters {
  const out: AuditFilters = {};
  for (const key of AUDIT_FILTER_KEYS) {
    const value = params.get(key)?.trim();
    if (!value || value.length > MAX[key]) continue;
    if ((key === 'from' || key === 'to') && !DAY.test(value)) continue;
    if (key === 'action' && !ACTION.test(value)) continue;
    if (key === 'entityType' && !ENTITY_TYPE.test(value)) continue;
    out[key] = value;
  }
  return out;
}

/** The query string of the filters (empty ones left out), in a fixed order. */
export function filtersToQuery(filters: AuditFilters): string {
  const query = new URLSearchParams();
  for (const key of AUDIT_FILTER_KEYS) {
    const value = filters[key];
    if (value) query.set(key, value);
  }
  return query.toString();
}

/** Invisible characters a code copied from a chat or a document may carry, not part of it. */
const INVISIBLE = /\u200b|\u200c|\u200d|\u2060|\ufeff/g;

type ActionInput = { ok: true; action: string | undefined } | { ok: false };

/**
 * What the action box means: nothing (no filter); a code (`withdrawal.paid`); a whole area
 * (`withdrawal` or `withdrawal.`, every action of it); or a label in the reader's language
 * ("Manual adjustment"), matched without regard to case. Anything else is not a filter.
 */
export function parseActionInput(text: string, labels: ReadonlyMap<string, string>): ActionInput {
  const typed = text.replace(INVISIBLE, '').trim();
  if (!typed) return { ok: true, action: undefined };
  const lower = typed.toLocaleLowerCase();
  if (ACTION.test(lower)) return { ok: true, action: lower };
  if (ENTITY_TYPE.test(lower) && AUDIT_ACTIONS.some((a) => a.startsWith(`${lower}.`))) return { ok: true, action: `${lower}.` };
  for (const [code, label] of labels) if (label.toLocaleLowerCase() === lower) return { ok: true, action: code };
  return { ok: false };
}

/** Whether the date range reads forwards (the server refuses `from` after `to`). */
export const daysInOrder = (from: string | undefined, to: string | undefined) => !from || !to || from <= to;

export type DiffKind = 'changed' | 'added' | 'removed' | 'same' | 'kept';
interface DiffRow {
  /** The field's name; '' when before or after is not an object (one value). */
  key: string;
  kind: DiffKind;
  before: unknown;
  after: unknown;
  /** Whether before / after holds a value for this row (a null value is still a value). */
  hasBefore: boolean;
  hasAfter: boolean;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Structural equality of JSON values (key order does not count). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  }
  if (isRecord(a) && isRecord(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k], b[k]));
  }
  return false;
}

const ORDER: Record<DiffKind, number> = { changed: 0, added: 0, removed: 0, same: 1, kept: 1 };

/**
 * An entry's before and after as rows, the changes first (in the entry's own order), then what
 * stayed. The server records `after` as what the action wrote: a field only in `before` while
 * `after` is an object was not touched (`kept`, e.g. the other settings of a settings change); it
 * was removed only when the whole thing was (`after` null: a deletion). A value that is not an
 * object on either side is one row.
 */
export function auditDiff(before: unknown, after: unknown): DiffRow[] {
  const b = before ?? null;
  const a = after ?? null;
  if (b === null && a === null) return [];
  if ((b !== null && !isRecord(b)) || (a !== null && !isRecord(a))) {
    const kind: DiffKind = b === null ? 'added' : a === null ? 'removed' : jsonEqual(b, a) ? 'same' : 'changed';
    return [{ key: '', kind, before: b, after: a, hasBefore: b !== null, hasAfter: a !== null }];
  }
  const keys = [...new Set([...Object.keys(b ?? {}), ...Object.keys(a ?? {})])];
  const rows = keys.map((key): DiffRow => {
    const hasBefore = b !== null && Object.hasOwn(b, key);
    const hasAfter = a !== null && Object.hasOwn(a, key);
    const bv = hasBefore ? b[key] : undefined;
    const av = hasAfter ? a[key] : undefined;
    let kind: DiffKind;
    if (hasBefore && hasAfter) kind = jsonEqual(bv, av) ? 'same' : 'changed';
    else if (hasAfter) kind = 'added';
    else kind = a === null ? 'removed' : 'kept';
    return { key, kind, before: bv, after: av, hasBefore, hasAfter };
  });
  // A stable sort: changes first, each group in the entry's order.
  return rows.map((r, i) => [r, i] as const).sort((x, y) => ORDER[x[0].kind] - ORDER[y[0].kind] || x[1] - y[1]).map(([r]) => r);
}

/** Fields holding an amount of minor units, shown as money in the installation's currency. */
const MONEY_KEYS = new Set(['amount', 'available', 'fee', 'net', 'withdrawalMin', 'withdrawalMax', 'withdrawalFeeFixed', 'saleReward', 'leadReward', 'reversedAmount']);
export const isMoneyField = (key: string, value: unknown) => MONEY_KEYS.has(key) && Number.isSafeInteger(value);

/** Fields holding an instant (epoch milliseconds): `expiresAt`, `revokedAt`, `endsAt`… */
export const isInstantField = (key: string, value: unknown) =>
  /(?:At|Time)$/.test(key) && typeof value === 'number' && Number.isSafeInteger(value) && value > 0;

/**
 * How many records a CSV file holds under its header (quoted fields may hold line breaks and
 * doubled quotes); the export's toast says it.
 */
export function csvRecordCount(text: string): number {
  let records = 0;
  let quoted = false;
  let fieldStart = true;
  let lineHasContent = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') i++;
        else quoted = false;
      }
      continue;
    }
    if (c === '"' && fieldStart) {
      quoted = true;
      fieldStart = false;
      lineHasContent = true;
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      if (lineHasContent) records++;
      lineHasContent = false;
      fieldStart = true;
    } else {
      if (c !== '\ufeff') lineHasContent = true;
      fieldStart = c === ',';
    }
  }
  if (lineHasContent) records++;
  return Math.max(0, records - 1);
}
