import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeExpired } from '../src/platform/maintenance';
import { Client, DIALECTS, makeEnv, uniqueAccount, type TestEnv } from './helpers';

describe.each(DIALECTS)('purging expired security records on %s', (dialect) => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await makeEnv(dialect);
  });
  afterAll(async () => {
    await env?.close();
  });

  it('removes only what can no longer matter', async () => {
    const account = uniqueAccount();
    const c = new Client(env.app);
    await c.register({ account, password: 'Str0ng-pass' });
    await new Client(env.app).login(account, 'Wrong-pass1');
    const now = Date.now();
    const db = env.ctx.db;
    await db.insertInto('used_nonces').values([{ nonce: 'old-nonce', expires_at: now - 1 }, { nonce: 'live-nonce', expires_at: now + 60_000 }]).execute();
    await db.insertInto('rate_limits').values([{ bucket: 'old', count: 3, reset_at: now - 1 }, { bucket: 'live', count: 3, reset_at: now + 60_000 }]).execute();
    await db.insertInto('auth_failures').values({ id: 'old-failure', account, at: now - 16 * 60_000 }).execute();

    const first = await purgeExpired(db, now);
    expect(first).toMatchObject({ nonces: 1, rateLimits: 1, authFailures: 1, sessions: 0 });
    expect(await db.selectFrom('used_nonces').select('nonce').where('nonce', 'in', ['old-nonce', 'live-nonce']).execute()).toEqual([{ nonce: 'live-nonce' }]);
    expect((await db.selectFrom('auth_failures').select('id').where('account', '=', account).execute()).length).toBe(1);
    // The registration's session still works; 31 days after it ends it is purged.
    expect((await c.request('GET', '/api/me')).statusCode).toBe(200);
    expect((await purgeExpired(db, now + 61 * 24 * 3600_000)).sessions).toBeGreaterThan(0);
    expect((await purgeExpired(db, now + 61 * 24 * 3600_000)).sessions).toBe(0);
  });
});
