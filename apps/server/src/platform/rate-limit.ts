/** Fixed-window counters in the database, so every instance shares the same limits. */
import type { Db } from '../db/types';

export async function hitRateLimit(db: Db, bucket: string, limit: number, windowMs: number, now = Date.now()) {
  const row = await db
    .insertInto('rate_limits')
    .values({ bucket, count: 1, reset_at: now + windowMs })
    .onConflict((oc) =>
      oc.column('bucket').doUpdateSet((eb) => ({
        count: eb.case().when('rate_limits.reset_at', '<=', now).then(1).else(eb('rate_limits.count', '+', 1)).end(),
        reset_at: eb.case().when('rate_limits.reset_at', '<=', now).then(now + windowMs).else(eb.ref('rate_limits.reset_at')).end(),
      })),
    )
    .returning(['count', 'reset_at'])
    .executeTakeFirstOrThrow();
  return { allowed: row.count <= limit, retryAfterSeconds: Math.max(1, Math.ceil((row.reset_at - now) / 1000)) };
}
