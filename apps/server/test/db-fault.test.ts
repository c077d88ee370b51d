/**
 * PostgreSQL faults under load (issue 28): the real server process (src/main.ts) on a database of
 * its own takes sales (POST api/v1/conversions with an API key) and redirects (GET r/:code) in
 * concurrent loops while its connections are cut — every backend of the app ended with
 * `pg_terminate_backend`, several times (what a restart, a failover or an idle cut-off does to it),
 * then the database closed to new connections for a while (a restart in progress) and opened again.
 *
 * The process stays up; every answer is a success or 503 SERVICE_UNAVAILABLE with Retry-After (no
 * 500); nothing acknowledged is lost (each 2xx sale and each tracked 302's click is stored); and
 * once the database takes connections again both kinds of request succeed within a second.
 *
 * Only this test's own backends are ended: the server's connections carry an `application_name` of
 * their own (set in its DATABASE_URL) and are picked by it and by the database's name, never by
 * anything other suites on the same PostgreSQL server could share.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertApiKey, insertSalesFixture } from '../../../bench/fixtures';
import { freshPostgres } from '../../../bench/util';
import { createContext } from '../src/bootstrap';
import { loadConfig, type Config } from '../src/config';
import { newApiKeySecret } from '../src/platform/api-keys';
import { newId } from '../src/platform/ids';
import { checkLedger } from '../src/platform/ledger';
import { DIALECTS, PG_URL } from './helpers';
import { startServer } from './server-process';

type Server = Awaited<ReturnType<typeof startServer>>;
type Phase = 'before' | 'cuts' | 'closed' | 'reopened';

const LOOPS = 16;
/**
 * Before the first cut, the load runs until this many sales and tracked redirects have succeeded
 * (an idle server's fault proves nothing), and after the database reopens until this many sales
 * have again — at most LOAD_MAX_MS each (a slow, shared machine: the test then fails on the counts).
 */
const ENOUGH = 20;
const LOAD_MAX_MS = 15_000;
/** How long the database stays closed to new connections (its open ones ended every CUT_EVERY_MS). */
const CLOSED_MS = 800;
/** Rounds of ending every backend of the app, this far apart. */
const CUTS = 4;
const CUT_EVERY_MS = 250;
/**
 * Once the database takes connections again, both kinds of request succeed within this — plus twice
 * what a request took before the fault (on a busy shared machine one can take hundreds of ms anyway).
 */
const BACK_WITHIN_MS = 1000;

interface Answer {
  kind: 'sale' | 'redirect';
  /** When it was sent, and when its answer came. */
  phase: Phase;
  answeredIn: Phase;
  sentAt: number;
  answeredAt: number;
  status: number;
  retryAfter: string | null;
  code: string | null;
  /** A 302 with its click id (its click is stored: acknowledged). */
  tracked?: boolean;
}

describe.runIf(DIALECTS.includes('postgres'))('PostgreSQL connections cut under load (the server process)', () => {
  const applicationName = `pa-fault-${randomBytes(4).toString('hex')}`;
  let dataDir = '';
  let databaseName = '';
  let dropDatabase: () => Promise<void> = async () => undefined;
  let config: Config;
  let serverEnv: Record<string, string>;
  let fixture: { campaignId: string; codes: string[]; apiKey: string };
  let server: Server | null = null;
  let admin: pg.Client;

  /** Ends every backend of this test's server (its application_name, in its database); how many. */
  const cutAll = async () => {
    const res = await admin.query<{ n: string }>(
      'select count(pg_terminate_backend(pid)) as n from pg_stat_activity where datname = $1 and application_name = $2 and pid <> pg_backend_pid()',
      [databaseName, applicationName],
    );
    return Number(res.rows[0]!.n);
  };

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pa-fault-'));
    const postgres = await freshPostgres(PG_URL);
    dropDatabase = postgres.drop;
    databaseName = new URL(postgres.databaseUrl).pathname.slice(1);
    const url = new URL(postgres.databaseUrl);
    url.searchParams.set('application_name', applicationName);
    const env = { DATA_DIR: dataDir, TIME_ZONE: 'UTC', DATABASE_URL: url.toString() };
    config = { ...loadConfig(env), dataDir };
    serverEnv = { ...env, LOG_LEVEL: 'warn' };
    const { ctx, handle } = await createContext(config);
    try {
      const { campaignId, codes } = await insertSalesFixture(ctx.db, 8);
      const key = newApiKeySecret(ctx);
      await insertApiKey(ctx.db, key, ['conversions:write']);
      fixture = { campaignId, codes, apiKey: key.secret };
    } finally {
      await handle.close();
    }
    admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
  }, 60_000);

  afterAll(async () => {
    if (server && server.child.exitCode === null && server.child.signalCode === null) {
      server.child.kill('SIGKILL');
      await server.exited;
    }
    if (databaseName) await admin?.query(`alter database ${databaseName} allow_connections true`).catch(() => undefined);
    await admin?.end().catch(() => undefined);
    await dropDatabase();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  }, 30_000);

  it('stays up, loses nothing acknowledged, answers 503 with Retry-After meanwhile, and serves again within a second', async () => {
    server = await startServer(serverEnv);
    const { url } = server;
    const started = Date.now();
    let phase: Phase = 'before';
    let stop = false;
    const answers: Answer[] = [];
    const failures: string[] = [];
    const ackedSales: string[] = [];
    const ackedClicks: string[] = [];
    let untracked = 0;
    let seq = 0;

    const sale = async (): Promise<Answer> => {
      const externalId = `f${++seq}-${newId()}`;
      const sentAt = Date.now();
      const sentIn = phase;
      const res = await fetch(`${url}/api/v1/conversions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${fixture.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ campaignId: fixture.campaignId, kind: 'sale', externalId, amount: 1000 + (seq % 5000), linkCode: fixture.codes[seq % fixture.codes.length] }),
        signal: AbortSignal.timeout(15_000),
      });
      const body = (await res.json().catch(() => null)) as { error?: { code?: string } } | null;
      if (res.status === 200 || res.status === 201) ackedSales.push(externalId);
      return { kind: 'sale', phase: sentIn, answeredIn: phase, sentAt, answeredAt: Date.now(), status: res.status, retryAfter: res.headers.get('retry-after'), code: body?.error?.code ?? null };
    };
    const redirect = async (): Promise<Answer> => {
      const sentAt = Date.now();
      const sentIn = phase;
      const res = await fetch(`${url}/r/${fixture.codes[++seq % fixture.codes.length]}`, { redirect: 'manual', signal: AbortSignal.timeout(15_000) });
      await res.arrayBuffer();
      const clickId = res.status === 302 ? new URL(res.headers.get('location') ?? 'x:').searchParams.get('pa_click') : null;
      if (clickId) ackedClicks.push(clickId);
      else if (res.status === 302) untracked++;
      return { kind: 'redirect', phase: sentIn, answeredIn: phase, sentAt, answeredAt: Date.now(), status: res.status, retryAfter: res.headers.get('retry-after'), code: null, tracked: clickId !== null };
    };
    const loop = async (i: number) => {
      while (!stop) {
        try {
          answers.push(await (i % 2 === 0 ? sale() : redirect()));
        } catch (error) {
          failures.push(`${phase}: ${String((error as Error).cause ?? error)}`);
          await new Promise((r) => setTimeout(r, 20));
        }
      }
    };
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    const loops = Promise.all(Array.from({ length: LOOPS }, (_, i) => loop(i)));

    /** A sale stored (201, or 200 for one found stored), a redirect with its click stored. */
    const success = (a: Answer) => a.status === 200 || a.status === 201 || (a.status === 302 && a.tracked === true);
    const succeeded = (f: (a: Answer) => boolean, n: number) => answers.filter((a) => success(a) && f(a)).length >= n;
    const loadUntil = async (done: () => boolean) => {
      for (const end = Date.now() + LOAD_MAX_MS; !done() && Date.now() < end;) await sleep(20);
    };
    let cut = 0;
    let reopenedAt = 0;
    let ready: { status: number; retryAfter: string | null; code?: string } | null = null;
    try {
      await loadUntil(() => succeeded((a) => a.kind === 'sale', ENOUGH) && succeeded((a) => a.kind === 'redirect', ENOUGH));
      // Every backend of the app ended, again and again, with the load running.
      phase = 'cuts';
      for (let i = 0; i < CUTS; i++) {
        cut += await cutAll();
        await sleep(CUT_EVERY_MS);
      }
      // The database restarting: no new connections, the open ones ended.
      phase = 'closed';
      await admin.query(`alter database ${databaseName} allow_connections false`);
      // The open connections ended first: an idle pooled one would still answer the probe below.
      cut += await cutAll();
      // Readiness says so (a load balancer takes the instance out until the database is back).
      const readyWhileClosed = fetch(`${url}/api/ready`).then(async (res) => ({ status: res.status, retryAfter: res.headers.get('retry-after'), code: ((await res.json()) as { error?: { code?: string } }).error?.code }));
      // Again while closed: a connection whose start-up was under way as the database closed gets through.
      for (const until = Date.now() + CLOSED_MS; Date.now() < until;) {
        cut += await cutAll();
        await sleep(CUT_EVERY_MS);
      }
      ready = await readyWhileClosed;
      await admin.query(`alter database ${databaseName} allow_connections true`);
      reopenedAt = Date.now();
      phase = 'reopened';
      await loadUntil(() => succeeded((a) => a.phase === 'reopened' && a.kind === 'sale', ENOUGH));
    } finally {
      stop = true;
      await loops;
    }

    /** The server's log lines at level error (50) or fatal (60). */
    const errorLines = () => server!.output().split('\n').filter((l) => /"level":(50|60)/.test(l));
    const alive = server.child.exitCode === null && server.child.signalCode === null;
    const count = (f: (a: Answer) => boolean) => answers.filter(f).length;
    const byStatus = (p: Phase) => JSON.stringify(Object.fromEntries([...new Set(answers.filter((a) => a.phase === p).map((a) => `${a.kind} ${a.status}`))].map((k) => [k, count((a) => a.phase === p && `${a.kind} ${a.status}` === k)])));
    /** How long after the database reopened a request of `kind` was first answered with a success. */
    const backAfter = (kind: Answer['kind']) => Math.min(...answers.filter((a) => a.kind === kind && a.answeredAt >= reopenedAt && success(a)).map((a) => a.answeredAt - reopenedAt));
    const before = answers.filter((a) => a.answeredIn === 'before').map((a) => a.answeredAt - a.sentAt).sort((a, b) => a - b);
    const typical = before[Math.floor(before.length / 2)] ?? 0;
    console.warn(`[db-fault] ${cut} backends ended; ${answers.length} answers in ${Date.now() - started} ms — before ${byStatus('before')}, cuts ${byStatus('cuts')}, closed ${byStatus('closed')}, reopened ${byStatus('reopened')}; ${untracked} untracked 302s; a request took ${typical} ms before the fault (median); a sale succeeded ${backAfter('sale')} ms after the database reopened, a redirect ${backAfter('redirect')} ms; server log: ${errorLines().length} lines at error or above`);
    console.warn(errorLines().slice(0, 5).join('\n'));

    expect(alive, `the server exited:\n${server.output().slice(-3000)}`).toBe(true);
    expect(failures, 'requests with no answer').toEqual([]);
    // Every failure was recognised as the database's being unavailable (logged as a warning).
    expect(errorLines().slice(0, 3), 'server log lines at error or above').toEqual([]);
    expect(cut, 'backends of the app ended').toBeGreaterThan(CUTS);
    // Before the fault, everything succeeds and is tracked.
    expect(answers.filter((a) => a.answeredIn === 'before' && !(a.status === 201 || (a.status === 302 && a.tracked))), 'answers before the fault').toEqual([]);
    // Throughout: a success or 503 SERVICE_UNAVAILABLE with Retry-After; never a 500.
    // (A sale answered 200 was stored by a commit whose answer the cut lost; written again, it was found.)
    const wrong = answers.filter((a) => !(a.status === 201 || a.status === 200 || a.status === 302 || (a.status === 503 && a.retryAfter !== null && (a.kind === 'redirect' || a.code === 'SERVICE_UNAVAILABLE'))));
    expect(wrong.slice(0, 10), `answers other than success or 503 with Retry-After (${wrong.length})`).toEqual([]);
    // The fault was felt (a database that refuses connections cannot take sales) …
    expect(count((a) => a.phase !== 'before' && a.kind === 'sale' && a.status === 503), 'sales answered 503 during the fault').toBeGreaterThan(0);
    expect(server.output(), 'the lost connections reported').toContain('database connection lost');
    expect(ready, 'api/ready while the database was closed').toEqual({ status: 503, retryAfter: '1', code: 'SERVICE_UNAVAILABLE' });
    // … and over within a second of the database taking connections again.
    expect(backAfter('sale'), 'ms until a sale succeeded after the database reopened').toBeLessThanOrEqual(BACK_WITHIN_MS + 2 * typical);
    expect(backAfter('redirect'), 'ms until a redirect succeeded after the database reopened').toBeLessThanOrEqual(BACK_WITHIN_MS + 2 * typical);
    expect(count((a) => a.phase === 'before' && a.status === 201), 'sales before the fault').toBeGreaterThanOrEqual(ENOUGH);
    expect(count((a) => a.phase === 'reopened' && a.status === 201), 'sales after the database reopened').toBeGreaterThanOrEqual(ENOUGH);

    // The server still answers, and stops cleanly.
    const health = await fetch(`${url}/api/health`);
    expect(health.status).toBe(200);
    await health.arrayBuffer();
    server.child.kill('SIGTERM');
    expect(await server.exited, server.output().slice(-3000)).toBe(0);

    // Nothing acknowledged is lost: every 2xx sale and every tracked 302's click is stored, once.
    const { ctx, handle } = await createContext(config);
    try {
      const stored = new Map<string, number>();
      for (let i = 0; i < ackedSales.length; i += 500) {
        const rows = await ctx.db.selectFrom('conversions').select('external_id').where('kind', '=', 'sale').where('external_id', 'in', ackedSales.slice(i, i + 500)).execute();
        for (const r of rows) stored.set(r.external_id, (stored.get(r.external_id) ?? 0) + 1);
      }
      const clicks = new Set<string>();
      for (let i = 0; i < ackedClicks.length; i += 500) {
        for (const r of await ctx.db.selectFrom('clicks').select('id').where('id', 'in', ackedClicks.slice(i, i + 500)).execute()) clicks.add(r.id);
      }
      expect(ackedSales.filter((id) => stored.get(id) !== 1), `acknowledged sales not stored once (of ${ackedSales.length})`).toEqual([]);
      expect(ackedClicks.filter((id) => !clicks.has(id)), `acknowledged clicks not stored (of ${ackedClicks.length})`).toEqual([]);
      expect(await checkLedger(ctx.db)).toEqual([]);
    } finally {
      await handle.close();
    }
  }, 90_000);
});
