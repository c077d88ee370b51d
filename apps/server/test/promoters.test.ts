/**
 * The console's promoters (issue 14, items 3 and 5): search by name, account, invite code, link
 * code and coupon code (staff never listed), server-side sorting with keyset pages, the CSV export
 * of what is filtered (audited), the promoter's page and its tabs with nothing secret in them, and
 * the one-time password links staff make. Every call's permissions, on both databases.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { promoterAccount } from '../src/domain/ledger';
import { postJournal } from '../src/platform/ledger';
import { campaignBody, Client, createUser, DIALECTS, errorCode, makeEnv, signedIn, type TestEnv } from './helpers';

const BANK = '6222 0212 3456 7890';
const BANK_NORMALIZED = '6222021234567890';

describe.each(DIALECTS)('the console’s promoters on %s', (dialect) => {
  let env: TestEnv;
  let admin: Client;
  let operator: Client;
  let operatorUser: { id: string; account: string };
  let campaignId: string;
  let otherCampaignId: string;
  // A little team: Alice invited Bob; Bob has a custom link code, a coupon code, a payout account and money.
  let alice: { id: string; account: string; client: Client; inviteCode: string };
  let bob: { id: string; account: string; client: Client };
  const tag = Math.random().toString(36).slice(2, 7);

  async function register(name: string, inviteCode?: string) {
    const client = new Client(env.app);
    const account = `${name.toLowerCase()}-${tag}@example.com`;
    const res = await client.register({ account, displayName: name, password: 'Passw0rd-test', ...(inviteCode ? { inviteCode } : {}) });
    expect(res.statusCode, res.body).toBe(201);
    const user = res.json().user as { id: string; inviteCode: string };
    return { id: user.id, account, client, inviteCode: user.inviteCode };
  }

  /** Money in the promoter's available balance the way the ledger moves it (adjustments have their own suite). */
  async function credit(userId: string, amount: number, bucket: 'available' | 'pending' = 'available') {
    await env.ctx.db.transaction().execute((trx) => postJournal(trx, {
      kind: 'commission_approved', refType: 'test', refId: userId, promoterId: userId,
      entries: [{ account: promoterAccount(userId, bucket), amount }, { account: 'platform:commissions', amount: -amount }],
      at: Date.now(),
    }));
  }

  const list = async (client: Client, query: string) => {
    const res = await client.request('GET', `/api/admin/promoters${query ? `?${query}` : ''}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { items: { id: string; account: string; displayName: string; available: number; pending: number; inviter: { id: string } | null }[]; nextCursor: string | null; currency: string };
  };
  const ids = (body: { items: { id: string }[] }) => body.items.map((i) => i.id);

  beforeAll(async () => {
    env = await makeEnv(dialect);
    admin = (await signedIn(env, 'admin')).client;
    const op = await signedIn(env, 'operator');
    operator = op.client;
    operatorUser = op.user;
    campaignId = (await admin.request('POST', '/api/admin/campaigns', campaignBody())).json().campaign.id;
    otherCampaignId = (await admin.request('POST', '/api/admin/campaigns', campaignBody({ names: { en: 'Winter Coffee' } }))).json().campaign.id;
    for (const id of [campaignId, otherCampaignId]) expect((await admin.request('PATCH', `/api/admin/campaigns/${id}`, { status: 'active' })).statusCode).toBe(200);

    alice = await register('Alice');
    bob = await register('Bob', alice.inviteCode);
    expect((await bob.client.request('POST', `/api/campaigns/${campaignId}/join`)).statusCode).toBe(201);
    expect((await alice.client.request('POST', `/api/campaigns/${otherCampaignId}/join`)).statusCode).toBe(201);
    expect((await bob.client.request('POST', '/api/links', { campaignId, code: `Bob-${tag}`, label: 'Moments', channel: 'wechat' })).statusCode).toBe(201);
    const enrollment = (await bob.client.request('GET', `/api/campaigns/${campaignId}`)).json().campaign.enrollment;
    expect((await operator.request('PATCH', `/api/admin/enrollments/${enrollment.id}`, { couponCode: `bobby${tag}` })).statusCode).toBe(200);
    const account = await bob.client.request('POST', '/api/payout-accounts', { method: 'bank', holderName: 'Bob Holder', accountNumber: await bob.client.seal(BANK) });
    expect(account.statusCode, account.body).toBe(201);
    await credit(bob.id, 12_345);
    await credit(bob.id, 500, 'pending');
    await credit(alice.id, 99);
  });
  afterAll(async () => {
    await env?.close();
  });

  describe('search', () => {
    it('finds a promoter by name, account, invite code, link code and coupon code, whatever the case', async () => {
      for (const q of ['bob', 'BOB', `bob-${tag}@example`, `Bob-${tag}`.toUpperCase(), `BOBBY${tag}`.toLowerCase()]) {
        expect(ids(await list(operator, `q=${encodeURIComponent(q)}`)), q).toEqual([bob.id]);
      }
      // An invite code finds its owner (typed lower-case, with the look-alike letters Crockford folds).
      expect(ids(await list(operator, `q=${alice.inviteCode.toLowerCase()}`))).toEqual([alice.id]);
      // A code matches whole: part of a link code finds nothing.
      expect(ids(await list(operator, `q=${encodeURIComponent(`ob-${tag}x`)}`))).toEqual([]);
      // LIKE's own characters are searched for literally.
      expect(ids(await list(operator, 'q=%25'))).toEqual([]);
      expect(ids(await list(operator, 'q=_'))).toEqual([]);
    });

    it('ignores accents and case in names, on the name kept at registration and after a rename', async () => {
      const client = new Client(env.app);
      const res = await client.register({ account: `mj-${Math.random().toString(36).slice(2, 8)}@example.com`, displayName: 'María José Núñez', password: 'Passw0rd-test' });
      expect(res.statusCode, res.body).toBe(201);
      const id = res.json().user.id as string;
      for (const q of ['maria', 'MARIA', 'María', 'jose nunez', 'NÚÑEZ']) expect(ids(await list(operator, `q=${encodeURIComponent(q)}`)), q).toEqual([id]);
      expect((await client.request('PATCH', '/api/me', { displayName: 'Zoë Ångström' })).statusCode).toBe(200);
      expect(ids(await list(operator, `q=${encodeURIComponent('zoe angstrom')}`))).toEqual([id]);
      expect(ids(await list(operator, 'q=maria'))).toEqual([]);
    });

    it('shows each promoter with the inviter and the wallet’s figures; staff never appear', async () => {
      const body = await list(operator, `q=${tag}`);
      expect(body.currency).toBe('CNY');
      expect(body.items.map((i) => i.displayName)).toEqual(['Bob', 'Alice']);
      expect(body.items[0]).toMatchObject({ id: bob.id, account: bob.account, status: 'active', available: 12_345, pending: 500, inviter: { id: alice.id, displayName: 'Alice', account: alice.account } });
      expect(body.items[1]).toMatchObject({ id: alice.id, available: 99, pending: 0, inviter: null });
      expect(ids(await list(admin, `q=${encodeURIComponent(operatorUser.account)}`))).toEqual([]);
      expect(ids(await list(admin, 'q=operator'))).toEqual([]);
      const everyone = await env.ctx.db.selectFrom('users').select('id').where('role', '!=', 'promoter').execute();
      let all: string[] = [];
      let cursor: string | null = '';
      while (cursor !== null) {
        const page = await list(admin, `limit=100${cursor ? `&cursor=${cursor}` : ''}`);
        all = all.concat(ids(page));
        cursor = page.nextCursor;
      }
      expect(all.filter((id) => everyone.some((s) => s.id === id))).toEqual([]);
    });

    it('filters by status and by campaign', async () => {
      expect(ids(await list(operator, `q=${tag}&campaignId=${campaignId}`))).toEqual([bob.id]);
      expect(ids(await list(operator, `q=${tag}&campaignId=${otherCampaignId}`))).toEqual([alice.id]);
      expect(ids(await list(operator, `q=${tag}&campaignId=unknown`))).toEqual([]);
      const carol = await register('Carol');
      expect((await operator.request('POST', `/api/admin/users/${carol.id}/suspend`)).statusCode).toBe(200);
      expect(ids(await list(operator, `q=${tag}&status=suspended`))).toEqual([carol.id]);
      expect(ids(await list(operator, `q=${tag}&status=active`))).toEqual([bob.id, alice.id]);
      expect((await operator.request('POST', `/api/admin/users/${carol.id}/reactivate`)).statusCode).toBe(200);
    });

    it('sorts on the server by name, available balance or sign-up, in pages that neither skip nor repeat', async () => {
      const names = ['Nadia', 'mona', 'Lars', 'kemal', 'Jun', 'ines'];
      const people: { id: string; name: string; available: number }[] = [];
      const group = `sort${Math.random().toString(36).slice(2, 7)}`;
      for (const [i, name] of names.entries()) {
        const p = await createUser(env.ctx, 'promoter');
        await env.ctx.db.updateTable('users').set({ display_name: `${name} ${group}` }).where('id', '=', p.id).execute();
        // Two people share a balance: the id breaks the tie.
        const available = [300, 100, 300, 0, -50, 200][i]!;
        if (available) await credit(p.id, available);
        people.push({ id: p.id, name: name.toLowerCase(), available });
      }
      const walk = async (sort: string, dir: string) => {
        const seen: string[] = [];
        let cursor: string | null = '';
        let pages = 0;
        while (cursor !== null) {
          const page = await list(operator, `q=${group}&sort=${sort}&dir=${dir}&limit=4${cursor ? `&cursor=${cursor}` : ''}`);
          seen.push(...ids(page));
          cursor = page.nextCursor;
          pages++;
        }
        expect(pages).toBe(2);
        return seen;
      };
      const byName = [...people].sort((a, b) => (a.name < b.name ? -1 : 1)).map((p) => p.id);
      expect(await walk('name', 'asc')).toEqual(byName);
      expect(await walk('name', 'desc')).toEqual([...byName].reverse());
      const byAvailable = [...people].sort((a, b) => b.available - a.available || (a.id < b.id ? 1 : -1)).map((p) => p.id);
      expect(await walk('available', 'desc')).toEqual(byAvailable);
      expect(await walk('available', 'asc')).toEqual([...byAvailable].reverse());
      // Sign-up order: newest first by default (ids are time-ordered, created one after another).
      expect(ids(await list(operator, `q=${group}&limit=100`))).toEqual(people.map((p) => p.id).reverse());
      expect(await walk('createdAt', 'asc')).toEqual(people.map((p) => p.id));
    });

    it('refuses bad queries with a catalogue code', async () => {
      const cases: [string, Record<string, string>][] = [
        ['sort=balance', { 'querystring.sort': 'invalid' }],
        ['dir=up', { 'querystring.dir': 'invalid' }],
        ['status=gone', { 'querystring.status': 'invalid' }],
        ['limit=0', { 'querystring.limit': 'too_small' }],
        ['limit=101', { 'querystring.limit': 'too_large' }],
        [`q=${'x'.repeat(101)}`, { 'querystring.q': 'too_long' }],
        ['cursor=not-a-cursor', { 'querystring.cursor': 'invalid' }],
        [`sort=name&cursor=${Buffer.from(JSON.stringify([5, 'x'])).toString('base64url')}`, { 'querystring.cursor': 'invalid' }],
        ['q=a%00b', { 'querystring.q': 'invalid' }],
        ['role=admin', { 'querystring.role': 'unknown_field' }],
      ];
      for (const [query, fields] of cases) {
        const res = await operator.request('GET', `/api/admin/promoters?${query}`);
        expect(res.statusCode, query).toBe(400);
        expect(res.json().error, query).toMatchObject({ code: 'VALIDATION_FAILED', fields });
      }
    });
  });

  describe('export', () => {
    it('exports what is filtered, in the list’s order, and audits who exported what', async () => {
      const res = await operator.request('GET', `/api/admin/promoters/export?q=${tag}&sort=name&dir=asc`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toMatch(/^attachment; filename="promoters-\d{4}-\d{2}-\d{2}\.csv"$/);
      const lines = res.body.replace(/^\uFEFF/, '').trimEnd().split('\r\n');
      expect(lines[0]).toBe('promoter_id,account,display_name,status,group,invite_code,created_at,inviter_account,available,pending,currency');
      expect(lines[1]!.split(',')[4]).toBe('Default');
      expect(lines.slice(1).map((l) => l.split(',')[2])).toEqual(['Alice', 'Bob', 'Carol']);
      expect(lines[2]).toContain(`"=""${bob.account}"""`);
      expect(lines[2]).toContain(',123.45,5.00,CNY');
      expect(lines[2]).toContain(`"=""${alice.account}"""`);
      const entry = await env.ctx.db.selectFrom('audit_entries').select(['actor_id', 'entity', 'ip', 'after_json']).where('action', '=', 'promoter.export').orderBy('at', 'desc').executeTakeFirstOrThrow();
      expect(entry.actor_id).toBe(operatorUser.id);
      expect(entry.ip).toBe('127.0.0.1');
      expect(JSON.parse(entry.after_json!)).toEqual({ filters: { q: tag, sort: 'name', dir: 'asc' }, count: 3 });
      // The same rules as the list: bad filters refused, nothing exported, nothing audited.
      const before = await env.ctx.db.selectFrom('audit_entries').select((eb) => eb.fn.countAll<number>().as('n')).where('action', '=', 'promoter.export').executeTakeFirstOrThrow();
      expect(errorCode(await operator.request('GET', '/api/admin/promoters/export?status=nope'))).toBe('VALIDATION_FAILED');
      expect(errorCode(await operator.request('GET', '/api/admin/promoters/export?cursor=x'))).toBe('VALIDATION_FAILED');
      const after = await env.ctx.db.selectFrom('audit_entries').select((eb) => eb.fn.countAll<number>().as('n')).where('action', '=', 'promoter.export').executeTakeFirstOrThrow();
      expect(Number(after.n)).toBe(Number(before.n));
    });
  });

  describe('the promoter’s page', () => {
    it('shows the profile, the status actions, the inviter, the team size and the wallet', async () => {
      const res = await operator.request('GET', `/api/admin/promoters/${alice.id}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({
        promoter: { id: alice.id, displayName: 'Alice', account: alice.account, status: 'active', locale: 'en', inviteCode: alice.inviteCode, leaderboardOptOut: false, createdAt: expect.any(Number) },
        actions: ['suspend'],
        inviter: null,
        group: { id: 'default', name: 'Default' },
        application: [],
        teamSize: 1,
        currency: 'CNY',
        wallet: { pending: 0, available: 99, withdrawing: 0, paidOut: 0 },
      });
      const b = (await admin.request('GET', `/api/admin/promoters/${bob.id}`)).json();
      expect(b).toMatchObject({ inviter: { id: alice.id, displayName: 'Alice', account: alice.account }, teamSize: 0, wallet: { pending: 500, available: 12_345 } });
      const pending = await createUser(env.ctx, 'promoter', 'Passw0rd-test', 'pending');
      expect((await operator.request('GET', `/api/admin/promoters/${pending.id}`)).json().actions).toEqual(['approve', 'reject']);
    });

    it('has tabs for the ledger, commissions, withdrawals, links, payout accounts and devices — nothing secret in any', async () => {
      // A withdrawal, so its tab has a row.
      expect((await bob.client.request('POST', '/api/withdrawals', { amount: 2_000 }, { headers: { 'idempotency-key': `w-${tag}` } })).statusCode).toBe(201);
      const tab = async (name: string, query = '') => {
        const res = await operator.request('GET', `/api/admin/promoters/${bob.id}/${name}${query}`);
        expect(res.statusCode, `${name} ${res.body}`).toBe(200);
        for (const secret of [BANK_NORMALIZED, '34567890', 'number_sealed', 'token_hash', 'password']) expect(res.body, name).not.toContain(secret);
        return res.json();
      };
      const ledger = await tab('ledger');
      expect(ledger.items[0]).toMatchObject({ kind: 'withdrawal_requested', refType: 'withdrawal' });
      expect(ledger.items.some((l: { kind: string; account: string; amount: number }) => l.kind === 'commission_approved' && l.account === 'available' && l.amount === 12_345)).toBe(true);
      const first = await tab('ledger', '?limit=1');
      expect(first.items).toHaveLength(1);
      const second = await tab('ledger', `?limit=1&cursor=${first.nextCursor}`);
      expect(second.items[0]).toEqual(ledger.items[1]);

      expect((await tab('commissions')).items).toEqual([]);
      const withdrawals = await tab('withdrawals');
      expect(withdrawals.items).toEqual([expect.objectContaining({ amount: 2_000, status: 'requested', account: { method: 'bank', holderName: 'Bob Holder', last4: '7890' } })]);
      const links = await tab('links');
      expect(links.items.map((l: { code: string }) => l.code)).toContain(`Bob-${tag}`);
      expect(links.items.find((l: { code: string }) => l.code === `Bob-${tag}`)).toMatchObject({ campaignId, campaignName: 'Summer Tea', label: 'Moments', channel: 'wechat', status: 'active', isDefault: false });
      const accounts = await tab('payout-accounts');
      expect(accounts.items).toEqual([{ id: expect.any(String), method: 'bank', holderName: 'Bob Holder', last4: '7890', isDefault: true, createdAt: expect.any(Number) }]);
      const sessions = await tab('sessions');
      expect(sessions.items).toHaveLength(1);
      expect(Object.keys(sessions.items[0]).sort()).toEqual(['createdAt', 'device', 'expiresAt', 'id', 'lastSeenAt']);
      expect(sessions.items[0].device).toContain('Chrome');
      // A signed-out device is no longer listed.
      await bob.client.request('POST', '/api/auth/logout');
      expect((await tab('sessions')).items).toEqual([]);
    });

    it('knows no staff member and no unknown id; the tabs neither', async () => {
      for (const id of [operatorUser.id, 'nobody-here', '01J0000000000000000000000Z']) {
        expect(errorCode(await admin.request('GET', `/api/admin/promoters/${id}`)), id).toBe('NOT_FOUND');
        for (const name of ['ledger', 'commissions', 'withdrawals', 'links', 'payout-accounts', 'sessions']) {
          expect(errorCode(await admin.request('GET', `/api/admin/promoters/${id}/${name}`)), `${id} ${name}`).toBe('NOT_FOUND');
        }
      }
      expect(errorCode(await admin.request('GET', `/api/admin/promoters/${'x'.repeat(65)}`))).toBe('VALIDATION_FAILED');
      expect(errorCode(await admin.request('GET', `/api/admin/promoters/${bob.id}/ledger?cursor=%%%`))).toBe('VALIDATION_FAILED');
    });
  });

  describe('password reset links made by staff', () => {
    it('gives an operator a one-time link for the promoter, valid 30 minutes, stored as a digest and audited without the token', async () => {
      const started = Date.now();
      const res = await operator.request('POST', `/api/admin/promoters/${alice.id}/password-reset`);
      expect(res.statusCode, res.body).toBe(201);
      expect(res.headers['cache-control']).toBe('no-store');
      const { url, expiresAt } = res.json() as { url: string; expiresAt: number };
      expect(url).toMatch(/^http:\/\/localhost(:80)?\/#\/reset-password\?token=[A-Za-z0-9_-]{43}$/);
      expect(expiresAt).toBeGreaterThanOrEqual(started + 30 * 60_000);
      expect(expiresAt).toBeLessThanOrEqual(Date.now() + 30 * 60_000);
      const token = decodeURIComponent(url.split('token=')[1]!);
      const stored = await env.ctx.db.selectFrom('password_tokens').select(['token_hash', 'purpose', 'created_by', 'used_at']).where('user_id', '=', alice.id).orderBy('created_at', 'desc').executeTakeFirstOrThrow();
      expect(stored).toEqual({ token_hash: createHash('sha256').update(token).digest('hex'), purpose: 'reset', created_by: operatorUser.id, used_at: null });
      const entry = await env.ctx.db.selectFrom('audit_entries').select(['actor_id', 'entity', 'entity_id', 'ip', 'before_json', 'after_json']).where('action', '=', 'user.password_reset_link').where('entity_id', '=', alice.id).executeTakeFirstOrThrow();
      expect(entry).toEqual({ actor_id: operatorUser.id, entity: 'user', entity_id: alice.id, ip: '127.0.0.1', before_json: null, after_json: JSON.stringify({ expiresAt }) });
      expect(JSON.stringify(entry)).not.toContain(token);

      // A second link ends the first.
      const next = (await admin.request('POST', `/api/admin/promoters/${alice.id}/password-reset`)).json();
      expect(next.url).not.toBe(url);
      const open = await env.ctx.db.selectFrom('password_tokens').select('id').where('user_id', '=', alice.id).where('used_at', 'is', null).where('expires_at', '>', Date.now()).execute();
      expect(open).toHaveLength(1);
    });

    it('makes no link for staff or an unknown id', async () => {
      const count = async () => Number((await env.ctx.db.selectFrom('password_tokens').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
      const before = await count();
      expect(errorCode(await operator.request('POST', `/api/admin/promoters/${operatorUser.id}/password-reset`))).toBe('NOT_FOUND');
      const anAdmin = await createUser(env.ctx, 'admin');
      expect(errorCode(await operator.request('POST', `/api/admin/promoters/${anAdmin.id}/password-reset`))).toBe('NOT_FOUND');
      expect(errorCode(await operator.request('POST', '/api/admin/promoters/unknown/password-reset'))).toBe('NOT_FOUND');
      expect(await count()).toBe(before);
    });
  });

  it('lets only staff in: a promoter, an API key and nobody get the error alone', async () => {
    const key = (await admin.request('POST', '/api/admin/api-keys', { name: `Promoters ${tag}`, scopes: ['conversions:write', 'conversions:read'] })).json().secret as string;
    const promoter = (await signedIn(env, 'promoter')).client;
    const calls: ['GET' | 'POST', string][] = [
      ['GET', '/api/admin/promoters'],
      ['GET', '/api/admin/promoters/export'],
      ['GET', `/api/admin/promoters/${bob.id}`],
      ...['ledger', 'commissions', 'withdrawals', 'links', 'payout-accounts', 'sessions'].map((t): ['GET', string] => ['GET', `/api/admin/promoters/${bob.id}/${t}`]),
      ['POST', `/api/admin/promoters/${bob.id}/password-reset`],
    ];
    const tokensBefore = await env.ctx.db.selectFrom('password_tokens').select('id').where('user_id', '=', bob.id).execute();
    for (const [method, url] of calls) {
      for (const [who, res, status, code] of [
        ['nobody', await new Client(env.app).request(method, url), 401, 'UNAUTHENTICATED'],
        ['promoter', await promoter.request(method, url), 403, 'FORBIDDEN'],
        // A key is for api/v1 only: here it is no session (and, for a POST, no CSRF token either).
        ['api key', await env.app.inject({ method, url, headers: { authorization: `Bearer ${key}` } }), method === 'GET' ? 401 : 403, method === 'GET' ? 'UNAUTHENTICATED' : 'CSRF_INVALID'],
      ] as const) {
        expect(res.statusCode, `${who} ${method} ${url}`).toBe(status);
        expect(res.json(), `${who} ${method} ${url}`).toEqual({ error: { code, message: expect.any(String) } });
      }
      for (const client of [operator, admin]) {
        const res = await client.request(method, url);
        expect(res.statusCode, `${method} ${url}`).toBe(method === 'POST' ? 201 : 200);
      }
    }
    const tokensAfter = await env.ctx.db.selectFrom('password_tokens').select(['id', 'created_by']).where('user_id', '=', bob.id).execute();
    expect(tokensAfter.length - tokensBefore.length).toBe(2);
  });
});
