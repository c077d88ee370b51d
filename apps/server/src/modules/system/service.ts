/** Liveness and readiness. */
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context';
import { AppError } from '../../platform/errors';
import { pingDatabase } from './repository';

/** Ready when the database answers; otherwise INTERNAL, with the cause logged but never answered. */
export async function checkReady(ctx: AppContext, log: FastifyBaseLogger): Promise<void> {
  try {
    await pingDatabase(ctx.db);
  } catch (error) {
    log.warn({ err: error }, 'database not reachable');
    throw new AppError('INTERNAL');
  }
}
