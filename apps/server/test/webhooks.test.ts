/**
 * Webhooks (issue 16), on both databases against a real receiver: every delivery verified with the
 * `standardwebhooks` package (the reference implementation); a receiver that fails is retried on
 * the schedule, one that answers 410 disables its endpoint; every attempt logged; deliveries
 * claimed so that two dispatchers never send one attempt at once; endpoint URLs checked against
 * the outbound address policy.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_EVENT_TYPES } from '@pa/shared';
import { dispatchDue, expandDue, outcomeOf, RETRY_DELAYS_MS, startWebhookDispatcher } from '../src/modules/webhooks/service';
import { campaignBody, Client, DIALECTS, errorCode, makeEnv, signedIn, uniqueAccount, type TestEnv } from './helpers';

const log = { warn: () => {} };

/** A receiver on 127.0.0.1 that verifies every request and answers with the next status of `plan` (then 200). */
class Receiver {
  server!: http.Server;
  url = '';
  secret = '';
  received: { id: string; type: string; verified: boolean; body: unknown }[] = [];
  plan: number[] = [];
  async start() {
    this.server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
        let verified = false;
        let payload: unknown = null;
        try {
          payload = new Webhook(this.secret).verify(body, headers);
          verified = true;
        } catch {
          verified = false;
        }
        this.received.push({ id: headers['webhook-id'] ?? '', type: (payload as { type?: string } | null)?.type ?? '', verified, body: payload });
        res.statusCode = this.plan.shift() ?? 200;
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }
  stop() {
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

describe.each(DIALECTS)('webhooks on %s', (dialect) => {
  let env: TestEnv;
  let admin: Client;
  const receiver = new Receiver();

  beforeAll(async () => {
    env = await makeEnv(dialect, { webhookAllowPrivate: true });
    admin = (await signedIn(env, 'admin')).client;
    await receiver.start();
  });
  afterAll(async () => {
    await receiver.stop();
    await env?.close();
  });

  const register = async (events = ['commission.approved']) => {
    const res = await admin.request('POST', '/api/admin/webhooks', { url: receiver.url, events, description: 'Shop backend' });
    expect(res.statusCode).toBe(201);
    const { endpoint, secret } = res.json();
    receiver.secret = secret;
    return { endpoint, secret: secret as string };
  };
  const deliveriesOf = async (id: string) => (await admin.request('GET', `/api/admin/webhooks/${id}/deliveries`)).json().items;

  it('registers an endpoint: the secret once (whsec_), never in the list; a test event arrives signed and verifies; the attempt is logged', async () => {
    const { endpoint, secret } = await register();
    expect(secret).toMatch(/^whsec_/);
    expect(endpoint).toMatchObject({ url: receiver.url, events: ['commission.approved'], status: 'enabled', description: 'Shop backend' });
    const list = await admin.request('GET', '/api/admin/webhooks');
    expect(list.json().items.map((e: { id: string }) => e.id)).toContain(endpoint.id);
    expect(list.body).not.toContain(secret);

    expect((await admin.request('POST', `/api/admin/webhooks/${endpoint.id}/test`)).statusCode).toBe(202);
    receiver.received = [];
    await dispatchDue(env.ctx, log);
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]).toMatchObject({ type: 'webhook.test', verified: true });
    expect(receiver.received[0]!.id).toMatch(/^msg_/);
    // Its message is for the admin who pressed the button: in their language, naming the installation.
    expect(receiver.received[0]!.body).toMatchObject({ data: { endpointId: endpoint.id, message: 'A test event from Promotion Assistant.' } });
    const [delivery] = await deliveriesOf(endpoint.id);
    expect(delivery).toMatchObject({ type: 'webhook.test', status: 'succeeded', eventId: receiver.received[0]!.id, nextAttemptAt: null });
    expect(delivery.attempts).toEqual([{ at: expect.any(Number), statusCode: 200, durationMs: expect.any(Number), error: null }]);
    // Nothing is due any more: another pass sends nothing.
    expect(await dispatchDue(env.ctx, log)).toBe(0);

    const fr = new Client(env.app, { locale: 'fr' });
    fr.cookies = new Map(admin.cookies);
    expect((await fr.request('POST', `/api/admin/webhooks/${endpoint.id}/test`)).statusCode).toBe(202);
    receiver.received = [];
    await dispatchDue(env.ctx, log);
    expect(receiver.received.map((r) => r.body)).toMatchObject([{ type: 'webhook.test', data: { message: 'Un événement de test envoyé par Assistant de promotion.' } }]);
  });

  it('a receiver that fails is retried on the schedule with the same message id, until it answers 2xx', async () => {
    const { endpoint } = await register();
    receiver.received = [];
    receiver.plan = [500, 503];
    await admin.request('POST', `/api/admin/webhooks/${endpoint.id}/test`);
    const fast = { retryDelaysMs: [0, 0, 0] };
    await dispatchDue(env.ctx, log, fast);
    await dispatchDue(env.ctx, log, fast);
    await dispatchDue(env.ctx, log, fast);
    expect(receiver.received.map((r) => r.verified)).toEqual([true, true, true]);
    expect(new Set(receiver.received.map((r) => r.id)).size).toBe(1);
    const [delivery] = await deliveriesOf(endpoint.id);
    expect(delivery.status).toBe('succeeded');
    expect(delivery.attempts.map((a: { statusCode: number }) => a.statusCode)).toEqual([500, 503, 200]);
  });

  it('after the last retry the delivery has failed; a 410 disables the endpoint at once', async () => {
    const { endpoint } = await register();
    receiver.plan = [500, 500];
    await admin.request('POST', `/api/admin/webhooks/${endpoint.id}/test`);
    const once = { retryDelaysMs: [0] };
    await dispatchDue(env.ctx, log, once);
    await dispatchDue(env.ctx, log, once);
    expect((await deliveriesOf(endpoint.id))[0]).toMatchObject({ status: 'failed', nextAttemptAt: null });
    // Still enabled, but failing: since when, and the last error (the console says "Failing since …").
    const failing = (await admin.request('GET', '/api/admin/webhooks')).json().items.find((e: { id: string }) => e.id === endpoint.id);
    expect(failing).toMatchObject({ status: 'enabled', failingSince: expect.any(Number), lastError: { at: expect.any(Number), statusCode: 500 } });
    expect(failing.lastError.at).toBeGreaterThanOrEqual(failing.failingSince);
    // A delivery that succeeds ends it.
    receiver.plan = [200];
    await admin.request('POST', `/api/admin/webhooks/${endpoint.id}/test`);
    await dispatchDue(env.ctx, log, once);
    const healthy = (await admin.request('GET', '/api/admin/webhooks')).json().items.find((e: { id: string }) => e.id === endpoint.id);
    expect(healthy).toMatchObject({ status: 'enabled', failingSince: null, lastError: null });

    const gone = await register();
    receiver.plan = [410];
    await admin.request('POST', `/api/admin/webhooks/${gone.endpoint.id}/test`);
    await dispatchDue(env.ctx, log);
    expect((await deliveriesOf(gone.endpoint.id))[0].status).toBe('failed');
    const listed = (await admin.request('GET', '/api/admin/webhooks')).json().items.find((e: { id: string }) => e.id === gone.endpoint.id);
    expect(listed).toMatchObject({ status: 'disabled', disabledReason: 'gone' });
    const test = await admin.request('POST', `/api/admin/webhooks/${gone.endpoint.id}/test`);
    expect(errorCode(test)).toBe('INVALID_STATE_TRANSITION');
  });

  it('a running dispatcher sends from a thread of its own (signed there, verified here) and records the outcomes', async () => {
    const { endpoint } = await register();
    receiver.received = [];
    const log = { warned: [] as unknown[], warn(obj: unknown) { this.warned.push(obj); } };
    const stop = startWebhookDispatcher(env.ctx, log, { intervalMs: 50 });
    try {
      for (let i = 0; i < 5; i++) await admin.request('POST', `/api/admin/webhooks/${endpoint.id}/test`);
      for (let waited = 0; receiver.received.length < 5 && waited < 10_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
      expect(receiver.received.map((r) => r.verified)).toEqual([true, true, true, true, true]);
      // A delivery is listed once its first attempt is recorded.
      for (let waited = 0; waited < 5_000; waited += 50) {
        const listed = await deliveriesOf(endpoint.id);
        if (listed.length === 5 && listed.every((d: { status: string }) => d.status === 'succeeded')) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect((await deliveriesOf(endpoint.id)).map((d: { status: string }) => d.status)).toEqual(Array(5).fill('succeeded'));
      // The thread started and stayed up: nothing fell back to this thread.
      expect(log.warned).toEqual([]);
    } finally {
      await stop();
    }
  });

  it('a running dispatcher signs with a rotated secret at once (and with the previous one beside it)', async () => {
    const { endpoint, secret: first } = await register();
    receiver.received = [];
    const stop = startWebhookDispatcher(env.ctx, log, { intervalMs: 50 });
    const waitFor = async (n: number) => {
      for (let waited = 0; receiver.received.length < n && waited < 10_000; waited += 25) await new Promise((r) => setTimeout(r, 25));
    };
    try {
      // The first delivery reads the endpoint (and its secret) into this instance's cache.
      expect((await admin.request('POST', `/api/admin/webhooks/${endpoint.id}/test`)).statusCode).toBe(202);
      await waitFor(1);
      const rotated = (await admin.request('POST', `/api/admin/webhooks/${endpoint.id}/rotate-secret`)).json().secret as string;
      receiver.secret = rotated;
      expect((await admin.request('POST', `/api/admin/webhooks/${endpoint.id}/test`)).statusCode).toBe(202);
      await waitFor(2);
      receiver.secret = first;
      expect((await admin.request('POST', `/api/admin/webhooks/${endpoint.id}/test`)).statusCode).toBe(202);
      await waitFor(3);
      expect(receiver.received.map((r) => r.verified)).toEqual([true, true, true]);
    } finally {
      await stop();
    }
  });

  it('two dispatchers at once never send the same attempt twice', async () => {
    const { endpoint } = await register();
    receiver.received = [];
    for (let i = 0; i < 12; i++) await admin.request('POST', `/api/admin/webhooks/${endpoint.id}/test`);
    const second = await env.restart();
    // SQLite: two connections in one process block each other's thread while one waits for the
    // other's write lock, so there the envelopes become deliveries before the race (on PostgreSQL,
    // both instances make them at once too); the claims race in both.
    if (dialect === 'sqlite') await expandDue(env.ctx, Date.now());
    await Promise.all([dispatchDue(env.ctx, log, { concurrency: 5 }), dispatchDue(second.ctx, log, { concurrency: 5 }), dispatchDue(env.ctx, log, { concurrency: 5 }), dispatchDue(second.ctx, log, { concurrency: 5 })]);
    while ((await dispatchDue(env.ctx, log)) > 0);
    expect(receiver.received).toHaveLength(12);
    expect(new Set(receiver.received.map((r) => r.id)).size).toBe(12);
    expect((await deliveriesOf(endpoint.id)).every((d: { status: string; attempts: unknown[] }) => d.status === 'succeeded' && d.attempts.length === 1)).toBe(true);
  });

  it('refuses endpoint URLs the outbound policy refuses; operators cannot see endpoints', async () => {
    const strict = await makeEnv(dialect, { webhookAllowPrivate: false });
    try {
      const a = (await signedIn(strict, 'admin')).client;
      for (const url of ['http://hooks.example.com/in', 'https://127.0.0.1/in', 'https://169.254.169.254/latest', 'https://[::1]/x']) {
        const res = await a.request('POST', '/api/admin/webhooks', { url, events: ['withdrawal.paid'] });
        expect([res.statusCode, res.json().error.fields]).toEqual([400, { url: 'not_allowed' }]);
      }
      expect((await a.request('POST', '/api/admin/webhooks', { url: 'not a url', events: ['withdrawal.paid'] })).json().error.fields).toEqual({ url: 'invalid' });
      expect((await a.request('POST', '/api/admin/webhooks', { url: 'https://hooks.example.com/in', events: ['no.such'] })).statusCode).toBe(400);
      // A name that resolves to loopback is refused when the delivery connects (platform/outbound-address.ts).
      const ok = await a.request('POST', '/api/admin/webhooks', { url: 'https://localhost:1/in', events: ['withdrawal.paid'] });
      expect(ok.statusCode).toBe(201);
      await a.request('POST', `/api/admin/webhooks/${ok.json().endpoint.id}/test`);
      await dispatchDue(strict.ctx, log);
      const [delivery] = (await a.request('GET', `/api/admin/webhooks/${ok.json().endpoint.id}/deliveries`)).json().items;
      // The admin reads only "could not connect": not the address the name resolved to, nor the port.
      expect(delivery.attempts[0]).toMatchObject({ statusCode: null, error: 'could not connect' });
      const operator = (await signedIn(strict, 'operator')).client;
      expect((await operator.request('GET', '/api/admin/webhooks')).statusCode).toBe(403);
    } finally {
      await strict.close();
    }
  });

  it('business events: a sale, its commission approved, a refund, a withdrawal requested, approved and paid — each once, signed, in the API’s shape', async () => {
    // Only this endpoint: the earlier tests' endpoints (other secrets) would receive some of these events too.
    for (const e of (await admin.request('GET', '/api/admin/webhooks')).json().items as { id: string }[]) await admin.request('DELETE', `/api/admin/webhooks/${e.id}`);
    const { endpoint } = await register([...WEBHOOK_EVENT_TYPES]);
    const operator = (await signedIn(env, 'operator')).client;
    const key = (await admin.request('POST', '/api/admin/api-keys', { name: 'Shop', scopes: ['conversions:write'] })).json().secret as string;
    const campaignId = (await admin.request('POST', '/api/admin/campaigns', campaignBody({ names: { en: 'Hooks' }, approvalMode: 'manual', saleRewardType: 'fixed', saleReward: 20_000, leadReward: 0, holdDays: 0 }))).json().campaign.id as string;
    await admin.request('PATCH', `/api/admin/campaigns/${campaignId}`, { status: 'active' });
    const { client: promoter } = await signedIn(env, 'promoter');
    await promoter.request('POST', `/api/campaigns/${campaignId}/join`);
    const link = ((await promoter.request('GET', '/api/links')).json().items as { code: string; campaignId: string }[]).find((l) => l.campaignId === campaignId)!;
    const v1 = (body: unknown) => env.app.inject({ method: 'POST', url: '/api/v1/conversions', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
    const drain = async () => {
      while ((await dispatchDue(env.ctx, log)) > 0);
    };
    // The join sent enrollment.created (tested below): start from the sale.
    await drain();
    receiver.received = [];

    const sale = await v1({ campaignId, kind: 'sale', externalId: 'hook-sale-1', amount: 100_000, linkCode: link.code });
    expect(sale.statusCode, sale.body).toBe(201);
    // A repeat of the same sale changes nothing and sends nothing.
    expect((await v1({ campaignId, kind: 'sale', externalId: 'hook-sale-1', amount: 100_000, linkCode: link.code })).statusCode).toBe(200);
    await drain();
    const answer = sale.json();
    // Sent several at a time: their order is not promised.
    expect(receiver.received.map((r) => [r.type, r.verified]).sort()).toEqual([['commission.created', true], ['conversion.created', true]]);
    const first = (type: string) => (receiver.received.find((r) => r.type === type)!.body as { data: Record<string, unknown> }).data;
    expect(first('conversion.created')).toEqual(answer.conversion);
    expect(first('commission.created')).toEqual(answer.commissions[0]);
    receiver.received = [];

    const commissionId = answer.commissions[0].id as string;
    expect((await operator.request('POST', `/api/admin/commissions/${commissionId}/approve`)).statusCode).toBe(200);
    await drain();
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]).toMatchObject({ type: 'commission.approved', verified: true });
    expect(first('commission.approved')).toMatchObject({ id: commissionId, status: 'approved', amount: 20_000 });
    receiver.received = [];

    await promoter.request('POST', '/api/payout-accounts', { method: 'bank', holderName: 'Li Lei', accountNumber: await promoter.seal('6222 0212 3456 7890') });
    const requested = await promoter.request('POST', '/api/withdrawals', { amount: 10_000 }, { headers: { 'idempotency-key': 'hook-w1' } });
    expect(requested.statusCode, requested.body).toBe(201);
    const withdrawalId = requested.json().withdrawal.id as string;
    expect((await operator.request('POST', `/api/admin/withdrawals/${withdrawalId}/approve`)).statusCode).toBe(200);
    expect((await operator.request('POST', `/api/admin/withdrawals/${withdrawalId}/pay`, { reference: 'BANK-1' })).statusCode).toBe(200);
    const refund = await v1({ campaignId, kind: 'refund', externalId: 'hook-refund-1', amount: 50_000, refundOf: 'hook-sale-1' });
    expect(refund.statusCode, refund.body).toBe(201);
    await drain();
    // Deliveries are sent several at a time: their order is not promised (docs/webhooks.md).
    const later = receiver.received;
    expect(later.map((r) => [r.type, r.verified]).sort()).toEqual([
      ['commission.reversed', true], ['withdrawal.approved', true], ['withdrawal.paid', true], ['withdrawal.requested', true],
    ]);
    const dataOf = (type: string) => (later.find((r) => r.type === type)!.body as { data: Record<string, unknown> }).data;
    expect(dataOf('withdrawal.requested')).toMatchObject({ id: withdrawalId, status: 'requested', amount: 10_000 });
    expect(dataOf('withdrawal.paid')).toMatchObject({ id: withdrawalId, status: 'paid', payoutReference: 'BANK-1' });
    expect(dataOf('commission.reversed')).toMatchObject({ id: commissionId, reversedAmount: 10_000 });
    // Each event once, each with its own id.
    expect(new Set(receiver.received.map((r) => r.id)).size).toBe(receiver.received.length);
    expect((await deliveriesOf(endpoint.id)).every((d: { status: string }) => d.status === 'succeeded')).toBe(true);
  });

  it('promoter and enrollment events: registered, approved, suspended; a join request created and approved', async () => {
    for (const e of (await admin.request('GET', '/api/admin/webhooks')).json().items as { id: string }[]) await admin.request('DELETE', `/api/admin/webhooks/${e.id}`);
    await register(['promoter.registered', 'promoter.approved', 'promoter.suspended', 'enrollment.created', 'enrollment.approved', 'enrollment.rejected']);
    receiver.received = [];
    const drain = async () => {
      while ((await dispatchDue(env.ctx, log)) > 0);
    };
    const dataOf = (type: string) => (receiver.received.find((r) => r.type === type)!.body as { data: Record<string, unknown> }).data;
    expect((await admin.request('PATCH', '/api/admin/settings', { registrationMode: 'approval' })).statusCode).toBe(200);
    const account = uniqueAccount('hooked');
    const newcomer = new Client(env.app);
    const registered = await newcomer.register({ account, password: 'Passw0rd-hooks', displayName: 'Hook Person' });
    expect(registered.statusCode, registered.body).toBe(201);
    const userId = registered.json().user.id as string;
    await drain();
    expect(receiver.received.map((r) => [r.type, r.verified])).toEqual([['promoter.registered', true]]);
    expect(dataOf('promoter.registered')).toMatchObject({ id: userId, account, displayName: 'Hook Person', status: 'pending' });
    await admin.request('PATCH', '/api/admin/settings', { registrationMode: 'open' });

    expect((await admin.request('POST', `/api/admin/users/${userId}/approve`)).statusCode).toBe(200);
    await drain();
    expect(dataOf('promoter.approved')).toMatchObject({ id: userId, status: 'active' });

    const campaignId = (await admin.request('POST', '/api/admin/campaigns', campaignBody({ names: { en: 'By request' }, joinMode: 'approval' }))).json().campaign.id as string;
    await admin.request('PATCH', `/api/admin/campaigns/${campaignId}`, { status: 'active' });
    expect((await newcomer.login(account, 'Passw0rd-hooks')).statusCode).toBe(200);
    const joined = await newcomer.request('POST', `/api/campaigns/${campaignId}/join`);
    const enrollmentId = joined.json().enrollment.id as string;
    expect((await admin.request('POST', `/api/admin/enrollments/${enrollmentId}/approve`)).statusCode).toBe(200);
    expect((await admin.request('POST', `/api/admin/users/${userId}/suspend`)).statusCode).toBe(200);
    await drain();
    expect(dataOf('enrollment.created')).toEqual({ id: enrollmentId, campaignId, promoterId: userId, status: 'pending', couponCode: null, createdAt: expect.any(Number), decidedAt: null });
    expect(dataOf('enrollment.approved')).toMatchObject({ id: enrollmentId, status: 'approved', decidedAt: expect.any(Number) });
    expect(dataOf('promoter.suspended')).toMatchObject({ id: userId, status: 'suspended' });
    expect(receiver.received.map((r) => r.type).sort()).toEqual(['enrollment.approved', 'enrollment.created', 'promoter.approved', 'promoter.registered', 'promoter.suspended']);
    expect(receiver.received.every((r) => r.verified)).toBe(true);
  });

  it('changes an endpoint (events, description, disabled and enabled again), rotates its secret (both sign for a day), retries an ended delivery', async () => {
    const { endpoint, secret: first } = await register();
    const changed = await admin.request('PATCH', `/api/admin/webhooks/${endpoint.id}`, { events: ['withdrawal.paid', 'commission.approved'], description: null });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().endpoint).toMatchObject({ events: ['withdrawal.paid', 'commission.approved'], description: null, status: 'enabled' });
    expect((await admin.request('PATCH', `/api/admin/webhooks/${endpoint.id}`, { url: 'ftp://x' })).json().error.fields).toEqual({ url: 'invalid' });
    expect((await admin.request('PATCH', `/api/admin/webhooks/${endpoint.id}`, { status: 'disabled' })).json().endpoint).toMatchObject({ status: 'disabled', disabledReason: 'by_admin' });
    expect(errorCode(await admin.request('POST', `/api/admin/webhooks/${endpoint.id}/test`))).toBe('INVALID_STATE_TRANSITION');
    expect((await admin.request('PATCH', `/api/admin/webhooks/${endpoint.id}`, { status: 'enabled' })).json().endpoint).toMatchObject({ status: 'enabled', disabledReason: null });

    const rotated = await admin.request('POST', `/api/admin/webhooks/${endpoint.id}/rotate-secret`);
    expect(rotated.statusCode).toBe(200);
    const second = rotated.json().secret as string;
    expect(second).toMatch(/^whsec_/);
    expect(second).not.toBe(first);
    receiver.received = [];
    receiver.plan = [500];
    await admin.request('POST', `/api/admin/webhooks/${endpoint.id}/test`);
    // Verified by a receiver holding the new secret, and by one still holding the old.
    receiver.secret = first;
    await dispatchDue(env.ctx, log, { retryDelaysMs: [] });
    receiver.secret = second;
    const [failed] = await deliveriesOf(endpoint.id);
    expect(failed.status).toBe('failed');
    expect((await admin.request('POST', `/api/admin/webhooks/deliveries/${failed.id}/retry`)).json()).toEqual({ delivery: { id: failed.id, status: 'pending', nextAttemptAt: expect.any(Number) } });
    expect(errorCode(await admin.request('POST', `/api/admin/webhooks/deliveries/${failed.id}/retry`))).toBe('INVALID_STATE_TRANSITION');
    await dispatchDue(env.ctx, log);
    expect(receiver.received.map((r) => r.verified)).toEqual([true, true]);
    const [retried] = await deliveriesOf(endpoint.id);
    expect(retried).toMatchObject({ id: failed.id, status: 'succeeded' });
    expect(retried.attempts.map((a: { statusCode: number }) => a.statusCode)).toEqual([500, 200]);
    expect(errorCode(await admin.request('POST', '/api/admin/webhooks/deliveries/nope/retry'))).toBe('NOT_FOUND');
  });

  it('an endpoint whose deliveries have failed for five days, none succeeding, is disabled', async () => {
    const { endpoint } = await register();
    await env.ctx.db.updateTable('webhook_endpoints').set({ failing_since: Date.now() - 5 * 86_400_000 - 1000 }).where('id', '=', endpoint.id).execute();
    receiver.plan = [503];
    await admin.request('POST', `/api/admin/webhooks/${endpoint.id}/test`);
    await dispatchDue(env.ctx, log);
    const listed = (await admin.request('GET', '/api/admin/webhooks')).json().items.find((e: { id: string }) => e.id === endpoint.id);
    expect(listed).toMatchObject({ status: 'disabled', disabledReason: 'failing' });
    // A success clears the mark: a fresh endpoint that fails once is not disabled.
    const fresh = await register();
    receiver.plan = [503];
    await admin.request('POST', `/api/admin/webhooks/${fresh.endpoint.id}/test`);
    await dispatchDue(env.ctx, log, { retryDelaysMs: [0] });
    await dispatchDue(env.ctx, log, { retryDelaysMs: [0] });
    const row = await env.ctx.db.selectFrom('webhook_endpoints').select(['status', 'failing_since']).where('id', '=', fresh.endpoint.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'enabled', failing_since: null });
  });

  it('deletes an endpoint with its log', async () => {
    const { endpoint } = await register();
    expect((await admin.request('DELETE', `/api/admin/webhooks/${endpoint.id}`)).statusCode).toBe(200);
    expect(errorCode(await admin.request('GET', `/api/admin/webhooks/${endpoint.id}/deliveries`))).toBe('NOT_FOUND');
    expect(errorCode(await admin.request('DELETE', `/api/admin/webhooks/${endpoint.id}`))).toBe('NOT_FOUND');
  });
});

describe('the retry schedule', () => {
  it('5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then failed; 2xx succeeds; 410 ends it', () => {
    const at = 1_000;
    const fail = { statusCode: 500, durationMs: 1, error: null };
    const next = RETRY_DELAYS_MS.map((_, i) => outcomeOf(fail, i, at, RETRY_DELAYS_MS).next - at);
    expect(next).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
    expect(outcomeOf(fail, 7, at, RETRY_DELAYS_MS).status).toBe('failed');
    expect(outcomeOf({ statusCode: 204, durationMs: 1, error: null }, 3, at, RETRY_DELAYS_MS).status).toBe('succeeded');
    expect(outcomeOf({ statusCode: null, durationMs: 10_000, error: 'timeout' }, 0, at, RETRY_DELAYS_MS).status).toBe('pending');
    expect(outcomeOf({ statusCode: 410, durationMs: 1, error: null }, 0, at, RETRY_DELAYS_MS)).toMatchObject({ status: 'failed', disable: true });
  });
});
