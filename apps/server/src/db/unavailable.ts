/**
 * A lost or refused database connection, told apart from every other failure: what a PostgreSQL
 * restart, a failover, `pg_terminate_backend` or an idle cut-off looks like from here. Such a
 * failure is the database's, not the request's: it is answered 503 `SERVICE_UNAVAILABLE` with
 * `Retry-After` (platform/errors.ts), and work that it cut before anything was written is tried
 * again on a new connection (db/pg-client.ts for a lone read, db/unit-of-work.ts for a transaction).
 *
 * db/pg-client.ts marks each such error as it passes, with whether anything may have been written
 * (`unwritten`: certainly nothing — a read, a statement inside a transaction that died with its
 * connection, a connection never made; otherwise a commit or a lone write whose answer was lost, which
 * may or may not have taken effect). An error nobody marked is still recognised by its code.
 */

/** SQLSTATEs of a session that ended or could not start (class 08, shutdowns, timeouts, too many). */
const LOST_CODES = new Set([
  '08000', '08001', '08003', '08004', '08006', '08007',
  '57P01', // admin_shutdown: pg_terminate_backend, a fast shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up, shutting down, in recovery
  '57P05', // idle_session_timeout
  '25P03', // idle_in_transaction_session_timeout
  '53300', // too_many_connections
]);
/** Node's socket errors. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTFOUND']);
/**
 * node-postgres's own words for a connection that ended, broke or could not be had in time — or
 * whose statement got no answer within the client's timeout (db/connection.ts): the database does
 * not answer on it, and nothing more may be sent there (the answer may still come).
 */
const LOST_MESSAGES = /^(Connection terminated|Client has encountered a connection error|Client was closed and is not queryable|timeout exceeded when trying to connect|Query read timeout)/;
/**
 * query_canceled: a statement that ran past the statement timeout (DATABASE_STATEMENT_TIMEOUT), or
 * was cancelled by an operator. The connection is fine; the database was too slow to answer, which
 * is answered as its being unavailable (503), never tried item by item.
 */
const CANCELED = '57014';

const marked = new WeakMap<object, { unwritten: boolean }>();

/** Whether `error` says the connection was lost or could not be made (by its code or its words). */
export function isConnectionLoss(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (LOST_CODES.has(code) || SOCKET_CODES.has(code))) return true;
  return typeof message === 'string' && LOST_MESSAGES.test(message);
}

/** Marks `error` as the database's being unavailable; `unwritten`: certainly nothing of it was written. */
export function markUnavailable(error: unknown, unwritten: boolean): void {
  if (typeof error !== 'object' || error === null) return;
  const seen = marked.get(error);
  // Once something may have been written, it stays so.
  marked.set(error, { unwritten: unwritten && (seen?.unwritten ?? true) });
}

/** Whether `error` is the database's being unavailable (marked, or recognised by its code). */
export function isDatabaseUnavailable(error: unknown): boolean {
  return (typeof error === 'object' && error !== null && (marked.has(error) || (error as { code?: unknown }).code === CANCELED)) || isConnectionLoss(error);
}

/** Whether `error` is the database's being unavailable and certainly nothing was written: safe to try again. */
export function isUnwrittenUnavailable(error: unknown): boolean {
  return typeof error === 'object' && error !== null && marked.get(error)?.unwritten === true;
}
