/**
 * The inbox's filters and shape (the badge, the mark and reading are in withdrawals.test.ts):
 * `unread=false` lists only read notifications, `unread=true` only unread ones, neither both; an
 * item carries its own fields and nothing of the row it came from.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notify } from '../src/platform/notifications';
import { DIALECTS, makeEnv, signedIn, type TestEnv } from './helpers';

describe.each(DIALECTS)('notifications on %s', (dialect) => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await makeEnv(dialect);
  });
  afterAll(async () => {
    await env?.close();
  });

  it('filters read and unread ones, and answers only the fields of the contract', async () => {
    const { client, user } = await signedIn(env, 'promoter');
    const now = Date.now();
    for (let i = 0; i < 3; i++) {
      await notify(env.ctx.db, [{ userId: user.id, type: 'withdrawal.requested', params: { withdrawalId: `w${i}`, amount: i, net: i } }], now + i);
    }
    const ids = async (query: string) => (await client.request('GET', `/api/notifications${query}`)).json().items.map((n: { id: string }) => n.id) as string[];
    const all = await ids('');
    expect(all).toHaveLength(3);
    const [newest, middle, oldest] = all;
    expect((await client.request('POST', `/api/notifications/${middle}/read`)).statusCode).toBe(200);

    expect(await ids('?unread=false')).toEqual([middle]);
    expect(await ids('?unread=true')).toEqual([newest, oldest]);
    expect(await ids('')).toEqual([newest, middle, oldest]);

    const list = (await client.request('GET', '/api/notifications')).json();
    expect(list).toMatchObject({ unread: 2, nextCursor: null, currency: expect.any(String) });
    const read = list.items.find((n: { id: string }) => n.id === middle);
    expect(Object.keys(read).sort()).toEqual(['createdAt', 'id', 'params', 'readAt', 'type']);
    expect(read).toMatchObject({ type: 'withdrawal.requested', params: { withdrawalId: 'w1', amount: 1, net: 1 }, createdAt: now + 1 });
    expect(read.readAt).toEqual(expect.any(Number));
    expect(list.items.find((n: { id: string }) => n.id === newest).readAt).toBeNull();
  });
});
