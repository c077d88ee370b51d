/**
 * Refunds are serialized on their sale (issue 15): 20 different refunds of one 50.00 sale, 10.00
 * each, arriving at once — exactly the five that fit are accepted, the rest refused with
 * `amount: too_large`, a repeat of an accepted one answers 200 with the stored refund, the sale is
 * never over-refunded and the ledger stays balanced. PostgreSQL once refused 18 of the 20 (an
 * optimistic check without a retry) and answered a repeat with that 400.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '../src/platform/ledger';
import { campaignBody, Client, DIALECTS, makeEnv, signedIn, type TestEnv } from './helpers';

describe.each(DIALECTS)('refunds of one sale at once on %s', (dialect) => {
  let env: TestEnv;
  let admin: Client;
  let secret: string;
  let campaignId: string;
  let code: string;
  let promoter: Client;

  const post = (body: Record<string, unknown>) => env.app.inject({ method: 'POST', url: '/api/v1/conversions', headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }, payload: JSON.stringify({ campaignId, ...body }) });

  beforeAll(async () => {
    env = await makeEnv(dialect);
    admin = (await signedIn(env, 'admin')).client;
    secret = (await admin.request('POST', '/api/admin/api-keys', { name: 'Shop', scopes: ['conversions:write'] })).json().secret;
    campaignId = (await admin.request('POST', '/api/admin/campaigns', campaignBody({ holdDays: 7, overrideBps: 0, saleReward: 1000 }))).json().campaign.id;
    await admin.request('PATCH', `/api/admin/campaigns/${campaignId}`, { status: 'active' });
    const p = await signedIn(env, 'promoter');
    promoter = p.client;
    await promoter.request('POST', `/api/campaigns/${campaignId}/join`);
    code = ((await promoter.request('GET', '/api/links')).json().items as { code: string; campaignId: string }[]).find((l) => l.campaignId === campaignId)!.code;
  });
  afterAll(async () => {
    await env?.close();
  });

  it('accepts every refund that fits, refuses the rest, and answers a repeat with the stored refund', async () => {
    const sale = await post({ kind: 'sale', externalId: 'race-sale', amount: 5_000, linkCode: code });
    expect(sale.statusCode, sale.body).toBe(201);
    const refunds = await Promise.all(Array.from({ length: 20 }, (_, i) => post({ kind: 'refund', externalId: `race-r${i}`, amount: 1_000, refundOf: 'race-sale' })));
    const accepted = refunds.filter((r) => r.statusCode === 201);
    const refused = refunds.filter((r) => r.statusCode !== 201);
    expect(accepted).toHaveLength(5);
    expect(refused).toHaveLength(15);
    for (const r of refused) {
      expect(r.statusCode).toBe(400);
      expect(r.json().error).toMatchObject({ code: 'VALIDATION_FAILED', fields: { amount: 'too_large' } });
    }
    const row = await env.ctx.db.selectFrom('conversions').select(['refunded_amount']).where('external_id', '=', 'race-sale').executeTakeFirstOrThrow();
    expect(Number(row.refunded_amount)).toBe(5_000);
    const stored = await env.ctx.db.selectFrom('conversions').select(['external_id']).where('kind', '=', 'refund').where('campaign_id', '=', campaignId).execute();
    expect(stored).toHaveLength(5);

    // A repeat of an accepted refund (even twenty at once): 200 with the stored refund, nothing new.
    const winner = accepted[0]!.json().conversion as { id: string; externalId: string };
    const repeats = await Promise.all(Array.from({ length: 20 }, () => post({ kind: 'refund', externalId: winner.externalId, amount: 1_000, refundOf: 'race-sale' })));
    for (const r of repeats) {
      expect(r.statusCode, r.body).toBe(200);
      expect(r.json().conversion).toMatchObject({ id: winner.id, kind: 'refund', amount: 1_000 });
    }
    // A refused one repeated is still refused (nothing was stored under its id).
    expect((await post({ kind: 'refund', externalId: refused[0] === undefined ? 'x' : `race-r${refunds.indexOf(refused[0])}`, amount: 1_000, refundOf: 'race-sale' })).statusCode).toBe(400);
    expect(await env.ctx.db.selectFrom('conversions').select(['id']).where('kind', '=', 'refund').where('campaign_id', '=', campaignId).execute()).toHaveLength(5);

    // The whole commission was taken back, once.
    const commission = await env.ctx.db.selectFrom('commissions').innerJoin('conversions', 'conversions.id', 'commissions.conversion_id').select(['commissions.status', 'commissions.reversed_amount', 'commissions.amount']).where('conversions.external_id', '=', 'race-sale').executeTakeFirstOrThrow();
    expect(commission.status).toBe('reversed');
    expect(Number(commission.reversed_amount)).toBe(Number(commission.amount));
    expect((await promoter.request('GET', '/api/wallet')).json().pending).toBe(0);
    expect(await checkLedger(env.ctx.db)).toEqual([]);
  });
});
