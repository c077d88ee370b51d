/**
 * Migration 017 (issue 28, item 14): the campaign's end day is included. A campaign the old editor
 * saved with "ends 28/02/2027" (28 February 00:00 in the installation's zone) and still to end
 * keeps the day its operator chose: it now ends at the end of that day. Ended campaigns, ends at
 * another time of day and ends already past stay as they were; the stored `timeZone` setting wins
 * over TIME_ZONE. On both databases.
 */
import type { Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { DIALECTS, freshDatabase, migrateTo } from './helpers';

type Tables = Record<string, Record<string, unknown>>;
const HOUR = 3_600_000;

describe.each(DIALECTS)('migration 017 on %s', (dialect) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0)) await c();
  });

  async function campaignsAfter017(rows: { id: string; status: string; endsAt: number | null }[], settingZone: string | null, timeZone: string) {
    const { handle, drop } = await freshDatabase(dialect);
    cleanups.push(drop);
    expect((await migrateTo(handle, '016-stripe-pending', timeZone)).every((r) => r.status === 'Success')).toBe(true);
    const db = handle.db as unknown as Kysely<Tables>;
    const t0 = Date.now() - 10 * 24 * HOUR;
    await db.insertInto('campaigns').values(rows.map((r) => ({
      id: r.id, status: r.status, names_json: '{}', descriptions_json: '{}', landing_url: 'https://example.com/', allowed_hosts_json: '[]',
      starts_at: null, ends_at: r.endsAt, lead_reward: 0, sale_reward_type: 'bps', sale_reward: 1000, tiers_json: '[]', override_bps: 0,
      attribution_window_days: 30, hold_days: 0, approval_mode: 'auto', join_mode: 'open', share_texts_json: '{}', cover_image_id: null,
      created_at: t0, updated_at: t0, binding_months: 0,
    }))).execute();
    if (settingZone) await db.insertInto('settings').values({ key: 'timeZone', value: JSON.stringify(settingZone), updated_at: t0 }).execute();
    expect((await migrateTo(handle, '017-campaign-end-day', timeZone)).map((r) => [r.migrationName, r.status])).toEqual([['017-campaign-end-day', 'Success']]);
    const after = await db.selectFrom('campaigns').select(['id', 'ends_at']).orderBy('id').execute();
    return Object.fromEntries(after.map((r) => [r.id, r.ends_at === null ? null : Number(r.ends_at)]));
  }

  it('moves a future end at a midnight of the installation’s zone to the end of that day, and nothing else', async () => {
    const feb28 = Date.UTC(2099, 1, 28) - 8 * HOUR; // 28 February 2099 00:00 in Shanghai (UTC+8)
    const ended = Date.UTC(2020, 1, 28) - 8 * HOUR;
    const after = await campaignsAfter017([
      { id: 'a-active', status: 'active', endsAt: feb28 },
      { id: 'b-paused', status: 'paused', endsAt: feb28 },
      { id: 'c-draft', status: 'draft', endsAt: feb28 },
      { id: 'd-ended', status: 'ended', endsAt: feb28 },
      { id: 'e-past', status: 'active', endsAt: ended },
      { id: 'f-minute', status: 'active', endsAt: feb28 + 90 * 60_000 },
      { id: 'g-none', status: 'active', endsAt: null },
      { id: 'h-utc-midnight', status: 'active', endsAt: Date.UTC(2099, 1, 28) },
    ], 'Asia/Shanghai', 'UTC');
    expect(after).toEqual({
      'a-active': feb28 + 24 * HOUR, 'b-paused': feb28 + 24 * HOUR, 'c-draft': feb28 + 24 * HOUR,
      'd-ended': feb28, 'e-past': ended, 'f-minute': feb28 + 90 * 60_000, 'g-none': null,
      // Midnight in UTC is 08:00 in Shanghai, the stored zone: not a day the old editor wrote there.
      'h-utc-midnight': Date.UTC(2099, 1, 28),
    });
  });

  it('uses TIME_ZONE when no zone is stored, and a day that is 23 hours long', async () => {
    // 7 March 2099 00:00 in New York (UTC−5); New York moves its clocks on Sunday 8 March 2099.
    const mar7 = Date.UTC(2099, 2, 7, 5);
    const after = await campaignsAfter017([{ id: 'k', status: 'active', endsAt: mar7 }, { id: 'l', status: 'active', endsAt: mar7 + 24 * HOUR }], null, 'America/New_York');
    expect(after).toEqual({ k: mar7 + 24 * HOUR, l: mar7 + 24 * HOUR + 23 * HOUR });
  });
});
