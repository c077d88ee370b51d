import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signBody } from '../src/platform/api-keys';
import { checkLedger } from '../src/platform/ledger';
import { approveDue, conversionBatchStats } from '../src/modules/commissions/service';
import { campaignBody, Client, createUser, DIALECTS, errorCode, makeEnv, signedIn, type TestEnv } from './helpers';

const DAY = 86_400_000;
const PHONE = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Mobile Safari/537.36';
const sha = (s: string) => createHash('sha256').update(s).digest('hex');

describe.each(DIALECTS)('conversions, commissions and the ledger on %s', (dialect) => {
  let env: TestEnv;
  let admin: Client;
  let operator: Client;
  let secret: string;
  let campaignId: string;
  let manualCampaignId: string;
  let seq = 0;

  /** A server-to-server call with an API key (optionally signed). */
  const v1 = (method: 'GET' | 'POST', url: string, body?: unknown, options: { key?: string; signature?: string | ((raw: string) => string) } = {}) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string> = { authorization: `Bearer ${options.key ?? secret}` };
    if (payload !== undefined) headers['content-type'] = 'application/json';
    if (options.signature) headers['x-signature'] = typeof options.signature === 'function' ? options.signature(payload ?? '') : options.signature;
    return env.app.inject({ method, url, headers, payload });
  };
  const post = (body: Record<string, unknown>, options?: Parameters<typeof v1>[3]) => v1('POST', '/api/v1/conversions', body, options);
  const ext = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${seq++}`;

  /** A promoter enrolled in both campaigns, with their default links and (optionally) an inviter. */
  async function promoterWithLinks(parentId: string | null = null) {
    const { client, user } = await signedIn(env, 'promoter');
    if (parentId) await env.ctx.db.updateTable('users').set({ parent_id: parentId }).where('id', '=', user.id).execute();
    await client.request('POST', `/api/campaigns/${campaignId}/join`);
    await client.request('POST', `/api/campaigns/${manualCampaignId}/join`);
    const links = (await client.request('GET', '/api/links')).json().items as { id: string; code: string; campaignId: string }[];
    return { client, user, link: links.find((l) => l.campaignId === campaignId)!, manualLink: links.find((l) => l.campaignId === manualCampaignId)! };
  }

  /** A real visit through the tracked redirect; returns the click id the landing page receives. */
  async function clickOn(code: string, ip = `203.0.113.${(seq++ % 200) + 1}`) {
    const res = await env.app.inject({ method: 'GET', url: `/r/${code}`, headers: { 'user-agent': PHONE }, remoteAddress: ip });
    expect(res.statusCode).toBe(302);
    return new URL(res.headers.location as string).searchParams.get('pa_click')!;
  }

  const wallet = async (client: Client) => (await client.request('GET', '/api/wallet')).json();
  const ledgerOk = async () => expect(await checkLedger(env.ctx.db)).toEqual([]);

  beforeAll(async () => {
    env = await makeEnv(dialect);
    admin = (await signedIn(env, 'admin')).client;
    operator = (await signedIn(env, 'operator')).client;
    const key = await admin.request('POST', '/api/admin/api-keys', { name: 'Shop', scopes: ['conversions:write', 'conversions:read'] });
    expect(key.statusCode, key.body).toBe(201);
    secret = key.json().secret;
    campaignId = (await admin.request('POST', '/api/admin/campaigns', campaignBody({ holdDays: 7, overrideBps: 1000, leadReward: 250, saleReward: 1000, tiers: [{ minSales: 3, bps: 1500 }] }))).json().campaign.id;
    await admin.request('PATCH', `/api/admin/campaigns/${campaignId}`, { status: 'active' });
    manualCampaignId = (await admin.request('POST', '/api/admin/campaigns', campaignBody({ names: { en: 'Manual' }, approvalMode: 'manual', saleRewardType: 'fixed', saleReward: 500, leadReward: 0, holdDays: 0 }))).json().campaign.id;
    await admin.request('PATCH', `/api/admin/campaigns/${manualCampaignId}`, { status: 'active' });
  });
  afterAll(async () => {
    await env?.close();
  });

  describe('API keys', () => {
    it('shows the secret once, stores it hashed, lists without it, and only admins manage keys', async () => {
      const res = await admin.request('POST', '/api/admin/api-keys', { name: 'Reader', scopes: ['conversions:read'] });
      expect(res.statusCode).toBe(201);
      const { id, secret: s, apiKey } = res.json();
      expect(s).toMatch(/^pa_[A-Za-z0-9_-]{40}$/);
      expect(apiKey).toMatchObject({ name: 'Reader', prefix: s.slice(0, 10), scopes: ['conversions:read'], requireSignature: false, lastUsedAt: null, revokedAt: null });
      const row = await env.ctx.db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      expect(row.secret_hash).toBe(sha(s));
      expect(JSON.stringify(row)).not.toContain(s);
      const list = (await admin.request('GET', '/api/admin/api-keys')).json().items;
      expect(list.find((k: { id: string }) => k.id === id)).toEqual(apiKey);
      expect(JSON.stringify(list)).not.toContain(s);
      expect(errorCode(await operator.request('POST', '/api/admin/api-keys', { name: 'x', scopes: ['conversions:write'] }))).toBe('FORBIDDEN');
      expect(errorCode(await operator.request('GET', '/api/admin/api-keys'))).toBe('FORBIDDEN');
      expect((await admin.request('POST', '/api/admin/api-keys', { name: '', scopes: [] })).json().error.fields).toEqual({ name: 'too_short', scopes: 'too_short' });
      expect((await admin.request('POST', '/api/admin/api-keys', { name: 'x', scopes: ['everything'] })).json().error.code).toBe('VALIDATION_FAILED');
    });

    it('refuses a missing, unknown or revoked key and the wrong scope; records last use', async () => {
      const body = { campaignId, kind: 'lead', externalId: ext('auth') };
      expect(errorCode(await env.app.inject({ method: 'POST', url: '/api/v1/conversions', payload: body }))).toBe('UNAUTHENTICATED');
      expect(errorCode(await post(body, { key: 'pa_not-a-real-key' }))).toBe('UNAUTHENTICATED');
      const reader = (await admin.request('POST', '/api/admin/api-keys', { name: 'Read only', scopes: ['conversions:read'] })).json();
      expect(errorCode(await post(body, { key: reader.secret }))).toBe('FORBIDDEN');
      const writer = (await admin.request('POST', '/api/admin/api-keys', { name: 'Soon revoked', scopes: ['conversions:write'] })).json();
      expect((await post(body, { key: writer.secret })).statusCode).toBe(201);
      const used = await env.ctx.db.selectFrom('api_keys').select('last_used_at').where('id', '=', writer.id).executeTakeFirstOrThrow();
      expect(used.last_used_at).not.toBeNull();
      expect((await admin.request('POST', `/api/admin/api-keys/${writer.id}/revoke`)).statusCode).toBe(200);
      expect(errorCode(await post({ ...body, externalId: ext('auth') }, { key: writer.secret }))).toBe('UNAUTHENTICATED');
      expect(errorCode(await admin.request('POST', `/api/admin/api-keys/${writer.id}/revoke`))).toBe('INVALID_STATE_TRANSITION');
      // Browser sessions do not open the server-to-server API.
      expect(errorCode(await admin.request('POST', '/api/v1/conversions', body))).toBe('UNAUTHENTICATED');
    });

    it('checks X-Signature: required when the key says so, always when sent; 5 minutes of tolerance', async () => {
      const signed = (await admin.request('POST', '/api/admin/api-keys', { name: 'Signed', scopes: ['conversions:write'], requireSignature: true })).json();
      const body = { campaignId, kind: 'lead', externalId: ext('sig') };
      const now = Math.floor(Date.now() / 1000);
      const sign = (t: number, key = signed.secret) => (raw: string) => `t=${t},v1=${signBody(key, t, raw)}`;
      expect((await post(body, { key: signed.secret })).json().error).toMatchObject({ code: 'SIGNATURE_INVALID', fields: { 'X-Signature': 'required' } });
      expect((await post(body, { key: signed.secret, signature: sign(now - 301) })).json().error).toMatchObject({ code: 'SIGNATURE_INVALID', fields: { 'X-Signature': 'stale' } });
      expect((await post(body, { key: signed.secret, signature: sign(now, secret) })).json().error).toMatchObject({ code: 'SIGNATURE_INVALID', fields: { 'X-Signature': 'mismatch' } });
      expect(errorCode(await post(body, { key: signed.secret, signature: 'v1=abc' }))).toBe('SIGNATURE_INVALID');
      // A body changed after signing fails.
      const tampered = (raw: string) => sign(now)(raw.replace('lead', 'sale'));
      expect(errorCode(await post(body, { key: signed.secret, signature: tampered }))).toBe('SIGNATURE_INVALID');
      expect(await env.ctx.db.selectFrom('conversions').select('id').where('external_id', '=', body.externalId).execute()).toEqual([]);
      expect((await post(body, { key: signed.secret, signature: sign(now - 290) })).statusCode).toBe(201);
      // Two v1 values (a secret being rolled): any one that matches will do, in either place; none matching is a mismatch.
      const wrong = signBody(secret, now, 'x');
      const rolled = (first: boolean) => (raw: string) => (first ? `t=${now},v1=${signBody(signed.secret, now, raw)},v1=${wrong}` : `t=${now},v1=${wrong},v1=${signBody(signed.secret, now, raw)}`);
      expect((await post({ ...body, externalId: ext('sig') }, { key: signed.secret, signature: rolled(true) })).statusCode).toBe(201);
      expect((await post({ ...body, externalId: ext('sig') }, { key: signed.secret, signature: rolled(false) })).statusCode).toBe(201);
      expect((await post({ ...body, externalId: ext('sig') }, { key: signed.secret, signature: `t=${now},v1=${wrong},v1=${wrong}` })).json().error).toMatchObject({ code: 'SIGNATURE_INVALID', fields: { 'X-Signature': 'mismatch' } });
      // A key that does not require signatures still rejects a wrong one.
      expect(errorCode(await post({ ...body, externalId: ext('sig') }, { signature: sign(now) }))).toBe('SIGNATURE_INVALID');
    });
  });

  describe('reporting conversions', () => {
    it('rejects bad input and changes nothing', async () => {
      const before = await env.ctx.db.selectFrom('conversions').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      expect((await post({ campaignId: 'missing', kind: 'sale', externalId: ext('bad'), amount: 100 })).json().error).toMatchObject({ code: 'NOT_FOUND', fields: { campaignId: 'not_found' } });
      const draft = (await admin.request('POST', '/api/admin/campaigns', campaignBody())).json().campaign.id;
      expect(errorCode(await post({ campaignId: draft, kind: 'sale', externalId: ext('bad'), amount: 100 }))).toBe('CAMPAIGN_NOT_ACTIVE');
      expect((await post({ campaignId, kind: 'sale', externalId: ext('bad'), amount: -5 })).json().error.fields).toHaveProperty('amount');
      expect((await post({ campaignId, kind: 'sale', externalId: ext('bad'), amount: 10.5 })).json().error.fields).toHaveProperty('amount');
      expect((await post({ campaignId, kind: 'sale', externalId: ext('bad') })).json().error.fields).toEqual({ amount: 'required' });
      expect((await post({ campaignId, kind: 'sale', externalId: ext('bad'), amount: 0 })).json().error.fields).toEqual({ amount: 'invalid' });
      expect((await post({ campaignId, kind: 'refund', externalId: ext('bad'), amount: 100 })).json().error.fields).toEqual({ refundOf: 'required' });
      expect((await post({ campaignId, kind: 'refund', externalId: ext('bad'), amount: 100, refundOf: 'never-sold' })).json().error).toMatchObject({ code: 'VALIDATION_FAILED', fields: { refundOf: 'not_found' } });
      expect((await post({ campaignId, kind: 'bonus', externalId: ext('bad') })).json().error.fields).toHaveProperty('kind');
      expect((await post({ campaignId, kind: 'lead', externalId: ext('bad'), surprise: 1 })).json().error.code).toBe('VALIDATION_FAILED');
      expect((await post({ campaignId, kind: 'lead', externalId: ext('bad'), occurredAt: Date.now() + DAY })).json().error.fields).toEqual({ occurredAt: 'invalid' });
      const after = await env.ctx.db.selectFrom('conversions').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      expect(Number(after.n)).toBe(Number(before.n));
    });

    it('attributes a sale to the click from a real redirect and credits a pending commission with its date', async () => {
      const { client, user, link } = await promoterWithLinks();
      const clickId = await clickOn(link.code);
      const occurredAt = Date.now();
      const res = await post({ campaignId, kind: 'sale', externalId: ext('sale'), amount: 19_999, clickId, occurredAt });
      expect(res.statusCode, res.body).toBe(201);
      const { conversion, commissions } = res.json();
      expect(conversion).toMatchObject({ status: 'attributed', attributedBy: 'click', promoterId: user.id, linkId: link.id, amount: 19_999, clickId });
      expect(commissions).toHaveLength(1);
      // 10% of 199.99 = 19.999 → 20.00 (round half up).
      expect(commissions[0]).toMatchObject({ level: 1, promoterId: user.id, amount: 2000, base: 19_999, rateBps: 1000, rule: 'sale_rate', status: 'pending', availableAt: occurredAt + 7 * DAY, linkCode: link.code });
      expect(await wallet(client)).toEqual({ currency: 'CNY', available: 0, pending: 2000, withdrawing: 0, paidOut: 0 });
      await ledgerOk();
    });

    it('is idempotent: a repeat returns the stored result with 200 and changes nothing', async () => {
      const { client, link } = await promoterWithLinks();
      const body = { campaignId, kind: 'sale', externalId: ext('dup'), amount: 5000, linkCode: link.code };
      const first = await post(body);
      expect(first.statusCode).toBe(201);
      const again = await post({ ...body, amount: 9999 });
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual(first.json());
      expect((await wallet(client)).pending).toBe(500);
      const read = await v1('GET', `/api/v1/conversions/${body.externalId}?campaignId=${campaignId}`);
      expect(read.json()).toEqual(first.json());
      expect(errorCode(await v1('GET', `/api/v1/conversions/unknown?campaignId=${campaignId}`))).toBe('NOT_FOUND');
    });

    it('the same sale delivered 20 times at once makes one conversion and one commission set', async () => {
      const inviter = await promoterWithLinks();
      const { client, link } = await promoterWithLinks(inviter.user.id);
      const body = { campaignId, kind: 'sale', externalId: ext('storm'), amount: 10_000, linkCode: link.code };
      const results = await Promise.all(Array.from({ length: 20 }, () => post(body)));
      expect(results.map((r) => r.statusCode).sort()).toEqual([...Array(19).fill(200), 201]);
      expect(new Set(results.map((r) => r.json().conversion.id)).size).toBe(1);
      // The first answer (built from what was written) and the repeats (read back) are the same, the member's name masked.
      const answers = results.map((r) => r.json());
      for (const a of answers) expect(a).toEqual(answers[0]);
      expect(answers[0].commissions[1]).toMatchObject({ level: 2, sourceName: 'p********n' });
      const rows = await env.ctx.db.selectFrom('commissions').innerJoin('conversions', 'conversions.id', 'commissions.conversion_id').select(['commissions.level', 'commissions.amount']).where('conversions.external_id', '=', body.externalId).orderBy('commissions.level').execute();
      expect(rows.map((r) => [r.level, Number(r.amount)])).toEqual([[1, 1000], [2, 100]]);
      expect((await wallet(client)).pending).toBe(1000);
      expect((await wallet(inviter.client)).pending).toBe(100);
      await ledgerOk();
    });


    it('a bad delivery arriving together with good ones fails alone; the good ones are all stored', async () => {
      const { client, link } = await promoterWithLinks();
      const good = Array.from({ length: 8 }, (_, i) => ({ campaignId, kind: 'sale', externalId: ext(`mix${i}`), amount: 1_000, linkCode: link.code }));
      const bad = [
        { campaignId, kind: 'refund', externalId: ext('mixr'), amount: 100, refundOf: 'no-such-sale' },
        { campaignId: '01J00000000000000000000000', kind: 'sale', externalId: ext('mixc'), amount: 100, linkCode: link.code },
      ];
      const before = conversionBatchStats(env.ctx);
      const results = await Promise.all([...good.slice(0, 4), bad[0]!, ...good.slice(4), bad[1]!].map((b) => post(b)));
      // On both databases the sales share group commits; the unknown campaign is that delivery's own
      // catalogue error, which fails it alone without sending the batch round again (the refund runs
      // on its own, serialized on its sale). db/unit-of-work tests the rollback-and-retry path.
      const after = conversionBatchStats(env.ctx);
      expect(after.items - before.items).toBe(9);
      expect(after.batches - before.batches).toBeLessThan(9);
      expect(after.retried).toBe(before.retried);
      expect(results.map((r) => r.statusCode)).toEqual([201, 201, 201, 201, 400, 201, 201, 201, 201, 404]);
      expect(errorCode(results[4]!)).toBe('VALIDATION_FAILED');
      const stored = await env.ctx.db.selectFrom('conversions').select('external_id').where('external_id', 'in', [...good, ...bad].map((b) => b.externalId)).execute();
      expect(stored.map((r) => r.external_id).sort()).toEqual(good.map((b) => b.externalId).sort());
      const earned = await env.ctx.db.selectFrom('commissions').innerJoin('conversions', 'conversions.id', 'commissions.conversion_id').select('commissions.amount').where('conversions.external_id', 'in', good.map((b) => b.externalId)).execute();
      expect(earned).toHaveLength(8);
      expect((await wallet(client)).pending).toBe(earned.reduce((sum, c) => sum + Number(c.amount), 0));
      await ledgerOk();
    });
    it('attribution order: coupon beats click, click beats known customer, which beats link code; old clicks expire', async () => {
      const a = await promoterWithLinks();
      const b = await promoterWithLinks();
      const c = await promoterWithLinks();
      // An operator gives A a coupon code; A sees it on the campaign.
      const enrollmentOf = async (p: { client: Client }) => (await p.client.request('GET', `/api/campaigns/${campaignId}`)).json().campaign.enrollment;
      const aEnrollment = await enrollmentOf(a);
      const coupon = `Tea-${seq++}`;
      expect((await operator.request('PATCH', `/api/admin/enrollments/${aEnrollment.id}`, { couponCode: coupon })).statusCode).toBe(200);
      expect((await enrollmentOf(a)).couponCode).toBe(coupon.toUpperCase());
      expect((await operator.request('PATCH', `/api/admin/enrollments/${(await enrollmentOf(b)).id}`, { couponCode: coupon.toLowerCase() })).json().error).toMatchObject({ code: 'VALIDATION_FAILED', fields: { couponCode: 'taken' } });
      expect((await operator.request('PATCH', `/api/admin/enrollments/${aEnrollment.id}`, { couponCode: 'no spaces' })).json().error.fields).toHaveProperty('couponCode');
      expect(errorCode(await a.client.request('PATCH', `/api/admin/enrollments/${aEnrollment.id}`, { couponCode: 'MINE' }))).toBe('FORBIDDEN');
      expect(errorCode(await operator.request('PATCH', '/api/admin/enrollments/missing', { couponCode: 'NOPE' }))).toBe('NOT_FOUND');
      const clickB = await clickOn(b.link.code);
      const byCoupon = (await post({ campaignId, kind: 'lead', externalId: ext('o'), couponCode: coupon.toLowerCase(), clickId: clickB, linkCode: c.link.code })).json().conversion;
      expect([byCoupon.attributedBy, byCoupon.promoterId]).toEqual(['coupon', a.user.id]);
      const customer = ext('cust');
      const byClick = (await post({ campaignId, kind: 'lead', externalId: ext('o'), clickId: clickB, linkCode: c.link.code, customerExternalId: customer })).json().conversion;
      expect([byClick.attributedBy, byClick.promoterId]).toEqual(['click', b.user.id]);
      // The same customer comes back through C's link code: the known customer keeps B.
      const byCustomer = (await post({ campaignId, kind: 'sale', amount: 1000, externalId: ext('o'), linkCode: c.link.code, customerExternalId: customer })).json().conversion;
      expect([byCustomer.attributedBy, byCustomer.promoterId]).toEqual(['customer', b.user.id]);
      const byLink = (await post({ campaignId, kind: 'lead', externalId: ext('o'), linkCode: c.link.code.toUpperCase() })).json().conversion;
      expect([byLink.attributedBy, byLink.promoterId]).toEqual(['link', c.user.id]);
      // A click older than the 30-day window no longer attributes.
      const oldClick = await clickOn(b.link.code);
      const late = (await post({ campaignId, kind: 'lead', externalId: ext('o'), clickId: oldClick, occurredAt: Date.now() })).json().conversion;
      expect(late.attributedBy).toBe('click');
      await env.ctx.db.updateTable('clicks').set({ at: Date.now() - 31 * DAY }).where('id', '=', oldClick).execute();
      const expired = (await post({ campaignId, kind: 'lead', externalId: ext('o'), clickId: oldClick })).json().conversion;
      expect(expired).toMatchObject({ status: 'unattributed', promoterId: null, reason: 'no_match' });
    });

    it('stores unattributed conversions for operators, earning nothing, and rejects self-referrals with the reason', async () => {
      const none = await post({ campaignId, kind: 'sale', externalId: ext('none'), amount: 1234 });
      expect(none.statusCode).toBe(201);
      expect(none.json()).toMatchObject({ conversion: { status: 'unattributed', promoterId: null }, commissions: [] });
      const { client, user, link } = await promoterWithLinks();
      const self = await post({ campaignId, kind: 'sale', externalId: ext('self'), amount: 5000, linkCode: link.code, customerEmailSha256: sha(user.account).toUpperCase() });
      expect(self.json()).toMatchObject({ conversion: { status: 'rejected', reason: 'self_referral', promoterId: user.id }, commissions: [] });
      expect((await wallet(client)).pending).toBe(0);
      const list = (await operator.request('GET', '/api/admin/conversions?status=unattributed')).json().items;
      expect(list.some((c: { id: string }) => c.id === none.json().conversion.id)).toBe(true);
      const rejected = (await operator.request('GET', '/api/admin/conversions?status=rejected')).json().items;
      expect(rejected.find((c: { id: string }) => c.id === self.json().conversion.id)).toMatchObject({ reason: 'self_referral', promoterName: 'promoter person', campaignName: 'Summer Tea' });
      const { client: promoter } = await signedIn(env, 'promoter');
      expect(errorCode(await promoter.request('GET', '/api/admin/conversions'))).toBe('FORBIDDEN');
    });

    it('pays a fixed lead reward, tiers by monthly sales, and the inviter’s override while active', async () => {
      const inviter = await promoterWithLinks();
      const p = await promoterWithLinks(inviter.user.id);
      const lead = (await post({ campaignId, kind: 'lead', externalId: ext('lead'), linkCode: p.link.code })).json().commissions;
      expect(lead.map((c: { level: number; amount: number; rule: string }) => [c.level, c.amount, c.rule])).toEqual([[1, 250, 'lead_fixed'], [2, 25, 'override']]);
      const amounts: number[] = [];
      for (let i = 0; i < 4; i++) amounts.push((await post({ campaignId, kind: 'sale', externalId: ext('tier'), amount: 10_000, linkCode: p.link.code })).json().commissions[0].amount);
      // The third sale in the month reaches the 15% tier.
      expect(amounts).toEqual([1000, 1000, 1500, 1500]);
      await env.ctx.db.updateTable('users').set({ status: 'suspended' }).where('id', '=', inviter.user.id).execute();
      const noOverride = (await post({ campaignId, kind: 'sale', externalId: ext('tier'), amount: 10_000, linkCode: p.link.code })).json().commissions;
      expect(noOverride.map((c: { level: number }) => c.level)).toEqual([1]);
      await env.ctx.db.updateTable('users').set({ status: 'active' }).where('id', '=', inviter.user.id).execute();
      await ledgerOk();
    });
  });

  describe('lifecycle', () => {
    it('the scheduler approves due commissions of auto campaigns exactly once, even when two run at once', async () => {
      const p = await promoterWithLinks();
      const due = (await post({ campaignId, kind: 'sale', externalId: ext('due'), amount: 20_000, linkCode: p.link.code, occurredAt: Date.now() - 8 * DAY })).json().commissions[0];
      const notYet = (await post({ campaignId, kind: 'sale', externalId: ext('due'), amount: 10_000, linkCode: p.link.code })).json().commissions[0];
      const manual = (await post({ campaignId: manualCampaignId, kind: 'sale', externalId: ext('due'), amount: 10_000, linkCode: p.manualLink.code, occurredAt: Date.now() - DAY })).json().commissions[0];
      // Several instances share a database only on PostgreSQL; on SQLite (one server) two runs overlap in one process.
      const second = dialect === 'postgres' ? await env.restart() : { ctx: env.ctx };
      const [x, y] = await Promise.all([approveDue(env.ctx), approveDue(second.ctx)]);
      expect(x + y).toBeGreaterThanOrEqual(1);
      const approvals = await env.ctx.db.selectFrom('ledger_journals').select('ref_id').where('kind', '=', 'commission_approved').where('ref_id', 'in', [due.id, notYet.id, manual.id]).execute();
      expect(approvals.map((j) => j.ref_id)).toEqual([due.id]);
      const statuses = await env.ctx.db.selectFrom('commissions').select(['id', 'status']).where('id', 'in', [due.id, notYet.id, manual.id]).execute();
      expect(Object.fromEntries(statuses.map((s) => [s.id, s.status]))).toEqual({ [due.id]: 'approved', [notYet.id]: 'pending', [manual.id]: 'pending' });
      expect(await wallet(p.client)).toMatchObject({ available: 2000, pending: 1000 + 500 });
      await ledgerOk();
    });

    it('operators approve and reject (with a reason, also in bulk); a decided commission cannot be decided again', async () => {
      const p = await promoterWithLinks();
      const ids: string[] = [];
      for (let i = 0; i < 4; i++) ids.push((await post({ campaignId: manualCampaignId, kind: 'sale', externalId: ext('op'), amount: 1000, linkCode: p.manualLink.code })).json().commissions[0].id);
      const listed = (await operator.request('GET', `/api/admin/commissions?status=pending&campaignId=${manualCampaignId}`)).json().items as { id: string; externalId: string; conversionId: string }[];
      const queue = listed.map((c) => c.id);
      expect(queue).toEqual(expect.arrayContaining(ids));
      // Each carries its order's id (the console's CSV has it as external_id; issue 28).
      for (const c of listed) {
        const stored = await env.ctx.db.selectFrom('conversions').select('external_id').where('id', '=', c.conversionId).executeTakeFirstOrThrow();
        expect(c.externalId).toBe(stored.external_id);
      }
      const approved = await operator.request('POST', `/api/admin/commissions/${ids[0]}/approve`);
      expect(approved.statusCode, approved.body).toBe(200);
      expect((await operator.request('POST', `/api/admin/commissions/${ids[1]}/reject`, {})).json().error).toMatchObject({ code: 'VALIDATION_FAILED', fields: { reason: 'required' } });
      expect((await operator.request('POST', `/api/admin/commissions/${ids[1]}/reject`, { reason: 'Order was cancelled' })).statusCode).toBe(200);
      expect(errorCode(await operator.request('POST', `/api/admin/commissions/${ids[0]}/reject`, { reason: 'late' }))).toBe('INVALID_STATE_TRANSITION');
      const bulk = await operator.request('POST', '/api/admin/commissions/bulk', { ids: [ids[2], ids[3], ids[0], 'missing'], action: 'approve' });
      expect(bulk.json()).toEqual({ changed: [ids[2], ids[3]], skipped: [ids[0], 'missing'] });
      expect(await wallet(p.client)).toMatchObject({ available: 1500, pending: 0 });
      const detail = (await p.client.request('GET', `/api/commissions/${ids[1]}`)).json();
      expect(detail.commission).toMatchObject({ status: 'rejected', reason: 'Order was cancelled' });
      expect(detail.events.map((e: { status: string }) => e.status)).toEqual(['pending', 'rejected']);
      expect(errorCode(await p.client.request('POST', `/api/admin/commissions/${ids[1]}/approve`))).toBe('FORBIDDEN');
      const audits = await env.ctx.db.selectFrom('audit_entries').select('action').where('entity_id', 'in', ids).execute();
      expect(audits.map((a) => a.action).sort()).toEqual(['commission.approve', 'commission.approve', 'commission.approve', 'commission.reject']);
      await ledgerOk();
    });

    it('refunds reverse proportionally: from pending during the hold, from available after, down to a negative balance that later earnings pay back', async () => {
      const p = await promoterWithLinks();
      const saleId = ext('refund');
      const sale = (await post({ campaignId, kind: 'sale', externalId: saleId, amount: 10_001, linkCode: p.link.code })).json();
      expect(sale.commissions[0].amount).toBe(1000);
      // Three partial refunds during the hold: pending goes down, exactly to zero at the end.
      for (const [i, amount] of [3333, 3333].entries()) expect((await post({ campaignId, kind: 'refund', externalId: `${saleId}-r${i}`, refundOf: saleId, amount })).statusCode).toBe(201);
      expect((await post({ campaignId, kind: 'refund', externalId: `${saleId}-r9`, refundOf: saleId, amount: 3336 })).json().error).toMatchObject({ code: 'VALIDATION_FAILED', fields: { amount: 'too_large' } });
      expect((await wallet(p.client)).pending).toBe(1000 - 333 - 333);
      await post({ campaignId, kind: 'refund', externalId: `${saleId}-r2`, refundOf: saleId, amount: 3335 });
      expect((await wallet(p.client)).pending).toBe(0);
      const reversed = (await p.client.request('GET', `/api/commissions/${sale.commissions[0].id}`)).json();
      expect(reversed.commission).toMatchObject({ status: 'reversed', reversedAmount: 1000 });
      expect(reversed.events.map((e: { status: string }) => e.status)).toEqual(['pending', 'partially_reversed', 'partially_reversed', 'reversed']);

      // After crediting: two manual-campaign sales are approved and withdrawn (paid out), then one is refunded:
      // available goes negative, withdrawals are blocked, and later earnings pay it back first.
      const big = ext('neg');
      const c = (await post({ campaignId: manualCampaignId, kind: 'sale', externalId: big, amount: 10_000, linkCode: p.manualLink.code })).json().commissions[0];
      const c2 = (await post({ campaignId: manualCampaignId, kind: 'sale', externalId: ext('neg'), amount: 10_000, linkCode: p.manualLink.code })).json().commissions[0];
      await operator.request('POST', `/api/admin/commissions/${c.id}/approve`);
      await operator.request('POST', `/api/admin/commissions/${c2.id}/approve`);
      expect((await wallet(p.client)).available).toBe(1000);
      expect((await p.client.request('POST', '/api/payout-accounts', { method: 'alipay', holderName: 'P', accountNumber: await p.client.seal('+8613800138000') })).statusCode).toBe(201);
      const w = (await p.client.request('POST', '/api/withdrawals', { amount: 1000 }, { headers: { 'idempotency-key': ext('w') } })).json().withdrawal;
      await operator.request('POST', `/api/admin/withdrawals/${w.id}/approve`);
      expect((await operator.request('POST', `/api/admin/withdrawals/${w.id}/pay`, { reference: 'ALI-1' })).json().withdrawal.status).toBe('paid');
      await post({ campaignId: manualCampaignId, kind: 'refund', externalId: `${big}-r`, refundOf: big, amount: 10_000 });
      expect(await wallet(p.client)).toMatchObject({ available: -500, paidOut: 1000 });
      expect(errorCode(await p.client.request('POST', '/api/withdrawals', { amount: 1000 }))).toBe('NEGATIVE_BALANCE');
      const next = (await post({ campaignId: manualCampaignId, kind: 'sale', externalId: ext('neg'), amount: 1, linkCode: p.manualLink.code })).json().commissions[0];
      await operator.request('POST', `/api/admin/commissions/${next.id}/approve`);
      expect((await wallet(p.client)).available).toBe(0);
      // Each of these reached the promoter as a notification, with what it needs to be told in any language.
      const notes = (await p.client.request('GET', '/api/notifications?limit=100')).json().items as { type: string; params: Record<string, unknown> }[];
      const types = new Set(notes.map((n) => n.type));
      for (const t of ['commission.created', 'commission.approved', 'commission.reversed', 'withdrawal.requested', 'withdrawal.approved', 'withdrawal.paid']) expect(types, t).toContain(t);
      const reversedNote = notes.find((n) => n.type === 'commission.reversed' && n.params.commissionId === c.id)!;
      expect(reversedNote.params).toMatchObject({ amount: 500, level: 1, campaign: { en: 'Manual' } });
      await ledgerOk();
    });
  });

  describe('the promoter’s own figures', () => {
    it('lists, filters and details only one’s own commissions; the ledger shows every movement; CSV in the promoter’s language', async () => {
      const p = await promoterWithLinks();
      const other = await promoterWithLinks();
      const a = (await post({ campaignId, kind: 'sale', externalId: ext('mine'), amount: 3000, linkCode: p.link.code, occurredAt: Date.now() - 2 * DAY })).json().commissions[0];
      const b = (await post({ campaignId: manualCampaignId, kind: 'lead', externalId: ext('mine'), linkCode: p.manualLink.code })).json().commissions;
      expect(b).toEqual([]); // the manual campaign pays no lead reward
      const theirs = (await post({ campaignId, kind: 'sale', externalId: ext('theirs'), amount: 3000, linkCode: other.link.code })).json().commissions[0];
      const list = (await p.client.request('GET', '/api/commissions')).json();
      expect(list.items.map((c: { id: string }) => c.id)).toEqual([a.id]);
      expect((await p.client.request('GET', '/api/commissions?status=approved')).json().items).toEqual([]);
      expect((await p.client.request('GET', `/api/commissions?campaignId=${manualCampaignId}`)).json().items).toEqual([]);
      const today = new Date().toISOString().slice(0, 10);
      expect((await p.client.request('GET', `/api/commissions?from=${today}&to=${today}`)).json().items).toEqual([]);
      expect(errorCode(await p.client.request('GET', `/api/commissions/${theirs.id}`))).toBe('NOT_FOUND');
      const detail = (await p.client.request('GET', `/api/commissions/${a.id}`)).json();
      expect(detail).toMatchObject({ commission: { id: a.id, campaignName: 'Summer Tea', linkCode: p.link.code, rule: 'sale_rate' }, conversion: { kind: 'sale', amount: 3000 }, currency: 'CNY' });
      const ledger = (await p.client.request('GET', '/api/ledger')).json().items;
      expect(ledger).toEqual([expect.objectContaining({ kind: 'commission_created', account: 'pending', amount: 300, refId: a.id })]);

      const csv = await new Client(env.app, { locale: 'zh-Hans' });
      await csv.login(p.user.account, 'Passw0rd-test');
      const res = await csv.request('GET', '/api/commissions/export');
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toMatch(/^attachment; filename="commissions-\d{4}-\d{2}-\d{2}\.csv"$/);
      expect(res.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
      const lines = res.body.replace(/^\uFEFF/, '').trim().split('\r\n');
      // Column names: snake_case in every language, like every export (issue 28); values in the reader's.
      expect(lines[0]).toBe('occurred_at,campaign,kind,level,external_id,base,rate,amount,reversed_amount,status,available_at,link_code,currency');
      expect(lines).toHaveLength(2);
      expect(lines[1]).toContain(',夏日茶饮,订单,直接,');
      expect(lines[1]).toContain(',30.00,10.00%,3.00,0.00,待结算,');
      // The order number and the link code open as text; the amounts above stay numbers.
      expect(lines[1]).toContain(`,"=""${detail.conversion.externalId}""",`);
      expect(lines[1]).toContain(`,"=""${p.link.code}""",CNY`);
    });

    it('the day filters bound the list and the export alike', async () => {
      const p = await promoterWithLinks();
      const a = (await post({ campaignId, kind: 'sale', externalId: ext('days'), amount: 3000, linkCode: p.link.code, occurredAt: Date.now() - 2 * DAY })).json().commissions[0];
      // Days far enough from the sale that any installation time zone (±14 h) puts it on the same side.
      const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
      const [today, before, longBefore] = [day(Date.now()), day(Date.now() - 3 * DAY), day(Date.now() - 5 * DAY)];
      const listed = async (q: string) => (await p.client.request('GET', `/api/commissions?${q}`)).json().items.map((c: { id: string }) => c.id);
      const exported = async (q: string) => (await p.client.request('GET', `/api/commissions/export?${q}`)).body.replace(/^\uFEFF/, '').trim().split('\r\n').length - 1;
      expect(await listed(`from=${before}&to=${today}`)).toEqual([a.id]);
      expect(await exported(`from=${before}&to=${today}`)).toBe(1);
      expect(await listed(`from=${today}`)).toEqual([]);
      expect(await exported(`from=${today}`)).toBe(0);
      expect(await listed(`to=${longBefore}`)).toEqual([]);
      expect(await exported(`to=${longBefore}`)).toBe(0);
    });

    it('the ledger check endpoint is for admins and reports a healthy ledger', async () => {
      const res = await admin.request('GET', '/api/admin/ledger/check');
      expect(res.json()).toEqual({ ok: true, breaches: [] });
      expect(errorCode(await operator.request('GET', '/api/admin/ledger/check'))).toBe('FORBIDDEN');
      // A tampered balance is found.
      const someone = await createUser(env.ctx, 'promoter');
      await env.ctx.db.insertInto('ledger_balances').values({ account: `promoter:${someone.id}:available`, balance: 1, updated_at: Date.now() }).execute();
      const broken = (await admin.request('GET', '/api/admin/ledger/check')).json();
      expect(broken.ok).toBe(false);
      expect(broken.breaches).toEqual([{ kind: 'balance_mismatch', ref: `promoter:${someone.id}:available`, detail: 'stored 1, entries 0' }]);
      await env.ctx.db.deleteFrom('ledger_balances').where('account', '=', `promoter:${someone.id}:available`).execute();
    });
  });
});
