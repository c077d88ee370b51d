/** Liveness, readiness and the metrics scrape. */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context';
import type { Db } from '../../db/types';
import { AppError, UNAVAILABLE_RETRY_AFTER_S } from '../../platform/errors';
import { pingDatabase } from './repository';

/**
 * Longest the readiness check waits for the database's answer: a load balancer's probe (often 2 s)
 * gets 503 in time when the database does not answer at all (a hung host, a cut network), not a
 * timeout of its own.
 */
const READY_TIMEOUT_MS = 1500;

/**
 * The ping under way per database, when it started: probes arriving within READY_TIMEOUT_MS of it
 * share it rather than each taking a connection; a later probe sends its own (the database may
 * have come back while an older ping still waits for an answer on a dead connection).
 */
const pings = new WeakMap<Db, { at: number; answer: Promise<void> }>();

function ping(db: Db): Promise<void> {
  const now = Date.now();
  const under = pings.get(db);
  if (under && now - under.at < READY_TIMEOUT_MS) return under.answer;
  const mine = { at: now, answer: pingDatabase(db) };
  pings.set(db, mine);
  void mine.answer.catch(() => undefined).finally(() => {
    if (pings.get(db) === mine) pings.delete(db);
  });
  return mine.answer;
}

/**
 * Ready when the database answers within READY_TIMEOUT_MS; otherwise 503 SERVICE_UNAVAILABLE with
 * Retry-After (what a load balancer's readiness check expects), with the cause logged but never
 * answered. A ping that gets no answer goes on in the background until the statement timeout ends
 * it (DATABASE_STATEMENT_TIMEOUT).
 */
export async function checkReady(ctx: AppContext, log: FastifyBaseLogger): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the database did not answer within ${READY_TIMEOUT_MS} ms`)), READY_TIMEOUT_MS);
  });
  try {
    await Promise.race([ping(ctx.db), late]);
  } catch (error) {
    log.warn({ err: error }, 'database not reachable');
    throw new AppError('SERVICE_UNAVAILABLE', undefined, { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_S) });
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `Authorization: Bearer <token>` with the metrics token (METRICS_TOKEN), or 401 UNAUTHENTICATED.
 * Compared in constant time, as digests (equal lengths whatever was sent). No token configured:
 * nothing to ask for (the separate listener without one).
 */
export function checkMetricsToken(token: string | null, authorization: string | undefined): void {
  if (token === null) return;
  const given = /^Bearer +(\S+) *$/i.exec(authorization ?? '')?.[1] ?? '';
  const digest = (value: string) => createHash('sha256').update(value).digest();
  if (!timingSafeEqual(digest(given), digest(token))) throw new AppError('UNAUTHENTICATED', undefined, { 'WWW-Authenticate': 'Bearer realm="metrics"' });
}

/** The metrics in the Prometheus text format (platform/metrics.ts). */
export function scrapeMetrics(ctx: AppContext): Promise<{ body: string; contentType: string }> {
  return ctx.metrics.scrape();
}
