import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sniffImage } from '../src/domain/image-sniff';
import { availableAt } from '../src/domain/commission';
import { checkLedger } from '../src/platform/ledger';
import { rebuildRollups } from '../src/platform/rollups-rebuild';
import { dayKey } from '../src/platform/time';
import { seedDemo } from '../src/seed-demo';
import { Client, DIALECTS, makeEnv, type TestEnv } from './helpers';

const DAY = 86_400_000;

describe.each(DIALECTS)('the demo data on %s', (dialect) => {
  let env: TestEnv;
  let accounts: { account: string; password: string; role: string }[];
  let before: number;
  let after: number;

  beforeAll(async () => {
    env = await makeEnv(dialect);
    before = Date.now();
    accounts = (await seedDemo(env.ctx))!;
    after = Date.now();
  }, 120_000);
  afterAll(() => env.close());

  it('balances: the ledger check finds nothing, and rebuilding the rollups from the rows finds no difference', async () => {
    expect(await checkLedger(env.ctx.db)).toEqual([]);
    const report = await rebuildRollups(env.ctx.db, env.dialect, env.ctx.config.timeZone, { apply: false });
    expect(report.differences).toEqual([]);
    expect(report.scanned.clicks).toBeGreaterThan(300);
    expect(report.scanned.commissions).toBeGreaterThan(10);
  });

  it('dates are true: journals at their event’s time, approvals after the hold, nothing in the future', async () => {
    const db = env.ctx.db;
    const campaign = await db.selectFrom('campaigns').select(['hold_days']).executeTakeFirstOrThrow();
    const commissions = await db.selectFrom('commissions').selectAll().execute();
    const journals = await db.selectFrom('ledger_journals').select(['kind', 'ref_type', 'ref_id', 'at']).execute();
    const journal = (kind: string, refId: string) => journals.filter((j) => j.kind === kind && j.ref_id === refId).map((j) => Number(j.at));
    for (const c of commissions) {
      const occurred = Number(c.occurred_at);
      // Recorded minutes after the sale, not at the moment of seeding.
      expect(Number(c.created_at) - occurred).toBeGreaterThanOrEqual(0);
      expect(Number(c.created_at) - occurred).toBeLessThan(3_600_000);
      expect(journal('commission_created', c.id)).toEqual([Number(c.created_at)]);
      expect(Number(c.available_at)).toBe(availableAt(occurred, Number(campaign.hold_days)));
      if (c.status === 'approved') {
        expect(Number(c.decided_at)).toBeGreaterThanOrEqual(Number(c.available_at));
        expect(Number(c.decided_at) - Number(c.available_at)).toBeLessThan(3_600_000);
        expect(journal('commission_approved', c.id)).toEqual([Number(c.decided_at)]);
      }
      // The scheduler's pass left nothing due.
      if (c.status === 'pending') expect(Number(c.available_at)).toBeGreaterThan(before);
    }
    expect(new Set(commissions.map((c) => c.status))).toEqual(new Set(['pending', 'approved', 'reversed']));
    expect(new Set(commissions.map((c) => dayKey(Number(c.created_at), 'UTC'))).size).toBeGreaterThan(10);
    // Withdrawals: each step's journal at the step's time, in order.
    const withdrawals = await db.selectFrom('withdrawals').selectAll().execute();
    expect(new Set(withdrawals.map((w) => w.status))).toEqual(new Set(['paid', 'approved', 'requested']));
    for (const w of withdrawals) {
      expect(journal('withdrawal_requested', w.id)).toEqual([Number(w.requested_at)]);
      if (w.decided_at !== null) expect(journal('withdrawal_approved', w.id)).toEqual([Number(w.decided_at)]);
      if (w.paid_at !== null) {
        expect(journal('withdrawal_paid', w.id)).toEqual([Number(w.paid_at)]);
        expect(Number(w.paid_at)).toBeGreaterThan(Number(w.decided_at));
      }
    }
    // Nothing dated after the seeding ended.
    const latest = async (table: 'ledger_journals' | 'clicks' | 'notifications' | 'conversions' | 'audit_entries', column: 'at' | 'created_at' | 'received_at') =>
      Number((await db.selectFrom(table).select((eb) => eb.fn.max(column).as('m')).executeTakeFirstOrThrow()).m);
    for (const [table, column] of [['ledger_journals', 'at'], ['clicks', 'at'], ['notifications', 'created_at'], ['conversions', 'received_at'], ['audit_entries', 'at']] as const) {
      expect(await latest(table, column), table).toBeLessThanOrEqual(after);
    }
    const users = await db.selectFrom('users').select(['created_at', 'display_name']).execute();
    expect(Math.max(...users.map((u) => Number(u.created_at)))).toBeLessThan(before - 20 * DAY);
  });

  it('links have a month of visits: several days, people and a few bots, some coming back; sales follow a visit', async () => {
    const clicks = await env.ctx.db.selectFrom('clicks').select(['at', 'is_bot', 'is_unique', 'link_id']).execute();
    expect(new Set(clicks.map((c) => dayKey(Number(c.at), 'UTC'))).size).toBeGreaterThanOrEqual(25);
    expect(Math.min(...clicks.map((c) => Number(c.at)))).toBeLessThan(before - 25 * DAY);
    const bots = clicks.filter((c) => Number(c.is_bot) === 1).length;
    expect(bots).toBeGreaterThan(0);
    expect(bots).toBeLessThan(clicks.length / 10);
    const uniques = clicks.filter((c) => Number(c.is_unique) === 1).length;
    expect(uniques).toBeLessThan(clicks.length - bots);
    expect(new Set(clicks.map((c) => c.link_id)).size).toBe(5);
    const byClick = await env.ctx.db.selectFrom('conversions').select('attributed_by').where('kind', '=', 'sale').execute();
    expect(byClick.filter((c) => c.attributed_by === 'click').length).toBeGreaterThan(byClick.length / 2);

    // The promoter sees it: Lin's link stats have clicks on most of the last 30 days.
    const lin = accounts.find((a) => a.account === 'lin@demo.example')!;
    const client = new Client(env.app);
    expect((await client.login(lin.account, lin.password)).statusCode).toBe(200);
    const links = (await client.request('GET', '/api/links')).json().items as { id: string }[];
    expect(links).toHaveLength(2);
    const stats = (await client.request('GET', `/api/links/${links[0]!.id}/stats`)).json();
    expect(stats.days.filter((d: { clicks: number }) => d.clicks > 0).length).toBeGreaterThanOrEqual(20);
    const team = await client.request('GET', '/api/team');
    expect(team.statusCode, team.body).toBe(200);
  });

  it('the campaign has a cover and a poster template stored like uploads; announcements and notifications; everything named demo', async () => {
    const db = env.ctx.db;
    const campaign = await db.selectFrom('campaigns').select(['cover_image_id', 'names_json']).executeTakeFirstOrThrow();
    const images = await db.selectFrom('campaign_images').select(['id', 'kind', 'data', 'content_type', 'width', 'height']).execute();
    expect(images.map((i) => i.kind).sort()).toEqual(['cover', 'poster']);
    for (const i of images) expect(sniffImage(Buffer.from(i.data))).toEqual({ contentType: i.content_type, width: Number(i.width), height: Number(i.height) });
    expect(images.find((i) => i.kind === 'cover')!.id).toBe(campaign.cover_image_id);
    expect(images.find((i) => i.kind === 'poster')).toMatchObject({ width: 750, height: 1334 });
    for (const name of Object.values(JSON.parse(campaign.names_json) as Record<string, string>)) expect(name).toMatch(/demo|演示|示範|démo/i);
    for (const u of await db.selectFrom('users').select('display_name').execute()) expect(u.display_name).toMatch(/demo/i);
    expect((await db.selectFrom('announcements').select('id').where('status', '=', 'published').execute()).length).toBe(2);
    const notes = await db.selectFrom('notifications').select(['read_at', 'type']).execute();
    expect(new Set(notes.map((n) => n.type))).toContain('withdrawal.paid');
    expect(notes.some((n) => n.read_at === null) && notes.some((n) => n.read_at !== null)).toBe(true);
    // A second start adds nothing.
    expect(await seedDemo(env.ctx)).toBeNull();
  });
});
