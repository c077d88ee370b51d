/**
 * /metrics (issue 29), on both databases: scraped after real traffic — a tracked redirect, a sale
 * through the conversions API (and a refund as Stripe reports one), a webhook delivery to a real receiver (verified with
 * `standardwebhooks`) and a mail to a real SMTP server (`smtp-server`) — each of those counters has
 * moved, and the queues rose and fell; the text parses as the Prometheus format; routes are
 * labelled by pattern, never by address. Off (404) with neither METRICS_TOKEN nor a listener of its
 * own; with the token, none or a wrong one is 401; the separate listener serves it without one
 * while the main listener answers 404. The ledger check's gauges follow the last check, the
 * scheduled one included.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertApiKey, insertSalesFixture } from '../../../bench/fixtures';
import { buildMetricsApp } from '../src/app';
import { startLedgerChecks } from '../src/modules/commissions/scheduler';
import { recordRefundToTotal } from '../src/modules/commissions/service';
import { dispatchMail } from '../src/modules/mail/service';
import { dispatchDue } from '../src/modules/webhooks/service';
import { newApiKeySecret } from '../src/platform/api-keys';
import { SmtpSender } from '../src/platform/mail/send';
import { Client, createUser, DIALECTS, errorCode, makeEnv, signedIn, type TestEnv } from './helpers';
import { WebhookReceiver } from './installation';

const log = { warn: () => {}, info: () => {} };
const TOKEN = 'metrics-token-0123456789abcdef';

type Samples = Map<string, number>;
const key = (name: string, labels: Record<string, string> = {}) =>
  `${name}{${Object.keys(labels).sort().map((k) => `${k}="${labels[k]}"`).join(',')}}`;

/**
 * Parses the Prometheus text format (0.0.4): every sample line `name{labels} value`, each family
 * introduced by its HELP and TYPE lines; throws on anything else.
 */
function parse(text: string): Samples {
  const samples: Samples = new Map();
  const typed = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const meta = /^# (HELP|TYPE) ([a-zA-Z_:][a-zA-Z0-9_:]*) (.*)$/.exec(line);
    if (meta) {
      if (meta[1] === 'TYPE') {
        expect(['counter', 'gauge', 'histogram', 'summary', 'untyped']).toContain(meta[3]);
        typed.set(meta[2]!, meta[3]!);
      }
      continue;
    }
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    if (m[2]) {
      const rest = m[2].replace(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)",?/g, (_, k: string, v: string) => {
        labels[k] = v;
        return '';
      });
      if (rest !== '') throw new Error(`bad labels in: ${line}`);
    }
    const family = m[1]!.replace(/_(bucket|sum|count)$/, '');
    if (!typed.has(m[1]!) && !typed.has(family)) throw new Error(`a sample without its TYPE line: ${line}`);
    // Go's float parser, which Prometheus uses, takes NaN and Inf in any case (prom-client writes "Nan").
    const special = /^([+-]?)(inf|nan)$/i.exec(m[3]!);
    const value = special ? (special[2]!.toLowerCase() === 'nan' ? NaN : special[1] === '-' ? -Infinity : Infinity) : Number(m[3]);
    if (Number.isNaN(value) && !special) throw new Error(`bad value in: ${line}`);
    samples.set(key(m[1]!, labels), value);
  }
  return samples;
}

const at = (samples: Samples, name: string, labels: Record<string, string> = {}) => samples.get(key(name, labels)) ?? 0;

/** An SMTP server on 127.0.0.1 that keeps the recipients of what it accepts. */
class MailCatcher {
  server!: SMTPServer;
  port = 0;
  recipients: string[] = [];
  async start() {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData: (stream, session, callback) => {
        stream.on('data', () => undefined);
        stream.on('end', () => {
          this.recipients.push(...session.envelope.rcptTo.map((r) => r.address));
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.server.address() as AddressInfo).port;
  }
  stop() {
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

describe.each(DIALECTS)('/metrics on %s', (dialect) => {
  let env: TestEnv;
  let admin: Client;
  const receiver = new WebhookReceiver();
  const smtp = new MailCatcher();
  let sender: SmtpSender;

  beforeAll(async () => {
    await Promise.all([receiver.start(), smtp.start()]);
    env = await makeEnv(dialect, {
      webhookAllowPrivate: true,
      mail: { smtpUrl: `smtp://127.0.0.1:${smtp.port}`, from: 'partners@acme.example', publicUrl: 'https://promo.example.com/', appName: null },
      metrics: { token: TOKEN, listener: null },
    });
    admin = (await signedIn(env, 'admin')).client;
    sender = new SmtpSender(env.config.mail!);
  });
  afterAll(async () => {
    sender?.close();
    await env?.close();
    await Promise.all([receiver.stop(), smtp.stop()]);
  });

  const scrape = async () => {
    const res = await env.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    return { samples: parse(res.body), text: res.body };
  };

  it('after a redirect, a sale, a webhook delivery and a mail, each is counted; the queues rose and fell', async () => {
    const { campaignId, codes } = await insertSalesFixture(env.ctx.db, 2);
    const apiKey = newApiKeySecret(env.ctx);
    await insertApiKey(env.ctx.db, apiKey, ['conversions:write']);
    const hook = await admin.request('POST', '/api/admin/webhooks', { url: receiver.url, events: ['conversion.created'] });
    expect(hook.statusCode).toBe(201);
    receiver.secret = hook.json().secret;

    const before = (await scrape()).samples;

    // A tracked redirect: its click stored, in a group commit.
    const redirect = await env.app.inject({ method: 'GET', url: `/r/${codes[0]}`, headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/130.0' } });
    expect(redirect.statusCode).toBe(302);
    expect(redirect.headers.location).toContain('pa_click=');

    // A sale through the conversions API: its event waits in the outbox.
    const sale = await env.app.inject({
      method: 'POST', url: '/api/v1/conversions',
      headers: { authorization: `Bearer ${apiKey.secret}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ campaignId, kind: 'sale', externalId: `order-${dialect}-1`, amount: 12_000, linkCode: codes[1] }),
    });
    expect(sale.statusCode, sale.body).toBe(201);
    // The same sale again: a repeat.
    const again = await env.app.inject({
      method: 'POST', url: '/api/v1/conversions',
      headers: { authorization: `Bearer ${apiKey.secret}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ campaignId, kind: 'sale', externalId: `order-${dialect}-1`, amount: 12_000, linkCode: codes[1] }),
    });
    expect(again.statusCode).toBe(200);

    // A refund as Stripe reports one (the running total refunded): a refund, then a repeat.
    const refund = { campaignId, refundOf: `order-${dialect}-1`, externalId: `ch_${dialect}/1000`, refundedTotal: 1000, occurredAt: Date.now() };
    expect((await recordRefundToTotal(env.ctx, refund))?.created).toBe(true);
    expect((await recordRefundToTotal(env.ctx, refund))?.created).toBe(false);

    // A mail written, not yet sent.
    expect((await admin.request('POST', '/api/admin/mail/test', { to: `ops-${dialect}@acme.example` })).statusCode).toBeLessThan(300);

    const waiting = (await scrape()).samples;
    expect(at(waiting, 'pa_webhook_outbox_envelopes') + at(waiting, 'pa_webhook_queue_depth')).toBeGreaterThan(at(before, 'pa_webhook_outbox_envelopes') + at(before, 'pa_webhook_queue_depth'));
    expect(at(waiting, 'pa_mail_queue_depth')).toBe(at(before, 'pa_mail_queue_depth') + 1);

    // Sent to the real receiver and the real SMTP server.
    await dispatchDue(env.ctx, log);
    expect(receiver.received.filter((r) => r.verified).map((r) => r.type)).toContain('conversion.created');
    while ((await dispatchMail(env.ctx, sender, log)) > 0);
    expect(smtp.recipients).toContain(`ops-${dialect}@acme.example`);

    const { samples: after, text } = await scrape();
    const moved = (name: string, labels: Record<string, string> = {}) => at(after, name, labels) - at(before, name, labels);
    expect(moved('pa_redirects_total')).toBe(1);
    expect(moved('pa_clicks_received_total')).toBe(1);
    expect(moved('pa_clicks_written_total')).toBe(1);
    expect(at(after, 'pa_clicks_buffered')).toBe(0);
    expect(moved('pa_conversions_total', { kind: 'sale', outcome: 'created' })).toBe(1);
    expect(moved('pa_conversions_total', { kind: 'sale', outcome: 'repeat' })).toBe(1);
    expect(moved('pa_conversions_total', { kind: 'refund', outcome: 'created' })).toBe(1);
    expect(moved('pa_conversions_total', { kind: 'refund', outcome: 'repeat' })).toBe(1);
    expect(moved('pa_conversions_total', { kind: 'lead', outcome: 'created' })).toBe(0);
    expect(moved('pa_webhook_deliveries_total', { outcome: 'succeeded' })).toBe(1);
    expect(moved('pa_webhook_deliveries_total', { outcome: 'retry' })).toBe(0);
    expect(moved('pa_mails_total', { outcome: 'sent' })).toBe(1);
    // The queues are empty again.
    expect(at(after, 'pa_webhook_queue_depth')).toBe(0);
    expect(at(after, 'pa_webhook_outbox_envelopes')).toBe(0);
    expect(at(after, 'pa_mail_queue_depth')).toBe(0);
    // The click and the sale were written in group commits (a histogram: count, sum and buckets).
    expect(moved('pa_group_commit_items_count')).toBeGreaterThanOrEqual(2);
    expect(moved('pa_group_commit_items_sum')).toBeGreaterThanOrEqual(2);
    expect(at(after, 'pa_group_commit_items_bucket', { le: '+Inf' })).toBe(at(after, 'pa_group_commit_items_count'));
    expect(moved('pa_group_commit_duration_seconds_count')).toBe(moved('pa_group_commit_items_count'));
    // Requests by route pattern, method and status.
    expect(moved('pa_http_request_duration_seconds_count', { method: 'GET', route: '/r/:code', status: '302' })).toBe(1);
    expect(moved('pa_http_request_duration_seconds_count', { method: 'POST', route: '/api/v1/conversions', status: '201' })).toBe(1);
    expect(moved('pa_http_request_duration_seconds_count', { method: 'POST', route: '/api/v1/conversions', status: '200' })).toBe(1);
    expect(at(after, 'pa_http_request_duration_seconds_bucket', { method: 'GET', route: '/r/:code', status: '302', le: '10' })).toBe(at(after, 'pa_http_request_duration_seconds_count', { method: 'GET', route: '/r/:code', status: '302' }));
    // The process (prom-client's default metrics) and the database pool.
    expect(at(after, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(after.has(key('nodejs_eventloop_lag_seconds'))).toBe(true);
    expect(at(after, 'pa_build_info', { version: env.config.version, database: dialect })).toBe(1);
    if (dialect === 'postgres') {
      expect(after.has(key('pa_db_pool_connections', { state: 'idle' }))).toBe(true);
      expect(at(after, 'pa_db_pool_connections', { state: 'in_use' }) + at(after, 'pa_db_pool_connections', { state: 'idle' })).toBeGreaterThan(0);
      expect(at(after, 'pa_db_pool_waiting')).toBe(0);
    } else {
      // SQLite has one connection and no pool: no pool series (the group commit's waiting items say what waits).
      expect(text).not.toContain('pa_db_pool_connections');
      expect(after.has(key('pa_group_commit_waiting'))).toBe(true);
    }
  });

  it('routes are labelled by their pattern, unmatched addresses as "unmatched": never the address itself', async () => {
    const before = (await scrape()).samples;
    await env.app.inject({ method: 'GET', url: '/r/nosuchcode123' });
    await env.app.inject({ method: 'GET', url: '/r/another-code-456' });
    await env.app.inject({ method: 'GET', url: '/no/such/page/789' });
    await env.app.inject({ method: 'GET', url: '/api/no-such-call?secret=abc' });
    const { samples, text } = await scrape();
    expect(at(samples, 'pa_http_request_duration_seconds_count', { method: 'GET', route: '/r/:code', status: '404' }) - at(before, 'pa_http_request_duration_seconds_count', { method: 'GET', route: '/r/:code', status: '404' })).toBe(2);
    expect(at(samples, 'pa_http_request_duration_seconds_count', { method: 'GET', route: 'unmatched', status: '404' }) - at(before, 'pa_http_request_duration_seconds_count', { method: 'GET', route: 'unmatched', status: '404' })).toBe(2);
    for (const address of ['nosuchcode123', 'another-code-456', '/no/such', 'no-such-call', 'secret=abc']) expect(text).not.toContain(address);
    // A HEAD request is counted once, under its own method.
    const head = await env.app.inject({ method: 'HEAD', url: '/api/health' });
    expect(head.statusCode).toBe(200);
    const after = (await scrape()).samples;
    expect(at(after, 'pa_http_request_duration_seconds_count', { method: 'HEAD', route: '/api/health', status: '200' }) - at(samples, 'pa_http_request_duration_seconds_count', { method: 'HEAD', route: '/api/health', status: '200' })).toBe(1);
  });

  it('asks for the token: none, another scheme or a wrong one is 401 UNAUTHENTICATED; the right one 200', async () => {
    const get = (authorization?: string) => env.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });
    for (const wrong of [undefined, `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}`, 'Bearer wrong-token-0123456789abcdef', `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, 'Bearer ']) {
      const res = await get(wrong);
      expect(res.statusCode, String(wrong)).toBe(401);
      expect(errorCode(res)).toBe('UNAUTHENTICATED');
      expect(res.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      expect(res.body).not.toContain('pa_');
    }
    expect((await get(`Bearer ${TOKEN}`)).statusCode).toBe(200);
    expect((await get(`bearer  ${TOKEN}`)).statusCode).toBe(200);
  });

  it('the ledger check gauges follow the last check: the console\'s, then the scheduled one, which finds a planted breach', async () => {
    expect((await admin.request('GET', '/api/admin/ledger/check')).json().ok).toBe(true);
    const first = (await scrape()).samples;
    expect(first.get(key('pa_ledger_check_breaches'))).toBe(0);
    const checkedAt = first.get(key('pa_ledger_check_timestamp_seconds'))!;
    expect(Math.abs(checkedAt - Date.now() / 1000)).toBeLessThan(60);

    // A tampered balance; the scheduled check (every 50 ms here) finds it.
    const someone = await createUser(env.ctx, 'promoter');
    await env.ctx.db.insertInto('ledger_balances').values({ account: `promoter:${someone.id}:available`, balance: 1, updated_at: Date.now() }).execute();
    const stop = startLedgerChecks(env.ctx, log, 50);
    try {
      const deadline = Date.now() + 10_000;
      while ((env.ctx.metrics.ledgerCheck?.breaches ?? 0) === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    } finally {
      await stop();
      await env.ctx.db.deleteFrom('ledger_balances').where('account', '=', `promoter:${someone.id}:available`).execute();
    }
    const found = (await scrape()).samples;
    expect(found.get(key('pa_ledger_check_breaches'))).toBe(1);
    expect(found.get(key('pa_ledger_check_timestamp_seconds'))!).toBeGreaterThan(checkedAt);
  });
});

describe.each(DIALECTS)('where /metrics is served, on %s', (dialect) => {
  it('nowhere with neither METRICS_TOKEN nor a listener of its own: 404 in the not-found shape, token or not; no process metrics gathered', async () => {
    const env = await makeEnv(dialect);
    try {
      expect(env.config.metrics).toBeNull();
      const plain = await env.app.inject({ method: 'GET', url: '/metrics' });
      const other = await env.app.inject({ method: 'GET', url: '/no-such-page' });
      expect(plain.statusCode).toBe(404);
      expect(plain.headers['content-type']).toBe(other.headers['content-type']);
      expect(plain.body).toBe(other.body);
      expect((await env.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).statusCode).toBe(404);
      expect(await env.ctx.metrics.registry.getSingleMetric('process_resident_memory_bytes')).toBeUndefined();
    } finally {
      await env.close();
    }
  });

  it('on a listener of its own (METRICS_PORT): served there without a token; the main listener answers 404', async () => {
    const env = await makeEnv(dialect, { metrics: { token: null, listener: { host: '127.0.0.1', port: 9464 } } });
    const metricsApp = await buildMetricsApp(env.ctx);
    try {
      await metricsApp.listen({ host: '127.0.0.1', port: 0 });
      const base = `http://127.0.0.1:${(metricsApp.server.address() as AddressInfo).port}`;
      expect((await env.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
      const res = await fetch(`${base}/metrics`);
      expect(res.status).toBe(200);
      const samples = parse(await res.text());
      expect(at(samples, 'pa_build_info', { version: env.config.version, database: dialect })).toBe(1);
      expect(samples.has(key('process_resident_memory_bytes'))).toBe(true);
      // The main listener's requests are counted there; the metrics listener's own are not.
      await env.app.inject({ method: 'GET', url: '/api/health' });
      const again = parse(await (await fetch(`${base}/metrics`)).text());
      expect(at(again, 'pa_http_request_duration_seconds_count', { method: 'GET', route: '/api/health', status: '200' })).toBeGreaterThanOrEqual(1);
      expect([...again.keys()].some((k) => k.includes('route="/metrics"'))).toBe(false);
      // Nothing else there.
      const elsewhere = await fetch(`${base}/api/health`);
      expect(elsewhere.status).toBe(404);
      expect((await elsewhere.json()).error.code).toBe('NOT_FOUND');
    } finally {
      await metricsApp.close();
      await env.close();
    }
  });

  it('on a listener of its own with METRICS_TOKEN set too: the token is asked for there', async () => {
    const env = await makeEnv(dialect, { metrics: { token: TOKEN, listener: { host: '127.0.0.1', port: 9464 } } });
    const metricsApp = await buildMetricsApp(env.ctx);
    try {
      await metricsApp.listen({ host: '127.0.0.1', port: 0 });
      const url = `http://127.0.0.1:${(metricsApp.server.address() as AddressInfo).port}/metrics`;
      expect((await fetch(url)).status).toBe(401);
      expect((await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
      expect((await env.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).statusCode).toBe(404);
    } finally {
      await metricsApp.close();
      await env.close();
    }
  });
});
