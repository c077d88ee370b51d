/**
 * Installation settings (issue 14, item 9): the time zone of the per-day figures and the currency
 * become admin settings. TIME_ZONE stays the zone until one is chosen; a chosen zone is stored as
 * Intl spells it; a new zone moves every per-day figure to its day in that zone (the rollups are
 * rebuilt in the same call, so `stats:rebuild` finds nothing to repair afterwards); the currency
 * changes only while no money has moved. Bad input changes nothing; each change is one audit entry
 * with before and after. Both databases.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '../src/platform/ledger';
import { newId } from '../src/platform/ids';
import { rebuildRollups } from '../src/platform/rollups-rebuild';
import { zoneOf } from '../src/platform/settings';
import { dayKey } from '../src/platform/time';
import { campaignBody, Client, DIALECTS, errorCode, makeEnv, signedIn, type TestEnv } from './helpers';

const DAY = 86_400_000;
const DEFAULT_ZONE = 'UTC';
const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + DAY).toISOString().slice(0, 10);

describe.each(DIALECTS)('installation settings on %s', (dialect) => {
  let env: TestEnv;
  let admin: Client;
  let adminId: string;
  let operator: Client;
  let secret: string;
  let campaignId: string;
  let seq = 0;

  const patch = (body: unknown, client = admin) => client.request('PATCH', '/api/admin/settings', body);
  const read = async (client = admin) => {
    const res = await client.request('GET', '/api/admin/settings');
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const settingsAudit = () => env.ctx.db.selectFrom('audit_entries').select(['id', 'actor_id', 'entity', 'ip', 'before_json', 'after_json']).where('action', '=', 'settings.update').orderBy('id').execute();
  const storedRows = () => env.ctx.db.selectFrom('settings').select(['key', 'value']).orderBy('key').execute();
  /** Everything a refused change must leave as it was. */
  const snapshot = async () => ({ settings: await read(), rows: await storedRows(), audit: (await settingsAudit()).length });
  const post = (body: Record<string, unknown>) => env.app.inject({ method: 'POST', url: '/api/v1/conversions', headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }, payload: JSON.stringify({ campaignId, ...body }) });
  const get = async (client: Client, url: string) => {
    const res = await client.request('GET', url);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  beforeAll(async () => {
    env = await makeEnv(dialect, { timeZone: DEFAULT_ZONE });
    const a = await signedIn(env, 'admin');
    admin = a.client;
    adminId = a.user.id;
    operator = (await signedIn(env, 'operator')).client;
    secret = (await admin.request('POST', '/api/admin/api-keys', { name: 'Shop', scopes: ['conversions:write'] })).json().secret;
    campaignId = (await admin.request('POST', '/api/admin/campaigns', campaignBody({ holdDays: 7, overrideBps: 0, leadReward: 50, saleReward: 1000, approvalMode: 'manual' }))).json().campaign.id;
    expect((await admin.request('PATCH', `/api/admin/campaigns/${campaignId}`, { status: 'active' })).statusCode).toBe(200);
  });
  afterAll(async () => {
    await env?.close();
  });

  it('keeps TIME_ZONE as the zone while none is chosen, and says which is the default', async () => {
    const settings = await read(operator);
    expect(settings).toMatchObject({ timeZone: DEFAULT_ZONE, defaultTimeZone: DEFAULT_ZONE, currency: 'CNY', currencyLocked: false });
    // Changing something else stores no zone: the default still decides.
    expect((await patch({ registrationMode: 'approval' })).statusCode).toBe(200);
    expect((await storedRows()).map((r) => r.key)).not.toContain('timeZone');
    expect(await read()).toMatchObject({ registrationMode: 'approval', timeZone: DEFAULT_ZONE, defaultTimeZone: DEFAULT_ZONE });
    expect(zoneOf(env.ctx)).toBe(DEFAULT_ZONE);
    expect((await get(admin, '/api/admin/overview?range=today')).timeZone).toBe(DEFAULT_ZONE);
    expect((await patch({ registrationMode: 'open' })).statusCode).toBe(200);
  });

  it('refuses a bad zone or currency with its field code and changes nothing', async () => {
    const before = await snapshot();
    const cases: [unknown, Record<string, string>][] = [
      [{ timeZone: 'Mars/Olympus_Mons' }, { timeZone: 'invalid' }],
      [{ timeZone: 'Asia/Shanghai; drop table users' }, { timeZone: 'invalid' }],
      [{ timeZone: '' }, { timeZone: 'invalid' }],
      [{ timeZone: `Europe/${'x'.repeat(60)}` }, { timeZone: 'too_long' }],
      [{ timeZone: 8 }, { timeZone: 'invalid' }],
      [{ timeZone: null }, { timeZone: 'invalid' }],
      [{ currency: 'XYZ' }, { currency: 'invalid' }],
      [{ currency: 'usd' }, { currency: 'invalid' }],
      [{ currency: 'EURO' }, { currency: 'invalid' }],
      [{ currency: 840 }, { currency: 'invalid' }],
      // One bad field refuses the whole change: the good one is not applied either.
      [{ timeZone: 'Asia/Shanghai', currency: 'XYZ' }, { currency: 'invalid' }],
      [{ currency: 'USD', timeZone: 'Nowhere/Town' }, { timeZone: 'invalid' }],
      [{ timeZone: 'Asia/Tokyo', locale: 'en' }, { locale: 'unknown_field' }],
      // Issue 28: a maximum of 0 would make every withdrawal ABOVE_MAXIMUM.
      [{ withdrawalMax: 0 }, { withdrawalMax: 'too_small' }],
      [{ withdrawalMin: 0, withdrawalMax: 0 }, { withdrawalMax: 'too_small' }],
    ];
    for (const [body, fields] of cases) {
      const res = await patch(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error, JSON.stringify(body)).toMatchObject({ code: 'VALIDATION_FAILED', fields });
    }
    // Operators read the settings but change none of them, good or bad.
    for (const body of [{ timeZone: 'Asia/Shanghai' }, { currency: 'USD' }, { timeZone: 'Mars/Olympus_Mons' }]) {
      expect(errorCode(await patch(body, operator)), JSON.stringify(body)).toBe('FORBIDDEN');
    }
    expect(await snapshot()).toEqual(before);
  });

  it('changes the currency while no money has moved, then refuses it with currency: conflict', async () => {
    const { client: promoter, user } = await signedIn(env, 'promoter');
    const changed = await patch({ currency: 'USD' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ currency: 'USD', currencyLocked: false });
    expect((await get(promoter, '/api/wallet')).currency).toBe('USD');
    expect((await patch({ currency: 'CNY' })).json()).toMatchObject({ currency: 'CNY', currencyLocked: false });

    // A sale nobody is credited with already holds an amount in the currency's minor units.
    const orphan = await post({ kind: 'sale', externalId: `orphan-${seq++}`, amount: 5_000, linkCode: 'nobody-has-this' });
    expect(orphan.statusCode, orphan.body).toBe(201);
    expect(await env.ctx.db.selectFrom('ledger_journals').select('id').execute()).toEqual([]);
    expect((await read()).currencyLocked).toBe(true);

    // And a commission moves money: refused, alone or with other fields, and nothing changes.
    await promoter.request('POST', `/api/campaigns/${campaignId}/join`);
    const link = ((await promoter.request('GET', '/api/links')).json().items as { code: string; campaignId: string }[]).find((l) => l.campaignId === campaignId)!;
    const sale = await post({ kind: 'sale', externalId: `locked-${seq++}`, amount: 10_000, linkCode: link.code });
    expect(sale.statusCode, sale.body).toBe(201);
    expect(sale.json().commissions).toEqual([expect.objectContaining({ promoterId: user.id, amount: 1_000 })]);
    const before = await snapshot();
    expect(before.settings).toMatchObject({ currency: 'CNY', currencyLocked: true });
    for (const body of [{ currency: 'USD' }, { currency: 'EUR', withdrawalMin: 2_000 }, { currency: 'JPY', timeZone: 'Asia/Tokyo' }]) {
      const res = await patch(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error, JSON.stringify(body)).toMatchObject({ code: 'VALIDATION_FAILED', fields: { currency: 'conflict' } });
    }
    expect(await snapshot()).toEqual(before);
    expect(zoneOf(env.ctx)).toBe(DEFAULT_ZONE);
    // Naming the currency it already has is no change, so it is not refused.
    expect((await patch({ currency: 'CNY', withdrawalMin: 1_500 })).json()).toMatchObject({ currency: 'CNY', withdrawalMin: 1_500, currencyLocked: true });
    expect((await patch({ withdrawalMin: 1_000 })).statusCode).toBe(200);
  });

  it('stores a new zone as Intl spells it and moves every per-day figure to its day there, audited once', async () => {
    const { client: promoter, user } = await signedIn(env, 'promoter');
    await promoter.request('POST', `/api/campaigns/${campaignId}/join`);
    const link = ((await promoter.request('GET', '/api/links')).json().items as { id: string; code: string; campaignId: string }[]).find((l) => l.campaignId === campaignId)!;
    // A day three days ago (UTC): at 20:00 UTC it is already 04:00 of the next day in Shanghai (UTC+8);
    // at 10:00 UTC it is 18:00 the same day there.
    const d = dayKey(Date.now() - 3 * DAY, 'UTC');
    const d1 = nextDay(d);
    const late = Date.parse(`${d}T20:00:00Z`);
    const midday = Date.parse(`${d}T10:00:00Z`);
    for (const at of [late, late + 60_000, midday]) {
      env.ctx.clicks.push({ id: newId(at), linkId: link.id, campaignId, promoterId: user.id, at, visitorHash: `v-${seq++}`, bot: false, device: 'mobile', referrerHost: null, attributed: true });
    }
    await env.ctx.clicks.flush();
    const sale = await post({ kind: 'sale', externalId: `midnight-${seq++}`, amount: 20_000, linkCode: link.code, occurredAt: late + 120_000 });
    expect(sale.statusCode, sale.body).toBe(201);
    expect((await post({ kind: 'lead', externalId: `noon-${seq++}`, linkCode: link.code, occurredAt: midday + 60_000 })).statusCode).toBe(201);

    const mine = async (day: string) => (await get(promoter, `/api/stats/summary?from=${day}&to=${day}`)).current;
    const program = async () => {
      const o = await get(admin, `/api/admin/overview?from=${d}&to=${d1}`);
      return { zone: o.timeZone, trend: o.trend.map((t: { day: string; clicks: number; leads: number; sales: number; saleAmount: number; commission: number }) => [t.day, t.clicks, t.leads, t.sales, t.saleAmount, t.commission]) };
    };
    // By UTC: all of it on d. (The program also has the earlier test's sale today, outside this range.)
    expect(await mine(d)).toMatchObject({ clicks: 3, leads: 1, sales: 1, saleAmount: 20_000, commission: { pending: 2_050 } });
    expect(await mine(d1)).toMatchObject({ clicks: 0, leads: 0, sales: 0 });
    expect(await program()).toEqual({ zone: 'UTC', trend: [[d, 3, 1, 1, 20_000, 2_050], [d1, 0, 0, 0, 0, 0]] });

    const auditBefore = (await settingsAudit()).length;
    const res = await patch({ timeZone: 'asia/shanghai' }, admin);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ timeZone: 'Asia/Shanghai', defaultTimeZone: DEFAULT_ZONE });
    expect((await read(operator)).timeZone).toBe('Asia/Shanghai');
    expect(await storedRows()).toContainEqual({ key: 'timeZone', value: '"Asia/Shanghai"' });

    // The same rows, counted by Shanghai's days: the late clicks and the sale moved to d + 1.
    expect(await mine(d)).toMatchObject({ clicks: 1, leads: 1, sales: 0, saleAmount: 0, commission: { pending: 50 } });
    expect(await mine(d1)).toMatchObject({ clicks: 2, leads: 0, sales: 1, saleAmount: 20_000, commission: { pending: 2_000 } });
    expect(await program()).toEqual({ zone: 'Asia/Shanghai', trend: [[d, 1, 1, 0, 0, 50], [d1, 2, 0, 1, 20_000, 2_000]] });

    // One audit entry, by the admin from their address, with the settings before and the change.
    const entries = (await settingsAudit()).slice(auditBefore);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ actor_id: adminId, entity: 'settings', ip: '127.0.0.1' });
    expect(JSON.parse(entries[0]!.before_json!)).toMatchObject({ timeZone: 'UTC', currency: 'CNY' });
    expect(JSON.parse(entries[0]!.after_json!)).toEqual({ timeZone: 'Asia/Shanghai' });

    // New figures are written by the new zone at once (this instance knows it), and nothing is left to repair.
    const later = Date.parse(`${d1}T17:00:00Z`); // 01:00 of d + 2 in Shanghai
    env.ctx.clicks.push({ id: newId(later), linkId: link.id, campaignId, promoterId: user.id, at: later, visitorHash: `v-${seq++}`, bot: false, device: 'mobile', referrerHost: null, attributed: true });
    await env.ctx.clicks.flush();
    expect((await mine(nextDay(d1))).clicks).toBe(1);
    expect((await mine(d1)).clicks).toBe(2);
    expect((await rebuildRollups(env.ctx.db, env.ctx.dialect, 'Asia/Shanghai', { apply: false })).differences).toEqual([]);
    // `npm run stats:rebuild` starts a context of its own and checks by the stored zone: no differences.
    const second = await env.restart();
    expect(zoneOf(second.ctx)).toBe('Asia/Shanghai');
    expect((await rebuildRollups(second.ctx.db, second.ctx.dialect, zoneOf(second.ctx), { apply: false })).differenceCount).toBe(0);
    await second.close();
    expect(await checkLedger(env.ctx.db)).toEqual([]);

    // Back to the default zone: the figures return to their UTC days.
    expect((await patch({ timeZone: 'UTC' })).json().timeZone).toBe('UTC');
    expect(await mine(d)).toMatchObject({ clicks: 3, leads: 1, sales: 1, saleAmount: 20_000 });
    expect(await program()).toEqual({ zone: 'UTC', trend: [[d, 3, 1, 1, 20_000, 2_050], [d1, 1, 0, 0, 0, 0]] });
    expect((await rebuildRollups(env.ctx.db, env.ctx.dialect, 'UTC', { apply: false })).differences).toEqual([]);
    expect((await settingsAudit()).length).toBe(auditBefore + 2);
  });
});
