/**
 * Operators' look-ups and corrections (issue 31, item 7), on both databases: the conversions
 * searched by order id and filtered, one conversion's detail; assigning an unattributed sale (its
 * commission decided by the campaign's rules) and a misattributed one (the earlier promoter's
 * commission reversed first, and back again with earlier refunds counted); an assignment racing ten
 * refunds of the same sale settles once; a commission reversed by staff takes the balance below zero
 * and cannot be reversed twice; a customer's binding moved and ended, then later sales credit the
 * right promoter. After each: `checkLedger` clean, and the figures as a rebuild from the rows makes them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '../src/platform/ledger';
import { rebuildRollups } from '../src/platform/rollups-rebuild';
import { zoneOf } from '../src/platform/settings';
import { dayKey } from '../src/platform/time';
import { campaignBody, Client, DIALECTS, errorCode, makeEnv, signedIn, type TestEnv } from './helpers';

type Json = Record<string, unknown>;
interface Person { client: Client; id: string }

describe.each(DIALECTS)('corrections on %s', (dialect) => {
  let env: TestEnv;
  let admin: Client;
  let secret: string;
  let campaignId: string;
  let a: Person;
  let b: Person;
  const codes = new Map<string, string>();

  const post = (body: Json, campaign = campaignId) => env.app.inject({ method: 'POST', url: '/api/v1/conversions', headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }, payload: JSON.stringify({ campaignId: campaign, ...body }) });
  const sale = async (body: Json, campaign = campaignId) => {
    const res = await post({ kind: 'sale', ...body }, campaign);
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { conversion: Json & { id: string }; commissions: (Json & { id: string; amount: number })[] };
  };
  const code = (p: Person, campaign = campaignId) => codes.get(`${campaign}|${p.id}`)!;
  const commissionRows = (conversionId: string) =>
    env.ctx.db.selectFrom('commissions').select(['id', 'promoter_id', 'level', 'amount', 'reversed_amount', 'status', 'assignment', 'reason']).where('conversion_id', '=', conversionId).orderBy('assignment').orderBy('level').execute()
      .then((rows) => rows.map((r) => ({ ...r, amount: Number(r.amount), reversed_amount: Number(r.reversed_amount), assignment: Number(r.assignment) })));
  const wallet = async (p: Person) => (await p.client.request('GET', '/api/wallet')).json() as { available: number; pending: number };
  /** The ledger balances, and the figures are what a rebuild from the rows makes them. */
  const clean = async () => {
    expect(await checkLedger(env.ctx.db)).toEqual([]);
    expect((await rebuildRollups(env.ctx.db, env.dialect, zoneOf(env.ctx), { apply: false })).differences).toEqual([]);
  };

  async function campaign(overrides: Json = {}): Promise<string> {
    const id = (await admin.request('POST', '/api/admin/campaigns', campaignBody({ holdDays: 7, overrideBps: 0, saleReward: 1000, ...overrides }))).json().campaign.id as string;
    expect((await admin.request('PATCH', `/api/admin/campaigns/${id}`, { status: 'active' })).statusCode).toBe(200);
    return id;
  }
  async function join(p: Person, campaign: string) {
    expect((await p.client.request('POST', `/api/campaigns/${campaign}/join`)).statusCode).toBeLessThan(300);
    const links = (await p.client.request('GET', '/api/links')).json().items as { code: string; campaignId: string }[];
    codes.set(`${campaign}|${p.id}`, links.find((l) => l.campaignId === campaign)!.code);
  }
  async function promoter(): Promise<Person> {
    const p = await signedIn(env, 'promoter');
    return { client: p.client, id: p.user.id };
  }

  beforeAll(async () => {
    env = await makeEnv(dialect);
    admin = (await signedIn(env, 'admin')).client;
    secret = (await admin.request('POST', '/api/admin/api-keys', { name: 'Shop', scopes: ['conversions:write'] })).json().secret;
    campaignId = await campaign();
    a = await promoter();
    b = await promoter();
    await join(a, campaignId);
    await join(b, campaignId);
    // Tea sets earn 15 %, everything else the base 10 %.
    const rules = [
      { id: 'tea', event: 'sale', conditions: [{ field: 'sku', op: 'eq', value: 'TEA-01' }], reward: { type: 'percent', bps: 1500 }, label: 'Tea sets' },
      { id: 'lead', event: 'lead', reward: { type: 'fixed', amount: 200 } },
      { id: 'sale', event: 'sale', reward: { type: 'percent', bps: 1000 } },
    ];
    const put = await admin.request('PUT', `/api/admin/campaigns/${campaignId}/rewards`, { rules });
    expect(put.statusCode, put.body).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await env?.close();
  });

  it('finds conversions by order id exactly, filters by campaign, promoter, status, reason and days, pages with a cursor; shows one in detail', async () => {
    const other = await campaign();
    await join(a, other);
    const credited = await sale({ externalId: 'ORD-SEARCH-1', amount: 10_000, linkCode: code(a), clickId: 'no-such-click', customerExternalId: 'cust-search' });
    await sale({ externalId: 'ORD-SEARCH-2', amount: 5_000, items: [{ sku: 'TEA-01', category: 'tea', quantity: 2, amount: 3_000 }, { sku: 'CUP-1', amount: 2_000 }], country: 'fr', metadata: { plan: 'pro' } });
    await sale({ externalId: 'ORD-SEARCH-1', amount: 7_000 }, other);
    const list = async (query: string) => {
      const res = await admin.request('GET', `/api/admin/conversions?${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { items: (Json & { id: string; externalId: string })[]; nextCursor: string | null };
    };
    const both = await list('q=ORD-SEARCH-1');
    expect(both.items.map((c) => [c.externalId, c.campaignId]).sort()).toEqual([['ORD-SEARCH-1', campaignId], ['ORD-SEARCH-1', other]].sort());
    expect((await list(`q=ORD-SEARCH-1&campaignId=${other}`)).items.map((c) => c.amount)).toEqual([7_000]);
    expect((await list('q=ORD-SEARCH')).items).toEqual([]);
    expect((await list('q=ORD-SEARCH-1&kind=lead')).items).toEqual([]);
    expect((await list(`promoterId=${a.id}&campaignId=${campaignId}`)).items.map((c) => c.externalId)).toContain('ORD-SEARCH-1');
    expect((await list(`promoterId=${a.id}&campaignId=${campaignId}`)).items.map((c) => c.externalId)).not.toContain('ORD-SEARCH-2');
    const unattributed = await list(`campaignId=${other}&status=unattributed&reason=no_match`);
    expect(unattributed.items.map((c) => [c.externalId, c.promoterName, c.campaignName])).toEqual([['ORD-SEARCH-1', null, 'Summer Tea']]);
    expect((await list(`campaignId=${other}&status=attributed`)).items).toEqual([]);
    const today = dayKey(Number(credited.conversion.occurredAt), zoneOf(env.ctx));
    const tomorrow = new Date(Date.parse(`${today}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    expect((await list(`q=ORD-SEARCH-2&from=${today}&to=${today}`)).items).toHaveLength(1);
    expect((await list(`q=ORD-SEARCH-2&from=${tomorrow}`)).items).toHaveLength(0);
    expect((await list(`q=ORD-SEARCH-2&to=2000-01-01`)).items).toHaveLength(0);
    const refused = await admin.request('GET', `/api/admin/conversions?from=${tomorrow}&to=${today}`);
    expect([refused.statusCode, refused.json().error.fields]).toEqual([400, { 'querystring.from': 'after_to' }]);
    expect(errorCode(await admin.request('GET', '/api/admin/conversions?from=2026-02-30'))).toBe('VALIDATION_FAILED');
    expect(errorCode(await admin.request('GET', '/api/admin/conversions?reason=whatever'))).toBe('VALIDATION_FAILED');
    expect((await a.client.request('GET', '/api/admin/conversions?q=ORD-SEARCH-1')).statusCode).toBe(403);
    // Cursor pages under filters neither skip nor repeat.
    const first = await list(`campaignId=${campaignId}&limit=1`);
    expect(first.nextCursor).not.toBeNull();
    const second = await list(`campaignId=${campaignId}&limit=1&cursor=${first.nextCursor}`);
    expect(second.items[0]!.id).not.toBe(first.items[0]!.id);
    expect([first.items[0]!.externalId, second.items[0]!.externalId].sort()).toEqual(['ORD-SEARCH-1', 'ORD-SEARCH-2']);

    // The detail: what was sent, its commissions, its explanation.
    const detail = (await admin.request('GET', `/api/admin/conversions/${credited.conversion.id}`)).json();
    expect(detail.conversion).toMatchObject({ externalId: 'ORD-SEARCH-1', status: 'attributed', promoterId: a.id, attributedBy: 'link', campaignName: 'Summer Tea' });
    expect(detail.sent).toEqual({ clickId: 'no-such-click', couponCode: null, linkCode: code(a), customerExternalId: 'cust-search', customerEmail: false, items: null, country: null, metadata: null, newCustomer: true });
    expect(detail.commissions.map((c: Json) => [c.promoterId, c.amount, c.status, c.assignment])).toEqual([[a.id, 1_000, 'pending', 0]]);
    expect(detail.explanation.map((s: Json) => s.text)).toContain('Credited by the promoter’s link code.');
    expect(detail.currency).toMatch(/^[A-Z]{3}$/);
    const lines = (await admin.request('GET', `/api/admin/conversions/${(await list('q=ORD-SEARCH-2')).items[0]!.id}`)).json();
    expect(lines.sent).toMatchObject({ country: 'FR', metadata: { plan: 'pro' } });
    // The lines are kept though nobody was credited (an assignment decides them later).
    expect(lines.sent.items).toEqual([
      { sku: 'TEA-01', category: 'tea', quantity: 2, amount: 3_000, ruleId: null, commission: 0, refunded: 0, reversed: 0 },
      { sku: 'CUP-1', category: null, quantity: 1, amount: 2_000, ruleId: null, commission: 0, refunded: 0, reversed: 0 },
    ]);
    expect(lines.commissions).toEqual([]);
    expect((await admin.request('GET', '/api/admin/conversions/nope')).statusCode).toBe(404);
    expect((await b.client.request('GET', `/api/admin/conversions/${credited.conversion.id}`)).statusCode).toBe(403);
  });

  it('assigns an unattributed sale: its commission decided by the rules as if attributed then, audited with the reason', async () => {
    const sold = await sale({ externalId: 'ORD-ASSIGN-1', amount: 20_000, items: [{ sku: 'TEA-01', quantity: 2, amount: 11_800 }, { sku: 'CUP-1', amount: 8_200 }] });
    expect(sold.conversion).toMatchObject({ status: 'unattributed', reason: 'no_match' });
    const pendingBefore = (await wallet(b)).pending;
    const res = await admin.request('POST', `/api/admin/conversions/${sold.conversion.id}/assign`, { promoterId: b.id, reason: 'Ordered by phone; the promoter sent the customer' });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.conversion).toMatchObject({ id: sold.conversion.id, status: 'attributed', reason: null, promoterId: b.id, attributedBy: 'staff' });
    expect(body.reversed).toEqual([]);
    // 15 % of the tea line (17.70) + 10 % of the cup (8.20).
    expect(body.commissions.map((c: Json) => [c.promoterId, c.level, c.amount, c.status, c.rule])).toEqual([[b.id, 1, 2_590, 'pending', 'rules']]);
    expect((await wallet(b)).pending).toBe(pendingBefore + 2_590);
    const explanation = (await admin.request('GET', `/api/admin/conversions/${sold.conversion.id}/explanation`)).json().steps as { step: string; outcome: string; text: string }[];
    expect(explanation.map((s) => `${s.step}.${s.outcome}`)).toEqual(['attribution.no_match', 'assigned.credited', 'group.member', 'line.percent', 'line.percent', 'total.earned', 'hold.until']);
    expect(explanation[1]!.text).toMatch(/^Assigned to the promoter by staff on .+\. Reason: Ordered by phone; the promoter sent the customer$/);
    expect(explanation[3]!.text).toContain('Tea sets');
    // The promoter reads the same explanation on their commission.
    const own = (await b.client.request('GET', `/api/commissions/${body.commissions[0].id}/explanation`)).json().steps as { step: string }[];
    expect(own.map((s) => s.step)).toContain('assigned');
    const stored = await env.ctx.db.selectFrom('conversions').select(['items_json']).where('id', '=', sold.conversion.id).executeTakeFirstOrThrow();
    expect((JSON.parse(stored.items_json!) as { ruleId: string; commission: number }[]).map((l) => [l.ruleId, l.commission])).toEqual([['tea', 1_770], ['sale', 820]]);
    const entry = await env.ctx.db.selectFrom('audit_entries').select(['entity', 'before_json', 'after_json']).where('action', '=', 'conversion.assign').where('entity_id', '=', sold.conversion.id).executeTakeFirstOrThrow();
    expect(entry.entity).toBe('conversion');
    expect(JSON.parse(entry.before_json!)).toEqual({ promoterId: null, status: 'unattributed', reason: 'no_match', attributedBy: null });
    expect(JSON.parse(entry.after_json!)).toMatchObject({ promoterId: b.id, reason: 'Ordered by phone; the promoter sent the customer', reversed: [] });
    // Nothing to correct twice; refused inputs change nothing.
    expect(errorCode(await admin.request('POST', `/api/admin/conversions/${sold.conversion.id}/assign`, { promoterId: b.id, reason: 'Again' }))).toBe('INVALID_STATE_TRANSITION');
    const unknown = await admin.request('POST', `/api/admin/conversions/${sold.conversion.id}/assign`, { promoterId: 'nobody', reason: 'x' });
    expect([unknown.statusCode, unknown.json().error.fields]).toEqual([400, { promoterId: 'not_found' }]);
    const stranger = await promoter();
    const notJoined = await admin.request('POST', `/api/admin/conversions/${sold.conversion.id}/assign`, { promoterId: stranger.id, reason: 'x' });
    expect([notJoined.statusCode, notJoined.json().error.fields]).toEqual([400, { promoterId: 'not_allowed' }]);
    expect(errorCode(await admin.request('POST', `/api/admin/conversions/${sold.conversion.id}/assign`, { promoterId: a.id }))).toBe('VALIDATION_FAILED');
    expect(errorCode(await admin.request('POST', '/api/admin/conversions/nope/assign', { promoterId: a.id, reason: 'x' }))).toBe('NOT_FOUND');
    expect((await b.client.request('POST', `/api/admin/conversions/${sold.conversion.id}/assign`, { promoterId: b.id, reason: 'mine' })).statusCode).toBe(403);
    expect(await commissionRows(sold.conversion.id)).toHaveLength(1);
    // The database holds one commission per conversion, level and assignment (migration 024).
    const row = await env.ctx.db.selectFrom('commissions').selectAll().where('conversion_id', '=', sold.conversion.id).executeTakeFirstOrThrow();
    await expect(env.ctx.db.insertInto('commissions').values({ ...row, id: 'duplicate-of-an-assignment' }).execute()).rejects.toThrow(/unique|constraint/i);
    await clean();
  });

  it('assigns a misattributed sale: the earlier promoter’s commission is reversed first (they are told why), the new one made; back again, earlier refunds counted', async () => {
    const sold = await sale({ externalId: 'ORD-MIS-1', amount: 10_000, linkCode: code(a) });
    const first = sold.commissions[0]!;
    expect((await admin.request('POST', `/api/admin/commissions/${first.id}/approve`)).statusCode).toBe(200);
    const aBefore = await wallet(a);
    const res = await admin.request('POST', `/api/admin/conversions/${sold.conversion.id}/assign`, { promoterId: b.id, reason: 'The coupon belonged to B' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().reversed).toEqual([first.id]);
    expect((await wallet(a)).available).toBe(aBefore.available - 1_000);
    // A is told, with the reason, on the commission's timeline and in the inbox.
    const aDetail = (await a.client.request('GET', `/api/commissions/${first.id}`)).json();
    expect(aDetail.commission).toMatchObject({ status: 'reversed', reversedAmount: 1_000, reason: 'The coupon belonged to B' });
    expect(aDetail.events.at(-1)).toMatchObject({ status: 'reversed', amount: 1_000, reason: 'The coupon belonged to B' });
    const told = await env.ctx.db.selectFrom('notifications').select(['params_json']).where('user_id', '=', a.id).where('type', '=', 'commission.reversed').execute();
    expect(told.map((n) => JSON.parse(n.params_json))).toContainEqual(expect.objectContaining({ commissionId: first.id, amount: 1_000, reason: 'The coupon belonged to B', clawback: true }));
    expect(await commissionRows(sold.conversion.id)).toEqual([
      expect.objectContaining({ promoter_id: a.id, amount: 1_000, reversed_amount: 1_000, status: 'reversed', assignment: 0 }),
      expect.objectContaining({ promoter_id: b.id, amount: 1_000, reversed_amount: 0, status: 'pending', assignment: 1 }),
    ]);
    const steps = (await admin.request('GET', `/api/admin/conversions/${sold.conversion.id}/explanation`)).json().steps as { step: string; outcome: string }[];
    expect(steps.map((s) => `${s.step}.${s.outcome}`)).toEqual(['attribution.link', 'assigned.moved', 'group.member', 'line.percent', 'total.earned', 'hold.until']);
    // A reads why their commission went: up to the re-assignment, not what B earns since.
    const aSteps = (await a.client.request('GET', `/api/commissions/${first.id}/explanation`)).json().steps as { step: string; outcome: string }[];
    expect(aSteps.map((s) => `${s.step}.${s.outcome}`)).toEqual(['attribution.link', 'assigned.moved']);
    await clean();

    // Half refunded, then back to A: B's half is taken back, A's new commission counts the refund.
    expect((await post({ kind: 'refund', externalId: 'ORD-MIS-1-r1', amount: 5_000, refundOf: 'ORD-MIS-1' })).statusCode).toBe(201);
    const back = await admin.request('POST', `/api/admin/conversions/${sold.conversion.id}/assign`, { promoterId: a.id, reason: 'It was A after all' });
    expect(back.statusCode, back.body).toBe(200);
    expect(await commissionRows(sold.conversion.id)).toEqual([
      expect.objectContaining({ promoter_id: a.id, reversed_amount: 1_000, status: 'reversed', assignment: 0 }),
      expect.objectContaining({ promoter_id: b.id, amount: 1_000, reversed_amount: 1_000, status: 'reversed', assignment: 1 }),
      expect.objectContaining({ promoter_id: a.id, amount: 1_000, reversed_amount: 500, status: 'pending', assignment: 2 }),
    ]);
    const detail = (await admin.request('GET', `/api/admin/conversions/${sold.conversion.id}`)).json();
    expect(detail.refunds.map((r: Json) => [r.externalId, r.amount])).toEqual([['ORD-MIS-1-r1', 5_000]]);
    expect(detail.commissions.map((c: Json) => c.assignment)).toEqual([0, 1, 2]);
    // The refund follows its sale's promoter.
    const refund = await env.ctx.db.selectFrom('conversions').select(['promoter_id', 'attributed_by']).where('external_id', '=', 'ORD-MIS-1-r1').executeTakeFirstOrThrow();
    expect(refund).toEqual({ promoter_id: a.id, attributed_by: 'staff' });
    // The rest refunded: the whole commission is back.
    expect((await post({ kind: 'refund', externalId: 'ORD-MIS-1-r2', amount: 5_000, refundOf: 'ORD-MIS-1' })).statusCode).toBe(201);
    expect((await commissionRows(sold.conversion.id))[2]).toMatchObject({ reversed_amount: 1_000, status: 'reversed' });
    expect(errorCode(await admin.request('POST', `/api/admin/conversions/${(await env.ctx.db.selectFrom('conversions').select('id').where('external_id', '=', 'ORD-MIS-1-r1').executeTakeFirstOrThrow()).id}/assign`, { promoterId: b.id, reason: 'x' }))).toBe('INVALID_STATE_TRANSITION');
    await clean();
  });

  it.each([
    { each: 700, reversed: 700, status: 'pending' },
    { each: 1_000, reversed: 1_000, status: 'reversed' },
  ])('an assignment racing ten refunds of the same sale ($each each) settles once', async ({ each, reversed, status }) => {
    const externalId = `ORD-RACE-${each}`;
    const sold = await sale({ externalId, amount: 10_000, linkCode: code(a) });
    const refunds = Array.from({ length: 10 }, (_, i) => () => post({ kind: 'refund', externalId: `${externalId}-r${i}`, amount: each, refundOf: externalId }));
    const assign = () => admin.request('POST', `/api/admin/conversions/${sold.conversion.id}/assign`, { promoterId: b.id, reason: 'Race' });
    // Started a few milliseconds apart, the assignment in the middle: it lands among the refunds.
    const later = <T>(ms: number, f: () => Promise<T>) => new Promise<void>((resolve) => setTimeout(resolve, ms)).then(f);
    const answers = await Promise.all([...refunds.slice(0, 5).map((f, i) => later(i * 3, f)), later(12, assign), ...refunds.slice(5).map((f, i) => later(15 + i * 3, f))]);
    expect(answers.map((r) => r.statusCode)).toEqual([201, 201, 201, 201, 201, 200, 201, 201, 201, 201, 201]);
    const row = await env.ctx.db.selectFrom('conversions').select(['refunded_amount', 'promoter_id', 'status']).where('id', '=', sold.conversion.id).executeTakeFirstOrThrow();
    expect([Number(row.refunded_amount), row.promoter_id, row.status]).toEqual([10 * each, b.id, 'attributed']);
    // A's commission reversed once and fully; B's made once, and reversed exactly as the refunds say.
    expect(await commissionRows(sold.conversion.id)).toEqual([
      expect.objectContaining({ promoter_id: a.id, amount: 1_000, reversed_amount: 1_000, status: 'reversed', assignment: 0 }),
      expect.objectContaining({ promoter_id: b.id, amount: 1_000, reversed_amount: reversed, status, assignment: 1 }),
    ]);
    // B's timeline: what the refunds before the assignment took (one event), then each later refund's share — summing to exactly what was taken.
    const bId = (await commissionRows(sold.conversion.id))[1]!.id;
    const events = (await env.ctx.db.selectFrom('commission_events').select(['amount']).where('commission_id', '=', bId).execute()).map((e) => Number(e.amount));
    expect(events.reduce((sum, x) => sum + x, 0)).toBe(reversed);
    expect(events.length).toBeLessThanOrEqual(11);
    await clean();
  });

  it('reverses an approved commission (a clawback below zero, told with the reason); a second reverse is refused', async () => {
    const sold = await sale({ externalId: 'ORD-REV-1', amount: 20_000, linkCode: code(a) });
    const c = sold.commissions[0]!;
    expect(c.amount).toBe(2_000);
    expect((await admin.request('POST', `/api/admin/commissions/${c.id}/approve`)).statusCode).toBe(200);
    // A withdraws all they have, then the commission is clawed back.
    expect((await a.client.request('POST', '/api/payout-accounts', { method: 'bank', holderName: 'Li Lei', accountNumber: await a.client.seal('6222 0212 3456 7890') })).statusCode).toBe(201);
    const available = (await wallet(a)).available;
    expect(available).toBeGreaterThanOrEqual(2_000);
    const w = await a.client.request('POST', '/api/withdrawals', { amount: available }, { headers: { 'idempotency-key': `rev-${dialect}` } });
    expect(w.statusCode, w.body).toBe(201);
    expect((await wallet(a)).available).toBe(0);
    const res = await admin.request('POST', `/api/admin/commissions/${c.id}/reverse`, { reason: 'Fraudulent order' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ reversed: 2_000, commission: { id: c.id, status: 'reversed', reversedAmount: 2_000, reason: 'Fraudulent order' } });
    expect((await wallet(a)).available).toBe(-2_000);
    const detail = (await a.client.request('GET', `/api/commissions/${c.id}`)).json();
    expect(detail.events.at(-1)).toMatchObject({ status: 'reversed', amount: 2_000, reason: 'Fraudulent order' });
    const told = await env.ctx.db.selectFrom('notifications').select(['params_json']).where('user_id', '=', a.id).where('type', '=', 'commission.reversed').execute();
    expect(told.map((n) => JSON.parse(n.params_json))).toContainEqual(expect.objectContaining({ commissionId: c.id, amount: 2_000, reason: 'Fraudulent order', clawback: true }));
    const again = await admin.request('POST', `/api/admin/commissions/${c.id}/reverse`, { reason: 'Twice' });
    expect([again.statusCode, errorCode(again)]).toEqual([409, 'INVALID_STATE_TRANSITION']);
    expect((await wallet(a)).available).toBe(-2_000);
    const entries = await env.ctx.db.selectFrom('audit_entries').select(['before_json', 'after_json']).where('action', '=', 'commission.reverse').where('entity_id', '=', c.id).execute();
    expect(entries.map((e) => [JSON.parse(e.before_json!), JSON.parse(e.after_json!)])).toEqual([[{ status: 'approved', amount: 2_000, reversedAmount: 0 }, { status: 'reversed', reversed: 2_000, reason: 'Fraudulent order' }]]);

    // A pending one is reversed from pending; a rejected one, and bad requests, are refused.
    const pending = (await sale({ externalId: 'ORD-REV-2', amount: 5_000, linkCode: code(b) })).commissions[0]!;
    const pendingBefore = (await wallet(b)).pending;
    expect((await admin.request('POST', `/api/admin/commissions/${pending.id}/reverse`, { reason: 'Test order' })).json()).toMatchObject({ reversed: 500 });
    expect((await wallet(b)).pending).toBe(pendingBefore - 500);
    const rejected = (await sale({ externalId: 'ORD-REV-3', amount: 5_000, linkCode: code(b) })).commissions[0]!;
    expect((await admin.request('POST', `/api/admin/commissions/${rejected.id}/reject`, { reason: 'No' })).statusCode).toBe(200);
    expect(errorCode(await admin.request('POST', `/api/admin/commissions/${rejected.id}/reverse`, { reason: 'x' }))).toBe('INVALID_STATE_TRANSITION');
    expect(errorCode(await admin.request('POST', `/api/admin/commissions/${rejected.id}/reverse`, {}))).toBe('VALIDATION_FAILED');
    expect(errorCode(await admin.request('POST', '/api/admin/commissions/nope/reverse', { reason: 'x' }))).toBe('NOT_FOUND');
    expect((await a.client.request('POST', `/api/admin/commissions/${c.id}/reverse`, { reason: 'x' })).statusCode).toBe(403);
    await clean();
  });

  it('a reversal racing five refunds of the same sale takes back the commission exactly once', async () => {
    const sold = await sale({ externalId: 'ORD-REV-RACE', amount: 10_000, linkCode: code(b) });
    const c = sold.commissions[0]!;
    expect((await admin.request('POST', `/api/admin/commissions/${c.id}/approve`)).statusCode).toBe(200);
    const before = (await wallet(b)).available;
    const later = <T>(ms: number, f: () => Promise<T>) => new Promise<void>((resolve) => setTimeout(resolve, ms)).then(f);
    const refund = (i: number) => () => post({ kind: 'refund', externalId: `ORD-REV-RACE-r${i}`, amount: 1_000, refundOf: 'ORD-REV-RACE' });
    const answers = await Promise.all([later(0, refund(0)), later(3, refund(1)), later(6, () => admin.request('POST', `/api/admin/commissions/${c.id}/reverse`, { reason: 'Race' })), later(9, refund(2)), later(12, refund(3)), later(15, refund(4))]);
    expect(answers.map((r) => r.statusCode)).toEqual([201, 201, 200, 201, 201, 201]);
    expect(await commissionRows(sold.conversion.id)).toEqual([expect.objectContaining({ amount: 1_000, reversed_amount: 1_000, status: 'reversed' })]);
    const events = (await env.ctx.db.selectFrom('commission_events').select(['status', 'amount']).where('commission_id', '=', c.id).execute()).filter((e) => e.status !== 'approved');
    expect(events.reduce((sum, e) => sum + Number(e.amount), 0)).toBe(1_000);
    expect((await wallet(b)).available).toBe(before - 1_000);
    await clean();
  });

  it('finds, moves and ends a customer’s binding: later sales credit the promoter it names, then nobody', async () => {
    const recurring = await campaign({ customerBinding: 12 });
    await join(a, recurring);
    await join(b, recurring);
    const firstSale = await sale({ externalId: 'ORD-BIND-1', amount: 10_000, linkCode: code(a, recurring), customerExternalId: 'cust-77' }, recurring);
    expect(firstSale.commissions[0]).toMatchObject({ promoterId: a.id, recurring: { month: 1, of: 12 } });
    const found = async (query: string) => ((await admin.request('GET', `/api/admin/bindings?${query}`)).json().items as (Json & { id: string })[]);
    const [binding] = await found('customer=cust-77');
    expect(binding).toMatchObject({ campaignId: recurring, customerExternalId: 'cust-77', promoterId: a.id, months: 12, endedAt: null, conversionId: firstSale.conversion.id, campaignName: 'Summer Tea' });
    expect((await found(`campaignId=${recurring}&promoterId=${a.id}`)).map((x) => x.id)).toEqual([binding!.id]);
    expect(await found(`campaignId=${recurring}&promoterId=${b.id}`)).toEqual([]);
    expect(await found('customer=cust-77&active=false')).toEqual([]);

    // Moved to B: from now on the customer's purchases are B's, whatever link they come with.
    const stranger = await promoter();
    expect((await admin.request('POST', `/api/admin/bindings/${binding!.id}/move`, { promoterId: stranger.id, reason: 'x' })).json().error.fields).toEqual({ promoterId: 'not_allowed' });
    const moved = await admin.request('POST', `/api/admin/bindings/${binding!.id}/move`, { promoterId: b.id, reason: 'The customer asked to stay with B' });
    expect(moved.statusCode, moved.body).toBe(200);
    const now = moved.json().binding;
    expect(now).toMatchObject({ promoterId: b.id, months: 12, endedAt: null, customerExternalId: 'cust-77' });
    expect(now.id).not.toBe(binding!.id);
    expect(now.startedAt).toBeGreaterThan(binding!.startedAt as number);
    expect((await admin.request('POST', `/api/admin/bindings/${binding!.id}/end`, { reason: 'x' })).statusCode).toBe(404);
    expect(errorCode(await admin.request('POST', `/api/admin/bindings/${now.id}/move`, { promoterId: b.id, reason: 'Again' }))).toBe('INVALID_STATE_TRANSITION');
    const secondSale = await sale({ externalId: 'ORD-BIND-2', amount: 10_000, linkCode: code(a, recurring), customerExternalId: 'cust-77' }, recurring);
    expect(secondSale.conversion).toMatchObject({ status: 'attributed', promoterId: b.id, attributedBy: 'customer' });
    expect(secondSale.commissions.map((c) => [c.promoterId, c.amount, c.recurring])).toEqual([[b.id, 1_000, { month: 1, of: 12 }]]);

    // Ended: a link code no longer brings the customer back to anyone.
    const ended = await admin.request('POST', `/api/admin/bindings/${now.id}/end`, { reason: 'Subscription cancelled by phone' });
    expect(ended.statusCode, ended.body).toBe(200);
    expect(ended.json().binding.endedAt).toBeGreaterThanOrEqual(now.startedAt);
    expect(errorCode(await admin.request('POST', `/api/admin/bindings/${now.id}/end`, { reason: 'Twice' }))).toBe('INVALID_STATE_TRANSITION');
    expect((await found('customer=cust-77&active=false')).map((x) => x.id)).toEqual([now.id]);
    const thirdSale = await sale({ externalId: 'ORD-BIND-3', amount: 10_000, linkCode: code(a, recurring), customerExternalId: 'cust-77' }, recurring);
    expect(thirdSale.conversion).toMatchObject({ status: 'unattributed', promoterId: null });
    expect(thirdSale.commissions).toEqual([]);

    const audited = await env.ctx.db.selectFrom('audit_entries').select(['action', 'entity', 'entity_id', 'after_json']).where('entity', '=', 'binding').orderBy('at').orderBy('id').execute();
    expect(audited.map((e) => [e.action, e.entity_id, JSON.parse(e.after_json!).reason])).toEqual([
      ['binding.move', binding!.id, 'The customer asked to stay with B'],
      ['binding.end', now.id, 'Subscription cancelled by phone'],
    ]);
    expect(errorCode(await admin.request('POST', `/api/admin/bindings/${now.id}/end`, {}))).toBe('VALIDATION_FAILED');
    expect((await a.client.request('GET', '/api/admin/bindings')).statusCode).toBe(403);

    // An unattributed sale of a new customer assigned by staff binds the customer to that promoter from the sale.
    const lone = await sale({ externalId: 'ORD-BIND-4', amount: 4_000, customerExternalId: 'cust-88' }, recurring);
    const assigned = await admin.request('POST', `/api/admin/conversions/${lone.conversion.id}/assign`, { promoterId: a.id, reason: 'Signed up at the shop' });
    expect(assigned.json().commissions.map((c: Json) => [c.amount, c.recurring])).toEqual([[400, { month: 1, of: 12 }]]);
    expect(await found('customer=cust-88')).toEqual([expect.objectContaining({ promoterId: a.id, conversionId: lone.conversion.id, startedAt: lone.conversion.occurredAt })]);
    const fifthSale = await sale({ externalId: 'ORD-BIND-5', amount: 4_000, customerExternalId: 'cust-88' }, recurring);
    expect(fifthSale.commissions.map((c) => [c.promoterId, c.recurring])).toEqual([[a.id, { month: 1, of: 12 }]]);
    await clean();
  });
});
