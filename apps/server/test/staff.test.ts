/**
 * Staff and roles (issue 14, item 6): admins list, invite and change operators and admins; the
 * invited person sets a password through a one-time link; a changed person is signed out
 * everywhere; the last active admin cannot be demoted or suspended (LAST_ADMIN), even when two
 * admins demote each other at the same moment.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, createUser, DIALECTS, errorCode, makeEnv, signedIn, uniqueAccount, type TestEnv } from './helpers';

const PASSWORD = 'Staff-passw0rd';
const UNKNOWN_ID = '01J0000000000000000000000Z';

/** The token of a set-password link (`…/#/reset-password?token=…`). */
const tokenOf = (url: string) => decodeURIComponent(new URL(url.replace('/#/', '/')).searchParams.get('token')!);

async function setPassword(env: TestEnv, inviteUrl: string, password = PASSWORD) {
  const client = new Client(env.app);
  return client.request('POST', '/api/auth/reset-password', { token: tokenOf(inviteUrl), password: await client.seal(password) });
}

async function auditOf(env: TestEnv, action: string, entityId: string) {
  return env.ctx.db.selectFrom('audit_entries').select(['actor_id', 'before_json', 'after_json', 'ip']).where('action', '=', action).where('entity_id', '=', entityId).orderBy('at').orderBy('id').execute();
}

describe.each(DIALECTS)('staff and roles on %s', (dialect) => {
  let env: TestEnv;
  let admin: Client;
  let adminId: string;
  beforeAll(async () => {
    env = await makeEnv(dialect);
    const signed = await signedIn(env, 'admin', { ip: '192.0.2.10' });
    admin = signed.client;
    adminId = signed.user.id;
  });
  afterAll(async () => {
    await env?.close();
  });

  it('lets only admins call every staff operation', async () => {
    const promoter = (await signedIn(env, 'promoter')).client;
    const operator = (await signedIn(env, 'operator')).client;
    const nobody = new Client(env.app);
    const apiSecret = (await admin.request('POST', '/api/admin/api-keys', { name: 'Staff matrix', scopes: ['conversions:write'] })).json().secret as string;
    const target = await createUser(env.ctx, 'operator');
    const calls: [string, string, unknown][] = [
      ['GET', '/api/admin/staff', undefined],
      ['POST', '/api/admin/staff', { account: uniqueAccount('matrix'), displayName: 'Matrix Person', role: 'operator' }],
      ['POST', `/api/admin/staff/${target.id}/invite`, undefined],
      ['PATCH', `/api/admin/staff/${target.id}`, { role: 'operator' }],
    ];
    for (const [method, url, body] of calls) {
      const what = `${method} ${url}`;
      for (const [who, client] of [['nobody', nobody], ['promoter', promoter], ['operator', operator]] as const) {
        const res = await client.request(method as 'GET', url, body);
        expect([401, 403], `${who} ${what}`).toContain(res.statusCode);
        expect(Object.keys(res.json()), `${who} ${what}`).toEqual(['error']);
      }
      const byKey = await env.app.inject({ method: method as 'GET', url, headers: { authorization: `Bearer ${apiSecret}`, ...(body ? { 'content-type': 'application/json' } : {}) }, payload: body ? JSON.stringify(body) : undefined });
      expect([401, 403], `apiKey ${what}`).toContain(byKey.statusCode);
      const res = await admin.request(method as 'GET', url, body);
      expect(res.statusCode, `admin ${what}: ${res.body}`).toBeLessThan(300);
    }
  });

  it('lists operators and admins — never promoters — with role, status, password set and last sign-in', async () => {
    const promoter = await createUser(env.ctx, 'promoter');
    const operator = await signedIn(env, 'operator');
    const res = await admin.request('GET', '/api/admin/staff');
    expect(res.statusCode).toBe(200);
    const items = res.json().items as { id: string; role: string; status: string; lastSignInAt: number | null; passwordSet: boolean }[];
    expect(items.every((i) => i.role === 'operator' || i.role === 'admin')).toBe(true);
    expect(items.find((i) => i.id === promoter.id)).toBeUndefined();
    const row = items.find((i) => i.id === operator.user.id)!;
    expect(row).toMatchObject({ account: operator.user.account, role: 'operator', status: 'active', passwordSet: true });
    expect(row.lastSignInAt).toBeGreaterThan(Date.now() - 60_000);
    expect(items.find((i) => i.id === adminId)).toMatchObject({ role: 'admin' });
  });

  it('invites a new operator who cannot sign in until the one-time link sets a password', async () => {
    const account = uniqueAccount('newop');
    const res = await admin.request('POST', '/api/admin/staff', { account: `  ${account.toUpperCase()} `, displayName: ' New Operator ', role: 'operator' });
    expect(res.statusCode).toBe(201);
    const { user, inviteUrl, expiresAt } = res.json() as { user: { id: string; passwordSet: boolean }; inviteUrl: string; expiresAt: number };
    expect(user).toMatchObject({ account, displayName: 'New Operator', role: 'operator', status: 'active', passwordSet: false, lastSignInAt: null });
    expect(inviteUrl).toMatch(/^http:\/\/localhost(:\d+)?\/#\/reset-password\?token=[A-Za-z0-9_-]{43}$/);
    expect(expiresAt - Date.now()).toBeGreaterThan(29 * 60_000);
    expect(expiresAt - Date.now()).toBeLessThanOrEqual(30 * 60_000);
    // Only the digest of the token is stored.
    const stored = await env.ctx.db.selectFrom('password_tokens').select(['token_hash', 'purpose', 'created_by']).where('user_id', '=', user.id).execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ purpose: 'invite', created_by: adminId });
    expect(stored[0]!.token_hash).not.toContain(tokenOf(inviteUrl));

    expect(errorCode(await new Client(env.app).login(account, PASSWORD))).toBe('INVALID_CREDENTIALS');
    const set = await setPassword(env, inviteUrl);
    expect(set.statusCode).toBe(200);
    expect(set.json()).toEqual({ ok: true, account });
    const operator = new Client(env.app);
    const login = await operator.login(account, PASSWORD);
    expect(login.statusCode).toBe(200);
    expect(login.json().user.role).toBe('operator');
    expect((await operator.request('GET', '/api/admin/users')).statusCode).toBe(200);
    expect((await admin.request('GET', '/api/admin/staff')).json().items.find((i: { id: string }) => i.id === user.id)).toMatchObject({ passwordSet: true });

    expect(await auditOf(env, 'staff.create', user.id)).toEqual([
      { actor_id: adminId, before_json: null, after_json: JSON.stringify({ account, displayName: 'New Operator', role: 'operator', status: 'active' }), ip: '192.0.2.10' },
    ]);
  });

  it('refuses an account already taken, by staff or by a promoter, and changes nothing', async () => {
    const promoter = await createUser(env.ctx, 'promoter');
    const count = async () => Number((await env.ctx.db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const before = await count();
    for (const account of [promoter.account, promoter.account.toUpperCase()]) {
      const res = await admin.request('POST', '/api/admin/staff', { account, displayName: 'Taken Person', role: 'admin' });
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toMatchObject({ code: 'ACCOUNT_EXISTS', fields: { account: 'taken' } });
    }
    expect(await count()).toBe(before);
    const row = await env.ctx.db.selectFrom('users').select('role').where('id', '=', promoter.id).executeTakeFirstOrThrow();
    expect(row.role).toBe('promoter');
  });

  it('refuses bad input with catalogue codes and creates no one', async () => {
    const cases: [unknown, Record<string, string>][] = [
      [{ account: 'not-an-account', displayName: 'Some One', role: 'operator' }, { account: 'invalid_account' }],
      [{ account: uniqueAccount(), displayName: 'Some One', role: 'promoter' }, { role: 'invalid' }],
      [{ account: uniqueAccount(), displayName: 'Some One', role: 'owner' }, { role: 'invalid' }],
      [{ account: uniqueAccount(), displayName: 'S', role: 'operator' }, { displayName: 'too_short' }],
      [{ account: uniqueAccount(), displayName: 'Some\u0000One', role: 'operator' }, { displayName: 'invalid' }],
      [{ account: uniqueAccount(), displayName: 'Some One', role: 'operator', status: 'active' }, { status: 'unknown_field' }],
      [{ displayName: 'Some One', role: 'operator' }, { account: 'required' }],
    ];
    const count = async () => Number((await env.ctx.db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const before = await count();
    for (const [body, fields] of cases) {
      const res = await admin.request('POST', '/api/admin/staff', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error, JSON.stringify(body)).toMatchObject({ code: 'VALIDATION_FAILED', fields });
    }
    expect(await count()).toBe(before);

    const target = await createUser(env.ctx, 'operator');
    const patches: [unknown, string][] = [
      [{}, 'VALIDATION_FAILED'],
      [{ role: 'promoter' }, 'VALIDATION_FAILED'],
      [{ status: 'pending' }, 'VALIDATION_FAILED'],
      [{ status: 'rejected' }, 'VALIDATION_FAILED'],
      [{ role: 'admin', displayName: 'x' }, 'VALIDATION_FAILED'],
      [{ role: 'admin\u0000' }, 'VALIDATION_FAILED'],
    ];
    for (const [body, code] of patches) {
      const res = await admin.request('PATCH', `/api/admin/staff/${target.id}`, body);
      expect(errorCode(res), JSON.stringify(body)).toBe(code);
    }
    const row = await env.ctx.db.selectFrom('users').select(['role', 'status']).where('id', '=', target.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ role: 'operator', status: 'active' });
  });

  it('knows no promoter and no unknown id: NOT_FOUND for changes and invites', async () => {
    const promoter = await createUser(env.ctx, 'promoter');
    for (const id of [promoter.id, UNKNOWN_ID, 'x\u0000y']) {
      const url = `/api/admin/staff/${encodeURIComponent(id)}`;
      expect(errorCode(await admin.request('PATCH', url, { role: 'admin' }))).toBe('NOT_FOUND');
      expect(errorCode(await admin.request('POST', `${url}/invite`))).toBe('NOT_FOUND');
    }
    const row = await env.ctx.db.selectFrom('users').select('role').where('id', '=', promoter.id).executeTakeFirstOrThrow();
    expect(row.role).toBe('promoter');
    expect(await env.ctx.db.selectFrom('password_tokens').select('id').where('user_id', '=', promoter.id).execute()).toEqual([]);
  });

  it('issues a new link that ends the previous one', async () => {
    const created = (await admin.request('POST', '/api/admin/staff', { account: uniqueAccount('late'), displayName: 'Late Starter', role: 'operator' })).json();
    const res = await admin.request('POST', `/api/admin/staff/${created.user.id}/invite`);
    expect(res.statusCode).toBe(200);
    const again = res.json();
    expect(again.user.id).toBe(created.user.id);
    expect(again.inviteUrl).not.toBe(created.inviteUrl);
    expect(errorCode(await setPassword(env, created.inviteUrl))).toBe('RESET_TOKEN_INVALID');
    expect((await setPassword(env, again.inviteUrl)).statusCode).toBe(200);
    expect(await auditOf(env, 'staff.invite', created.user.id)).toEqual([{ actor_id: adminId, before_json: null, after_json: JSON.stringify({ expiresAt: again.expiresAt }), ip: '192.0.2.10' }]);
  });

  it('changes role and status, signs the changed person out everywhere and audits before and after', async () => {
    const { client: operator, user } = await signedIn(env, 'operator');
    const second = new Client(env.app);
    expect((await second.login(user.account, user.password)).statusCode).toBe(200);

    const promote = await admin.request('PATCH', `/api/admin/staff/${user.id}`, { role: 'admin' });
    expect(promote.statusCode).toBe(200);
    expect(promote.json().user).toMatchObject({ id: user.id, role: 'admin', status: 'active' });
    expect((await operator.request('GET', '/api/me')).statusCode).toBe(401);
    expect((await second.request('GET', '/api/me')).statusCode).toBe(401);
    const back = new Client(env.app);
    expect((await back.login(user.account, user.password)).json().user.role).toBe('admin');
    expect((await back.request('GET', '/api/admin/staff')).statusCode).toBe(200);

    const suspend = await admin.request('PATCH', `/api/admin/staff/${user.id}`, { status: 'suspended' });
    expect(suspend.json().user).toMatchObject({ role: 'admin', status: 'suspended' });
    expect((await back.request('GET', '/api/me')).statusCode).toBe(401);
    expect(errorCode(await new Client(env.app).login(user.account, user.password))).toBe('ACCOUNT_SUSPENDED');

    const both = await admin.request('PATCH', `/api/admin/staff/${user.id}`, { status: 'active', role: 'operator' });
    expect(both.json().user).toMatchObject({ role: 'operator', status: 'active' });
    expect((await new Client(env.app).login(user.account, user.password)).json().user.role).toBe('operator');

    // The same values again: nothing changes, nothing is written, no one is signed out.
    const signedInAgain = new Client(env.app);
    await signedInAgain.login(user.account, user.password);
    const same = await admin.request('PATCH', `/api/admin/staff/${user.id}`, { role: 'operator', status: 'active' });
    expect(same.statusCode).toBe(200);
    expect((await signedInAgain.request('GET', '/api/me')).statusCode).toBe(200);

    expect(await auditOf(env, 'staff.update', user.id)).toEqual([
      { actor_id: adminId, before_json: JSON.stringify({ role: 'operator', status: 'active' }), after_json: JSON.stringify({ role: 'admin', status: 'active' }), ip: '192.0.2.10' },
      { actor_id: adminId, before_json: JSON.stringify({ role: 'admin', status: 'active' }), after_json: JSON.stringify({ role: 'admin', status: 'suspended' }), ip: '192.0.2.10' },
      { actor_id: adminId, before_json: JSON.stringify({ role: 'admin', status: 'suspended' }), after_json: JSON.stringify({ role: 'operator', status: 'active' }), ip: '192.0.2.10' },
    ]);
  });

  it('does not let an admin suspend themselves', async () => {
    const res = await admin.request('PATCH', `/api/admin/staff/${adminId}`, { status: 'suspended' });
    expect(res.statusCode).toBe(403);
    expect(errorCode(res)).toBe('FORBIDDEN');
    expect((await admin.request('GET', '/api/me')).statusCode).toBe(200);
  });
});

describe.each(DIALECTS)('the last active admin on %s', (dialect) => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await makeEnv(dialect);
  });
  afterAll(async () => {
    await env?.close();
  });

  const activeAdmins = async () =>
    (await env.ctx.db.selectFrom('users').select('id').where('role', '=', 'admin').where('status', '=', 'active').execute()).map((r) => r.id);

  it('cannot be demoted or suspended (LAST_ADMIN); a suspended admin does not count', async () => {
    const first = await signedIn(env, 'admin');
    const other = await createUser(env.ctx, 'admin');
    // Suspending the only other admin is allowed: the first stays.
    expect((await first.client.request('PATCH', `/api/admin/staff/${other.id}`, { status: 'suspended' })).statusCode).toBe(200);
    expect(await activeAdmins()).toEqual([first.user.id]);

    const res = await first.client.request('PATCH', `/api/admin/staff/${first.user.id}`, { role: 'operator' });
    expect(res.statusCode).toBe(409);
    expect(errorCode(res)).toBe('LAST_ADMIN');
    expect(await activeAdmins()).toEqual([first.user.id]);
    // Nothing changed: still signed in, still an admin.
    expect((await first.client.request('GET', '/api/admin/staff')).statusCode).toBe(200);

    // With another active admin, stepping down is allowed (and signs the person out).
    expect((await first.client.request('PATCH', `/api/admin/staff/${other.id}`, { status: 'active' })).statusCode).toBe(200);
    const down = await first.client.request('PATCH', `/api/admin/staff/${first.user.id}`, { role: 'operator' });
    expect(down.statusCode).toBe(200);
    expect((await first.client.request('GET', '/api/me')).statusCode).toBe(401);
    expect(await activeAdmins()).toEqual([other.id]);
  });

  it('leaves one admin when two admins demote each other at the same moment', async () => {
    let [survivor] = await activeAdmins();
    expect(survivor).toBeTruthy();
    let clientOfSurvivor: Client | null = null;
    let raced = 0;
    for (let round = 0; round < 6; round++) {
      const newcomer = await signedIn(env, 'admin');
      // The survivor of the last round signs in again (its sessions may have been revoked).
      const row = await env.ctx.db.selectFrom('users').select('account').where('id', '=', survivor!).executeTakeFirstOrThrow();
      await env.ctx.db.updateTable('users').set({ password_hash: (await env.ctx.db.selectFrom('users').select('password_hash').where('id', '=', newcomer.user.id).executeTakeFirstOrThrow()).password_hash }).where('id', '=', survivor!).execute();
      clientOfSurvivor = new Client(env.app);
      expect((await clientOfSurvivor.login(row.account, newcomer.user.password)).statusCode).toBe(200);
      expect((await activeAdmins()).sort()).toEqual([survivor!, newcomer.user.id].sort());

      const change = round % 2 === 0 ? { role: 'operator' } : { status: 'suspended' };
      const [a, b] = await Promise.all([
        clientOfSurvivor.request('PATCH', `/api/admin/staff/${newcomer.user.id}`, change),
        newcomer.client.request('PATCH', `/api/admin/staff/${survivor}`, change),
      ]);
      const codes = [a, b].map((r) => (r.statusCode === 200 ? 'ok' : errorCode(r)));
      expect(codes.filter((c) => c === 'ok'), `round ${round}: ${codes.join()}`).toHaveLength(1);
      // The other is refused: by the rule (both passed the session check before either changed
      // anything), or — when the first committed before the second got that far — as signed out.
      const refused = codes.find((c) => c !== 'ok')!;
      expect(['LAST_ADMIN', 'UNAUTHENTICATED'], `round ${round}`).toContain(refused);
      if (refused === 'LAST_ADMIN') raced++;
      const left = await activeAdmins();
      expect(left, `round ${round}`).toHaveLength(1);
      survivor = left[0];
    }
    // The rule itself was exercised, not only the session check.
    expect(raced).toBeGreaterThan(0);
  });
});
