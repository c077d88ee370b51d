/**
 * The campaign's schedule everywhere (issue 14, item 8), on both databases:
 * - startsAt/endsAt bound conversions as they bound redirects: a lead or sale that occurred before
 *   startsAt, or at or after endsAt, is stored unattributed with its reason and earns nothing; one
 *   inside is attributed as before; a sale reported after the scheduler ended the campaign but
 *   made before endsAt still counts; a draft, a paused campaign and one ended by hand before its
 *   endsAt answer CAMPAIGN_NOT_ACTIVE;
 * - the scheduler ends an active or paused campaign at endsAt with one `campaign.end` entry (no
 *   actor), exactly once even when several instances run it at the same moment, and its links
 *   stop attributing at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endDueCampaigns } from '../src/modules/campaigns/service';
import { runScheduledWork } from '../src/modules/commissions/scheduler';
import { checkLedger } from '../src/platform/ledger';
import { campaignBody, Client, DIALECTS, errorCode, makeEnv, makePng, signedIn, type TestEnv } from './helpers';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const PHONE = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Mobile Safari/537.36';

type Json = Record<string, unknown>;

describe.each(DIALECTS)('the campaign schedule on %s', (dialect) => {
  let env: TestEnv;
  let admin: Client;
  let secret: string;
  let seq = 0;

  const post = (body: Json) => env.app.inject({ method: 'POST', url: '/api/v1/conversions', headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
  const ext = (p: string) => `${p}-${dialect}-${seq++}`;
  const endEntries = (campaignId: string) => env.ctx.db.selectFrom('audit_entries').select(['actor_id', 'ip', 'before_json', 'after_json', 'at']).where('action', '=', 'campaign.end').where('entity_id', '=', campaignId).execute();
  const statusOf = async (id: string) => (await env.ctx.db.selectFrom('campaigns').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
  const commissionsOf = async (conversionId: string) => env.ctx.db.selectFrom('commissions').select(['id', 'amount', 'promoter_id']).where('conversion_id', '=', conversionId).execute();
  const visit = (code: string) => env.app.inject({ method: 'GET', url: `/r/${code}`, headers: { 'user-agent': PHONE }, remoteAddress: `203.0.113.${(seq++ % 200) + 1}` });
  const silentLog = { warn: () => undefined, info: () => undefined };

  /** An active campaign with this schedule, and a promoter enrolled with their default link. */
  async function scheduled(startsAt: number | null, endsAt: number | null, extra: Json = {}) {
    const created = await admin.request('POST', '/api/admin/campaigns', campaignBody({ names: { en: `Scheduled ${seq++}` }, startsAt, endsAt, leadReward: 250, saleRewardType: 'fixed', saleReward: 800, holdDays: 30, ...extra }));
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().campaign.id as string;
    expect((await admin.request('PATCH', `/api/admin/campaigns/${id}`, { status: 'active' })).statusCode).toBe(200);
    const p = await signedIn(env, 'promoter');
    expect((await p.client.request('POST', `/api/campaigns/${id}/join`)).statusCode).toBe(201);
    const link = ((await p.client.request('GET', '/api/links')).json().items as { code: string; campaignId: string }[]).find((l) => l.campaignId === id)!;
    return { id, promoter: p, code: link.code };
  }

  beforeAll(async () => {
    env = await makeEnv(dialect);
    admin = (await signedIn(env, 'admin')).client;
    secret = (await admin.request('POST', '/api/admin/api-keys', { name: 'Shop', scopes: ['conversions:write', 'conversions:read'] })).json().secret;
  });
  afterAll(async () => {
    await env?.close();
  });

  it('stores a lead or sale outside the schedule unattributed with its reason, and attributes the ones inside', async () => {
    const now = Date.now();
    const startsAt = now - 10 * DAY;
    const endsAt = now - HOUR; // already over, but the scheduler has not run yet: still active
    const c = await scheduled(startsAt, endsAt);
    expect(await statusOf(c.id)).toBe('active');

    const cases: [string, 'lead' | 'sale', number, 'attributed' | 'unattributed', string | null][] = [
      ['long before', 'sale', startsAt - 5 * DAY, 'unattributed', 'campaign_not_started'],
      ['a millisecond before the start', 'lead', startsAt - 1, 'unattributed', 'campaign_not_started'],
      ['at the start', 'sale', startsAt, 'attributed', null],
      ['a millisecond before the end', 'lead', endsAt - 1, 'attributed', null],
      ['at the end', 'sale', endsAt, 'unattributed', 'campaign_ended'],
      ['after the end', 'lead', endsAt + 30 * 60_000, 'unattributed', 'campaign_ended'],
      ['reported now, occurring now', 'sale', now, 'unattributed', 'campaign_ended'],
    ];
    for (const [what, kind, occurredAt, status, reason] of cases) {
      const body = { campaignId: c.id, kind, externalId: ext('w'), amount: kind === 'sale' ? 12_000 : undefined, linkCode: c.code, occurredAt };
      const res = await post(body);
      expect(res.statusCode, `${what}: ${res.body}`).toBe(201);
      const { conversion, commissions } = res.json();
      expect(conversion, what).toMatchObject({ status, reason, occurredAt, promoterId: status === 'attributed' ? c.promoter.user.id : null });
      expect(commissions.length, what).toBe(status === 'attributed' ? 1 : 0);
      expect((await commissionsOf(conversion.id)).length, what).toBe(status === 'attributed' ? 1 : 0);
      if (status === 'attributed') expect(commissions[0]).toMatchObject({ promoterId: c.promoter.user.id, amount: kind === 'sale' ? 800 : 250, status: 'pending' });
      // The same report again answers the stored result and changes nothing.
      const again = await post(body);
      expect(again.statusCode, what).toBe(200);
      expect(again.json().conversion).toMatchObject({ id: conversion.id, status, reason });
      expect((await commissionsOf(conversion.id)).length, what).toBe(status === 'attributed' ? 1 : 0);
    }

    // No occurredAt: judged by when it is received (now, after endsAt).
    const late = (await post({ campaignId: c.id, kind: 'sale', externalId: ext('late'), amount: 5_000, linkCode: c.code })).json();
    expect(late.conversion).toMatchObject({ status: 'unattributed', reason: 'campaign_ended' });

    // The operators see each with its reason.
    const listed = (await admin.request('GET', '/api/admin/conversions?status=unattributed&limit=100')).json().items as Json[];
    const mine = listed.filter((x) => x.campaignId === c.id);
    expect(mine.map((x) => x.reason).sort()).toEqual(['campaign_ended', 'campaign_ended', 'campaign_ended', 'campaign_ended', 'campaign_not_started', 'campaign_not_started']);
    // The promoter's wallet holds only what was earned inside the window.
    expect((await c.promoter.client.request('GET', '/api/wallet')).json()).toMatchObject({ pending: 800 + 250, available: 0 });
    expect(await checkLedger(env.ctx.db)).toEqual([]);
  });

  it('a campaign that has not started yet takes reports but attributes none of them', async () => {
    const c = await scheduled(Date.now() + DAY, null);
    const res = await post({ campaignId: c.id, kind: 'sale', externalId: ext('early'), amount: 9_900, linkCode: c.code });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ conversion: { status: 'unattributed', reason: 'campaign_not_started', promoterId: null }, commissions: [] });
    // Its links do not attribute either (the same rule for redirects).
    expect((await visit(c.code)).headers.location).toBe('https://shop.example.com/tea');
  });

  it('the scheduler ends a campaign at endsAt once, audited with no actor; late reports of sales made before still count', async () => {
    const now = Date.now();
    const endsAt = now - 2 * HOUR;
    const c = await scheduled(now - 5 * DAY, endsAt);
    const before = (await post({ campaignId: c.id, kind: 'sale', externalId: ext('before-run'), amount: 10_000, linkCode: c.code, occurredAt: endsAt - DAY })).json();
    expect(before.conversion.status).toBe('attributed');

    const t0 = Date.now();
    await runScheduledWork(env.ctx, silentLog);
    expect(await statusOf(c.id)).toBe('ended');
    const entries = await endEntries(c.id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ actor_id: null, ip: null });
    expect(JSON.parse(entries[0]!.before_json!)).toEqual({ status: 'active' });
    expect(JSON.parse(entries[0]!.after_json!)).toEqual({ status: 'ended', endsAt });
    expect(Number(entries[0]!.at)).toBeGreaterThanOrEqual(t0);
    // Through the API too: the system's entry.
    const listed = (await admin.request('GET', `/api/admin/audit?actor=system&action=campaign.end&entityId=${c.id}`)).json().items;
    expect(listed).toEqual([expect.objectContaining({ actor: null, ip: null, entityType: 'campaign', entityId: c.id, after: { status: 'ended', endsAt } })]);

    // A second pass has nothing to do.
    expect(await endDueCampaigns(env.ctx)).toBe(0);
    expect(await endEntries(c.id)).toHaveLength(1);

    // Reported after the end: a sale made before endsAt counts, one made after does not.
    const retried = await post({ campaignId: c.id, kind: 'sale', externalId: ext('retry'), amount: 10_000, linkCode: c.code, occurredAt: endsAt - 10 * 60_000 });
    expect(retried.statusCode).toBe(201);
    expect(retried.json()).toMatchObject({ conversion: { status: 'attributed', reason: null }, commissions: [{ amount: 800, status: 'pending' }] });
    const after = await post({ campaignId: c.id, kind: 'lead', externalId: ext('after'), linkCode: c.code, occurredAt: endsAt + 1 });
    expect(after.json()).toMatchObject({ conversion: { status: 'unattributed', reason: 'campaign_ended' }, commissions: [] });
    // Refunds of what was earned are taken whatever the state.
    const refund = await post({ campaignId: c.id, kind: 'refund', externalId: ext('refund'), refundOf: before.conversion.externalId, amount: 10_000 });
    expect(refund.statusCode, refund.body).toBe(201);
    // The campaign's links no longer attribute.
    const visited = await visit(c.code);
    expect(visited.statusCode).toBe(302);
    expect(visited.headers.location).toBe('https://shop.example.com/tea');
    // And an ended campaign stays closed: no edit, no image, no move; a no-op changes nothing.
    expect(errorCode(await admin.request('PATCH', `/api/admin/campaigns/${c.id}`, { leadReward: 1 }))).toBe('INVALID_STATE_TRANSITION');
    expect(errorCode(await admin.request('PATCH', `/api/admin/campaigns/${c.id}`, { status: 'active' }))).toBe('INVALID_STATE_TRANSITION');
    expect(errorCode(await admin.upload(`/api/admin/campaigns/${c.id}/images?kind=cover`, makePng(64, 64), 'image/png'))).toBe('INVALID_STATE_TRANSITION');
    const updatedAt = (await env.ctx.db.selectFrom('campaigns').select('updated_at').where('id', '=', c.id).executeTakeFirstOrThrow()).updated_at;
    expect((await admin.request('PATCH', `/api/admin/campaigns/${c.id}`, { status: 'ended' })).statusCode).toBe(200);
    expect((await env.ctx.db.selectFrom('campaigns').select('updated_at').where('id', '=', c.id).executeTakeFirstOrThrow()).updated_at).toBe(updatedAt);
    expect(await endEntries(c.id)).toHaveLength(1);
    expect(await checkLedger(env.ctx.db)).toEqual([]);
  });

  it('stops the links at once on this instance (the link cache is cleared), and ends a paused campaign too', async () => {
    const endsAt = Date.now() + HOUR;
    const c = await scheduled(null, endsAt);
    // A visit caches the link as running until endsAt.
    expect(String((await visit(c.code)).headers.location)).toContain('pa_click=');
    expect(String((await visit(c.code)).headers.location)).toContain('pa_click=');
    // The scheduler's clock at endsAt (this test's clock is still before it: only the ended status stops the link).
    expect(await endDueCampaigns(env.ctx, endsAt)).toBe(1);
    expect(await statusOf(c.id)).toBe('ended');
    const [entry] = await endEntries(c.id);
    expect(JSON.parse(entry!.before_json!)).toEqual({ status: 'active' });
    expect(Number(entry!.at)).toBe(endsAt);
    expect((await visit(c.code)).headers.location).toBe('https://shop.example.com/tea');

    const paused = await scheduled(null, endsAt);
    await admin.request('PATCH', `/api/admin/campaigns/${paused.id}`, { status: 'paused' });
    expect(await endDueCampaigns(env.ctx, endsAt + 1)).toBe(1);
    expect(await statusOf(paused.id)).toBe('ended');
    expect((await endEntries(paused.id)).map((e) => JSON.parse(e.before_json!))).toEqual([{ status: 'paused' }]);

    // One still before its end is left alone.
    const later = await scheduled(null, Date.now() + DAY);
    expect(await endDueCampaigns(env.ctx)).toBe(0);
    expect(await statusOf(later.id)).toBe('active');
    expect(String((await visit(later.code)).headers.location)).toContain('pa_click=');
  });

  it('run by several instances at the same moment, ends each due campaign exactly once with exactly one audit entry', async () => {
    const endsAt = Date.now() - 60_000;
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      const created = await admin.request('POST', '/api/admin/campaigns', campaignBody({ names: { en: `Due ${i}` }, endsAt }));
      const id = created.json().campaign.id as string;
      await admin.request('PATCH', `/api/admin/campaigns/${id}`, { status: 'active' });
      if (i % 3 === 0) await admin.request('PATCH', `/api/admin/campaigns/${id}`, { status: 'paused' });
      ids.push(id);
    }
    // Several instances share a PostgreSQL database; SQLite has one instance (one process, one
    // connection: docs/deployment.md), where the timer and a pass under way may still overlap.
    const others = dialect === 'postgres' ? [await env.restart(), await env.restart()] : [];
    const [second, third] = others.length ? others.map((o) => o.ctx) : [env.ctx, env.ctx];
    let byScheduler = 0;
    const log = { warn: (obj: unknown) => { throw new Error(`scheduler failed: ${String(obj)}`); }, info: (obj: unknown) => { byScheduler += (obj as { ended?: number }).ended ?? 0; } };
    // Small batches, so the instances interleave over many rounds.
    const results = await Promise.all([
      endDueCampaigns(env.ctx, Date.now(), 2),
      endDueCampaigns(second!, Date.now(), 3),
      endDueCampaigns(third!, Date.now(), 2),
      endDueCampaigns(env.ctx, Date.now(), 5),
      runScheduledWork(second!, log),
      runScheduledWork(third!, log),
    ]);
    const ended = await env.ctx.db.selectFrom('campaigns').select(['id', 'status']).where('id', 'in', ids).execute();
    expect(ended.map((c) => c.status)).toEqual(ids.map(() => 'ended'));
    const entries = await env.ctx.db.selectFrom('audit_entries').select(['entity_id', 'actor_id']).where('action', '=', 'campaign.end').where('entity_id', 'in', ids).execute();
    expect(entries.map((e) => e.entity_id).sort()).toEqual([...ids].sort());
    expect(entries.every((e) => e.actor_id === null)).toBe(true);
    // Each campaign was ended by exactly one of the callers.
    expect((results.slice(0, 4) as number[]).reduce((a, b) => a + b, 0) + byScheduler).toBe(ids.length);
    for (const o of others) await o.close();
  });

  it('a draft, a paused campaign and one ended by hand before its endsAt answer CAMPAIGN_NOT_ACTIVE', async () => {
    const draft = (await admin.request('POST', '/api/admin/campaigns', campaignBody({ names: { en: 'Draft' } }))).json().campaign.id as string;
    expect(errorCode(await post({ campaignId: draft, kind: 'sale', externalId: ext('d'), amount: 100 }))).toBe('CAMPAIGN_NOT_ACTIVE');

    const paused = await scheduled(null, null);
    await admin.request('PATCH', `/api/admin/campaigns/${paused.id}`, { status: 'paused' });
    const res = await post({ campaignId: paused.id, kind: 'sale', externalId: ext('p'), amount: 100, linkCode: paused.code });
    expect(res.statusCode).toBe(409);
    expect(errorCode(res)).toBe('CAMPAIGN_NOT_ACTIVE');

    // Ended by hand with no end date, and ended by hand before its end date: closed for every later report,
    // even once that end date has passed (the sale "before endsAt" rule is for campaigns that ran to their end).
    const open = await scheduled(null, null);
    await admin.request('PATCH', `/api/admin/campaigns/${open.id}`, { status: 'ended' });
    expect(errorCode(await post({ campaignId: open.id, kind: 'lead', externalId: ext('h'), linkCode: open.code, occurredAt: Date.now() - HOUR }))).toBe('CAMPAIGN_NOT_ACTIVE');
    // (3 s of margin: ending it by hand must come before its endsAt even on a loaded machine.)
    const early = await scheduled(null, Date.now() + 3_000);
    await admin.request('PATCH', `/api/admin/campaigns/${early.id}`, { status: 'ended' });
    expect(errorCode(await post({ campaignId: early.id, kind: 'sale', externalId: ext('e'), amount: 100, linkCode: early.code, occurredAt: Date.now() - HOUR }))).toBe('CAMPAIGN_NOT_ACTIVE');
    await new Promise((r) => setTimeout(r, 3_100));
    expect(errorCode(await post({ campaignId: early.id, kind: 'sale', externalId: ext('e'), amount: 100, linkCode: early.code, occurredAt: Date.now() - HOUR }))).toBe('CAMPAIGN_NOT_ACTIVE');
    // Ended by hand after its endsAt had passed (before the scheduler's minute): the same as by the scheduler.
    const past = await scheduled(null, Date.now() - HOUR);
    await admin.request('PATCH', `/api/admin/campaigns/${past.id}`, { status: 'ended' });
    expect((await post({ campaignId: past.id, kind: 'sale', externalId: ext('ph'), amount: 1_000, linkCode: past.code, occurredAt: Date.now() - 2 * HOUR })).json().conversion).toMatchObject({ status: 'attributed' });
    expect((await post({ campaignId: past.id, kind: 'sale', externalId: ext('ph'), amount: 1_000, linkCode: past.code, occurredAt: Date.now() - 30 * 60_000 })).json().conversion).toMatchObject({ status: 'unattributed', reason: 'campaign_ended' });
    // Nothing was stored for the refused ones.
    const stored = await env.ctx.db.selectFrom('conversions').select('id').where('campaign_id', 'in', [draft, paused.id, open.id, early.id]).execute();
    expect(stored).toEqual([]);
  });
});
