/**
 * Lists: newest-first keyset pages over (time, id) with opaque cursors, and LIKE search patterns.
 * Every paginated route uses these, so pages behave the same everywhere.
 */
import { sql, type Expression, type SqlBool } from 'kysely';
import { AppError } from './errors';

function encodeCursor(at: number, id: string): string {
  return Buffer.from(`${at}:${id}`).toString('base64url');
}

export function decodeCursor(cursor: string): { at: number; id: string } {
  const parts = Buffer.from(cursor, 'base64url').toString('utf8').split(':');
  const [at, id] = parts.length === 2 ? parts : [];
  // Only what encodeCursor writes: a time past 2^53 is no instant of ours (PostgreSQL's int8 would
  // refuse it), and ids are ULIDs or base64url (a NUL or broken UTF-8 would reach PostgreSQL's text).
  if (!at || !id || !/^\d{1,16}$/.test(at) || !Number.isSafeInteger(Number(at)) || !/^[\w-]{1,128}$/.test(id)) throw new AppError('VALIDATION_FAILED', { 'querystring.cursor': 'invalid' });
  return { at: Number(at), id };
}

/** Rows after the cursor in (time desc, id desc) order; `at` and `id` are column references. */
export function olderThan(cursor: string, at: string, id: string): Expression<SqlBool> {
  const c = decodeCursor(cursor);
  return sql<SqlBool>`(${sql.ref(at)} < ${c.at} or (${sql.ref(at)} = ${c.at} and ${sql.ref(id)} < ${c.id}))`;
}

/**
 * Splits `limit + 1` fetched rows into the page and the cursor of the next one (null at the end).
 * The cursor is (created_at, id) unless `key` names the page's own (time, id) order.
 */
export function pageOf<T>(rows: T[], limit: number, key: (row: T) => [number, string] = (r) => [Number((r as { created_at: number }).created_at), (r as { id: string }).id]): { rows: T[]; nextCursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return { rows: page, nextCursor: rows.length > limit && last ? encodeCursor(...key(last)) : null };
}

/** A case-insensitive LIKE pattern for a search word, with LIKE's own characters escaped. */
export function likePattern(q: string): string {
  return `%${q.trim().toLowerCase().replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
}
