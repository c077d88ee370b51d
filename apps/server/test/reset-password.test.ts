/**
 * `POST api/auth/reset-password` (issue 14, item 5): a one-time link sets the password once, signs
 * the person out everywhere and unlocks them; a used, expired or unknown link is
 * RESET_TOKEN_INVALID with nothing changed; a refused password leaves the link usable.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash, randomBytes } from 'node:crypto';
import { issuePasswordToken, PASSWORD_LINK_TTL_MS } from '../src/modules/auth/password-tokens';
import { insertPasswordToken } from '../src/modules/auth/repository';
import { newId } from '../src/platform/ids';
import { Client, createUser, DIALECTS, errorCode, makeEnv, type TestEnv } from './helpers';

const NEW_PASSWORD = 'N3w-password';

describe.each(DIALECTS)('the one-time password link on %s', (dialect) => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await makeEnv(dialect);
  });
  afterAll(async () => {
    await env?.close();
  });

  const linkFor = (userId: string, now?: number) => issuePasswordToken(env.ctx.db, { userId, purpose: 'reset', createdBy: null }, now);
  const passwordHash = async (id: string) => (await env.ctx.db.selectFrom('users').select('password_hash').where('id', '=', id).executeTakeFirstOrThrow()).password_hash;
  const reset = async (token: string, password = NEW_PASSWORD, client = new Client(env.app, { ip: '203.0.113.9' })) =>
    client.request('POST', '/api/auth/reset-password', { token, password: await client.seal(password) });

  it('sets the password, signs every device out, unlocks the account and audits it', async () => {
    const user = await createUser(env.ctx, 'promoter');
    const phone = new Client(env.app);
    const laptop = new Client(env.app);
    expect((await phone.login(user.account, user.password)).statusCode).toBe(200);
    expect((await laptop.login(user.account, user.password)).statusCode).toBe(200);
    // Locked out by five wrong passwords.
    for (let i = 0; i < 5; i++) await new Client(env.app).login(user.account, 'wrong-passw0rd');
    expect(errorCode(await new Client(env.app).login(user.account, user.password))).toBe('ACCOUNT_LOCKED');

    const { token } = await linkFor(user.id);
    const res = await reset(token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true, account: user.account });

    // The old sessions are gone.
    expect((await phone.request('GET', '/api/me')).statusCode).toBe(401);
    expect((await laptop.request('GET', '/api/me')).statusCode).toBe(401);
    const open = await env.ctx.db.selectFrom('sessions').select('id').where('user_id', '=', user.id).where('revoked_at', 'is', null).execute();
    expect(open).toEqual([]);
    // Unlocked, the new password works and the old one no longer does.
    expect(errorCode(await new Client(env.app).login(user.account, user.password))).toBe('INVALID_CREDENTIALS');
    expect((await new Client(env.app).login(user.account, NEW_PASSWORD)).statusCode).toBe(200);

    const entries = await env.ctx.db.selectFrom('audit_entries').select(['actor_id', 'entity', 'entity_id', 'ip', 'after_json']).where('action', '=', 'user.password_reset').where('entity_id', '=', user.id).execute();
    expect(entries).toEqual([{ actor_id: user.id, entity: 'user', entity_id: user.id, ip: '203.0.113.9', after_json: JSON.stringify({ purpose: 'reset', sessionsRevoked: 2 }) }]);
  });

  it('works once: the same link again is RESET_TOKEN_INVALID and changes nothing', async () => {
    const user = await createUser(env.ctx, 'promoter');
    const { token } = await linkFor(user.id);
    expect((await reset(token)).statusCode).toBe(200);
    const after = await passwordHash(user.id);
    const again = await reset(token, 'An0ther-password');
    expect(again.statusCode).toBe(400);
    expect(errorCode(again)).toBe('RESET_TOKEN_INVALID');
    expect(await passwordHash(user.id)).toBe(after);
    expect((await new Client(env.app).login(user.account, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('refuses an expired link, an unknown one and one replaced by a newer link', async () => {
    const user = await createUser(env.ctx, 'promoter');
    const before = await passwordHash(user.id);
    const expired = await linkFor(user.id, Date.now() - PASSWORD_LINK_TTL_MS - 1000);
    expect(errorCode(await reset(expired.token))).toBe('RESET_TOKEN_INVALID');
    expect(errorCode(await reset('x'.repeat(43)))).toBe('RESET_TOKEN_INVALID');
    const older = await linkFor(user.id);
    const newer = await linkFor(user.id);
    expect(errorCode(await reset(older.token))).toBe('RESET_TOKEN_INVALID');
    expect(await passwordHash(user.id)).toBe(before);
    expect(await env.ctx.db.selectFrom('audit_entries').select('id').where('action', '=', 'user.password_reset').where('entity_id', '=', user.id).execute()).toEqual([]);
    expect((await reset(newer.token)).statusCode).toBe(200);
  });

  it('refuses a weak password with its field code and keeps the link usable', async () => {
    const user = await createUser(env.ctx, 'promoter');
    const before = await passwordHash(user.id);
    const { token } = await linkFor(user.id);
    for (const [password, code] of [['short1', 'too_short'], ['onlyletters', 'password_weak'], [user.account, 'password_equals_account']] as const) {
      const res = await reset(token, password);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'VALIDATION_FAILED', fields: { password: code } });
    }
    expect(await passwordHash(user.id)).toBe(before);
    expect((await reset(token)).statusCode).toBe(200);
  });

  it('refuses bad input with catalogue codes: no token, NUL, unknown fields, no CSRF token', async () => {
    const client = new Client(env.app);
    const sealed = await client.seal(NEW_PASSWORD);
    const cases: [unknown, string][] = [
      [{ password: sealed }, 'VALIDATION_FAILED'],
      [{ token: '', password: sealed }, 'VALIDATION_FAILED'],
      [{ token: 'abc\u0000def', password: sealed }, 'VALIDATION_FAILED'],
      [{ token: 'abc', password: sealed, role: 'admin' }, 'VALIDATION_FAILED'],
      [{ token: 'abc', password: 'plain' }, 'VALIDATION_FAILED'],
      [{ token: 'y'.repeat(300), password: sealed }, 'VALIDATION_FAILED'],
    ];
    for (const [body, code] of cases) {
      const res = await client.request('POST', '/api/auth/reset-password', body);
      expect(res.statusCode, JSON.stringify(body)).toBeLessThan(500);
      expect(errorCode(res), JSON.stringify(body)).toBe(code);
    }
    const noCsrf = await client.request('POST', '/api/auth/reset-password', { token: 'abc', password: await client.seal(NEW_PASSWORD) }, { noCsrf: true });
    expect(errorCode(noCsrf)).toBe('CSRF_INVALID');
  });

  // Issue 28, item 8: a link made before a password change must not undo it.
  it('a password change from Me ends every open reset and invitation link of the person', async () => {
    for (const [role, purpose] of [['promoter', 'reset'], ['operator', 'invite']] as const) {
      const user = await createUser(env.ctx, role);
      const { token } = await issuePasswordToken(env.ctx.db, { userId: user.id, purpose, createdBy: null });
      const client = new Client(env.app);
      expect((await client.login(user.account, user.password)).statusCode).toBe(200);
      const changed = await client.request('POST', '/api/me/password', { current: await client.seal(user.password), next: await client.seal('Chang3d-password') });
      expect(changed.statusCode).toBe(200);
      const after = await passwordHash(user.id);
      const res = await reset(token);
      expect(errorCode(res), role).toBe('RESET_TOKEN_INVALID');
      expect(await passwordHash(user.id)).toBe(after);
      expect((await new Client(env.app).login(user.account, 'Chang3d-password')).statusCode).toBe(200);
      const entry = await env.ctx.db.selectFrom('audit_entries').select('after_json').where('action', '=', 'user.password_change').where('entity_id', '=', user.id).executeTakeFirstOrThrow();
      expect(JSON.parse(entry.after_json!)).toEqual({ linksEnded: 1 });
    }
  });

  it('a reset by one link ends the other open links of the person', async () => {
    const user = await createUser(env.ctx, 'promoter');
    const first = await linkFor(user.id);
    // A second open link beside it, as a forgot-password mail and a staff reset made at the same
    // moment can leave (each issue ends only the links it sees).
    const second = randomBytes(32).toString('base64url');
    const now = Date.now();
    await insertPasswordToken(env.ctx.db, {
      id: newId(now), user_id: user.id, token_hash: createHash('sha256').update(second).digest('hex'), purpose: 'invite', created_by: null, created_at: now, expires_at: now + PASSWORD_LINK_TTL_MS, used_at: null,
    });
    expect((await reset(first.token)).statusCode).toBe(200);
    const after = await passwordHash(user.id);
    expect(errorCode(await reset(second, 'An0ther-password'))).toBe('RESET_TOKEN_INVALID');
    expect(await passwordHash(user.id)).toBe(after);
    const entry = await env.ctx.db.selectFrom('audit_entries').select('after_json').where('action', '=', 'user.password_reset').where('entity_id', '=', user.id).executeTakeFirstOrThrow();
    expect(JSON.parse(entry.after_json!)).toMatchObject({ purpose: 'reset', linksEnded: 1 });
  });

  it('lets exactly one of two simultaneous uses of a link through', async () => {
    const user = await createUser(env.ctx, 'promoter');
    const { token } = await linkFor(user.id);
    const results = await Promise.all([reset(token, 'Fir5t-password'), reset(token, 'Sec0nd-password')]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    expect(errorCode(results.find((r) => r.statusCode === 400)!)).toBe('RESET_TOKEN_INVALID');
    const winner = results[0]!.statusCode === 200 ? 'Fir5t-password' : 'Sec0nd-password';
    expect((await new Client(env.app).login(user.account, winner)).statusCode).toBe(200);
    expect(await env.ctx.db.selectFrom('audit_entries').select('id').where('action', '=', 'user.password_reset').where('entity_id', '=', user.id).execute()).toHaveLength(1);
  });

  it('counts against the per-address limit of sign-in style requests', async () => {
    const client = new Client(env.app, { ip: '198.51.100.77' });
    const sealed = await client.seal(NEW_PASSWORD);
    await client.request('POST', '/api/auth/reset-password', { token: 'abc', password: sealed });
    await client.request('POST', '/api/auth/reset-password', { token: 'abd', password: await client.seal(NEW_PASSWORD) });
    const row = await env.ctx.db.selectFrom('rate_limits').select('count').where('bucket', '=', 'auth:198.51.100.77').executeTakeFirst();
    expect(row?.count).toBe(2);
  });
});
