import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../src/platform/ids';
import { dayKey } from '../src/platform/time';
import { rebuildRollups } from '../src/platform/rollups-rebuild';
import { ranking } from '../src/modules/stats/service';
import { agoToday, campaignBody, Client, DIALECTS, errorCode, makeEnv, signedIn, type TestEnv } from './helpers';

const DAY = 86_400_000;
const TZ = 'Asia/Shanghai'; // UTC+8, no daylight saving
const shift = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY).toISOString().slice(0, 10);
/** An instant at local (UTC+8) wall-clock time on a day. */
const local = (day: string, time: string) => Date.parse(`${day}T${time}:00+08:00`);

describe.each(DIALECTS)('figures, team and leaderboard on %s', (dialect) => {
  let env: TestEnv;
  let admin: Client;
  let operator: Client;
  let secret: string;
  let campaignId: string;
  let seq = 0;
  const today = () => dayKey(Date.now(), TZ);
  const ago = (ms: number) => agoToday(ms, TZ);

  const post = (body: Record<string, unknown>) => env.app.inject({ method: 'POST', url: '/api/v1/conversions', headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }, payload: JSON.stringify({ campaignId, ...body }) });
  const sale = async (code: string, amount: number, occurredAt: number) => {
    const res = await post({ kind: 'sale', externalId: `s-${seq++}-${Date.now()}`, amount, linkCode: code, occurredAt });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { commissions: { id: string; level: number; amount: number }[] };
  };
  const lead = async (code: string, occurredAt: number) => expect((await post({ kind: 'lead', externalId: `l-${seq++}-${Date.now()}`, linkCode: code, occurredAt })).statusCode).toBe(201);

  /** Clicks through the real click writer (the redirect's path), at chosen instants. */
  async function clicks(link: { id: string; promoterId: string }, times: number[], options: { bot?: boolean; sameVisitor?: boolean } = {}) {
    for (const at of times) {
      env.ctx.clicks.push({ id: newId(at), linkId: link.id, campaignId, promoterId: link.promoterId, at, visitorHash: options.sameVisitor ? 'v-same' : `v-${seq++}`, bot: !!options.bot, device: 'mobile', referrerHost: null, attributed: true });
    }
    await env.ctx.clicks.flush();
  }

  async function promoter(parentId: string | null = null, name?: string) {
    const { client, user } = await signedIn(env, 'promoter');
    if (parentId) await env.ctx.db.updateTable('users').set({ parent_id: parentId }).where('id', '=', user.id).execute();
    if (name) await env.ctx.db.updateTable('users').set({ display_name: name }).where('id', '=', user.id).execute();
    expect((await client.request('POST', `/api/campaigns/${campaignId}/join`)).statusCode).toBeLessThan(300);
    const link = ((await client.request('GET', '/api/links')).json().items as { id: string; code: string; campaignId: string }[]).find((l) => l.campaignId === campaignId)!;
    return { client, user, link: { ...link, promoterId: user.id } };
  }
  const get = async (client: Client, url: string) => {
    const res = await client.request('GET', url);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  beforeAll(async () => {
    env = await makeEnv(dialect, { timeZone: TZ });
    admin = (await signedIn(env, 'admin')).client;
    operator = (await signedIn(env, 'operator')).client;
    secret = (await admin.request('POST', '/api/admin/api-keys', { name: 'Shop', scopes: ['conversions:write'] })).json().secret;
    // 10% of the sale, 10% override, a 0.50 lead reward; manual approval so the test decides.
    campaignId = (await admin.request('POST', '/api/admin/campaigns', campaignBody({ holdDays: 7, overrideBps: 1000, leadReward: 50, saleReward: 1000, approvalMode: 'manual' }))).json().campaign.id;
    await admin.request('PATCH', `/api/admin/campaigns/${campaignId}`, { status: 'active' });
  });
  afterAll(async () => {
    await env?.close();
  });

  it('answers every range with its previous period, from the rollups', async () => {
    const p = await promoter();
    const t = today();
    const now = Date.now();
    // Clicks: 3 today (2 from one visitor: 1 unique of them), 1 yesterday, 2 five days ago, 1 twenty days ago, 1 forty days ago;
    // and a bot today, which no figure counts as a click.
    await clicks(p.link, [ago(1000), ago(2000)], { sameVisitor: true });
    await clicks(p.link, [ago(3000)]);
    await clicks(p.link, [ago(4000)], { bot: true });
    await clicks(p.link, [now - DAY]);
    await clicks(p.link, [now - 5 * DAY, now - 5 * DAY]);
    await clicks(p.link, [now - 20 * DAY]);
    await clicks(p.link, [now - 40 * DAY]);
    // Sales: 100.00 today, 50.00 yesterday, 30.00 twenty days ago; a lead today.
    await sale(p.link.code, 10_000, ago(60_000));
    await sale(p.link.code, 5_000, now - DAY);
    await sale(p.link.code, 3_000, now - 20 * DAY);
    await lead(p.link.code, ago(120_000));

    const todayFig = await get(p.client, '/api/stats/summary?range=today');
    expect(todayFig.period).toEqual({ from: t, to: t, days: 1 });
    expect(todayFig.previousPeriod).toEqual({ from: shift(t, -1), to: shift(t, -1), days: 1 });
    expect(todayFig.current).toEqual({
      clicks: 3, uniqueClicks: 2, leads: 1, sales: 1, saleAmount: 10_000, refundAmount: 0,
      commission: { pending: 1_050, approved: 0, rejected: 0, reversed: 0 }, earnings: 1_050,
      conversionRate: 1, epc: 350, // 1050 / 3 people's clicks
    });
    expect(todayFig.previous).toMatchObject({ clicks: 1, uniqueClicks: 1, sales: 1, saleAmount: 5_000, earnings: 500 });
    expect(todayFig.currency).toBe('CNY');

    const yesterday = await get(p.client, '/api/stats/summary?range=yesterday');
    expect(yesterday.period.from).toBe(shift(t, -1));
    expect(yesterday.current).toMatchObject({ clicks: 1, sales: 1, earnings: 500 });
    expect(yesterday.previous).toMatchObject({ clicks: 0, sales: 0, earnings: 0, conversionRate: 0, epc: 0 });

    const week = await get(p.client, '/api/stats/summary?range=7d');
    expect(week.period).toEqual({ from: shift(t, -6), to: t, days: 7 });
    expect(week.previousPeriod).toEqual({ from: shift(t, -13), to: shift(t, -7), days: 7 });
    expect(week.current).toMatchObject({ clicks: 6, uniqueClicks: 5, leads: 1, sales: 2, saleAmount: 15_000, earnings: 1_550 });
    expect(week.previous.clicks).toBe(0);

    const month30 = await get(p.client, '/api/stats/summary?range=30d');
    expect(month30.current).toMatchObject({ clicks: 7, sales: 3, saleAmount: 18_000, earnings: 1_850 });
    expect(month30.previous).toMatchObject({ clicks: 1, sales: 0 });
    expect(month30.previousPeriod).toEqual({ from: shift(t, -59), to: shift(t, -30), days: 30 });

    // This month: compared with the same days of the previous month.
    const month = await get(p.client, '/api/stats/summary?range=month');
    expect(month.period.from).toBe(`${t.slice(0, 7)}-01`);
    expect(month.previousPeriod.from).toBe(`${shift(`${t.slice(0, 7)}-01`, -1).slice(0, 7)}-01`);
    const inMonth = (ms: number) => dayKey(ms, TZ) >= `${t.slice(0, 7)}-01`;
    const clickTimes = [ago(1000), ago(2000), ago(3000), now - DAY, now - 5 * DAY, now - 5 * DAY, now - 20 * DAY, now - 40 * DAY];
    expect(month.current.clicks).toBe(clickTimes.filter(inMonth).length);

    const custom = await get(p.client, `/api/stats/summary?from=${shift(t, -40)}&to=${shift(t, -20)}`);
    expect(custom.range).toBe('custom');
    expect(custom.period.days).toBe(21);
    expect(custom.current).toMatchObject({ clicks: 2, sales: 1, saleAmount: 3_000 });

    // The time series: one point per day, zeros included.
    const series = await get(p.client, '/api/stats/timeseries?range=7d&metric=clicks');
    expect(series.points.map((x: { value: number }) => x.value)).toEqual([0, 2, 0, 0, 0, 1, 3]);
    expect(series.points[6].day).toBe(t);
    const money = await get(p.client, '/api/stats/timeseries?range=7d&metric=saleAmount');
    expect(money.points.map((x: { value: number }) => x.value)).toEqual([0, 0, 0, 0, 0, 5_000, 10_000]);
    expect((await get(p.client, '/api/stats/timeseries?range=today&metric=conversionRate')).points).toEqual([{ day: t, value: 1 }]);

    // Approval moves the money between status columns, without changing earnings.
    const pending = (await get(p.client, '/api/commissions?status=pending')).items as { id: string; amount: number }[];
    const big = pending.find((c) => c.amount === 1_000)!;
    expect((await operator.request('POST', `/api/admin/commissions/${big.id}/approve`)).statusCode).toBe(200);
    const after = await get(p.client, '/api/stats/summary?range=today');
    expect(after.current.commission).toEqual({ pending: 50, approved: 1_000, rejected: 0, reversed: 0 });
    expect(after.current.earnings).toBe(1_050);

    // A refund of half of today's sale: refunded amount on the sale's day, half the commission reversed.
    const refund = await post({ kind: 'refund', externalId: `r-${seq++}`, amount: 5_000, refundOf: (await env.ctx.db.selectFrom('conversions').select('external_id').where('promoter_id', '=', p.user.id).where('amount', '=', 10_000).executeTakeFirstOrThrow()).external_id });
    expect(refund.statusCode, refund.body).toBe(201);
    const refunded = await get(p.client, '/api/stats/summary?range=today');
    expect(refunded.current).toMatchObject({ saleAmount: 10_000, refundAmount: 5_000, earnings: 550, commission: { pending: 50, approved: 500, rejected: 0, reversed: 500 } });

    // Breakdowns and Home's overview.
    const byLink = await get(p.client, '/api/stats/breakdown?range=30d&by=link');
    expect(byLink.items).toHaveLength(1);
    expect(byLink.items[0]).toMatchObject({ key: p.link.id, code: p.link.code, name: 'Summer Tea' });
    const byCampaign = await get(p.client, '/api/stats/breakdown?range=30d&by=campaign');
    expect(byCampaign.items[0]).toMatchObject({ key: campaignId, name: 'Summer Tea', figures: { clicks: 7, sales: 3 } });
    const zh = await p.client.request('GET', '/api/stats/breakdown?range=30d&by=campaign', undefined, { headers: { 'accept-language': 'zh-CN' } });
    expect(zh.json().items[0].name).toBe('夏日茶饮');
    const byChannel = await get(p.client, '/api/stats/breakdown?range=30d&by=channel');
    expect(byChannel.items).toEqual([expect.objectContaining({ key: '', name: null })]);
    const home = await get(p.client, '/api/stats/overview?range=today');
    expect(home.wallet).toEqual({ available: 500, pending: 850, withdrawing: 0, paidOut: 0 }); // pending: today's lead, yesterday's and the old sale
    expect(home.current.clicks).toBe(3);
    expect(home.series).toHaveLength(7); // a single day is charted as the week up to it
    expect(home.series[6]).toMatchObject({ day: t, clicks: 3, sales: 1, earnings: 550 });
    expect(home.topLinks[0]).toMatchObject({ key: p.link.id, code: p.link.code });
  });

  it('tells a new promoter’s Home which first steps are done: joined, a link, a click (ever, not only in the range)', async () => {
    const { client, user } = await signedIn(env, 'promoter');
    expect((await get(client, '/api/stats/overview?range=today')).firstSteps).toEqual({ joined: false, linked: false, clicked: false });
    expect((await client.request('POST', `/api/campaigns/${campaignId}/join`)).statusCode).toBeLessThan(300);
    // Joining makes the default link.
    expect((await get(client, '/api/stats/overview?range=today')).firstSteps).toEqual({ joined: true, linked: true, clicked: false });
    const link = ((await client.request('GET', '/api/links')).json().items as { id: string }[])[0]!;
    // A bot's visit is not a first click; a person's, long before the range, is.
    await clicks({ id: link.id, promoterId: user.id }, [ago(1000)], { bot: true });
    expect((await get(client, '/api/stats/overview?range=today')).firstSteps.clicked).toBe(false);
    await clicks({ id: link.id, promoterId: user.id }, [Date.now() - 60 * DAY]);
    const home = await get(client, '/api/stats/overview?range=today');
    expect(home.current.clicks).toBe(0); // the bot's is no click, the person's is outside the range
    expect(home.firstSteps).toEqual({ joined: true, linked: true, clicked: true });
  });

  it('puts a click at 23:30 and one at 00:30 local time on different days', async () => {
    const p = await promoter();
    const day = shift(today(), -10);
    const next = shift(day, 1);
    await clicks(p.link, [local(day, '23:30'), local(next, '00:30')]);
    await sale(p.link.code, 2_000, local(day, '23:45'));
    await sale(p.link.code, 4_000, local(next, '00:15'));
    const first = await get(p.client, `/api/stats/summary?from=${day}&to=${day}`);
    const second = await get(p.client, `/api/stats/summary?from=${next}&to=${next}`);
    expect(first.current).toMatchObject({ clicks: 1, sales: 1, saleAmount: 2_000, earnings: 200 });
    expect(second.current).toMatchObject({ clicks: 1, sales: 1, saleAmount: 4_000, earnings: 400 });
    // In UTC both clicks fall on the first day (15:30 and 16:30 UTC) — the rollups follow the installation's zone.
    expect(new Date(local(next, '00:30')).toISOString().slice(0, 10)).toBe(day);
    const series = await get(p.client, `/api/stats/timeseries?from=${day}&to=${next}&metric=earnings`);
    expect(series.points).toEqual([{ day, value: 200 }, { day: next, value: 400 }]);
  });

  it('refuses bad input with the field and a code, and changes nothing', async () => {
    const p = await promoter();
    const t = today();
    const bad = async (url: string, field: string, code?: string) => {
      const res = await p.client.request('GET', url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_FAILED');
      expect(Object.keys(res.json().error.fields ?? {}), url).toContain(field);
      if (code) expect(res.json().error.fields[field]).toBe(code);
    };
    await bad(`/api/stats/summary?from=${t}&to=${shift(t, -1)}`, 'querystring.from', 'after_to');
    await bad(`/api/stats/summary?from=${shift(t, -366)}&to=${t}`, 'querystring.from', 'too_long');
    await bad(`/api/stats/timeseries?range=7d&metric=bounces`, 'querystring.metric');
    await bad(`/api/stats/summary?range=custom&from=${t}`, 'querystring.to', 'required');
    await bad(`/api/stats/summary?range=7d&from=${t}&to=${t}`, 'querystring.range', 'conflict');
    await bad('/api/stats/summary?from=2026-02-30&to=2026-03-01', 'querystring.from', 'invalid');
    await bad('/api/stats/summary?range=fortnight', 'querystring.range');
    await bad('/api/stats/breakdown?range=7d&by=country', 'querystring.by');
    await bad('/api/leaderboard?period=year', 'querystring.period');
    // Asking for someone else's figures is not a parameter that exists.
    await bad(`/api/stats/summary?range=7d&promoterId=${p.user.id}`, 'querystring.promoterId');
    // 366 days is the longest range.
    expect((await p.client.request('GET', `/api/stats/summary?from=${shift(t, -365)}&to=${t}`)).statusCode).toBe(200);
    // Signed out: nothing.
    const anon = await env.app.inject({ method: 'GET', url: '/api/stats/summary?range=7d' });
    expect(anon.statusCode).toBe(401);
    for (const url of ['/api/stats/overview', '/api/team', '/api/leaderboard', '/api/stats/breakdown?by=link']) {
      expect(errorCode(await env.app.inject({ method: 'GET', url }))).toBe('UNAUTHENTICATED');
    }
  });

  it('shows only one’s own figures and one’s own team; direct members by name, second level counted not listed; overrides by member', async () => {
    const inviter = await promoter(null, 'Ines Inviter');
    const a = await promoter(inviter.user.id, 'Wang Xiaoming');
    const b = await promoter(inviter.user.id, 'Li');
    const grandchild = await promoter(a.user.id, 'Gina Grand');
    const stranger = await promoter(null, 'Stan Stranger');
    const now = Date.now();
    await clicks(a.link, [ago(5000)]);
    await sale(a.link.code, 20_000, ago(10_000)); // a earns 20.00, inviter 2.00
    await sale(a.link.code, 10_000, now - 40 * DAY); // old: counts in totals, not this month (40 days ago is always last month or earlier)
    await sale(grandchild.link.code, 10_000, ago(10_000)); // a earns 1.00 override; nothing for inviter (two levels at most)
    await sale(stranger.link.code, 50_000, ago(10_000));

    const team = await get(inviter.client, '/api/team');
    expect(team.counts).toEqual({ direct: 2, active: 1, secondLevel: 1 });
    // Issue 28: the inviter sees the names of those they invited in full (not "W********g").
    expect(team.members.map((m: { name: string }) => m.name).sort()).toEqual(['Li', 'Wang Xiaoming']);
    const wang = team.members.find((m: { id: string }) => m.id === a.user.id);
    expect(wang).toMatchObject({ active: true, overrideTotal: 300, overrideThisMonth: 200 });
    expect(team.members.find((m: { id: string }) => m.id === b.user.id)).toMatchObject({ active: false, overrideTotal: 0 });
    expect(JSON.stringify(team)).not.toContain('Gina');
    expect(JSON.stringify(team)).not.toContain('G********d');
    expect(JSON.stringify(await get(stranger.client, '/api/team'))).not.toContain('Wang');
    expect(team.thisMonth).toMatchObject({ sales: 1, saleAmount: 20_000, override: 200 });
    expect(team.overrideTotal).toBe(300);
    expect(team.inviteCode).toMatch(/^[0-9A-Z]{8}$/);
    // Pages of one.
    const first = await get(inviter.client, '/api/team?limit=1');
    expect(first.members).toHaveLength(1);
    const second = await get(inviter.client, `/api/team?limit=1&cursor=${first.nextCursor}`);
    expect(second.members).toHaveLength(1);
    expect(second.members[0].id).not.toBe(first.members[0].id);
    expect(second.nextCursor).toBeNull();

    // The inviter's own figures: only the overrides, under the team key; nobody else's sales.
    const mine = await get(inviter.client, '/api/stats/summary?range=today');
    expect(mine.current).toMatchObject({ clicks: 0, sales: 0, saleAmount: 0, earnings: 200 });
    const links = await get(inviter.client, '/api/stats/breakdown?range=today&by=link');
    expect(links.items).toEqual([expect.objectContaining({ key: '@team', code: null, figures: expect.objectContaining({ earnings: 200 }) })]);
    const strangerTeam = await get(stranger.client, '/api/team');
    expect(strangerTeam.counts).toEqual({ direct: 0, active: 0, secondLevel: 0 });
    expect(strangerTeam.members).toEqual([]);
    expect((await get(stranger.client, '/api/stats/summary?range=today')).current.saleAmount).toBe(50_000);
    // A second-level member's sale shows on the member's own figures, as their override.
    expect((await get(a.client, '/api/stats/summary?range=today')).current).toMatchObject({ sales: 1, earnings: 2_100 });
  });

  it('ranks this week and month by earnings or conversions, others masked (letters only), the viewer by name with their rank; opt-out and the admin switch', async () => {
    const top = await promoter(null, 'Tina (Top)!');
    const viewer = await promoter(null, 'Vic Viewer');
    await sale(top.link.code, 900_000, ago(1000));
    await sale(viewer.link.code, 1_000, ago(1000));
    await lead(viewer.link.code, ago(1000));
    await lead(viewer.link.code, ago(1000));

    const board = await get(viewer.client, '/api/leaderboard?period=week&by=earnings');
    expect(board.enabled).toBe(true);
    expect(board.entries[0]).toMatchObject({ rank: 1, name: 'T*****p', value: 90_000, me: false });
    const mine = board.entries.find((e: { me: boolean }) => e.me);
    // The viewer's own row beside "You": their own name, nothing to hide from themselves.
    expect(mine).toMatchObject({ name: 'Vic Viewer', value: 200 });
    expect(board.entries.filter((e: { name: string }) => e.name === 'Vic Viewer')).toHaveLength(1);
    expect(board.me).toMatchObject({ rank: mine.rank, value: 200, optedOut: false });
    expect(JSON.stringify(board)).not.toContain('Tina');
    const ranks = board.entries.map((e: { rank: number }) => e.rank);
    expect([...ranks].sort((x, y) => x - y)).toEqual(ranks);
    expect(board.from <= today() && today() <= board.to).toBe(true);

    const byConversions = await get(viewer.client, '/api/leaderboard?period=month&by=conversions');
    const meC = byConversions.entries.find((e: { me: boolean }) => e.me);
    expect(meC.value).toBe(3);
    expect(byConversions.entries.findIndex((e: { me: boolean }) => e.me)).toBeLessThan(byConversions.entries.findIndex((e: { name: string }) => e.name === 'T*****p'));

    // Opting out: off the board at once, own rank null, own figure still shown.
    expect((await viewer.client.request('PATCH', '/api/me', { leaderboardOptOut: true })).json().user.leaderboardOptOut).toBe(true);
    const out = await get(viewer.client, '/api/leaderboard?period=week&by=earnings');
    expect(out.entries.some((e: { me: boolean }) => e.me)).toBe(false);
    expect(out.me).toEqual({ rank: null, value: 200, optedOut: true });
    await viewer.client.request('PATCH', '/api/me', { leaderboardOptOut: false });

    // The ranking is kept for a minute, then recomputed in the background while the last one is served.
    const kept = await ranking(env.ctx, 'week', 'earnings');
    const newcomer = await promoter(null, 'Nora Newcomer');
    await sale(newcomer.link.code, 2_000_000, ago(1000));
    expect((await ranking(env.ctx, 'week', 'earnings')).rankOf.has(newcomer.user.id)).toBe(false);
    expect(await ranking(env.ctx, 'week', 'earnings', kept.at + 61_000)).toBe(kept);
    await new Promise((r) => setTimeout(r, 300));
    const fresh = await ranking(env.ctx, 'week', 'earnings');
    expect(fresh.at).toBeGreaterThan(kept.at);
    expect(fresh.top[0]).toMatchObject({ promoterId: newcomer.user.id, rank: 1, value: 200_000 });

    // An admin turns it off: no entries for anyone. Operators cannot change settings.
    expect(errorCode(await operator.request('PATCH', '/api/admin/settings', { leaderboardEnabled: false }))).toBe('FORBIDDEN');
    expect((await admin.request('PATCH', '/api/admin/settings', { leaderboardEnabled: false })).statusCode).toBe(200);
    const off = await get(viewer.client, '/api/leaderboard');
    expect(off).toMatchObject({ enabled: false, entries: [] });
    expect((await admin.request('PATCH', '/api/admin/settings', { leaderboardEnabled: true })).statusCode).toBe(200);
    expect((await get(viewer.client, '/api/leaderboard')).enabled).toBe(true);
  });

  it('the rebuild recomputes every rollup from the rows: no difference, and a tampered one is found and repaired', async () => {
    await env.ctx.clicks.flush();
    // Pages of 3 rows: the keyset walk over every table is exercised too.
    const clean = await rebuildRollups(env.ctx.db, env.ctx.dialect, TZ, { apply: false, page: 3 });
    expect(clean.scanned.clicks).toBeGreaterThan(10);
    expect(clean.scanned.commissions).toBeGreaterThan(5);
    expect(clean.differences).toEqual([]);
    const row = await env.ctx.db.selectFrom('daily_stats').selectAll().where('sales', '>', 0).limit(1).executeTakeFirstOrThrow();
    await env.ctx.db.updateTable('daily_stats').set({ sales: Number(row.sales) + 5 }).where('promoter_id', '=', row.promoter_id).where('day', '=', row.day).where('campaign_id', '=', row.campaign_id).where('link_id', '=', row.link_id).execute();
    await env.ctx.db.deleteFrom('period_stats').where('promoter_id', '=', row.promoter_id).execute();
    const found = await rebuildRollups(env.ctx.db, env.ctx.dialect, TZ, { apply: true });
    expect(found.differences).toContainEqual({ table: 'daily_stats', key: `${row.promoter_id}|${row.day}|${row.campaign_id}|${row.link_id}`, column: 'sales', stored: Number(row.sales) + 5, computed: Number(row.sales) });
    expect(found.differences.some((d) => d.table === 'period_stats' && d.key.endsWith(row.promoter_id))).toBe(true);
    expect(found.applied).toBe(true);
    expect((await rebuildRollups(env.ctx.db, env.ctx.dialect, TZ, { apply: false, page: 3 })).differences).toEqual([]);
    expect((await rebuildRollups(env.ctx.db, env.ctx.dialect, TZ, { apply: false })).differences).toEqual([]);
  });
});
