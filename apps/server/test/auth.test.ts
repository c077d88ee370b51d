import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { describeDevice } from '../src/platform/session';
import { Client, createUser, DIALECTS, errorCode, makeEnv, seal, signedIn, uniqueAccount, type TestEnv } from './helpers';
import { rawExchange } from './raw-http';

const PASSWORD = 'Str0ng-pass';

async function userCount(env: TestEnv) {
  const row = await env.ctx.db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The signed-in devices list (Me → Devices) names each session by browser and device, or its system. */
describe('a signed-in device\'s label', () => {
  it.each([
    ['Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Mobile Safari/537.36', 'Chrome 130 · Google Pixel 8'],
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1', 'Mobile Safari 17 · Apple iPhone'],
    ['Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1', 'Mobile Safari 17 · Apple iPad'],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15', 'Safari 17 · Apple Macintosh'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0', 'Edge 131 · Windows 10'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0', 'Firefox 133 · Windows 10'],
    ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36', 'Chrome 131 · Linux'],
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 16_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.30(0x18001e31) NetType/WIFI Language/zh_CN', 'WeChat 8 · Apple iPhone'],
    ['Mozilla/5.0 (Linux; Android 14; SAMSUNG SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/23.0 Chrome/115.0.0.0 Mobile Safari/537.36', 'Samsung Internet 23 · Samsung SM-S918B'],
  ])('%s → %s', (userAgent, label) => {
    expect(describeDevice(userAgent)).toBe(label);
  });
  it('falls back to the raw user agent, cut, when nothing in it is known, and says so when there is none', () => {
    expect(describeDevice('curl/8.5.0')).toBe('curl/8.5.0');
    expect(describeDevice(`x${'y'.repeat(100)}`)).toHaveLength(60);
    expect(describeDevice(undefined)).toBe('Unknown device');
  });
});

describe.each(DIALECTS)('accounts and sign-in on %s', (dialect) => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await makeEnv(dialect);
  });
  afterAll(async () => {
    await env?.close();
  });

  it('publishes the RSA-OAEP-256 public key and keeps it across restarts', async () => {
    const client = new Client(env.app);
    const res = await client.request('GET', '/api/auth/public-key');
    expect(res.statusCode).toBe(200);
    const key = res.json();
    expect(key.algorithm).toBe('RSA-OAEP-256');
    expect(Buffer.from(key.spki, 'base64').length).toBeGreaterThan(250);
    const restarted = await env.restart();
    const again = await new Client(restarted.app).request('GET', '/api/auth/public-key');
    expect(again.json()).toEqual(key);
    await restarted.close();
  });

  it('registers with an invite code that binds the inviter, and signs the new user in', async () => {
    const inviter = new Client(env.app);
    const inviterAccount = uniqueAccount('inviter');
    const first = await inviter.register({ account: inviterAccount, displayName: 'Inviter One', password: PASSWORD });
    expect(first.statusCode).toBe(201);
    const inviteCode = first.json().user.inviteCode as string;
    expect(inviteCode).toMatch(/^[0-9A-HJKMNP-TV-Z]{8}$/);

    const invitee = new Client(env.app);
    const account = uniqueAccount('Invitee').toUpperCase();
    const res = await invitee.register({ account, displayName: '  Invitee  ', password: PASSWORD, inviteCode: inviteCode.toLowerCase() });
    expect(res.statusCode).toBe(201);
    const user = res.json().user;
    expect(user).toMatchObject({ account: account.toLowerCase(), displayName: 'Invitee', role: 'promoter', status: 'active', inviterName: 'Inviter One' });
    expect(invitee.cookies.get('pa_session')).toBeTruthy();
    const setCookie = String(res.headers['set-cookie']);
    expect(setCookie).toMatch(/pa_session=[^;]+;.*HttpOnly/i);
    expect(setCookie).toMatch(/pa_csrf=/);
    const me = await invitee.request('GET', '/api/me');
    expect(me.statusCode).toBe(200);
    expect(me.json().user.id).toBe(user.id);
    const row = await env.ctx.db.selectFrom('users').select(['parent_id', 'password_hash']).where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.parent_id).toBe(first.json().user.id);
    expect(row.password_hash).toMatch(/^scrypt\$/);
    expect(row.password_hash).not.toContain(PASSWORD);
  });

  it('looks up an invite code for the register page: the inviter’s name masked, NOT_FOUND for an unknown or inactive one', async () => {
    const inviter = new Client(env.app);
    const first = await inviter.register({ account: uniqueAccount('lookup'), displayName: 'Sam (Lyon)', password: PASSWORD });
    const code = first.json().user.inviteCode as string;
    const anon = new Client(env.app);
    const res = await anon.request('GET', `/api/auth/invites/${code}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ inviterName: 'S*****n' });
    // Written as people copy it: lower case, with Crockford look-alikes.
    expect((await anon.request('GET', `/api/auth/invites/${code.toLowerCase()}`)).json()).toEqual({ inviterName: 'S*****n' });
    const unknown = await anon.request('GET', '/api/auth/invites/ZZZZZZZZ');
    expect(unknown.statusCode).toBe(404);
    expect(errorCode(unknown)).toBe('NOT_FOUND');
    const malformed = await anon.request('GET', '/api/auth/invites/XX');
    expect(malformed.json().error).toMatchObject({ code: 'VALIDATION_FAILED', fields: { 'params.code': 'invalid' } });
    // A suspended inviter's code no longer registers anyone: it is not found either.
    await env.ctx.db.updateTable('users').set({ status: 'suspended' }).where('id', '=', first.json().user.id).execute();
    expect(errorCode(await anon.request('GET', `/api/auth/invites/${code}`))).toBe('NOT_FOUND');
  });

  it('signs in, out, and out everywhere', async () => {
    const account = uniqueAccount();
    await new Client(env.app).register({ account, password: PASSWORD });
    const phone = new Client(env.app);
    const laptop = new Client(env.app, { userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15' });
    expect((await phone.login(account.toUpperCase(), PASSWORD)).statusCode).toBe(200);
    expect((await laptop.login(account, PASSWORD)).statusCode).toBe(200);

    const sessions = (await phone.request('GET', '/api/me/sessions')).json().items;
    expect(sessions.length).toBe(3); // register + two sign-ins
    expect(sessions.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
    expect(sessions.map((s: { device: string }) => s.device).join('|')).toMatch(/Safari/);

    expect((await phone.request('POST', '/api/auth/logout')).statusCode).toBe(200);
    expect(errorCode(await phone.request('GET', '/api/me'))).toBe('UNAUTHENTICATED');
    expect((await laptop.request('GET', '/api/me')).statusCode).toBe(200);

    const all = await laptop.request('POST', '/api/auth/logout-all');
    expect(all.json().revoked).toBe(2);
    expect(errorCode(await laptop.request('GET', '/api/me'))).toBe('UNAUTHENTICATED');
  });

  it('revokes one signed-in device, and not another user\'s', async () => {
    const account = uniqueAccount();
    const a = new Client(env.app);
    await a.register({ account, password: PASSWORD });
    const b = new Client(env.app);
    await b.login(account, PASSWORD);
    const bSession = (await b.request('GET', '/api/me/sessions')).json().items.find((s: { current: boolean }) => s.current);
    const stranger = new Client(env.app);
    await stranger.register({ account: uniqueAccount('stranger'), password: PASSWORD });
    expect(errorCode(await stranger.request('DELETE', `/api/me/sessions/${bSession.id}`))).toBe('NOT_FOUND');
    expect((await b.request('GET', '/api/me')).statusCode).toBe(200);
    expect((await a.request('DELETE', `/api/me/sessions/${bSession.id}`)).statusCode).toBe(200);
    expect(errorCode(await b.request('GET', '/api/me'))).toBe('UNAUTHENTICATED');
  });

  it('edits the profile and validates it', async () => {
    const c = new Client(env.app);
    await c.register({ account: uniqueAccount(), password: PASSWORD });
    const ok = await c.request('PATCH', '/api/me', { displayName: '小明', locale: 'zh-Hant' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().user).toMatchObject({ displayName: '小明', locale: 'zh-Hant' });
    const bad = await c.request('PATCH', '/api/me', { displayName: 'x', locale: 'de' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatchObject({ code: 'VALIDATION_FAILED', fields: { displayName: 'too_short', locale: 'invalid' } });
    expect((await c.request('GET', '/api/me')).json().user.displayName).toBe('小明');
  });

  // Issue 28, item 10: a name goes into mail bodies and headers; a line break there forges lines.
  it('refuses a display name with a line break or another control character wherever a name is set', async () => {
    const names = ['Bob\r\nBcc: x@example.com', 'Bo\tb', 'Bo\u2028b', 'Bo\u202Eb'];
    const usersBefore = await userCount(env);
    for (const displayName of names) {
      const res = await new Client(env.app).register({ account: uniqueAccount(), displayName, password: PASSWORD });
      expect(res.statusCode, JSON.stringify(displayName)).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'VALIDATION_FAILED', fields: { displayName: 'control_characters' } });
    }
    const c = new Client(env.app);
    await c.register({ account: uniqueAccount(), displayName: 'Plain Name', password: PASSWORD });
    for (const displayName of names) {
      const res = await c.request('PATCH', '/api/me', { displayName });
      expect(res.json().error, JSON.stringify(displayName)).toMatchObject({ code: 'VALIDATION_FAILED', fields: { displayName: 'control_characters' } });
    }
    expect((await c.request('GET', '/api/me')).json().user.displayName).toBe('Plain Name');
    const { client: admin } = await signedIn(env, 'admin');
    const countAfterAdmin = await userCount(env);
    for (const displayName of names) {
      const res = await admin.request('POST', '/api/admin/staff', { account: uniqueAccount('staff'), displayName, role: 'operator' });
      expect(res.json().error, JSON.stringify(displayName)).toMatchObject({ code: 'VALIDATION_FAILED', fields: { displayName: 'control_characters' } });
    }
    // Only the plain registration and the admin were made.
    expect(await userCount(env)).toBe(usersBefore + 2);
    expect(countAfterAdmin).toBe(usersBefore + 2);
  });

  // Issue 28, item 12: the web app switches to the language the sign-in answers (its mails' language).
  it('sign-in and me answer the stored language, not the browser’s; a change is stored for both', async () => {
    const account = uniqueAccount('lang');
    const registered = await new Client(env.app, { locale: 'zh-TW' }).register({ account, password: PASSWORD });
    expect(registered.json().user.locale).toBe('zh-Hant');
    const english = new Client(env.app, { locale: 'en-US,en;q=0.9' });
    const login = await english.login(account, PASSWORD);
    expect(login.statusCode).toBe(200);
    expect(login.json().user.locale).toBe('zh-Hant');
    expect((await english.request('GET', '/api/me')).json().user.locale).toBe('zh-Hant');
    expect((await english.request('PATCH', '/api/me', { locale: 'fr' })).json().user.locale).toBe('fr');
    const other = new Client(env.app, { locale: 'es' });
    expect((await other.login(account, PASSWORD)).json().user.locale).toBe('fr');
    const stored = await env.ctx.db.selectFrom('users').select('locale').where('account', '=', account).executeTakeFirstOrThrow();
    expect(stored.locale).toBe('fr');
  });

  it('changes the password, signing out the other devices', async () => {
    const account = uniqueAccount();
    const a = new Client(env.app);
    await a.register({ account, password: PASSWORD });
    const other = new Client(env.app);
    await other.login(account, PASSWORD);
    const wrong = await a.request('POST', '/api/me/password', { current: await a.seal('Wrong-pass1'), next: await a.seal('New-pass-22') });
    expect(errorCode(wrong)).toBe('INVALID_CREDENTIALS');
    const weak = await a.request('POST', '/api/me/password', { current: await a.seal(PASSWORD), next: await a.seal('short1') });
    expect(weak.json().error).toMatchObject({ code: 'VALIDATION_FAILED', fields: { next: 'too_short' } });
    const res = await a.request('POST', '/api/me/password', { current: await a.seal(PASSWORD), next: await a.seal('New-pass-22') });
    expect(res.statusCode).toBe(200);
    expect((await a.request('GET', '/api/me')).statusCode).toBe(200);
    expect(errorCode(await other.request('GET', '/api/me'))).toBe('UNAUTHENTICATED');
    expect(errorCode(await new Client(env.app).login(account, PASSWORD))).toBe('INVALID_CREDENTIALS');
    expect((await new Client(env.app).login(account, 'New-pass-22')).statusCode).toBe(200);
  });

  describe('bad input: a clear code, and nothing changes', () => {
    it('wrong password', async () => {
      const account = uniqueAccount();
      await new Client(env.app).register({ account, password: PASSWORD });
      const res = await new Client(env.app).login(account, 'Wrong-pass1');
      expect(res.statusCode).toBe(401);
      expect(errorCode(res)).toBe('INVALID_CREDENTIALS');
      // An unknown account answers exactly the same.
      expect(errorCode(await new Client(env.app).login(uniqueAccount('nobody'), 'Wrong-pass1'))).toBe('INVALID_CREDENTIALS');
    });

    it('locks the account after 5 failures in 15 minutes', async () => {
      const account = uniqueAccount();
      await new Client(env.app).register({ account, password: PASSWORD });
      const c = new Client(env.app);
      for (let i = 0; i < 5; i++) expect(errorCode(await c.login(account, `Wrong-pass${i}`))).toBe('INVALID_CREDENTIALS');
      const locked = await c.login(account, PASSWORD);
      expect(locked.statusCode).toBe(423);
      expect(errorCode(locked)).toBe('ACCOUNT_LOCKED');
      expect(c.cookies.get('pa_session')).toBeUndefined();
      // Fifteen minutes later the failures no longer count.
      await env.ctx.db.updateTable('auth_failures').set((eb) => ({ at: eb('at', '-', 16 * 60_000) })).where('account', '=', account).execute();
      expect((await c.login(account, PASSWORD)).statusCode).toBe(200);
    });

    it('replayed ciphertext', async () => {
      const account = uniqueAccount();
      await new Client(env.app).register({ account, password: PASSWORD });
      const c = new Client(env.app);
      const sealed = await c.seal(PASSWORD);
      expect((await c.request('POST', '/api/auth/login', { account, password: sealed })).statusCode).toBe(200);
      const replay = await new Client(env.app).request('POST', '/api/auth/login', { account, password: sealed });
      expect(errorCode(replay)).toBe('REPLAY_DETECTED');
      const stale = seal(await c.publicKey(), PASSWORD, Date.now() - 6 * 60_000);
      expect(errorCode(await new Client(env.app).request('POST', '/api/auth/login', { account, password: stale }))).toBe('REPLAY_DETECTED');
    });

    it('stale key id and undecryptable ciphertext', async () => {
      const account = uniqueAccount();
      await new Client(env.app).register({ account, password: PASSWORD });
      const c = new Client(env.app);
      const old = await c.publicKey();
      const garbage = await c.request('POST', '/api/auth/login', { account, password: { keyId: old.keyId, ciphertext: Buffer.from('not rsa').toString('base64') } });
      expect(errorCode(garbage)).toBe('ENCRYPTION_INVALID');
      const admin = await createUser(env.ctx, 'admin');
      const adminClient = new Client(env.app);
      await adminClient.login(admin.account, admin.password);
      const rotated = await adminClient.request('POST', '/api/admin/keys/rotate');
      expect(rotated.statusCode).toBe(200);
      expect(rotated.json().keyId).not.toBe(old.keyId);
      const res = await c.request('POST', '/api/auth/login', { account, password: seal(old, PASSWORD) });
      expect(res.statusCode).toBe(400);
      expect(errorCode(res)).toBe('ENCRYPTION_INVALID');
      // The client's recovery: refetch the key and seal again.
      c.key = null;
      expect((await c.login(account, PASSWORD)).statusCode).toBe(200);
    });

    it('tampered body vs Content-Digest, and a missing digest', async () => {
      const c = new Client(env.app);
      const before = await userCount(env);
      const body = JSON.stringify({ account: uniqueAccount(), displayName: 'Tamper', password: await c.seal(PASSWORD) });
      const tampered = body.replace('Tamper', 'Tamperd');
      const res = await c.request('POST', '/api/auth/register', undefined, { rawBody: tampered, noDigest: true, headers: { 'content-digest': `sha-256=:${(await import('node:crypto')).createHash('sha256').update(body).digest('base64')}:` } });
      expect(res.statusCode).toBe(400);
      expect(errorCode(res)).toBe('DIGEST_MISMATCH');
      expect(errorCode(await c.request('POST', '/api/auth/register', undefined, { rawBody: body, noDigest: true }))).toBe('DIGEST_MISMATCH');
      expect(await userCount(env)).toBe(before);
    });

    it('missing or wrong CSRF header', async () => {
      const account = uniqueAccount();
      const c = new Client(env.app);
      await c.register({ account, password: PASSWORD });
      const res = await c.request('PATCH', '/api/me', { displayName: 'Hacked' }, { noCsrf: true });
      expect(res.statusCode).toBe(403);
      expect(errorCode(res)).toBe('CSRF_INVALID');
      expect(errorCode(await c.request('PATCH', '/api/me', { displayName: 'Hacked' }, { noCsrf: true, headers: { 'x-csrf-token': 'guess' } }))).toBe('CSRF_INVALID');
      expect((await c.request('GET', '/api/me')).json().user.displayName).toBe('Test Person');
    });

    it('malformed JSON', async () => {
      const c = new Client(env.app);
      const res = await c.request('POST', '/api/auth/login', undefined, { rawBody: '{"account": "a@b.co", ' });
      expect(res.statusCode).toBe(400);
      expect(errorCode(res)).toBe('VALIDATION_FAILED');
    });

    it('oversized body', async () => {
      const c = new Client(env.app);
      const before = await userCount(env);
      const res = await c.request('POST', '/api/auth/register', { account: uniqueAccount(), displayName: 'x'.repeat(70_000), password: await c.seal(PASSWORD) });
      expect(res.statusCode).toBe(413);
      expect(errorCode(res)).toBe('PAYLOAD_TOO_LARGE');
      expect(await userCount(env)).toBe(before);
    });

    it('unknown fields', async () => {
      const c = new Client(env.app);
      const res = await c.request('POST', '/api/auth/register', { account: uniqueAccount(), displayName: 'Role Hacker', password: await c.seal(PASSWORD), role: 'admin' });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'VALIDATION_FAILED', fields: { role: 'unknown_field' } });
    });

    it('too-short, weak and account-equal passwords', async () => {
      const c = new Client(env.app);
      const before = await userCount(env);
      const account = uniqueAccount();
      const short = await c.register({ account, password: 'ab1' });
      expect(short.json().error).toMatchObject({ code: 'VALIDATION_FAILED', fields: { password: 'too_short' } });
      const weak = await c.register({ account, password: 'onlyletters' });
      expect(weak.json().error.fields).toEqual({ password: 'password_weak' });
      const phone = '+8613800138000';
      const same = await c.register({ account: phone, password: phone });
      expect(same.json().error.fields).toEqual({ password: 'password_weak' });
      expect(await userCount(env)).toBe(before);
    });

    it('invalid account and display name', async () => {
      const c = new Client(env.app);
      const res = await c.register({ account: 'not-an-account', displayName: 'A', password: PASSWORD });
      expect(res.json().error).toMatchObject({ code: 'VALIDATION_FAILED', fields: { account: 'invalid_account', displayName: 'too_short' } });
    });

    it('taken account (case-insensitive)', async () => {
      const account = uniqueAccount();
      await new Client(env.app).register({ account, password: PASSWORD });
      const before = await userCount(env);
      const res = await new Client(env.app).register({ account: account.toUpperCase(), password: PASSWORD });
      expect(res.statusCode).toBe(409);
      expect(errorCode(res)).toBe('ACCOUNT_EXISTS');
      expect(await userCount(env)).toBe(before);
    });

    it('bad invite code', async () => {
      const before = await userCount(env);
      const malformed = await new Client(env.app).register({ account: uniqueAccount(), password: PASSWORD, inviteCode: 'XX' });
      expect(malformed.json().error).toMatchObject({ code: 'VALIDATION_FAILED', fields: { inviteCode: 'invalid' } });
      const unknown = await new Client(env.app).register({ account: uniqueAccount(), password: PASSWORD, inviteCode: 'ZZZZZZZZ' });
      expect(errorCode(unknown)).toBe('INVITE_CODE_INVALID');
      expect(await userCount(env)).toBe(before);
    });

    it('promoter calling an admin-only route', async () => {
      const c = new Client(env.app);
      await c.register({ account: uniqueAccount(), password: PASSWORD });
      const res = await c.request('PATCH', '/api/admin/settings', { registrationMode: 'invite-only' });
      expect(res.statusCode).toBe(403);
      expect(errorCode(res)).toBe('FORBIDDEN');
      expect(errorCode(await c.request('GET', '/api/admin/users'))).toBe('FORBIDDEN');
      expect(errorCode(await c.request('POST', '/api/admin/keys/rotate'))).toBe('FORBIDDEN');
      expect(errorCode(await new Client(env.app).request('GET', '/api/admin/settings'))).toBe('UNAUTHENTICATED');
      const operator = await createUser(env.ctx, 'operator');
      const op = new Client(env.app);
      await op.login(operator.account, operator.password);
      expect((await op.request('GET', '/api/admin/users')).statusCode).toBe(200);
      // Operators read the settings (currency, withdrawal limits) but cannot change them.
      expect((await op.request('GET', '/api/admin/settings')).statusCode).toBe(200);
      expect(errorCode(await op.request('PATCH', '/api/admin/settings', { registrationMode: 'open' }))).toBe('FORBIDDEN');
    });

    it('localizes the message from Accept-Language, keeping the code', async () => {
      const zh = await new Client(env.app, { locale: 'zh-CN,zh;q=0.9' }).login(uniqueAccount('nobody'), 'Wrong-pass1');
      expect(zh.json().error).toEqual({ code: 'INVALID_CREDENTIALS', message: '账号或密码错误。' });
      const tw = await new Client(env.app, { locale: 'zh-TW' }).login(uniqueAccount('nobody'), 'Wrong-pass1');
      expect(tw.json().error.message).toBe('帳號或密碼錯誤。');
      const fr = await new Client(env.app, { locale: 'fr-CA' }).login(uniqueAccount('nobody'), 'Wrong-pass1');
      expect(fr.json().error.message).toBe('Identifiant ou mot de passe incorrect.');
      const es = await new Client(env.app, { locale: 'es-MX' }).login(uniqueAccount('nobody'), 'Wrong-pass1');
      expect(es.json().error.message).toBe('La cuenta o la contraseña no son correctas.');
    });
  });

  it('registration modes: approval and invite-only', async () => {
    const admin = await createUser(env.ctx, 'admin');
    const a = new Client(env.app);
    await a.login(admin.account, admin.password);
    expect((await a.request('PATCH', '/api/admin/settings', { registrationMode: 'approval' })).json()).toMatchObject({ registrationMode: 'approval', currency: 'CNY', withdrawalMin: 1_000, withdrawalsPerDay: 3 });

    const account = uniqueAccount('pending');
    const pending = new Client(env.app);
    const res = await pending.register({ account, password: PASSWORD });
    expect(res.statusCode).toBe(201);
    expect(res.json().user.status).toBe('pending');
    expect(pending.cookies.get('pa_session')).toBeUndefined();
    expect(errorCode(await pending.login(account, PASSWORD))).toBe('ACCOUNT_PENDING');

    const operator = await createUser(env.ctx, 'operator');
    const op = new Client(env.app);
    await op.login(operator.account, operator.password);
    const list = await op.request('GET', '/api/admin/users?status=pending');
    const id = list.json().items.find((u: { account: string }) => u.account === account).id;
    expect((await op.request('POST', `/api/admin/users/${id}/approve`)).json().user.status).toBe('active');
    expect(errorCode(await op.request('POST', `/api/admin/users/${id}/approve`))).toBe('INVALID_STATE_TRANSITION');
    expect(errorCode(await op.request('POST', `/api/admin/users/${admin.id}/suspend`))).toBe('FORBIDDEN');
    expect((await pending.login(account, PASSWORD)).statusCode).toBe(200);

    await a.request('PATCH', '/api/admin/settings', { registrationMode: 'invite-only' });
    const noCode = await new Client(env.app).register({ account: uniqueAccount(), password: PASSWORD });
    expect(noCode.json().error).toMatchObject({ code: 'INVITE_CODE_INVALID', fields: { inviteCode: 'required' } });
    const inviteCode = (await pending.request('GET', '/api/me')).json().user.inviteCode;
    expect((await new Client(env.app).register({ account: uniqueAccount(), password: PASSWORD, inviteCode })).statusCode).toBe(201);

    // Suspension ends the sessions and blocks sign-in.
    expect((await op.request('POST', `/api/admin/users/${id}/suspend`)).json().user.status).toBe('suspended');
    expect(errorCode(await pending.request('GET', '/api/me'))).toBe('UNAUTHENTICATED');
    expect(errorCode(await pending.login(account, PASSWORD))).toBe('ACCOUNT_SUSPENDED');
    await a.request('PATCH', '/api/admin/settings', { registrationMode: 'open' });
  });
});

describe.each(DIALECTS)('limits and logs on %s', (dialect) => {
  it('allows 20 auth requests a minute per client address', async () => {
    const env = await makeEnv(dialect, { authRateLimitPerMinute: 20 });
    try {
      const c = new Client(env.app, { ip: '203.0.113.7' });
      const codes: (string | undefined)[] = [];
      for (let i = 0; i < 21; i++) codes.push(errorCode(await c.login(`nobody${i}@example.com`, 'Wrong-pass1')));
      expect(codes.slice(0, 20).every((c) => c === 'INVALID_CREDENTIALS')).toBe(true);
      expect(codes[20]).toBe('RATE_LIMITED');
      const other = new Client(env.app, { ip: '203.0.113.8' });
      expect(errorCode(await other.login('nobody@example.com', 'Wrong-pass1'))).toBe('INVALID_CREDENTIALS');
    } finally {
      await env.close();
    }
  });

  it('limits invite look-ups like sign-in (shared budget per client address): no guessing codes in bulk', async () => {
    const env = await makeEnv(dialect, { authRateLimitPerMinute: 5 });
    try {
      const c = new Client(env.app, { ip: '203.0.113.9' });
      const codes: (string | undefined)[] = [];
      for (let i = 0; i < 6; i++) codes.push(errorCode(await c.request('GET', `/api/auth/invites/ZZZZZZZ${i}`)));
      expect(codes.slice(0, 5)).toEqual(Array(5).fill('NOT_FOUND'));
      expect(codes[5]).toBe('RATE_LIMITED');
      expect(errorCode(await c.login('nobody@example.com', 'Wrong-pass1'))).toBe('RATE_LIMITED');
    } finally {
      await env.close();
    }
  });

  it('never logs passwords, ciphertexts, tokens or cookies — not even of requests Node cannot parse', async () => {
    const lines: string[] = [];
    const stream = new Writable({ write(chunk, _enc, cb) { lines.push(String(chunk)); cb(); } });
    const { LOG_REDACT } = await import('../src/app');
    const env = await makeEnv(dialect, {}, { logger: { level: 'trace', redact: LOG_REDACT, stream } });
    try {
      const c = new Client(env.app);
      const sealed = await c.seal(PASSWORD);
      const account = uniqueAccount();
      await c.request('POST', '/api/auth/register', { account, displayName: 'Logger', password: sealed });
      await c.login(account, PASSWORD);
      await c.request('GET', '/api/me');

      // Requests Node cannot parse, over a real socket, carrying the session cookie and CSRF token:
      // answered in the catalogue's shape with Connection: close, their bytes never logged.
      await env.app.listen({ port: 0, host: '127.0.0.1' });
      const port = (env.app.server.address() as AddressInfo).port;
      const secrets = `Cookie: pa_session=${c.cookies.get('pa_session')}; pa_csrf=${c.cookies.get('pa_csrf')}\r\nX-CSRF-Token: ${c.cookies.get('pa_csrf')}\r\n`;
      const malformed: [string, string, number, string][] = [
        ['Content-Length: abc', `POST /api/me/password HTTP/1.1\r\nHost: x\r\n${secrets}Content-Type: application/json\r\nContent-Length: abc\r\n\r\n{}`, 400, 'VALIDATION_FAILED'],
        ['bad request line', `GET /api/me HTTP/1.1 extra\r\nHost: x\r\n${secrets}\r\n`, 400, 'VALIDATION_FAILED'],
        ['headers over 16 KiB', `GET /api/me HTTP/1.1\r\nHost: x\r\n${secrets}X-Pad: ${'a'.repeat(20_000)}\r\n\r\n`, 413, 'PAYLOAD_TOO_LARGE'],
      ];
      for (const [what, bytes, status, code] of malformed) {
        const answer = await rawExchange(port, bytes);
        expect(answer.status, what).toBe(status);
        expect(answer.headers.connection, what).toBe('close');
        expect(answer.closed, what).toBe(true);
        expect(JSON.parse(answer.body), what).toEqual({ error: { code, message: expect.any(String) } });
      }
      await new Promise((r) => setTimeout(r, 50)); // the log stream is written asynchronously

      const log = lines.join('\n');
      expect(log.length).toBeGreaterThan(100);
      expect(log).toContain('/api/auth/register');
      expect(log).toContain('"clientError":"HPE_HEADER_OVERFLOW"'); // the malformed requests were logged, without their bytes
      for (const secret of [PASSWORD, sealed.ciphertext, c.cookies.get('pa_session')!, c.cookies.get('pa_csrf')!]) {
        expect(log).not.toContain(secret);
        // Raw bytes reach the log as a serialized Buffer ({"type":"Buffer","data":[112,97,…]}) or hex.
        expect(log).not.toContain([...Buffer.from(secret)].join(','));
        expect(log).not.toContain(Buffer.from(secret).toString('hex'));
      }
    } finally {
      await env.close();
    }
  });
});
