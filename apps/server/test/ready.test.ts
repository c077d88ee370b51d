/**
 * Readiness when the database does not answer (issue 29): `GET /api/ready` answers 503
 * SERVICE_UNAVAILABLE within 2 s, and 200 again once the database answers.
 *
 * - PostgreSQL: the app reaches the database through a TCP proxy of this test's own. Stopping it
 *   stops accepting and makes the open connections hang — their bytes are no longer forwarded,
 *   nothing is reset — which is what a hung database host or a cut network looks like; a
 *   statement on such a connection fails once the client's timeout (the statement timeout and its
 *   margin) has passed, as the database's being unavailable. Then the proxy is restored.
 * - SQLite: its one connection held by a transaction that does not end.
 * - PostgreSQL's statement timeout: a statement running longer is cancelled by the server (and
 *   answered as the database's being unavailable, so 503), while migrations run without it.
 */
import net from 'node:net';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { createContext } from '../src/bootstrap';
import { loadConfig, type Config } from '../src/config';
import { CLIENT_TIMEOUT_MARGIN_MS, openDatabase } from '../src/db/connection';
import { isDatabaseUnavailable } from '../src/db/unavailable';
import { MasterKey } from '../src/platform/crypto/master-key';
import { createSchema, DIALECTS, dropSchema, errorCode, makeEnv, PG_URL } from './helpers';

/** A TCP proxy to PostgreSQL; `stop` refuses new connections and stops forwarding on the open ones (they hang), `restore` undoes it. */
class Proxy {
  private server: net.Server | null = null;
  private readonly pairs = new Set<{ client: net.Socket; upstream: net.Socket }>();
  port = 0;
  constructor(private readonly target: { host: string; port: number }) {}

  async start(port = 0) {
    this.server = net.createServer((client) => {
      const upstream = net.connect(this.target.port, this.target.host);
      const pair = { client, upstream };
      this.pairs.add(pair);
      client.pipe(upstream);
      upstream.pipe(client);
      const end = () => {
        client.destroy();
        upstream.destroy();
        this.pairs.delete(pair);
      };
      client.on('error', end).on('close', end);
      upstream.on('error', end).on('close', end);
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.port = (this.server.address() as net.AddressInfo).port;
  }

  /** No new connections; the open ones stay open but carry nothing either way. */
  async stop() {
    const server = this.server!;
    this.server = null;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const { client, upstream } of this.pairs) {
      client.unpipe(upstream);
      upstream.unpipe(client);
      client.pause();
      upstream.pause();
    }
    // The listener closes once its open connections are gone, which they are not: only stop listening.
    void closed;
  }

  /** The hung connections ended (their pool drops them); new ones forwarded again, on the same port. */
  async restore() {
    for (const { client, upstream } of this.pairs) {
      client.destroy();
      upstream.destroy();
    }
    this.pairs.clear();
    await this.start(this.port);
  }

  async close() {
    for (const { client, upstream } of this.pairs) {
      client.destroy();
      upstream.destroy();
    }
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

const timed = async <T>(work: () => Promise<T>) => {
  const start = performance.now();
  const value = await work();
  return { value, ms: performance.now() - start };
};

describe.runIf(DIALECTS.includes('postgres'))('readiness while PostgreSQL does not answer', () => {
  const target = new URL(PG_URL);
  const proxy = new Proxy({ host: target.hostname, port: Number(target.port || 5432) });
  let schema = '';
  let dataDir = '';
  let close: () => Promise<void> = async () => undefined;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let ctx: Awaited<ReturnType<typeof createContext>>['ctx'];
  /** DATABASE_STATEMENT_TIMEOUT=1: a statement on a hung connection fails after 1 s and the client's margin. */
  const STATEMENT_TIMEOUT_MS = 1000;

  beforeAll(async () => {
    await proxy.start();
    schema = await createSchema();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pa-ready-'));
    const proxied = new URL(PG_URL);
    proxied.host = `127.0.0.1:${proxy.port}`;
    const config: Config = { ...loadConfig({ DATABASE_URL: proxied.toString(), DATABASE_STATEMENT_TIMEOUT: '1' }), dataDir };
    expect(config.statementTimeoutMs).toBe(STATEMENT_TIMEOUT_MS);
    const made = await createContext(config, { pgSchema: schema, pgPoolSize: 4 }, MasterKey.fromBytes(randomBytes(32)));
    ctx = made.ctx;
    app = await buildApp(ctx);
    close = async () => {
      await app.close();
      await made.handle.close();
    };
  }, 60_000);

  afterAll(async () => {
    await proxy.close();
    await close();
    if (schema) await dropSchema(schema);
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('answers 503 within 2 s while the proxy is stopped (every time it is asked), and 200 again once it is restored', async () => {
    // Ready, with connections open through the proxy (some idle in the pool).
    expect((await app.inject({ method: 'GET', url: '/api/ready' })).statusCode).toBe(200);
    await Promise.all([1, 2, 3].map(() => sql`select 1`.execute(ctx.db)));

    await proxy.stop();
    // A statement on one of the hung connections (the pool has idle ones): the client gives up
    // after the statement timeout and its margin, as the database's being unavailable (answered
    // 503) — not after the kernel's TCP timeouts.
    const hung = timed(() => sql`select 2`.execute(ctx.db).then(() => null, (error: unknown) => error));
    for (let probe = 0; probe < 3; probe++) {
      const { value: res, ms } = await timed(() => app.inject({ method: 'GET', url: '/api/ready' }));
      expect(res.statusCode).toBe(503);
      expect(errorCode(res)).toBe('SERVICE_UNAVAILABLE');
      expect(res.headers['retry-after']).toBeDefined();
      expect(ms).toBeLessThan(2000);
    }
    const { value: error, ms } = await hung;
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/Query read timeout|ECONNREFUSED/);
    expect(isDatabaseUnavailable(error)).toBe(true);
    expect(ms).toBeGreaterThanOrEqual(STATEMENT_TIMEOUT_MS + CLIENT_TIMEOUT_MARGIN_MS - 50);
    expect(ms).toBeLessThan(STATEMENT_TIMEOUT_MS + CLIENT_TIMEOUT_MARGIN_MS + 3000);
    // Still 503, still quickly.
    const late = await timed(() => app.inject({ method: 'GET', url: '/api/ready' }));
    expect(late.value.statusCode).toBe(503);
    expect(late.ms).toBeLessThan(2000);

    await proxy.restore();
    let status = 0;
    const deadline = Date.now() + 15_000;
    while (status !== 200 && Date.now() < deadline) {
      status = (await app.inject({ method: 'GET', url: '/api/ready' })).statusCode;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/api/ready' })).json()).toEqual({ status: 'ready', database: 'ok' });
  }, 60_000);
});

describe.runIf(DIALECTS.includes('postgres'))('PostgreSQL statement timeout', () => {
  it('cancels a statement running past it (answered as the database unavailable); the connection goes on; migrations run without it', async () => {
    const schema = await createSchema();
    const handle = await openDatabase({ databaseUrl: PG_URL, pgSchema: schema, pgPoolSize: 1, statementTimeoutMs: 500 });
    try {
      const slow = await timed(() => sql`select pg_sleep(3)`.execute(handle.db).then(() => null, (error: unknown) => error));
      expect((slow.value as { code?: string }).code).toBe('57014');
      expect(isDatabaseUnavailable(slow.value)).toBe(true);
      expect(slow.ms).toBeLessThan(2500);
      // The one connection of the pool still answers.
      expect((await sql<{ n: number }>`select 1 as n`.execute(handle.db)).rows).toEqual([{ n: 1 }]);
      const setting = await sql<{ statement_timeout: string }>`show statement_timeout`.execute(handle.db);
      expect(setting.rows[0]!.statement_timeout).toBe('500ms');
      // Migrations (and whatever else is run this way) are not bound by it.
      expect(handle.withoutTimeout).toBeDefined();
      await handle.withoutTimeout!(async (db) => {
        expect((await sql<{ statement_timeout: string }>`show statement_timeout`.execute(db)).rows[0]!.statement_timeout).toBe('0');
        await sql`select pg_sleep(0.7)`.execute(db);
      });
    } finally {
      await handle.close();
      await dropSchema(schema);
    }
  });

  it('is 10 s unless DATABASE_STATEMENT_TIMEOUT says otherwise (0: none), and the server\'s connections use it', async () => {
    expect(loadConfig({}).statementTimeoutMs).toBe(10_000);
    expect(loadConfig({ DATABASE_STATEMENT_TIMEOUT: '0' }).statementTimeoutMs).toBe(0);
    const env = await makeEnv('postgres');
    try {
      expect((await sql<{ statement_timeout: string }>`show statement_timeout`.execute(env.ctx.db)).rows[0]!.statement_timeout).toBe('10s');
    } finally {
      await env.close();
    }
  });
});

describe('readiness while SQLite does not answer', () => {
  it('answers 503 within 2 s while its one connection is held, and 200 once it is free', async () => {
    const env = await makeEnv('sqlite');
    let release: () => void = () => undefined;
    try {
      expect((await env.app.inject({ method: 'GET', url: '/api/ready' })).statusCode).toBe(200);
      const held = env.ctx.db.transaction().execute(() => new Promise<void>((resolve) => (release = resolve)));
      const { value: res, ms } = await timed(() => env.app.inject({ method: 'GET', url: '/api/ready' }));
      expect(res.statusCode).toBe(503);
      expect(errorCode(res)).toBe('SERVICE_UNAVAILABLE');
      expect(ms).toBeLessThan(2000);
      expect(ms).toBeGreaterThanOrEqual(1000);
      release();
      await held;
      expect((await env.app.inject({ method: 'GET', url: '/api/ready' })).statusCode).toBe(200);
    } finally {
      release();
      await env.close();
    }
  });
});
