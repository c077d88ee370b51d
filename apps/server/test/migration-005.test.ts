/**
 * Migration 005 fills the rollups with its own frozen SQL (db/migrations/005-stats-fill.ts), not
 * with the application's rebuild. An installation at 004 with clicks (people and bots, unique and
 * repeated visitors, around local midnights and a DST change), conversions and commissions of every
 * status: after 005 the tables hold what today's rebuild computes from those rows — with bots still
 * in `clicks`, as 005 always left them — and after the latest migration (007 takes the bots out)
 * the rebuild finds nothing to change.
 */
import type { Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateToLatest, type DatabaseHandle } from '../src/db/connection';
import { computeRollups, rebuildRollups } from '../src/platform/rollups-rebuild';
import { ROLLUP_COLUMNS } from '../src/platform/rollups';
import { DIALECTS, freshDatabase, migrateTo as migrateToMigration } from './helpers';

/** The tables as 004 left them: the app's `Database` type describes the latest schema instead. */
type Tables = Record<string, Record<string, unknown>>;

describe.each(DIALECTS)('migration 005 on %s', (dialect) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0)) await c();
  });

  async function openFresh(): Promise<DatabaseHandle> {
    const { handle, drop } = await freshDatabase(dialect);
    cleanups.push(drop);
    return handle;
  }

  async function migrateTo(handle: DatabaseHandle, name: string, timeZone: string) {
    expect((await migrateToMigration(handle, name, timeZone)).every((r) => r.status === 'Success')).toBe(true);
  }

  // Around the start of daylight saving time in New York (Sunday 8 March 2026, 02:00 → 03:00): the
  // 7th ends at 05:00 UTC, the 8th (23 hours) at 04:00 UTC on the 9th, a Monday that opens a new week.
  const endOf7th = Date.parse('2026-03-08T04:59:59.999Z');
  const startOf8th = Date.parse('2026-03-08T05:00:00.000Z');
  const endOf8th = Date.parse('2026-03-09T03:59:59.999Z');
  const startOf9th = Date.parse('2026-03-09T04:00:00.000Z');
  const feb28 = Date.parse('2026-02-28T12:00:00.000Z');

  /** Rows as the application wrote them up to 004. */
  async function seed(handle: DatabaseHandle) {
    const db = handle.db as unknown as Kysely<Tables>;
    const t0 = feb28 - 86_400_000;
    await db.insertInto('users').values(['p1', 'p2', 'p3'].map((id) => ({
      id, account: `${id}@example.com`, display_name: id, password_hash: 'x', role: 'promoter', status: 'active', locale: 'en',
      invite_code: `code-${id}`, parent_id: null, created_at: t0, updated_at: t0,
    }))).execute();
    await db.insertInto('campaigns').values(['k1', 'k2'].map((id) => ({
      id, status: 'active', names_json: '{}', descriptions_json: '{}', landing_url: 'https://example.com/', allowed_hosts_json: '[]',
      starts_at: null, ends_at: null, lead_reward: 500, sale_reward_type: 'percent', sale_reward: 1000, tiers_json: '[]', override_bps: 1000,
      attribution_window_days: 30, hold_days: 0, approval_mode: 'manual', join_mode: 'open', share_texts_json: '{}', cover_image_id: null,
      created_at: t0, updated_at: t0,
    }))).execute();

    // Visitor A twice and a bot late on the 7th; B first thing on the 8th and again at its very end,
    // a bot in between; C and a bot on p2's link on the 9th; one visit in February.
    const clicks = [
      { id: 'c01', promoter_id: 'p1', campaign_id: 'k1', link_id: 'l1', at: endOf7th - 1000, visitor_hash: 'A', is_unique: 1, is_bot: 0 },
      { id: 'c02', promoter_id: 'p1', campaign_id: 'k1', link_id: 'l1', at: endOf7th, visitor_hash: 'A', is_unique: 0, is_bot: 0 },
      { id: 'c03', promoter_id: 'p1', campaign_id: 'k1', link_id: 'l1', at: endOf7th - 500, visitor_hash: 'bot1', is_unique: 0, is_bot: 1 },
      { id: 'c04', promoter_id: 'p1', campaign_id: 'k1', link_id: 'l1', at: startOf8th, visitor_hash: 'B', is_unique: 1, is_bot: 0 },
      { id: 'c05', promoter_id: 'p1', campaign_id: 'k1', link_id: 'l1', at: startOf8th + 1, visitor_hash: 'bot2', is_unique: 1, is_bot: 1 },
      { id: 'c06', promoter_id: 'p1', campaign_id: 'k1', link_id: 'l1', at: endOf8th, visitor_hash: 'B', is_unique: 0, is_bot: 0 },
      { id: 'c07', promoter_id: 'p2', campaign_id: 'k2', link_id: 'l2', at: startOf9th, visitor_hash: 'C', is_unique: 1, is_bot: 0 },
      { id: 'c08', promoter_id: 'p2', campaign_id: 'k2', link_id: 'l2', at: startOf9th + 5, visitor_hash: 'bot3', is_unique: 0, is_bot: 1 },
      { id: 'c09', promoter_id: 'p1', campaign_id: 'k1', link_id: 'l1', at: feb28, visitor_hash: 'D', is_unique: 1, is_bot: 0 },
      // p3's only figure that week: a click, which earns no leaderboard row.
      { id: 'c10', promoter_id: 'p3', campaign_id: 'k1', link_id: 'l3', at: startOf9th, visitor_hash: 'E', is_unique: 1, is_bot: 0 },
    ];
    await db.insertInto('clicks').values(clicks.map((c) => ({ ...c, device: c.is_bot ? 'bot' : 'mobile', referrer_host: null, attributed: 0 }))).execute();

    const conversion = (id: string, v: { campaign: string; kind: string; amount: number; refunded?: number; promoter: string | null; link: string | null; status: string; at: number }) => ({
      id, campaign_id: v.campaign, kind: v.kind, external_id: `ext-${id}`, amount: v.amount, refunded_amount: v.refunded ?? 0, refund_of: null,
      customer_external_id: null, customer_email_sha256: null, click_id: null, coupon_code: null, link_code: null,
      promoter_id: v.promoter, link_id: v.link, attributed_by: v.promoter ? 'click' : null, status: v.status, reason: null,
      occurred_at: v.at, received_at: v.at, api_key_id: null,
    });
    await db.insertInto('conversions').values([
      conversion('v1', { campaign: 'k1', kind: 'lead', amount: 0, promoter: 'p1', link: 'l1', status: 'attributed', at: endOf7th }),
      conversion('v2', { campaign: 'k1', kind: 'sale', amount: 10_000, refunded: 2_500, promoter: 'p1', link: 'l1', status: 'attributed', at: startOf8th }),
      conversion('v3', { campaign: 'k2', kind: 'sale', amount: 4_000, promoter: 'p2', link: null, status: 'attributed', at: startOf9th }),
      conversion('v4', { campaign: 'k1', kind: 'sale', amount: 9_999, promoter: null, link: null, status: 'unattributed', at: startOf8th }),
      conversion('v5', { campaign: 'k1', kind: 'sale', amount: 7_777, promoter: 'p1', link: 'l1', status: 'rejected', at: startOf8th }),
      conversion('v6', { campaign: 'k1', kind: 'lead', amount: 0, promoter: 'p1', link: 'l1', status: 'attributed', at: feb28 }),
      conversion('v7', { campaign: 'k2', kind: 'sale', amount: 3_000, refunded: 3_000, promoter: 'p2', link: 'l2', status: 'attributed', at: endOf8th }),
    ]).execute();

    const commission = (id: string, c: { conversion: string; campaign: string; promoter: string; link: string | null; source: string | null; level: number; amount: number; reversed?: number; status: string; at: number }) => ({
      id, conversion_id: c.conversion, campaign_id: c.campaign, promoter_id: c.promoter, link_id: c.link, source_promoter_id: c.source, level: c.level,
      kind: c.level === 2 ? 'override' : 'sale', rule: 'test', base: c.amount, rate_bps: null, amount: c.amount, reversed_amount: c.reversed ?? 0,
      status: c.status, occurred_at: c.at, month: '2026-03', available_at: c.at, created_at: c.at, decided_at: null, decided_by: null, reason: null,
    });
    await db.insertInto('commissions').values([
      commission('m1', { conversion: 'v2', campaign: 'k1', promoter: 'p1', link: 'l1', source: null, level: 1, amount: 1_000, reversed: 250, status: 'approved', at: startOf8th }),
      commission('m2', { conversion: 'v2', campaign: 'k1', promoter: 'p3', link: null, source: 'p1', level: 2, amount: 100, reversed: 25, status: 'pending', at: startOf8th }),
      commission('m3', { conversion: 'v1', campaign: 'k1', promoter: 'p1', link: 'l1', source: null, level: 1, amount: 500, status: 'pending', at: endOf7th }),
      commission('m4', { conversion: 'v3', campaign: 'k2', promoter: 'p2', link: null, source: null, level: 1, amount: 400, status: 'rejected', at: startOf9th }),
      commission('m5', { conversion: 'v7', campaign: 'k2', promoter: 'p2', link: 'l2', source: null, level: 1, amount: 300, reversed: 300, status: 'reversed', at: endOf8th }),
      commission('m6', { conversion: 'v6', campaign: 'k1', promoter: 'p1', link: 'l1', source: null, level: 1, amount: 200, status: 'approved', at: feb28 }),
      // Reversed with less than its amount recorded as reversed: the whole amount counts as reversed.
      commission('m7', { conversion: 'v7', campaign: 'k2', promoter: 'p1', link: null, source: 'p2', level: 2, amount: 30, reversed: 10, status: 'reversed', at: endOf8th }),
      // An override without its source member (as some old rows are) counts on its link, here none.
      commission('m8', { conversion: 'v3', campaign: 'k2', promoter: 'p1', link: null, source: null, level: 2, amount: 40, status: 'pending', at: startOf9th }),
      // Nothing to count: no row. An empty source member is none either.
      commission('m9', { conversion: 'v1', campaign: 'k1', promoter: 'p3', link: null, source: null, level: 2, amount: 0, status: 'pending', at: endOf7th }),
      commission('m10', { conversion: 'v6', campaign: 'k1', promoter: 'p3', link: null, source: '', level: 2, amount: 20, status: 'pending', at: feb28 }),
    ]).execute();
  }

  type Row = Record<string, string | number>;
  const byKey = (rows: Row[], key: (r: Row) => string) => Object.fromEntries(rows.map((r) => [key(r), r]));
  const dailyKey = (r: Row) => `${r.promoter_id}|${r.day}|${r.campaign_id}|${r.link_id}`;
  const periodKey = (r: Row) => `${r.period}|${r.promoter_id}`;

  async function stored(handle: DatabaseHandle) {
    const daily = (await handle.db.selectFrom('daily_stats').select(['promoter_id', 'day', 'campaign_id', 'link_id', ...ROLLUP_COLUMNS]).execute())
      .map((r) => ({ ...r, ...Object.fromEntries(ROLLUP_COLUMNS.map((c) => [c, Number(r[c])])) }));
    const periods = (await handle.db.selectFrom('period_stats').select(['period', 'promoter_id', 'earnings', 'conversions']).execute())
      .map((r) => ({ ...r, earnings: Number(r.earnings), conversions: Number(r.conversions) }));
    return { daily: byKey(daily, dailyKey), periods: byKey(periods, periodKey) };
  }

  /** What today's rebuild computes from the rows, with bots in `clicks` as 005 counted them. */
  async function computedAsOf005(handle: DatabaseHandle, timeZone: string) {
    const { rollups } = await computeRollups(handle.db, timeZone, 3);
    const daily = [...rollups.daily.values()]
      .filter((r) => ROLLUP_COLUMNS.some((c) => r.values[c] !== 0))
      .map((r) => ({ promoter_id: r.promoterId, day: r.day, campaign_id: r.campaignId, link_id: r.linkId, ...r.values, clicks: r.values.clicks + r.values.bot_clicks }));
    const periods = [...rollups.periods.values()]
      .filter((p) => p.earnings !== 0 || p.conversions !== 0)
      .map((p) => ({ period: p.period, promoter_id: p.promoterId, earnings: p.earnings, conversions: p.conversions }));
    return { daily: byKey(daily, dailyKey), periods: byKey(periods, periodKey) };
  }

  /** An installation at 004 with the seeded rows, migrated to 005: what 005 stored equals today's computation as of 005. */
  async function filledBy005(timeZone: string) {
    const handle = await openFresh();
    await migrateTo(handle, '004-withdrawals', timeZone);
    await seed(handle);
    await migrateTo(handle, '005-stats', timeZone);
    const after005 = await stored(handle);
    expect(after005).toEqual(await computedAsOf005(handle, timeZone));
    return { handle, after005 };
  }

  it('fills the rollups of an installation at 004 as the rebuild computes them, bots in clicks until 007 (New York, across DST)', async () => {
    const timeZone = 'America/New_York';
    const { handle, after005 } = await filledBy005(timeZone);

    // A few figures worked out by hand, so the comparison above cannot pass on two empty sides.
    const zero = Object.fromEntries(ROLLUP_COLUMNS.map((c) => [c, 0]));
    expect(after005.daily['p1|2026-03-07|k1|l1']).toEqual({ promoter_id: 'p1', day: '2026-03-07', campaign_id: 'k1', link_id: 'l1', ...zero, clicks: 3, unique_clicks: 1, bot_clicks: 1, leads: 1, commission_pending: 500 });
    expect(after005.daily['p1|2026-03-08|k1|l1']).toEqual({
      promoter_id: 'p1', day: '2026-03-08', campaign_id: 'k1', link_id: 'l1', ...zero,
      clicks: 3, unique_clicks: 1, bot_clicks: 1, sales: 1, sale_amount: 10_000, refund_amount: 2_500, commission_approved: 750, commission_reversed: 250,
    });
    expect(after005.daily['p3|2026-03-08|k1|team:p1']).toMatchObject({ commission_pending: 75, commission_reversed: 25 });
    expect(after005.daily['p1|2026-03-08|k2|team:p2']).toMatchObject({ commission_reversed: 30, commission_pending: 0 });
    expect(after005.daily['p1|2026-03-09|k2|']).toMatchObject({ commission_pending: 40 });
    expect(after005.daily['p2|2026-03-09|k2|']).toMatchObject({ sales: 1, sale_amount: 4_000, commission_rejected: 400 });
    expect(after005.daily['p2|2026-03-09|k2|l2']).toMatchObject({ clicks: 2, unique_clicks: 1, bot_clicks: 1 });
    expect(after005.daily['p1|2026-02-28|k1|l1']).toMatchObject({ clicks: 1, unique_clicks: 1, leads: 1, commission_approved: 200 });
    expect(Object.keys(after005.daily).sort()).toEqual([
      'p1|2026-02-28|k1|l1', 'p1|2026-03-07|k1|l1', 'p1|2026-03-08|k1|l1', 'p1|2026-03-08|k2|team:p2', 'p1|2026-03-09|k2|',
      'p2|2026-03-08|k2|l2', 'p2|2026-03-09|k2|', 'p2|2026-03-09|k2|l2', 'p3|2026-02-28|k1|', 'p3|2026-03-08|k1|team:p1', 'p3|2026-03-09|k1|l3',
    ]);
    expect(after005.periods).toEqual({
      'w:2026-02-23|p1': { period: 'w:2026-02-23', promoter_id: 'p1', earnings: 200, conversions: 1 },
      'm:2026-02|p1': { period: 'm:2026-02', promoter_id: 'p1', earnings: 200, conversions: 1 },
      'w:2026-03-02|p1': { period: 'w:2026-03-02', promoter_id: 'p1', earnings: 1_250, conversions: 2 },
      'w:2026-03-09|p1': { period: 'w:2026-03-09', promoter_id: 'p1', earnings: 40, conversions: 0 },
      'm:2026-03|p1': { period: 'm:2026-03', promoter_id: 'p1', earnings: 1_290, conversions: 2 },
      'w:2026-03-02|p2': { period: 'w:2026-03-02', promoter_id: 'p2', earnings: 0, conversions: 1 },
      'w:2026-03-09|p2': { period: 'w:2026-03-09', promoter_id: 'p2', earnings: 0, conversions: 1 },
      'm:2026-03|p2': { period: 'm:2026-03', promoter_id: 'p2', earnings: 0, conversions: 2 },
      'w:2026-02-23|p3': { period: 'w:2026-02-23', promoter_id: 'p3', earnings: 20, conversions: 0 },
      'm:2026-02|p3': { period: 'm:2026-02', promoter_id: 'p3', earnings: 20, conversions: 0 },
      'w:2026-03-02|p3': { period: 'w:2026-03-02', promoter_id: 'p3', earnings: 75, conversions: 0 },
      'm:2026-03|p3': { period: 'm:2026-03', promoter_id: 'p3', earnings: 75, conversions: 0 },
    });

    // 007 takes the bots out of clicks; after it the rebuild agrees with every stored figure.
    await migrateToLatest(handle, timeZone);
    expect((await stored(handle)).daily['p1|2026-03-08|k1|l1']).toMatchObject({ clicks: 2, bot_clicks: 1 });
    const check = await rebuildRollups(handle.db, handle.dialect, timeZone, { apply: false });
    expect(check.scanned).toEqual({ clicks: 10, conversions: 5, commissions: 10 });
    expect(check.differences).toEqual([]);
  });

  it('counts days in the installation’s zone (Shanghai) and agrees with the rebuild after the latest migration', async () => {
    const timeZone = 'Asia/Shanghai';
    const { handle, after005 } = await filledBy005(timeZone);
    // 04:59:59.999 UTC on the 8th is 12:59 on the 8th in Shanghai: the late visits of the 7th in New York move a day on.
    expect(after005.daily['p1|2026-03-08|k1|l1']).toMatchObject({ clicks: 5, unique_clicks: 2, bot_clicks: 2, leads: 1, sales: 1 });
    await migrateToLatest(handle, timeZone);
    expect((await rebuildRollups(handle.db, handle.dialect, timeZone, { apply: false })).differences).toEqual([]);
  });

  it('leaves the tables empty on an installation with no rows', async () => {
    const handle = await openFresh();
    await migrateTo(handle, '004-withdrawals', 'UTC');
    await migrateTo(handle, '005-stats', 'UTC');
    expect(await stored(handle)).toEqual({ daily: {}, periods: {} });
  });
});
