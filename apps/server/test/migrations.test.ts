/**
 * Upgrades of stored figures: an installation at an older migration, rows written the way that
 * version wrote them, then the migrations to the latest — and the rebuild from the rows finds
 * nothing to change.
 */
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateToLatest, type DatabaseHandle } from '../src/db/connection';
import { rebuildRollups } from '../src/platform/rollups-rebuild';
import { dayKey } from '../src/platform/time';
import { DIALECTS, freshDatabase, migrateTo } from './helpers';

const TZ = 'UTC';

describe.each(DIALECTS)('migrations of stored figures on %s', (dialect) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0)) await c();
  });

  /** A fresh database migrated up to `name` (inclusive). */
  async function databaseAt(name: string): Promise<DatabaseHandle> {
    const { handle, drop } = await freshDatabase(dialect);
    cleanups.push(drop);
    await migrateTo(handle, name, TZ);
    return handle;
  }

  const now = Date.now();
  const day = dayKey(now, TZ);
  /** One link opened twice by a person's phone, once by Googlebot and once by a chat app's preview fetcher. */
  const clickRows = [
    { id: 'c1', is_unique: 1, is_bot: 0, device: 'mobile' },
    { id: 'c2', is_unique: 0, is_bot: 0, device: 'mobile' },
    { id: 'c3', is_unique: 0, is_bot: 1, device: 'bot' },
    { id: 'c4', is_unique: 0, is_bot: 1, device: 'bot' },
  ].map((c, i) => ({ ...c, link_id: 'l1', campaign_id: 'k1', promoter_id: 'p1', at: now - 1000 * (i + 1), visitor_hash: c.is_bot ? `bot-${i}` : 'phone', referrer_host: null, attributed: 1 }));
  const dailyOf = async (handle: DatabaseHandle) =>
    (await handle.db.selectFrom('daily_stats').select(['day', 'link_id', 'clicks', 'unique_clicks', 'bot_clicks']).execute()).map((r) => ({ ...r, clicks: Number(r.clicks), unique_clicks: Number(r.unique_clicks), bot_clicks: Number(r.bot_clicks) }));

  it('rollups that counted bots in clicks (written before 007) are corrected: clicks are people’s only, bots kept apart', async () => {
    const handle = await databaseAt('006-click-index');
    await handle.db.insertInto('clicks').values(clickRows).execute();
    // As the click writer summed them until then: every visit in clicks.
    await handle.db.insertInto('daily_stats').values({
      promoter_id: 'p1', day, campaign_id: 'k1', link_id: 'l1', clicks: 4, unique_clicks: 1, bot_clicks: 2,
      leads: 0, sales: 0, sale_amount: 0, refund_amount: 0, commission_pending: 0, commission_approved: 0, commission_rejected: 0, commission_reversed: 0,
    }).execute();
    await migrateToLatest(handle, TZ);
    expect(await dailyOf(handle)).toEqual([{ day, link_id: 'l1', clicks: 2, unique_clicks: 1, bot_clicks: 2 }]);
    expect((await rebuildRollups(handle.db, handle.dialect, TZ, { apply: false })).differences).toEqual([]);
  });

  it('an installation from before the rollups (005) gets them filled with people’s clicks only', async () => {
    const handle = await databaseAt('004-withdrawals');
    await handle.db.insertInto('clicks').values(clickRows).execute();
    await migrateToLatest(handle, TZ);
    expect(await dailyOf(handle)).toEqual([{ day, link_id: 'l1', clicks: 2, unique_clicks: 1, bot_clicks: 2 }]);
    expect((await rebuildRollups(handle.db, handle.dialect, TZ, { apply: false })).differences).toEqual([]);
  });

  it('024 gives every stored binding an id (its conversion’s) and makes room for a commission per assignment', async () => {
    const handle = await databaseAt('022-reward-rules');
    await sql`insert into customer_bindings (campaign_id, customer_external_id, promoter_id, link_id, conversion_id, started_at, months, ended_at, created_at) values ('k1', 'cust-1', 'p1', null, 'v1', ${now}, 12, null, ${now}), ('k1', 'cust-2', 'p2', 'l2', 'v2', ${now}, null, null, ${now})`.execute(handle.db);
    await migrateToLatest(handle, TZ);
    const bindings = await handle.db.selectFrom('customer_bindings').select(['id', 'conversion_id', 'promoter_id']).orderBy('customer_external_id').execute();
    expect(bindings).toEqual([{ id: 'v1', conversion_id: 'v1', promoter_id: 'p1' }, { id: 'v2', conversion_id: 'v2', promoter_id: 'p2' }]);
    await expect(sql`update customer_bindings set id = 'v1' where conversion_id = 'v2'`.execute(handle.db)).rejects.toThrow(/unique|constraint/i);
  });
});
