/** Liveness and readiness. */
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context';
import { AppError, UNAVAILABLE_RETRY_AFTER_S } from '../../platform/errors';
import { pingDatabase } from './repository';

/**
 * Ready when the database answers; otherwise 503 SERVICE_UNAVAILABLE with Retry-After (what a load
 * balancer's readiness check expects), with the cause logged but never answered.
 */
export async function checkReady(ctx: AppContext, log: FastifyBaseLogger): Promise<void> {
  try {
    await pingDatabase(ctx.db);
  } catch (error) {
    log.warn({ err: error }, 'database not reachable');
    throw new AppError('SERVICE_UNAVAILABLE', undefined, { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_S) });
  }
}
