import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '../src/platform/ledger';
import { newId } from '../src/platform/ids';
import { rebuildRollups } from '../src/platform/rollups-rebuild';
import { applyRollups, Rollups } from '../src/platform/rollups';
import { topPromoters } from '../src/modules/overview/service';
import { dayKey } from '../src/platform/time';
import { agoToday, campaignBody, Client, createUser, DIALECTS, errorCode, makeEnv, signedIn, type TestEnv } from './helpers';

const DAY = 86_400_000;
const TZ = 'Asia/Shanghai';
const shift = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY).toISOString().slice(0, 10);

describe.each(DIALECTS)('the operator overview on %s', (dialect) => {
  let env: TestEnv;
  let admin: Client;
  let operator: Client;
  let secret: string;
  let campaignId: string;
  let seq = 0;
  const ids = { p1: '', p2: '', paid: '' };
  const today = () => dayKey(Date.now(), TZ);
  const ago = (ms: number) => agoToday(ms, TZ);

  const post = (body: Record<string, unknown>) => env.app.inject({ method: 'POST', url: '/api/v1/conversions', headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }, payload: JSON.stringify({ campaignId, ...body }) });
  const convert = async (body: Record<string, unknown>) => {
    const res = await post(body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { commissions: { id: string; amount: number }[] };
  };
  async function clicks(link: { id: string; promoterId: string }, times: number[], options: { bot?: boolean; sameVisitor?: boolean } = {}) {
    for (const at of times) {
      env.ctx.clicks.push({ id: newId(at), linkId: link.id, campaignId, promoterId: link.promoterId, at, visitorHash: options.sameVisitor ? 'v-same' : `v-${seq++}`, bot: !!options.bot, device: 'mobile', referrerHost: null, attributed: true });
    }
    await env.ctx.clicks.flush();
  }
  async function promoter(name: string, campaign = campaignId) {
    const { client, user } = await signedIn(env, 'promoter');
    await env.ctx.db.updateTable('users').set({ display_name: name }).where('id', '=', user.id).execute();
    expect((await client.request('POST', `/api/campaigns/${campaign}/join`)).statusCode).toBeLessThan(300);
    const link = ((await client.request('GET', '/api/links')).json().items as { id: string; code: string; campaignId: string }[]).find((l) => l.campaignId === campaign);
    return { client, user, link: link ? { ...link, promoterId: user.id } : null };
  }
  const overview = async (client: Client, query: string) => {
    const res = await client.request('GET', `/api/admin/overview${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  beforeAll(async () => {
    env = await makeEnv(dialect, { timeZone: TZ });
    admin = (await signedIn(env, 'admin')).client;
    operator = (await signedIn(env, 'operator')).client;
    secret = (await admin.request('POST', '/api/admin/api-keys', { name: 'Shop', scopes: ['conversions:write'] })).json().secret;
    // 10 % of each sale, a 0.50 lead reward, approved by hand.
    campaignId = (await admin.request('POST', '/api/admin/campaigns', campaignBody({ holdDays: 7, overrideBps: 0, leadReward: 50, saleReward: 1000, approvalMode: 'manual' }))).json().campaign.id;
    await admin.request('PATCH', `/api/admin/campaigns/${campaignId}`, { status: 'active' });

    const now = Date.now();
    const p1 = await promoter('Ada Seller');
    const p2 = await promoter('Bo Builder');
    ids.p1 = p1.user.id;
    ids.p2 = p2.user.id;
    // Clicks: p1 three today (two from one visitor), a bot today, two eight days ago; p2 one today.
    await clicks(p1.link!, [ago(1000), ago(2000)], { sameVisitor: true });
    await clicks(p1.link!, [ago(3000)]);
    await clicks(p1.link!, [ago(4000)], { bot: true });
    await clicks(p1.link!, [now - 8 * DAY, now - 8 * DAY]);
    await clicks(p2.link!, [ago(5000)]);
    // p1: 100.00 today (40.00 refunded), a lead today (rejected), 30.00 ten days ago. p2: 500.00 two days ago (approved).
    const s1 = await convert({ kind: 'sale', externalId: 's1', amount: 10_000, linkCode: p1.link!.code, occurredAt: ago(60_000) });
    await convert({ kind: 'refund', externalId: 's1-r', refundOf: 's1', amount: 4_000 });
    const l1 = await convert({ kind: 'lead', externalId: 'l1', linkCode: p1.link!.code, occurredAt: ago(120_000) });
    await convert({ kind: 'sale', externalId: 's0', amount: 3_000, linkCode: p1.link!.code, occurredAt: now - 10 * DAY });
    const s2 = await convert({ kind: 'sale', externalId: 's2', amount: 50_000, linkCode: p2.link!.code, occurredAt: now - 2 * DAY });
    expect(s1.commissions[0]!.amount).toBe(1_000);
    expect((await operator.request('POST', `/api/admin/commissions/${l1.commissions[0]!.id}/reject`, { reason: 'duplicate' })).statusCode).toBe(200);
    expect((await operator.request('POST', `/api/admin/commissions/${s2.commissions[0]!.id}/approve`)).statusCode).toBe(200);

    // p2 withdraws three times: 15.00 paid, 12.00 approved (to pay), 11.00 requested (to approve).
    const account = await p2.client.request('POST', '/api/payout-accounts', { method: 'bank', holderName: 'Bo', accountNumber: await p2.client.seal('6222021234567890') });
    expect(account.statusCode, account.body).toBe(201);
    const payoutAccountId = account.json().payoutAccount.id;
    const withdraw = async (amount: number) => {
      const res = await p2.client.request('POST', '/api/withdrawals', { amount, payoutAccountId }, { headers: { 'idempotency-key': `w-${amount}` } });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().withdrawal.id as string;
    };
    ids.paid = await withdraw(1_500);
    const toPay = await withdraw(1_200);
    await withdraw(1_100);
    for (const [id, action, body] of [[ids.paid, 'approve'], [ids.paid, 'pay', { reference: 'BANK-1' }], [toPay, 'approve']] as const) {
      const res = await operator.request('POST', `/api/admin/withdrawals/${id}/${action}`, body);
      expect(res.statusCode, res.body).toBe(200);
    }

    // The work queue: a registration waiting, an enrollment waiting.
    await createUser(env.ctx, 'promoter', 'Passw0rd-test', 'pending');
    const byApproval = (await admin.request('POST', '/api/admin/campaigns', campaignBody({ joinMode: 'approval' }))).json().campaign.id;
    await admin.request('PATCH', `/api/admin/campaigns/${byApproval}`, { status: 'active' });
    await promoter('Cy Waiting', byApproval);
    // New promoters: p1, Cy and the one waiting registered today; p2 nine days ago (the week before); staff are not counted.
    await env.ctx.db.updateTable('users').set({ created_at: now - 9 * DAY }).where('id', '=', ids.p2).execute();
  });
  afterAll(async () => {
    await env?.close();
  });

  it('adds up what was put in, for the range and the period before it', async () => {
    const t = today();
    const week = await overview(admin, '?range=7d');
    expect(week).toMatchObject({ currency: 'CNY', timeZone: TZ, range: '7d' });
    expect(week.period).toEqual({ from: shift(t, -6), to: t, days: 7 });
    expect(week.previousPeriod).toEqual({ from: shift(t, -13), to: shift(t, -7), days: 7 });
    expect(week.current).toEqual({
      clicks: 4, uniqueClicks: 3, leads: 1, sales: 2, saleAmount: 60_000, refundAmount: 4_000,
      commission: { pending: 600, approved: 5_000, rejected: 50, reversed: 400 },
      paidOut: 1_500,
      newPromoters: 3,
    });
    expect(week.previous).toEqual({
      clicks: 2, uniqueClicks: 2, leads: 0, sales: 1, saleAmount: 3_000, refundAmount: 0,
      commission: { pending: 300, approved: 0, rejected: 0, reversed: 0 },
      paidOut: 0,
      newPromoters: 1,
    });
    // Owed now: p2's 50.00 minus 38.00 withdrawn is available; 11.00 requested plus 12.00 approved are on their way.
    expect(week.liability).toEqual({ available: 1_200, withdrawing: 2_300, total: 3_500 });
    expect(week.workQueue).toEqual({ registrations: 1, enrollments: 1, commissions: 2, withdrawalsToApprove: 1, withdrawalsToPay: 1 });

    // Every day of the range, zeros included.
    expect(week.trend.map((d: { day: string }) => d.day)).toEqual(Array.from({ length: 7 }, (_, i) => shift(t, i - 6)));
    expect(week.trend.map((d: { clicks: number }) => d.clicks)).toEqual([0, 0, 0, 0, 0, 0, 4]);
    expect(week.trend.map((d: { saleAmount: number }) => d.saleAmount)).toEqual([0, 0, 0, 0, 50_000, 0, 10_000]);
    expect(week.trend[6]).toEqual({ day: t, clicks: 4, uniqueClicks: 3, leads: 1, sales: 1, saleAmount: 10_000, commission: 600 });

    expect(week.topCampaigns).toEqual([{ id: campaignId, name: 'Summer Tea', account: null, clicks: 4, sales: 2, saleAmount: 60_000, commission: 5_600 }]);
    expect(week.topPromoters).toEqual([
      expect.objectContaining({ id: ids.p2, name: 'Bo Builder', clicks: 1, sales: 1, saleAmount: 50_000, commission: 5_000 }),
      expect.objectContaining({ id: ids.p1, name: 'Ada Seller', clicks: 3, sales: 1, saleAmount: 10_000, commission: 600 }),
    ]);

    const day = await overview(operator, '?range=today');
    expect(day.period).toEqual({ from: t, to: t, days: 1 });
    expect(day.current).toMatchObject({ clicks: 4, sales: 1, saleAmount: 10_000, paidOut: 1_500, newPromoters: 3 });
    expect(day.trend).toHaveLength(1);
    expect(day.topPromoters.map((p: { id: string }) => p.id)).toEqual([ids.p1]);

    const thirty = await overview(admin, '?range=30d');
    expect(thirty.current).toMatchObject({ clicks: 6, sales: 3, saleAmount: 63_000, commission: { pending: 900, approved: 5_000, rejected: 50, reversed: 400 } });
    expect(thirty.trend).toHaveLength(30);

    const month = await overview(admin, '?range=month');
    expect(month.period.from).toBe(`${t.slice(0, 7)}-01`);

    // A custom range: the previous period is as long, just before.
    const custom = await overview(admin, `?from=${shift(t, -12)}&to=${shift(t, -8)}`);
    expect(custom).toMatchObject({ range: 'custom', period: { from: shift(t, -12), to: shift(t, -8), days: 5 }, previousPeriod: { from: shift(t, -17), to: shift(t, -13), days: 5 } });
    expect(custom.current).toMatchObject({ clicks: 2, sales: 1, saleAmount: 3_000, newPromoters: 1 });
    expect(custom.topPromoters.map((p: { id: string }) => p.id)).toEqual([ids.p1]);
  });

  it('counts a payout on the day it was paid', async () => {
    // The 15.00 payout, as if paid eight days ago: it leaves this week for the one before.
    await env.ctx.db.updateTable('withdrawals').set({ paid_at: Date.now() - 8 * DAY }).where('id', '=', ids.paid).execute();
    const week = await overview(admin, '?range=7d');
    expect(week.current.paidOut).toBe(0);
    expect(week.previous.paidOut).toBe(1_500);
  });

  it('keeps the program rollups equal to the rows, and the ledger balanced', async () => {
    const report = await rebuildRollups(env.ctx.db, env.ctx.dialect, TZ, { apply: false });
    expect(report.differences).toEqual([]);
    expect(await env.ctx.db.selectFrom('program_daily_stats').select('day').limit(1).execute()).toHaveLength(1);
    expect(await checkLedger(env.ctx.db)).toEqual([]);
  });

  it('answers operators and admins only', async () => {
    const promoterClient = (await signedIn(env, 'promoter')).client;
    expect(errorCode(await promoterClient.request('GET', '/api/admin/overview'))).toBe('FORBIDDEN');
    expect(errorCode(await new Client(env.app).request('GET', '/api/admin/overview'))).toBe('UNAUTHENTICATED');
    const byKey = await env.app.inject({ method: 'GET', url: '/api/admin/overview', headers: { authorization: `Bearer ${secret}` } });
    expect([401, 403]).toContain(byKey.statusCode);
    expect(byKey.body).not.toContain('saleAmount');
    expect((await operator.request('GET', '/api/admin/overview')).statusCode).toBe(200);
    expect((await admin.request('GET', '/api/admin/overview')).json().range).toBe('7d');
  });

  it('refuses bad ranges with a field code', async () => {
    const t = today();
    const bad = async (query: string, fields: Record<string, string>) => {
      const res = await admin.request('GET', `/api/admin/overview${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error, query).toMatchObject({ code: 'VALIDATION_FAILED', fields });
    };
    await bad('?range=year', { 'querystring.range': 'invalid' });
    await bad('?range=yesterday', { 'querystring.range': 'invalid' });
    await bad('?from=2026-02-30&to=2026-03-01', { 'querystring.from': 'invalid' });
    await bad('?from=2026-13-01&to=2026-12-01', { 'querystring.from': 'invalid' });
    await bad(`?from=${t}&to=${shift(t, -1)}`, { 'querystring.from': 'after_to' });
    await bad(`?from=${shift(t, -400)}&to=${t}`, { 'querystring.from': 'too_long' });
    await bad(`?from=${t}`, { 'querystring.to': 'required' });
    await bad(`?range=7d&from=${t}&to=${t}`, { 'querystring.range': 'conflict' });
    await bad('?range=7d%00', { 'querystring.range': 'invalid' });
    await bad(`?from=${t}%00&to=${t}`, { 'querystring.from': 'invalid' });
    expect(errorCode(await admin.request('GET', '/api/admin/overview?days=7'))).toBe('VALIDATION_FAILED');
  });
});

describe.each(DIALECTS)('the overview\'s top promoters on %s', (dialect) => {
  let env: TestEnv;
  const DAYS = ['2026-03-01', '2026-03-02', '2026-03-03'];
  const period = { from: DAYS[0]!, to: DAYS[2]!, days: 3 };
  beforeAll(async () => {
    env = await makeEnv(dialect, { timeZone: TZ });
  });
  afterAll(async () => {
    await env?.close();
  });

  /** Sales written the way the conversion path writes them (daily_stats, program rows, sales by day); returns the exact ranking. */
  async function sell(sales: [name: string, day: string, amount: number][]) {
    const { insertUser } = await import('../src/modules/users/repository');
    const users = new Map<string, string>();
    const rollups = new Rollups();
    const totals = new Map<string, number>();
    for (const [name, day, amount] of sales) {
      if (!users.has(name)) users.set(name, await insertUser(env.ctx.db, { account: `${name}-${dialect}-${Math.random().toString(36).slice(2)}@example.com`, displayName: name, passwordHash: 'unusable', role: 'promoter', status: 'active', locale: 'en', parentId: null }));
      rollups.addFigures(users.get(name)!, day, 'c-top', 'l-top', { sales: 1, sale_amount: amount });
      totals.set(users.get(name)!, (totals.get(users.get(name)!) ?? 0) + amount);
    }
    await env.ctx.db.transaction().execute((trx) => applyRollups(trx, rollups));
    return [...totals].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 10).map(([id]) => id);
  }

  it('uses each day\'s leaders when they settle it', async () => {
    // Skewed like real programs: the r-th sells 100,000 / (r + 1) a day, 50 of them.
    const expected = await sell(Array.from({ length: 50 }, (_, r) => DAYS.map((d) => [`skew${r}`, d, Math.floor(100_000 / (r + 1))] as [string, string, number])).flat());
    expect((await topPromoters(env.ctx, period)).map((p) => p.id)).toEqual(expected);
    await env.ctx.db.deleteFrom('promoter_day_sales').execute();
    await env.ctx.db.deleteFrom('daily_stats').execute();
  });

  it('sums every promoter when the leaders cannot settle it (a steady seller never among a day\'s 30 best)', async () => {
    const sales: [string, string, number][] = [];
    DAYS.forEach((d, k) => { for (let i = 0; i < 35; i++) sales.push([`spike${k}-${i}`, d, 10_000 + i * 100]); });
    for (const d of DAYS) sales.push(['steady', d, 9_000]);
    const expected = await sell(sales);
    const top = await topPromoters(env.ctx, period);
    expect(top.map((p) => p.id)).toEqual(expected);
    expect(top[0]).toMatchObject({ name: 'steady', saleAmount: 27_000, sales: 3 });
  });
});
