/**
 * Staff are told in the app (issue 28), on both databases: a registration, a campaign application
 * and a withdrawal request awaiting review reach every active operator and admin as a staff
 * notification (one unread of a type at a time, whatever the queue grows by); a webhook endpoint
 * disabled and a ledger check breach reach every active admin once (per disable, per set of
 * breaches). Promoters, suspended staff and, for the system's alerts, operators get none. Mail
 * failing and the mails themselves are in mail.test.ts (they need an SMTP server).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchDue } from '../src/modules/webhooks/service';
import { answeringWith, campaignBody, Client, createUser, DIALECTS, makeEnv, signedIn, uniqueAccount, type TestEnv } from './helpers';

const log = { warn: () => {} };

interface Item { id: string; type: string; params: Record<string, unknown>; readAt: number | null }

describe.each(DIALECTS)('staff alerts on %s', (dialect) => {
  let env: TestEnv;
  let admin: Client;
  let operator: Client;
  let promoter: Client;
  let promoterId: string;
  let suspendedId: string;

  beforeAll(async () => {
    env = await makeEnv(dialect, { webhookAllowPrivate: true });
    admin = (await signedIn(env, 'admin')).client;
    operator = (await signedIn(env, 'operator')).client;
    const p = await signedIn(env, 'promoter');
    promoter = p.client;
    promoterId = p.user.id;
    suspendedId = (await createUser(env.ctx, 'operator')).id;
    await env.ctx.db.updateTable('users').set({ status: 'suspended' }).where('id', '=', suspendedId).execute();
  });
  afterAll(async () => {
    await env?.close();
  });

  const inbox = async (client: Client, type: string): Promise<Item[]> => {
    const res = await client.request('GET', '/api/notifications?limit=100');
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().items as Item[]).filter((n) => n.type === type);
  };
  const unread = async (client: Client) => (await client.request('GET', '/api/notifications/unread-count')).json().unread as number;
  const suspendedGot = async () => Number((await env.ctx.db.selectFrom('notifications').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', suspendedId).executeTakeFirstOrThrow()).n);

  it('a registration awaiting approval: every active operator and admin is told, once while it is unread, again after they read it', async () => {
    expect((await admin.request('PATCH', '/api/admin/settings', { registrationMode: 'approval' })).statusCode).toBe(200);
    const before = await unread(operator);
    expect((await new Client(env.app).register({ account: uniqueAccount('reg'), password: 'Passw0rd-test' })).statusCode).toBe(201);
    const [first, ...more] = await inbox(operator, 'staff.registration');
    expect(more).toEqual([]);
    expect(first!.params).toEqual({ count: 1 });
    expect(await unread(operator)).toBe(before + 1);
    expect(await inbox(admin, 'staff.registration')).toHaveLength(1);
    // A second one while the first is unread: the same badge, not a second notification.
    expect((await new Client(env.app).register({ account: uniqueAccount('reg'), password: 'Passw0rd-test' })).statusCode).toBe(201);
    expect(await inbox(operator, 'staff.registration')).toHaveLength(1);
    // Read: the next one is news again, with what waits now.
    expect((await operator.request('POST', `/api/notifications/${first!.id}/read`)).statusCode).toBe(200);
    expect((await new Client(env.app).register({ account: uniqueAccount('reg'), password: 'Passw0rd-test' })).statusCode).toBe(201);
    const after = await inbox(operator, 'staff.registration');
    expect(after.map((n) => n.params.count)).toEqual([3, 1]);
    expect(await inbox(admin, 'staff.registration')).toHaveLength(1);
    expect(await inbox(promoter, 'staff.registration')).toEqual([]);
    expect(await suspendedGot()).toBe(0);
    // An open registration waits for nobody.
    expect((await admin.request('PATCH', '/api/admin/settings', { registrationMode: 'open' })).statusCode).toBe(200);
    await admin.request('POST', '/api/notifications/read-all');
    expect((await new Client(env.app).register({ account: uniqueAccount('open'), password: 'Passw0rd-test' })).statusCode).toBe(201);
    expect((await inbox(admin, 'staff.registration')).filter((n) => n.readAt === null)).toEqual([]);
  });

  it('a campaign application awaiting approval tells staff; joining an open campaign does not', async () => {
    const byApproval = (await admin.request('POST', '/api/admin/campaigns', campaignBody({ names: { en: 'By approval' }, joinMode: 'approval' }))).json().campaign.id as string;
    const open = (await admin.request('POST', '/api/admin/campaigns', campaignBody({ names: { en: 'Open' }, joinMode: 'open' }))).json().campaign.id as string;
    for (const id of [byApproval, open]) expect((await admin.request('PATCH', `/api/admin/campaigns/${id}`, { status: 'active' })).statusCode).toBe(200);
    expect((await promoter.request('POST', `/api/campaigns/${open}/join`)).statusCode).toBeLessThan(300);
    expect(await inbox(operator, 'staff.enrollment')).toEqual([]);
    expect((await promoter.request('POST', `/api/campaigns/${byApproval}/join`)).statusCode).toBeLessThan(300);
    const [n] = await inbox(operator, 'staff.enrollment');
    expect(n!.params).toEqual({ count: 1 });
    expect(await inbox(admin, 'staff.enrollment')).toHaveLength(1);
    expect(await inbox(promoter, 'staff.enrollment')).toEqual([]);
  });

  it('a withdrawal request tells staff with its amount and id', async () => {
    const adjusted = await admin.request('POST', `/api/admin/promoters/${promoterId}/adjustments`, { amount: 50_000, reason: 'Seed' }, { headers: { 'idempotency-key': `alerts-${dialect}` } });
    expect(adjusted.statusCode, adjusted.body).toBe(201);
    expect((await promoter.request('POST', '/api/payout-accounts', { method: 'bank', holderName: 'Li Lei', accountNumber: await promoter.seal('6222 0212 3456 7890') })).statusCode).toBe(201);
    const res = await promoter.request('POST', '/api/withdrawals', { amount: 12_000 }, { headers: { 'idempotency-key': 'alerts-w1' } });
    expect(res.statusCode, res.body).toBe(201);
    const [n] = await inbox(operator, 'staff.withdrawal');
    expect(n!.params).toEqual({ withdrawalId: res.json().withdrawal.id, amount: 12_000, count: 1 });
    // A replay of the same request is not a new request.
    const replay = async () => (await promoter.request('POST', '/api/withdrawals', { amount: 12_000 }, { headers: { 'idempotency-key': 'alerts-w1' } })).json().withdrawal.id as string;
    expect(await replay()).toBe(res.json().withdrawal.id);
    await operator.request('POST', '/api/notifications/read-all');
    expect(await replay()).toBe(res.json().withdrawal.id);
    expect((await inbox(operator, 'staff.withdrawal')).filter((x) => x.readAt === null)).toEqual([]);
  });

  it('a webhook endpoint disabled tells every active admin once, operators not', async () => {
    const receiver = await answeringWith(410);
    try {
      const url = receiver.url('/gone');
      const { endpoint } = (await admin.request('POST', '/api/admin/webhooks', { url, events: ['commission.approved'] })).json();
      for (let i = 0; i < 3; i++) expect((await admin.request('POST', `/api/admin/webhooks/${endpoint.id}/test`)).statusCode).toBe(202);
      while ((await dispatchDue(env.ctx, log)) > 0);
      const told = await inbox(admin, 'staff.webhook_disabled');
      expect(told.map((n) => n.params)).toEqual([{ endpointId: endpoint.id, url, reason: 'gone' }]);
      expect(await inbox(operator, 'staff.webhook_disabled')).toEqual([]);
    } finally {
      await receiver.close();
    }
  });

  it('a ledger check breach tells every active admin once per set of breaches', async () => {
    const someone = await createUser(env.ctx, 'promoter');
    const other = await createUser(env.ctx, 'promoter');
    const tamper = (id: string) => env.ctx.db.insertInto('ledger_balances').values({ account: `promoter:${id}:available`, balance: 1, updated_at: Date.now() }).execute();
    await tamper(someone.id);
    try {
      expect((await admin.request('GET', '/api/admin/ledger/check')).json().ok).toBe(false);
      expect((await inbox(admin, 'staff.ledger_breach')).map((n) => n.params)).toEqual([{ count: 1 }]);
      // The same breach found again (by anyone, however often): nothing new.
      expect((await admin.request('GET', '/api/admin/ledger/check')).json().ok).toBe(false);
      expect(await inbox(admin, 'staff.ledger_breach')).toHaveLength(1);
      // A different set is news.
      await tamper(other.id);
      expect((await admin.request('GET', '/api/admin/ledger/check')).json().breaches).toHaveLength(2);
      expect((await inbox(admin, 'staff.ledger_breach')).map((n) => n.params)).toEqual([{ count: 2 }, { count: 1 }]);
      expect(await inbox(operator, 'staff.ledger_breach')).toEqual([]);
    } finally {
      await env.ctx.db.deleteFrom('ledger_balances').where('account', 'in', [`promoter:${someone.id}:available`, `promoter:${other.id}:available`]).execute();
    }
  });
});
