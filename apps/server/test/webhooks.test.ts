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
import { dispatchDue, outcomeOf, RETRY_DELAYS_MS } from '../src/modules/webhooks/service';
import { DIALECTS, errorCode, makeEnv, signedIn, type Client, type TestEnv } from './helpers';

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
    const [delivery] = await deliveriesOf(endpoint.id);
    expect(delivery).toMatchObject({ type: 'webhook.test', status: 'succeeded', eventId: receiver.received[0]!.id, nextAttemptAt: null });
    expect(delivery.attempts).toEqual([{ at: expect.any(Number), statusCode: 200, durationMs: expect.any(Number), error: null }]);
    // Nothing is due any more: another pass sends nothing.
    expect(await dispatchDue(env.ctx, log)).toBe(0);
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

  it('two dispatchers at once never send the same attempt twice', async () => {
    const { endpoint } = await register();
    receiver.received = [];
    for (let i = 0; i < 12; i++) await admin.request('POST', `/api/admin/webhooks/${endpoint.id}/test`);
    const second = await env.restart();
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
      expect(delivery.attempts[0]).toMatchObject({ statusCode: null, error: expect.stringMatching(/address forbidden: (127\.0\.0\.1|::1)/) });
      const operator = (await signedIn(strict, 'operator')).client;
      expect((await operator.request('GET', '/api/admin/webhooks')).statusCode).toBe(403);
    } finally {
      await strict.close();
    }
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
