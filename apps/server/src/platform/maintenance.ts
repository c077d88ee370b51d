/**
 * Deletes rows that can no longer matter: used nonces past their freshness window, finished
 * rate-limit windows, sign-in failures older than the lockout window, and sessions that ended more
 * than 30 days ago. Idempotent, so every instance may run it at once.
 */
import type { Db } from '../db/types';

const LOCKOUT_WINDOW_MS = 15 * 60_000;
const SESSION_RETENTION_MS = 30 * 24 * 3600_000;
const MAINTENANCE_INTERVAL_MS = 10 * 60_000;

export async function purgeExpired(db: Db, now = Date.now()) {
  const count = (r: { numDeletedRows: bigint }) => Number(r.numDeletedRows);
  return {
    nonces: count(await db.deleteFrom('used_nonces').where('expires_at', '<', now).executeTakeFirst()),
    rateLimits: count(await db.deleteFrom('rate_limits').where('reset_at', '<', now).executeTakeFirst()),
    authFailures: count(await db.deleteFrom('auth_failures').where('at', '<', now - LOCKOUT_WINDOW_MS).executeTakeFirst()),
    sessions: count(
      await db
        .deleteFrom('sessions')
        .where((eb) => eb.or([eb('expires_at', '<', now - SESSION_RETENTION_MS), eb('revoked_at', '<', now - SESSION_RETENTION_MS)]))
        .executeTakeFirst(),
    ),
  };
}

/** Runs purgeExpired every 10 minutes until stopped; failures are logged, never fatal. */
export function startMaintenance(db: Db, log: { warn(obj: unknown, msg: string): void }) {
  let running: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    running ??= purgeExpired(db)
      .catch((error: unknown) => log.warn({ err: error }, 'maintenance failed'))
      .finally(() => (running = null));
  }, MAINTENANCE_INTERVAL_MS);
  timer.unref();
  // Stopping waits for a purge under way, so the database is not closed beneath it.
  return async () => {
    clearInterval(timer);
    await running;
  };
}
