/**
 * Reward rules, line items and caps (issue 31): the pure rules (@pa/shared/reward-rules, domain/rewards.ts) — including a
 * replay proving that a campaign's fields, turned into base rules, earn exactly what the old
 * single-rate engine paid — and the API on both databases: groups with their own rates, two lines
 * earning by two rules, a refund of one line, conditions on new customers, country and metadata,
 * caps and a monthly budget under 50 concurrent sales, and the explanation stored with each sale.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RewardRule } from '@pa/shared';
import { DAY_MS, level1Commission, reachedTier, type CommissionTerms } from '../src/domain/commission';
import { applyCaps, legacyRuleName } from '../src/domain/rewards';
import { conditionHolds, decideLines, type RewardFacts } from '@pa/shared/reward-rules';
import { baseRules, fieldsOf, withFields } from '../src/modules/campaigns/rewards';
import { checkLedger } from '../src/platform/ledger';
import { readSettings } from '../src/platform/settings';
import { formatMoney } from '@pa/shared/format';
import { campaignBody, Client, DIALECTS, errorCode, makeEnv, signedIn, type TestEnv } from './helpers';

const PHONE = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Mobile Safari/537.36';
const RUNS = Number(process.env.PROPERTY_RUNS ?? 200);
const rule = (r: Partial<RewardRule> & Pick<RewardRule, 'id' | 'reward'>): RewardRule => ({ event: 'sale', groupIds: [], conditions: [], label: null, capPerPromoterPerMonth: null, ...r });
const facts = (f: Partial<RewardFacts>): RewardFacts => ({ event: 'sale', groupId: 'default', country: null, newCustomer: null, metadata: {}, lines: [{ sku: null, category: null, quantity: 1, amount: 10_000 }], ...f });

describe('reward rules (pure)', () => {
  it('replays the single-rate engine: a campaign’s fields as base rules earn exactly what they earned', () => {
    const terms = fc.record({
      leadReward: fc.integer({ min: 0, max: 1_000_000 }),
      saleRewardType: fc.constantFrom<'bps' | 'fixed'>('bps', 'fixed'),
      saleReward: fc.integer({ min: 0, max: 10_000 }),
      tiers: fc.array(fc.record({ minSales: fc.integer({ min: 1, max: 20 }), bps: fc.integer({ min: 0, max: 10_000 }) }), { maxLength: 4 }),
    });
    fc.assert(fc.property(terms, fc.constantFrom<'lead' | 'sale'>('lead', 'sale'), fc.integer({ min: 0, max: 10_000_000_000 }), fc.integer({ min: 0, max: 30 }), (t: CommissionTerms, kind, amount, salesThisMonth) => {
      const old = level1Commission(t, { kind, amount }, salesThisMonth);
      const tier = kind === 'sale' ? reachedTier(t.tiers, salesThisMonth + 1) : null;
      const [d] = decideLines(baseRules(t), facts({ event: kind, lines: [{ sku: null, category: null, quantity: 1, amount }] }), tier?.bps ?? null);
      expect(d!.amount).toBe(old?.amount ?? 0);
      if (old) {
        expect(legacyRuleName(d!, kind)).toBe(old.rule);
        expect(kind === 'lead' ? null : d!.bps).toBe(old.rateBps);
      }
    }), { numRuns: RUNS * 5 });
  });

  it('the fields and the base rules are one thing', () => {
    const f = { leadReward: 250, saleRewardType: 'fixed' as const, saleReward: 900 };
    expect(fieldsOf(baseRules(f))).toEqual(f);
    const special = rule({ id: 'tea', reward: { type: 'percent', bps: 1500 }, conditions: [{ field: 'sku', op: 'eq', value: 'TEA-01' }] });
    const next = withFields([special, ...baseRules(f)], { leadReward: 0, saleRewardType: 'bps', saleReward: 1200 });
    expect(next.map((r) => r.id)).toEqual(['tea', 'lead', 'sale']);
    expect(next[2]!.reward).toEqual({ type: 'percent', bps: 1200 });
    expect(withFields([special], f).map((r) => r.id)).toEqual(['tea', 'lead', 'sale']);
  });

  it('first match decides per line; a fixed reward is paid once per sale; a missing field fails all but notIn', () => {
    const rules = [
      rule({ id: 'tea', reward: { type: 'percent', bps: 1500 }, conditions: [{ field: 'sku', op: 'in', value: ['TEA-01', 'TEA-02'] }] }),
      rule({ id: 'cups', reward: { type: 'fixed', amount: 500 }, conditions: [{ field: 'category', op: 'eq', value: 'cups' }] }),
      rule({ id: 'sale', reward: { type: 'percent', bps: 1000 } }),
    ];
    const lines = [
      { sku: 'TEA-01', category: null, quantity: 2, amount: 11_800 },
      { sku: 'CUP-1', category: 'Cups', quantity: 1, amount: 3_000 },
      { sku: 'CUP-2', category: 'cups', quantity: 1, amount: 2_000 },
      { sku: 'X', category: null, quantity: 1, amount: 1_005 },
    ];
    const d = decideLines(rules, facts({ lines }), null);
    expect(d.map((x) => [x.ruleId, x.amount, x.paidBefore])).toEqual([['tea', 1_770, false], ['cups', 500, false], ['cups', 0, true], ['sale', 101, false]]);
    expect(d[3]!.missed).toEqual([{ ruleId: 'tea', condition: 0 }, { ruleId: 'cups', condition: 0 }]);
    const line = lines[3]!;
    expect(conditionHolds({ field: 'country', op: 'notIn', value: ['US'] }, facts({}), line)).toBe(true);
    expect(conditionHolds({ field: 'country', op: 'in', value: ['US'] }, facts({}), line)).toBe(false);
    expect(conditionHolds({ field: 'metadata.plan', op: 'eq', value: 'pro' }, facts({ metadata: { plan: 'Pro' } }), line)).toBe(true);
    expect(conditionHolds({ field: 'amount', op: 'gte', value: 1_005 }, facts({}), line)).toBe(true);
    expect(conditionHolds({ field: 'amount', op: 'lte', value: 1_004 }, facts({}), line)).toBe(false);
    expect(conditionHolds({ field: 'newCustomer', op: 'eq', value: true }, facts({ newCustomer: null }), line)).toBe(false);
  });

  it('a group rule applies to its group only; a tier replaces only a base percentage', () => {
    const rules = [rule({ id: 'gold', groupIds: ['gold'], reward: { type: 'percent', bps: 2000 } }), rule({ id: 'sale', reward: { type: 'percent', bps: 1000 } })];
    expect(decideLines(rules, facts({ groupId: 'gold' }), 1500)[0]).toMatchObject({ ruleId: 'gold', bps: 2000, tier: false, amount: 2_000 });
    expect(decideLines(rules, facts({ groupId: 'default' }), 1500)[0]).toMatchObject({ ruleId: 'sale', bps: 1500, tier: true, amount: 1_500 });
    expect(decideLines(rules, facts({ groupId: 'default', event: 'lead' }), null)[0]).toMatchObject({ ruleId: null, amount: 0 });
  });

  it('caps cut to what is left, last line first; the budget covers the override too', () => {
    const rules = [rule({ id: 'a', reward: { type: 'percent', bps: 5000 }, capPerPromoterPerMonth: 1_000 })];
    const d = decideLines(rules, facts({ lines: [{ sku: 'A', category: null, quantity: 1, amount: 1_000 }, { sku: 'B', category: null, quantity: 1, amount: 1_000 }] }), null);
    const cuts = applyCaps(d, rules, () => 300, null, 0);
    expect(d.map((x) => x.amount)).toEqual([500, 200]);
    expect(cuts).toEqual([{ cap: { ruleId: 'a' }, limit: 1_000, used: 300, before: 1_000, after: 700 }]);
    fc.assert(fc.property(fc.integer({ min: 0, max: 100_000 }), fc.integer({ min: 0, max: 100_000 }), fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 0, max: 100_000 }), (amount, limit, overrideBps, used) => {
      const lines = decideLines([rule({ id: 's', reward: { type: 'fixed', amount } })], facts({}), null);
      applyCaps(lines, [], () => 0, { limit, used }, overrideBps);
      const total = lines[0]!.amount;
      const spent = total + Math.floor((total * overrideBps + 5_000) / 10_000);
      expect(total).toBeLessThanOrEqual(amount);
      expect(spent).toBeLessThanOrEqual(Math.max(limit - used, 0));
      // As much as fits: one more minor unit would not.
      if (total < amount) expect(total + 1 + Math.floor(((total + 1) * overrideBps + 5_000) / 10_000)).toBeGreaterThan(Math.max(limit - used, 0));
    }), { numRuns: RUNS * 5 });
  });
});

describe.each(DIALECTS)('reward rules through the API on %s', (dialect) => {
  let env: TestEnv;
  let admin: Client;
  let secret: string;
  let seq = 0;
  const ext = (p: string) => `${p}-${Date.now().toString(36)}-${seq++}`;
  const post = (body: Record<string, unknown>) =>
    env.app.inject({ method: 'POST', url: '/api/v1/conversions', headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
  const ledgerOk = async () => expect(await checkLedger(env.ctx.db)).toEqual([]);

  async function campaign(body: Record<string, unknown>, rules?: unknown[], budgetPerMonth?: number | null) {
    const id = (await admin.request('POST', '/api/admin/campaigns', campaignBody({ holdDays: 7, ...body }))).json().campaign.id as string;
    expect((await admin.request('PATCH', `/api/admin/campaigns/${id}`, { status: 'active' })).statusCode).toBe(200);
    if (rules) {
      const res = await admin.request('PUT', `/api/admin/campaigns/${id}/rewards`, { rules, ...(budgetPerMonth !== undefined ? { budgetPerMonth } : {}) });
      expect(res.statusCode, res.body).toBe(200);
    }
    return id;
  }
  async function promoter(campaignId: string, groupId = 'default', parentId: string | null = null) {
    const { client, user } = await signedIn(env, 'promoter');
    await env.ctx.db.updateTable('users').set({ group_id: groupId, parent_id: parentId }).where('id', '=', user.id).execute();
    expect((await client.request('POST', `/api/campaigns/${campaignId}/join`)).statusCode).toBeLessThan(300);
    const links = (await client.request('GET', '/api/links')).json().items as { code: string; campaignId: string }[];
    return { client, user, code: links.find((l) => l.campaignId === campaignId)!.code };
  }
  async function clickOn(code: string) {
    const res = await env.app.inject({ method: 'GET', url: `/r/${code}`, headers: { 'user-agent': PHONE }, remoteAddress: `203.0.113.${(seq++ % 200) + 1}` });
    return new URL(res.headers.location as string).searchParams.get('pa_click')!;
  }
  const level1 = async (conversionId: string) => (await env.ctx.db.selectFrom('commissions').selectAll().where('conversion_id', '=', conversionId).where('level', '=', 1).executeTakeFirst()) ?? null;
  const explanation = async (conversionId: string) => JSON.parse((await env.ctx.db.selectFrom('conversions').select('explanation_json').where('id', '=', conversionId).executeTakeFirstOrThrow()).explanation_json!) as { step: string; outcome: string; detail: Record<string, unknown> }[];

  beforeAll(async () => {
    env = await makeEnv(dialect);
    admin = (await signedIn(env, 'admin')).client;
    secret = (await admin.request('POST', '/api/admin/api-keys', { name: 'Shop', scopes: ['conversions:write', 'conversions:read'] })).json().secret;
    const now = Date.now();
    await env.ctx.db.insertInto('promoter_groups').values({ id: 'gold', name: 'Gold', description: '', is_default: 0, created_at: now, updated_at: now }).execute();
  });
  afterAll(async () => {
    await env?.close();
  });

  it('a campaign’s fields are its base rules; the rules are checked; a PATCH of a field edits its rule', async () => {
    const id = await campaign({ leadReward: 300, saleReward: 800 });
    expect((await admin.request('GET', `/api/admin/campaigns/${id}/rewards`)).json()).toEqual({ rules: baseRules({ leadReward: 300, saleRewardType: 'bps', saleReward: 800 }), budgetPerMonth: null });
    await admin.request('PATCH', `/api/admin/campaigns/${id}`, { saleRewardType: 'fixed', saleReward: 1234 });
    expect((await admin.request('GET', `/api/admin/campaigns/${id}/rewards`)).json().rules[1].reward).toEqual({ type: 'fixed', amount: 1234 });
    const bad = async (rules: unknown[]) => (await admin.request('PUT', `/api/admin/campaigns/${id}/rewards`, { rules })).json().error;
    expect(await bad([{ event: 'sale', groupIds: ['nope'], reward: { type: 'percent', bps: 100 } }])).toMatchObject({ code: 'VALIDATION_FAILED', fields: { 'rules.0.groupIds': 'not_found' } });
    expect((await bad([{ event: 'sale', conditions: [{ field: 'amount', op: 'gte', value: 'x' }], reward: { type: 'percent', bps: 100 } }])).code).toBe('VALIDATION_FAILED');
    expect((await bad([{ event: 'sale', conditions: [{ field: 'colour', op: 'eq', value: 'red' }], reward: { type: 'percent', bps: 100 } }])).code).toBe('VALIDATION_FAILED');
    expect(await bad([{ id: 'sale', event: 'sale', conditions: [{ field: 'sku', op: 'eq', value: 'A' }], reward: { type: 'percent', bps: 100 } }])).toMatchObject({ fields: { 'rules.0.id': 'reserved' } });
    const put = await admin.request('PUT', `/api/admin/campaigns/${id}/rewards`, { rules: [{ event: 'sale', label: 'Tea 15 %', conditions: [{ field: 'sku', op: 'eq', value: 'TEA-01' }], reward: { type: 'percent', bps: 1500 } }, { id: 'sale', event: 'sale', reward: { type: 'percent', bps: 900 } }] });
    expect(put.json().rules.map((r: RewardRule) => r.id)).toEqual([expect.stringMatching(/^r[0-9a-f]{12}$/), 'sale']);
    expect((await admin.request('GET', `/api/admin/campaigns/${id}`)).json().campaign).toMatchObject({ leadReward: 0, saleRewardType: 'bps', saleReward: 900 });
    const entry = await env.ctx.db.selectFrom('audit_entries').select(['action']).where('entity_id', '=', id).where('action', '=', 'campaign.rewards').execute();
    expect(entry).toHaveLength(1);
  });

  it('two groups earn their own rates; two lines earn by two rules; a refund of one line reverses that line only', async () => {
    const id = await campaign({ saleReward: 1000, overrideBps: 1000 }, [
      { event: 'sale', groupIds: ['gold'], reward: { type: 'percent', bps: 2000 } },
      { event: 'sale', label: 'Tea sets 15 %', conditions: [{ field: 'sku', op: 'eq', value: 'TEA-01' }], reward: { type: 'percent', bps: 1500 } },
      { event: 'sale', conditions: [{ field: 'category', op: 'eq', value: 'cups' }], reward: { type: 'fixed', amount: 500 } },
      { id: 'sale', event: 'sale', reward: { type: 'percent', bps: 1000 } },
    ]);
    const inviter = await promoter(id);
    const plain = await promoter(id, 'default', inviter.user.id);
    const gold = await promoter(id, 'gold');
    const sale = (code: string, items?: unknown[], amount = 20_000) => post({ campaignId: id, kind: 'sale', externalId: ext('s'), amount, linkCode: code, ...(items ? { items } : {}) });
    const a = (await sale(plain.code)).json();
    const b = (await sale(gold.code)).json();
    expect(a.commissions.map((c: { amount: number }) => c.amount)).toEqual([2_000, 200]);
    expect(b.commissions.map((c: { amount: number }) => c.amount)).toEqual([4_000]);
    const items = [{ sku: 'TEA-01', quantity: 2, amount: 11_800 }, { sku: 'CUP-1', category: 'cups', quantity: 1, amount: 3_000 }, { sku: 'X', quantity: 1, amount: 5_200 }];
    const lined = (await sale(plain.code, items)).json();
    expect(lined.commissions.map((c: { amount: number; level: number }) => [c.level, c.amount])).toEqual([[1, 1_770 + 500 + 520], [2, 279]]);
    const row = await level1(lined.conversion.id);
    expect(row).toMatchObject({ rule: 'rules', rate_bps: null, base: 20_000 });
    const steps = await explanation(lined.conversion.id);
    expect(steps.filter((s) => s.step === 'line').map((s) => [s.outcome, s.detail.sku, s.detail.label, s.detail.earned])).toEqual([['percent', 'TEA-01', 'Tea sets 15 %', 1_770], ['fixed', 'CUP-1', null, 500], ['percent', 'X', null, 520]]);
    expect(steps.find((s) => s.step === 'attribution')).toMatchObject({ outcome: 'link' });
    // In words, for staff and for the promoter whose commission it is (another promoter's is unknown).
    const { currency } = await readSettings(env.ctx.db);
    const said = (await admin.request('GET', `/api/admin/conversions/${lined.conversion.id}/explanation`)).json().steps.map((x: { text: string }) => x.text);
    expect(said).toContain(`Matched rule ‘Tea sets 15 %’ for SKU TEA-01 · 2 × ${formatMoney(5_900, currency, 'en')} → ${formatMoney(1_770, currency, 'en')}`);
    expect(said).toContain('Credited by the promoter’s link code.');
    const mine = await plain.client.request('GET', `/api/commissions/${lined.commissions[0].id}/explanation`, undefined, { headers: { 'accept-language': 'fr' } });
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json().steps.map((x: { text: string }) => x.text)).toContain('Attribuée grâce au code de lien du promoteur.');
    expect(errorCode(await gold.client.request('GET', `/api/commissions/${lined.commissions[0].id}/explanation`))).toBe('NOT_FOUND');
    expect(errorCode(await admin.request('GET', '/api/admin/conversions/nope/explanation'))).toBe('NOT_FOUND');
    // What the shop sent, for the console's conversion page: each line with what it earned.
    // (One GET api/admin/conversions/:id since the corrections' merge: the conversion, and what was sent.)
    const detail = (await admin.request('GET', `/api/admin/conversions/${lined.conversion.id}`)).json();
    expect(detail.conversion).toMatchObject({ id: lined.conversion.id, externalId: lined.conversion.externalId, linkCode: plain.code, attributedBy: 'link' });
    const sent = detail.sent;
    expect(sent).toMatchObject({ country: null, metadata: null, newCustomer: null });
    expect(sent.items).toMatchObject([
      { sku: 'TEA-01', category: null, quantity: 2, amount: 11_800, commission: 1_770 },
      { sku: 'CUP-1', category: 'cups', quantity: 1, amount: 3_000, commission: 500 },
      { sku: 'X', category: null, quantity: 1, amount: 5_200, commission: 520 },
    ]);
    expect(errorCode(await plain.client.request('GET', `/api/admin/conversions/${lined.conversion.id}`))).toBe('FORBIDDEN');
    expect(errorCode(await admin.request('GET', '/api/admin/conversions/nope'))).toBe('NOT_FOUND');
    // The refund of the tea line reverses the tea line's 17.70 and the override's share of it.
    const mismatch = await post({ campaignId: id, kind: 'refund', externalId: ext('r'), refundOf: lined.conversion.externalId, amount: 11_800, items: [{ sku: 'TEA-01', amount: 11_000 }] });
    expect(mismatch.json().error).toMatchObject({ code: 'VALIDATION_FAILED', fields: { items: 'mismatch' } });
    const unknown = await post({ campaignId: id, kind: 'refund', externalId: ext('r'), refundOf: lined.conversion.externalId, amount: 100, items: [{ sku: 'NOPE', amount: 100 }] });
    expect(unknown.json().error).toMatchObject({ code: 'VALIDATION_FAILED', fields: { items: 'not_found' } });
    const refund = await post({ campaignId: id, kind: 'refund', externalId: ext('r'), refundOf: lined.conversion.externalId, amount: 11_800, items: [{ sku: 'TEA-01', amount: 11_800 }] });
    expect(refund.statusCode, refund.body).toBe(201);
    const after = await env.ctx.db.selectFrom('commissions').select(['level', 'amount', 'reversed_amount']).where('conversion_id', '=', lined.conversion.id).orderBy('level').execute();
    expect(after.map((c) => [c.level, Number(c.reversed_amount)])).toEqual([[1, 1_770], [2, Math.floor((279 * 1_770) / 2_790)]]);
    const again = await post({ campaignId: id, kind: 'refund', externalId: ext('r'), refundOf: lined.conversion.externalId, amount: 1, items: [{ sku: 'TEA-01', amount: 1 }] });
    expect(again.json().error).toMatchObject({ code: 'VALIDATION_FAILED', fields: { items: 'too_large' } });
    await ledgerOk();
  });

  it('conditions on a new customer, the country and metadata.plan', async () => {
    const id = await campaign({ saleReward: 1000 }, [
      { event: 'sale', conditions: [{ field: 'newCustomer', op: 'eq', value: true }], reward: { type: 'fixed', amount: 3_000 } },
      { event: 'sale', conditions: [{ field: 'country', op: 'in', value: ['FR', 'ES'] }], reward: { type: 'percent', bps: 2500 } },
      { event: 'sale', conditions: [{ field: 'metadata.plan', op: 'eq', value: 'pro' }], reward: { type: 'percent', bps: 5000 } },
      { id: 'sale', event: 'sale', reward: { type: 'percent', bps: 1000 } },
    ]);
    const p = await promoter(id);
    const amountOf = async (body: Record<string, unknown>) => {
      const res = await post({ campaignId: id, kind: 'sale', externalId: ext('c'), amount: 10_000, linkCode: p.code, ...body });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().commissions[0]?.amount ?? 0;
    };
    expect(await amountOf({ customerExternalId: 'cust-1' })).toBe(3_000); // first seen: new
    expect(await amountOf({ customerExternalId: 'cust-1' })).toBe(1_000); // seen before
    expect(await amountOf({ customerExternalId: 'cust-1', newCustomer: true })).toBe(3_000); // the shop says so
    expect(await amountOf({ country: 'fr' })).toBe(2_500);
    expect(await amountOf({ country: 'US' })).toBe(1_000);
    expect(await amountOf({ metadata: { plan: 'pro' } })).toBe(5_000);
    expect(await amountOf({ metadata: { plan: 'basic' } })).toBe(1_000);
    const told = (await post({ campaignId: id, kind: 'sale', externalId: ext('c'), amount: 10_000, linkCode: p.code, customerExternalId: 'cust-2', country: 'fr', metadata: { plan: 'pro' } })).json();
    expect((await admin.request('GET', `/api/admin/conversions/${told.conversion.id}`)).json().sent).toMatchObject({ country: 'FR', metadata: { plan: 'pro' }, newCustomer: true, items: null });
    expect(errorCode(await post({ campaignId: id, kind: 'sale', externalId: ext('c'), amount: 100, country: 'France' }))).toBe('VALIDATION_FAILED');
    const tooMany = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, 'v']));
    expect(errorCode(await post({ campaignId: id, kind: 'sale', externalId: ext('c'), amount: 100, metadata: tooMany }))).toBe('VALIDATION_FAILED');
    await ledgerOk();
  });

  it('says why nothing was credited: a click older than the window', async () => {
    const id = await campaign({ saleReward: 1000, attributionWindowDays: 30 });
    const p = await promoter(id);
    const click = await clickOn(p.code);
    await env.ctx.db.updateTable('clicks').set((eb) => ({ at: eb('at', '-', 41 * DAY_MS) })).where('id', '=', click).execute();
    const res = (await post({ campaignId: id, kind: 'sale', externalId: ext('w'), amount: 5_000, clickId: click })).json();
    expect(res.conversion.status).toBe('unattributed');
    expect((await explanation(res.conversion.id))[0]).toEqual({ step: 'attribution', outcome: 'click_outside_window', detail: { days: 41, windowDays: 30 } });
  });

  it('caps hold under 50 concurrent sales: a rule’s cap per promoter, and the campaign’s monthly budget, to the minor unit', async () => {
    const capped = await campaign({ saleReward: 1000 }, [{ event: 'sale', reward: { type: 'percent', bps: 1000 }, capPerPromoterPerMonth: 2_345 }]);
    const p = await promoter(capped);
    const results = await Promise.all(Array.from({ length: 50 }, () => post({ campaignId: capped, kind: 'sale', externalId: ext('cap'), amount: 1_000, linkCode: p.code })));
    expect(results.map((r) => r.statusCode)).toEqual(Array(50).fill(201));
    const sum = async (campaignId: string) => Number((await env.ctx.db.selectFrom('commissions').select((eb) => eb.fn.sum<number>('amount').as('n')).where('campaign_id', '=', campaignId).executeTakeFirstOrThrow()).n);
    expect(await sum(capped)).toBe(2_345);
    const cut = await env.ctx.db.selectFrom('conversions').select(['reason']).where('campaign_id', '=', capped).where('reason', '=', 'capped').execute();
    expect(cut.length).toBe(50 - 23); // 23 sales earn 100 in full; the 24th earns 45; the rest 0
    const budget = await campaign({ saleReward: 1000 }, [{ id: 'sale', event: 'sale', reward: { type: 'percent', bps: 1000 } }], 3_210);
    const promoters = await Promise.all([promoter(budget), promoter(budget)]);
    await Promise.all(Array.from({ length: 50 }, (_, i) => post({ campaignId: budget, kind: 'sale', externalId: ext('b'), amount: 1_000, linkCode: promoters[i % 2]!.code })));
    expect(await sum(budget)).toBe(3_210);
    const capStep = (await explanation((await env.ctx.db.selectFrom('conversions').select('id').where('campaign_id', '=', budget).where('reason', '=', 'capped').executeTakeFirstOrThrow()).id)).find((s) => s.step === 'cap');
    expect(capStep).toMatchObject({ outcome: 'budget', detail: { limit: 3_210 } });
    await ledgerOk();
  });
});
