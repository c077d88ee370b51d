/**
 * Fraud rules, holds and the risk queue (issue 32; docs/fraud.md), through the public paths on each
 * database: the rules' settings, a registration on a throwaway address, a large sale through the
 * conversions API in each action, staff's decisions on its case (once, concurrent ones included),
 * the scheduler skipping held commissions — and the ledger balanced after every money step.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FRAUD_RULES } from '@pa/shared';
import { approveDue } from '../src/modules/commissions/service';
import { disposableDomain, recordFinding } from '../src/modules/fraud/service';
import { checkLedger } from '../src/platform/ledger';
import { campaignBody, Client, DIALECTS, errorCode, makeEnv, signedIn, type TestEnv } from './helpers';

const PASSWORD = 'Passw0rd-test';
const DAY = 86_400_000;

describe('disposableDomain', () => {
  it('finds a listed domain or its parent, never an ordinary one or a phone number', () => {
    expect(disposableDomain('someone@mailinator.com')).toBe('mailinator.com');
    expect(disposableDomain('someone@sub.mailinator.com')).toBe('mailinator.com');
    expect(disposableDomain('someone@example.com')).toBeNull();
    expect(disposableDomain('+8613800000000')).toBeNull();
  });
});

describe.each(DIALECTS)('fraud rules and the risk queue on %s', (dialect) => {
  let env: TestEnv;
  let admin: Client;
  let operator: Client;
  let secret: string;
  let seq = 0;
  const ext = (p: string) => `${p}-${Date.now().toString(36)}-${seq++}`;
  const post = (body: Record<string, unknown>) =>
    env.app.inject({ method: 'POST', url: '/api/v1/conversions', headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
  const ledgerOk = async () => expect(await checkLedger(env.ctx.db)).toEqual([]);
  const setRule = async (rule: string, action: string, params?: Record<string, unknown>) => {
    const res = await admin.request('PATCH', '/api/admin/fraud/rules', { rule, action, ...(params ? { params } : {}) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().rule;
  };
  const cases = async (query: string) => (await operator.request('GET', `/api/admin/risk?${query}`)).json();
  const commissionsOf = (conversionId: string) => env.ctx.db.selectFrom('commissions').select(['id', 'status', 'amount', 'reason', 'available_at', 'level']).where('conversion_id', '=', conversionId).orderBy('level').execute();

  async function campaign(holdDays = 7) {
    const id = (await admin.request('POST', '/api/admin/campaigns', campaignBody({ holdDays, saleReward: 1000 }))).json().campaign.id as string;
    expect((await admin.request('PATCH', `/api/admin/campaigns/${id}`, { status: 'active' })).statusCode).toBe(200);
    return id;
  }
  async function promoter(campaignId: string) {
    const { client, user } = await signedIn(env, 'promoter');
    expect((await client.request('POST', `/api/campaigns/${campaignId}/join`)).statusCode).toBeLessThan(300);
    const links = (await client.request('GET', '/api/links')).json().items as { code: string; campaignId: string }[];
    return { client, user, code: links.find((l) => l.campaignId === campaignId)!.code };
  }
  async function sale(campaignId: string, code: string, amount: number, occurredAt?: number) {
    const res = await post({ campaignId, kind: 'sale', externalId: ext('order'), amount, linkCode: code, ...(occurredAt ? { occurredAt } : {}) });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().conversion.id as string;
  }

  beforeAll(async () => {
    env = await makeEnv(dialect);
    admin = (await signedIn(env, 'admin')).client;
    operator = (await signedIn(env, 'operator')).client;
    secret = (await admin.request('POST', '/api/admin/api-keys', { name: 'Shop', scopes: ['conversions:write', 'conversions:read'] })).json().secret;
  });
  afterAll(async () => {
    await env?.close();
  });

  it('lists every rule with its default; an admin changes one (checked per rule, audited); an operator may read but not change', async () => {
    const listed = (await operator.request('GET', '/api/admin/fraud/rules')).json().rules as { rule: string; action: string; params: unknown }[];
    expect(listed.map((r) => r.rule)).toEqual([...FRAUD_RULES]);
    expect(listed.find((r) => r.rule === 'self_referral')).toEqual({ rule: 'self_referral', action: 'reject', params: {} });
    expect(listed.find((r) => r.rule === 'large_sale')).toEqual({ rule: 'large_sale', action: 'flag', params: { amount: 100_000 } });
    expect(errorCode(await operator.request('PATCH', '/api/admin/fraud/rules', { rule: 'large_sale', action: 'off' }))).toBe('FORBIDDEN');

    const bad = await admin.request('PATCH', '/api/admin/fraud/rules', { rule: 'refund_rate', action: 'flag', params: { percent: 130, minSales: 5 } });
    expect(bad.json().error).toMatchObject({ code: 'VALIDATION_FAILED', fields: { params: 'invalid' } });
    expect(errorCode(await admin.request('PATCH', '/api/admin/fraud/rules', { rule: 'large_sale', action: 'flag', params: { amount: 5, extra: 1 } }))).toBe('VALIDATION_FAILED');
    expect(errorCode(await admin.request('PATCH', '/api/admin/fraud/rules', { rule: 'made_up', action: 'flag' }))).toBe('VALIDATION_FAILED');

    expect(await setRule('banned_referrer', 'hold', { hosts: ['Spam.Example.com'] })).toEqual({ rule: 'banned_referrer', action: 'hold', params: { hosts: ['spam.example.com'] } });
    // Without params they stay as they were.
    expect(await setRule('banned_referrer', 'flag')).toEqual({ rule: 'banned_referrer', action: 'flag', params: { hosts: ['spam.example.com'] } });
    const entries = await env.ctx.db.selectFrom('audit_entries').select(['action', 'entity', 'entity_id', 'before_json', 'after_json']).where('action', '=', 'fraud.rule').orderBy('at').execute();
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({ entity: 'fraud_rule', entity_id: 'banned_referrer' });
    expect(JSON.parse(entries[0]!.before_json!)).toEqual({ action: 'flag', params: { hosts: [] } });
    expect(JSON.parse(entries[1]!.after_json!)).toEqual({ action: 'flag', params: { hosts: ['spam.example.com'] } });
  });

  it('disposable e-mail at registration: refused in the reader’s language with nothing stored (reject), a case with the domain (flag), nothing (off)', async () => {
    const register = async (account: string, locale = 'en') => {
      // An address of its own each (registration_burst is not what this test is about).
      const c = new Client(env.app, { locale, ip: `192.0.2.${(seq++ % 250) + 1}` });
      return c.request('POST', '/api/auth/register', { account, displayName: 'Throwaway', password: await c.seal(PASSWORD) });
    };
    const userOf = (account: string) => env.ctx.db.selectFrom('users').select(['id']).where('account', '=', account).executeTakeFirst();

    await setRule('disposable_email', 'reject');
    const refusedAccount = `farm${seq++}@mailinator.com`;
    const refused = await register(refusedAccount, 'fr');
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toMatchObject({ code: 'VALIDATION_FAILED', fields: { account: 'disposable' } });
    expect(refused.json().error.message).not.toMatch(/throwaway/);
    expect(await userOf(refusedAccount)).toBeUndefined();
    expect(await env.ctx.db.selectFrom('audit_entries').select('id').where('action', '=', 'user.register').where('entity_id', 'is', null).execute()).toEqual([]);
    // An ordinary address is not concerned.
    expect((await register(`ordinary${seq++}@example.com`)).statusCode).toBe(201);

    await setRule('disposable_email', 'flag');
    const flaggedAccount = `farm${seq++}@mailinator.com`;
    expect((await register(flaggedAccount)).statusCode).toBe(201);
    const flagged = (await userOf(flaggedAccount))!;
    const page = await cases(`rule=disposable_email&promoterId=${flagged.id}`);
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toMatchObject({ promoterId: flagged.id, promoterName: 'Throwaway', rule: 'disposable_email', status: 'open', atStake: 0, evidence: [{ kind: 'email_domain', domain: 'mailinator.com' }] });
    // Never the address itself.
    expect(JSON.stringify(page.items[0])).not.toContain(flaggedAccount);

    await setRule('disposable_email', 'off');
    const freeAccount = `farm${seq++}@mailinator.com`;
    expect((await register(freeAccount)).statusCode).toBe(201);
    expect((await cases(`promoterId=${(await userOf(freeAccount))!.id}`)).items).toEqual([]);
  });

  it('registration burst: over perDay from one address in a day opens a case naming the others (flag), is refused with Retry-After and nothing stored (reject), nothing (off)', async () => {
    const ADDRESS = '198.51.100.7';
    const register = async (ip: string) => {
      const c = new Client(env.app, { ip });
      const account = `burst${seq++}@example.com`;
      const res = await c.request('POST', '/api/auth/register', { account, displayName: 'Burst', password: await c.seal(PASSWORD) });
      const user = await env.ctx.db.selectFrom('users').select('id').where('account', '=', account).executeTakeFirst();
      return { res, id: user?.id };
    };
    await setRule('registration_burst', 'flag', { perDay: 2 });
    const first = await register(ADDRESS);
    const second = await register(ADDRESS);
    expect((await cases(`rule=registration_burst&promoterId=${second.id}`)).items).toEqual([]);
    const third = await register(ADDRESS);
    expect(third.res.statusCode).toBe(201);
    const page = await cases(`rule=registration_burst&promoterId=${third.id}`);
    expect(page.items).toHaveLength(1);
    expect(page.items[0].evidence).toEqual([{ kind: 'registration_burst', addressKey: expect.any(String), count: 3, perDay: 2, others: [first.id, second.id], at: expect.any(Number) }]);
    expect(JSON.stringify(page.items[0])).not.toContain(ADDRESS);
    // Another address is not concerned.
    const elsewhere = await register('198.51.100.8');
    expect((await cases(`promoterId=${elsewhere.id}`)).items).toEqual([]);

    await setRule('registration_burst', 'reject');
    const refused = await register(ADDRESS);
    expect(refused.res.statusCode).toBe(429);
    expect(errorCode(refused.res)).toBe('RATE_LIMITED');
    expect(Number(refused.res.headers['retry-after'])).toBeGreaterThan(86_000);
    expect(refused.id).toBeUndefined();

    await setRule('registration_burst', 'off');
    const free = await register(ADDRESS);
    expect(free.res.statusCode).toBe(201);
    expect((await cases(`promoterId=${free.id}`)).items).toEqual([]);
    await setRule('registration_burst', 'flag', { perDay: 5 });
  });

  it('large sale, off and at or under the amount: nothing flagged, commissions pending as ever', async () => {
    const campaignId = await campaign();
    const p = await promoter(campaignId);
    await setRule('large_sale', 'off', { amount: 50_000 });
    const a = await sale(campaignId, p.code, 90_000);
    await setRule('large_sale', 'hold');
    const b = await sale(campaignId, p.code, 50_000);
    expect((await cases(`promoterId=${p.user.id}`)).items).toEqual([]);
    for (const id of [a, b]) expect((await commissionsOf(id)).map((c) => c.status)).toEqual(['pending']);
    await ledgerOk();
  });

  it('large sale, flag: a case with the sale as evidence and its commission at stake; two sales, one case', async () => {
    const campaignId = await campaign();
    const p = await promoter(campaignId);
    await setRule('large_sale', 'flag', { amount: 50_000 });
    const first = await sale(campaignId, p.code, 60_000);
    const second = await sale(campaignId, p.code, 70_000);
    const page = await cases(`rule=large_sale&promoterId=${p.user.id}`);
    expect(page.items).toHaveLength(1);
    const [c1] = await commissionsOf(first);
    const [c2] = await commissionsOf(second);
    expect(page.items[0]).toMatchObject({ status: 'open', atStake: 6_000 + 7_000 });
    expect(page.items[0].evidence).toEqual([
      expect.objectContaining({ kind: 'sale', conversionId: first, amount: 60_000, threshold: 50_000, commissionIds: [c1!.id], commission: 6_000, action: 'flag' }),
      expect.objectContaining({ kind: 'sale', conversionId: second, amount: 70_000, commissionIds: [c2!.id], commission: 7_000 }),
    ]);
    // Flagged only: the commissions follow their normal path.
    expect(await approveDue(env.ctx, Date.now() + 8 * DAY)).toBeGreaterThanOrEqual(2);
    expect((await commissionsOf(first))[0]!.status).toBe('approved');
    await ledgerOk();
  });

  it('large sale, hold: the scheduler skips it past its hold date; dismissed, it is approved at once (its date passed)', async () => {
    const campaignId = await campaign(0);
    const p = await promoter(campaignId);
    await setRule('large_sale', 'hold', { amount: 50_000 });
    const held = await sale(campaignId, p.code, 80_000);
    const ordinary = await sale(campaignId, p.code, 1_000);
    await approveDue(env.ctx, Date.now() + DAY);
    expect((await commissionsOf(held))[0]!.status).toBe('pending');
    expect((await commissionsOf(ordinary))[0]!.status).toBe('approved');
    const caseId = (await cases(`rule=large_sale&promoterId=${p.user.id}&status=open`)).items[0].id as string;
    await ledgerOk();

    const dismissed = await operator.request('POST', `/api/admin/risk/${caseId}/dismiss`, { note: 'Known corporate buyer' });
    expect(dismissed.statusCode, dismissed.body).toBe(200);
    expect(dismissed.json().case).toMatchObject({ id: caseId, status: 'dismissed' });
    expect((await commissionsOf(held))[0]!.status).toBe('approved');
    expect(errorCode(await operator.request('POST', `/api/admin/risk/${caseId}/reject`, {}))).toBe('INVALID_STATE_TRANSITION');
    const entry = await env.ctx.db.selectFrom('audit_entries').select(['entity', 'after_json']).where('action', '=', 'risk.dismiss').where('entity_id', '=', caseId).executeTakeFirstOrThrow();
    expect(entry.entity).toBe('risk_case');
    expect(JSON.parse(entry.after_json!)).toMatchObject({ status: 'dismissed', note: 'Known corporate buyer' });
    // A later large sale opens a new case: the decided one stays as the record.
    await sale(campaignId, p.code, 90_000);
    expect((await cases(`rule=large_sale&promoterId=${p.user.id}`)).items.map((c: { status: string }) => c.status)).toEqual(['open', 'dismissed']);
    await ledgerOk();
  });

  it('large sale, hold then dismissed before its hold date: it stays pending until that date, then the scheduler approves it', async () => {
    const campaignId = await campaign(7);
    const p = await promoter(campaignId);
    await setRule('large_sale', 'hold', { amount: 50_000 });
    const held = await sale(campaignId, p.code, 80_000);
    const caseId = (await cases(`rule=large_sale&promoterId=${p.user.id}&status=open`)).items[0].id as string;
    expect((await operator.request('POST', `/api/admin/risk/${caseId}/dismiss`, {})).statusCode).toBe(200);
    expect((await commissionsOf(held))[0]!.status).toBe('pending');
    await approveDue(env.ctx, Date.now() + 8 * DAY);
    expect((await commissionsOf(held))[0]!.status).toBe('approved');
    await ledgerOk();
  });

  it('large sale, hold then rejected: the held commissions are rejected with the rule as reason, once, whoever asks at the same time', async () => {
    const campaignId = await campaign(0);
    const p = await promoter(campaignId);
    await setRule('large_sale', 'hold', { amount: 50_000 });
    const held = await sale(campaignId, p.code, 80_000);
    const caseId = (await cases(`rule=large_sale&promoterId=${p.user.id}&status=open`)).items[0].id as string;
    const other = (await signedIn(env, 'operator')).client;
    const answers = await Promise.all([operator.request('POST', `/api/admin/risk/${caseId}/reject`, {}), other.request('POST', `/api/admin/risk/${caseId}/reject`, {}), admin.request('POST', `/api/admin/risk/${caseId}/dismiss`, {})]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409, 409]);
    const winner = answers.find((a) => a.statusCode === 200)!.json().case;
    const [c] = await commissionsOf(held);
    if (winner.status === 'rejected') {
      expect(c).toMatchObject({ status: 'rejected', reason: 'fraud:large_sale' });
      const events = await env.ctx.db.selectFrom('commission_events').select(['status', 'reason']).where('commission_id', '=', c!.id).execute();
      expect(events).toEqual([{ status: 'rejected', reason: 'fraud:large_sale' }]);
    } else {
      expect(c!.status).toBe('approved');
    }
    expect(await env.ctx.db.selectFrom('risk_holds').select('commission_id').where('case_id', '=', caseId).execute()).toEqual([]);
    await ledgerOk();
  });

  it('large sale, reject: the commission is rejected as it is recorded, with the rule as its reason, and the case records it', async () => {
    const campaignId = await campaign();
    const p = await promoter(campaignId);
    await setRule('large_sale', 'reject', { amount: 50_000 });
    const res = await post({ campaignId, kind: 'sale', externalId: ext('order'), amount: 75_000, linkCode: p.code });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().commissions).toEqual([expect.objectContaining({ status: 'rejected', reason: 'fraud:large_sale', amount: 7_500 })]);
    const id = res.json().conversion.id as string;
    expect((await commissionsOf(id))[0]).toMatchObject({ status: 'rejected', reason: 'fraud:large_sale' });
    const page = await cases(`rule=large_sale&promoterId=${p.user.id}`);
    expect(page.items[0]).toMatchObject({ atStake: 7_500, evidence: [expect.objectContaining({ conversionId: id, action: 'reject' })] });
    // The promoter's wallet has nothing of it.
    const wallet = (await p.client.request('GET', '/api/wallet')).json();
    expect(wallet).toMatchObject({ pending: 0, available: 0 });
    await ledgerOk();
  });

  it('one case per promoter and rule even when sales arrive together', async () => {
    const campaignId = await campaign();
    const p = await promoter(campaignId);
    await setRule('large_sale', 'hold', { amount: 50_000 });
    const ids = await Promise.all(Array.from({ length: 8 }, () => sale(campaignId, p.code, 60_000)));
    const page = await cases(`rule=large_sale&promoterId=${p.user.id}`);
    expect(page.items).toHaveLength(1);
    expect(page.items[0].evidence).toHaveLength(8);
    expect(page.items[0].atStake).toBe(8 * 6_000);
    expect(await env.ctx.db.selectFrom('risk_holds').select('commission_id').where('case_id', '=', page.items[0].id).execute()).toHaveLength(ids.length);
    await ledgerOk();
  });

  it('duplicate payout account: both promoters get a case naming the other, shown masked (flag); refused with nothing stored (reject); nothing (off)', async () => {
    const add = async (client: Client, number: string) => client.request('POST', '/api/payout-accounts', { method: 'bank', holderName: 'Li Lei', accountNumber: await client.seal(number) });
    const a = await signedIn(env, 'promoter');
    const b = await signedIn(env, 'promoter');
    const c = await signedIn(env, 'promoter');
    const d = await signedIn(env, 'promoter');
    const shared = '6222 0212 3456 7890';
    await setRule('duplicate_payout_account', 'flag');
    expect((await add(a.client, shared)).statusCode).toBe(201);
    expect((await cases(`rule=duplicate_payout_account&promoterId=${a.user.id}`)).items).toEqual([]);
    expect((await add(b.client, '6222-0212-3456-7890')).statusCode).toBe(201);
    const ofB = (await cases(`rule=duplicate_payout_account&promoterId=${b.user.id}`)).items;
    const ofA = (await cases(`rule=duplicate_payout_account&promoterId=${a.user.id}`)).items;
    expect(ofB).toHaveLength(1);
    expect(ofB[0].evidence).toEqual([{ kind: 'payout_account', method: 'bank', shown: '7890', sharedWith: [a.user.id], at: expect.any(Number) }]);
    expect(ofA[0].evidence).toEqual([expect.objectContaining({ kind: 'payout_account', sharedWith: [b.user.id] })]);
    expect(JSON.stringify([...ofA, ...ofB])).not.toContain('62220212');

    await setRule('duplicate_payout_account', 'reject');
    const refused = await add(c.client, shared);
    expect(refused.json().error).toMatchObject({ code: 'VALIDATION_FAILED', fields: { accountNumber: 'taken' } });
    expect(await env.ctx.db.selectFrom('payout_accounts').select('id').where('promoter_id', '=', c.user.id).execute()).toEqual([]);
    // An account of its own number is not concerned.
    expect((await add(c.client, '6222 0299 9999 0001')).statusCode).toBe(201);

    await setRule('duplicate_payout_account', 'off');
    expect((await add(d.client, shared)).statusCode).toBe(201);
    expect((await cases(`rule=duplicate_payout_account&promoterId=${d.user.id}`)).items).toEqual([]);
    // A's case gained nothing from the refused or unchecked additions.
    expect((await cases(`rule=duplicate_payout_account&promoterId=${a.user.id}`)).items[0].evidence).toHaveLength(1);
  });

  it('findings recorded at once in separate transactions (on PostgreSQL from two instances) end in one open case with every finding', async () => {
    const { user } = await signedIn(env, 'promoter');
    // SQLite runs one instance per database file; PostgreSQL may have several.
    const second = dialect === 'postgres' ? await env.restart() : env;
    const find = (ctx: TestEnv['ctx'], n: number) => ctx.uow.run(async (tx) => {
      recordFinding(tx, { promoterId: user.id, rule: 'refund_rate', atStake: 100 + n, evidence: { kind: 'email_domain', domain: `d${n}.example`, at: tx.now } });
    });
    await Promise.all(Array.from({ length: 10 }, (_, n) => find(n % 2 === 0 ? env.ctx : second.ctx, n)));
    const page = await cases(`rule=refund_rate&promoterId=${user.id}`);
    expect(page.items).toHaveLength(1);
    expect(page.items[0].evidence).toHaveLength(10);
    expect(page.items[0].atStake).toBe(Array.from({ length: 10 }, (_, n) => 100 + n).reduce((a, b) => a + b, 0));
  });

  it('the queue pages newest first and filters by status; an unknown case is NOT_FOUND; a promoter is refused', async () => {
    const all = await cases('limit=2');
    expect(all.items.length).toBe(2);
    expect(all.nextCursor).toBeTruthy();
    const next = await cases(`limit=2&cursor=${all.nextCursor}`);
    expect(next.items[0].openedAt).toBeLessThanOrEqual(all.items[1].openedAt);
    expect(new Set([...all.items, ...next.items].map((c: { id: string }) => c.id)).size).toBe(all.items.length + next.items.length);
    for (const c of (await cases('status=dismissed')).items) expect(c.status).toBe('dismissed');
    expect(errorCode(await operator.request('POST', '/api/admin/risk/nope/dismiss', {}))).toBe('NOT_FOUND');
    const { client } = await signedIn(env, 'promoter');
    expect(errorCode(await client.request('GET', '/api/admin/risk'))).toBe('FORBIDDEN');
  });
});
