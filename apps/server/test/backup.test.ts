/**
 * Backup and restore (issue 29, item 5), through the commands as real processes: a backup taken
 * while a real server acknowledges sales under concurrent load, restored into a fresh DATA_DIR and
 * in place. Every sale acknowledged before the backup began is in what is restored, nothing
 * acknowledged after it finished is, and the ledger check passes. `npm run restore` refuses while
 * the server runs (and changes nothing), and works once it has stopped. On PostgreSQL both
 * commands refuse and print pg_dump / pg_restore commands, which the test then runs as printed.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { insertCampaign, insertUser } from '../../../bench/fixtures';
import { freshPostgres } from '../../../bench/util';
import { createContext } from '../src/bootstrap';
import { loadConfig, type Config } from '../src/config';
import { insertLink } from '../src/modules/links/repository';
import { newApiKeySecret } from '../src/platform/api-keys';
import { newId } from '../src/platform/ids';
import { checkLedger } from '../src/platform/ledger';
import { DIALECTS, PG_URL } from './helpers';
import { runEntry, startServer, type CommandResult } from './server-process';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const LOOPS = 16;
/** Acknowledged sales before the backup starts (and at least this long under load). */
const MIN_SALES = 100;
const MIN_LOAD_MS = 800;

interface Fixture {
  campaignId: string;
  codes: string[];
  apiKey: string;
}

/** An active campaign (10 % of each sale), promoters enrolled with a link each, and an API key. */
async function writeFixture(config: Config): Promise<Fixture> {
  const { ctx, handle } = await createContext(config);
  try {
    const now = Date.now();
    const campaignId = await insertCampaign(ctx.db, { en: 'Backup' });
    const codes: string[] = [];
    for (let i = 0; i < 8; i++) {
      const promoterId = await insertUser(ctx.db);
      await ctx.db.insertInto('enrollments').values({ id: newId(now), promoter_id: promoterId, campaign_id: campaignId, status: 'approved', coupon_code: null, created_at: now, decided_at: now, decided_by: null }).execute();
      codes.push((await insertLink(ctx.db, { promoterId, campaignId, code: `bk${i}x${now.toString(36)}` }))!.code);
    }
    const key = newApiKeySecret(ctx);
    await ctx.db.insertInto('api_keys').values({ id: newId(), name: 'backup', prefix: key.prefix, secret_hash: key.hash, secret_sealed: key.sealed, scopes_json: '["conversions:write"]', require_signature: 0, created_by: 'test', created_at: now, last_used_at: null, revoked_at: null }).execute();
    return { campaignId, codes, apiKey: key.secret };
  } finally {
    await handle.close();
  }
}

async function sendSale(url: string, fixture: Fixture, externalId: string, n: number): Promise<Response> {
  return fetch(`${url}/api/v1/conversions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${fixture.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ campaignId: fixture.campaignId, kind: 'sale', externalId, amount: 1000 + (n % 5000), linkCode: fixture.codes[n % fixture.codes.length] }),
    signal: AbortSignal.timeout(15_000),
  });
}

/** Sales in LOOPS concurrent loops until stopped: the ones answered 201, and anything else. */
function startLoad(url: string, fixture: Fixture) {
  const acked = new Set<string>();
  const failures: string[] = [];
  let stopped = false;
  let seq = 0;
  const loop = async () => {
    while (!stopped) {
      const n = ++seq;
      const externalId = `load${n}-${newId()}`;
      try {
        const res = await sendSale(url, fixture, externalId, n);
        const text = await res.text();
        if (res.status === 201) acked.add(externalId);
        else failures.push(`${res.status} ${text.slice(0, 200)}`);
      } catch (error) {
        failures.push(String((error as Error).cause ?? error));
      }
    }
  };
  const started = Date.now();
  const running = Promise.all(Array.from({ length: LOOPS }, loop));
  return {
    acked,
    failures,
    /** Resolves once MIN_SALES are acknowledged and MIN_LOAD_MS have passed (or fails after 20 s). */
    async warm() {
      while (acked.size < MIN_SALES || Date.now() - started < MIN_LOAD_MS) {
        if (Date.now() - started > 20_000) throw new Error(`only ${acked.size} sales acknowledged in 20 s: ${failures.slice(0, 3).join('; ')}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async stop() {
      stopped = true;
      await running;
    },
  };
}

/** The sales of `externalIds` a database holds, by how many times each is there. */
async function storedSales(config: Config, externalIds: string[]): Promise<{ times: Map<string, number>; all: number; breaches: number }> {
  const { ctx, handle } = await createContext(config);
  try {
    const times = new Map<string, number>();
    for (let i = 0; i < externalIds.length; i += 500) {
      const rows = await ctx.db.selectFrom('conversions').select('external_id').where('kind', '=', 'sale').where('external_id', 'in', externalIds.slice(i, i + 500)).execute();
      for (const r of rows) times.set(r.external_id, (times.get(r.external_id) ?? 0) + 1);
    }
    const all = Number((await ctx.db.selectFrom('conversions').select((eb) => eb.fn.countAll<number>().as('n')).where('kind', '=', 'sale').executeTakeFirstOrThrow()).n);
    return { times, all, breaches: (await checkLedger(ctx.db)).length };
  } finally {
    await handle.close();
  }
}

/** The lines a command printed for the person to run (indented by two spaces), run as they are by sh. */
function runPrinted(result: CommandResult, env: Record<string, string>): Promise<CommandResult> {
  const script = `${result.stdout}\n${result.stderr}`.split('\n').filter((line) => line.startsWith('  ')).join('\n');
  const child = spawn('sh', ['-ec', script], { cwd: repoRoot, env: { ...process.env, APP_SECRET: '', LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout: `${script}\n---\n${stdout}`, stderr })));
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const clean of cleanups.splice(0).reverse()) await clean();
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pa-backup-'));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe.each(DIALECTS)('backup and restore on %s', (dialect) => {
  it.runIf(dialect === 'sqlite')('backs up under write load; restore refuses while the server runs, restores into a fresh DATA_DIR and in place once it stopped', async () => {
    const dataDir = tempDir();
    const work = tempDir();
    const freshDir = path.join(work, 'fresh');
    const file = path.join(work, 'nightly.db');
    const config = { ...loadConfig({ DATA_DIR: dataDir }), dataDir };
    const fixture = await writeFixture(config);
    const server = await startServer({ DATA_DIR: dataDir, LOG_LEVEL: 'warn' });
    cleanups.push(async () => {
      if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
      await server.exited;
    });

    const load = startLoad(server.url, fixture);
    let backup: CommandResult;
    let before: string[];
    let duringBackup: number;
    try {
      await load.warm();
      before = [...load.acked];
      backup = await runEntry('backup', ['--out', file], { DATA_DIR: dataDir });
      duringBackup = load.acked.size - before.length;
    } finally {
      await load.stop();
    }
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stdout).toMatch(/^Backup written: .*nightly\.db/);
    expect(load.failures, 'answers other than 201 under load').toEqual([]);
    // The server kept serving while the backup ran (a process start alone takes a second).
    expect(duringBackup, 'sales acknowledged while the backup ran').toBeGreaterThan(0);
    // The key beside it, readable by its owner only; no partial files left.
    expect(fs.readFileSync(`${file}.key`, 'utf8')).toBe(fs.readFileSync(path.join(dataDir, 'master.key'), 'utf8'));
    expect(fs.statSync(`${file}.key`).mode & 0o777).toBe(0o600);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(work).sort()).toEqual(['nightly.db', 'nightly.db.key']);

    // While the server runs, restoring over its database is refused; meanwhile, into a fresh
    // DATA_DIR, and with another installation's key (refused).
    const otherKey = path.join(work, 'other.key');
    fs.writeFileSync(otherKey, randomBytes(32).toString('base64'));
    const wrongKeyDir = path.join(work, 'wrong-key');
    // Over a file that is no database (and a -wal of it, which must not be left beside the new
    // one), with another key: both are replaced, and kept.
    const damagedDir = path.join(work, 'damaged');
    fs.mkdirSync(damagedDir);
    fs.writeFileSync(path.join(damagedDir, 'promotion-assistant.db'), 'not a database');
    fs.writeFileSync(path.join(damagedDir, 'promotion-assistant.db-wal'), 'not a WAL');
    fs.writeFileSync(path.join(damagedDir, 'master.key'), fs.readFileSync(otherKey));
    const [refused, fresh, wrongKey, overDamaged] = await Promise.all([
      runEntry('restore', [file], { DATA_DIR: dataDir }),
      runEntry('restore', [file], { DATA_DIR: freshDir }),
      runEntry('restore', [file, '--key', otherKey], { DATA_DIR: wrongKeyDir }),
      runEntry('restore', [file], { DATA_DIR: damagedDir }),
    ]);
    expect(refused.code, refused.stdout + refused.stderr).toBe(1);
    expect(refused.stderr).toContain('promotion-assistant.db is open in another process: a running server');
    expect(refused.stderr).toContain('Nothing was changed');
    expect(fs.readdirSync(dataDir).filter((f) => /replaced|restoring/.test(f)), 'files left by the refused restore').toEqual([]);
    expect(wrongKey.code, wrongKey.stdout + wrongKey.stderr).toBe(1);
    expect(wrongKey.stderr).toContain("does not open this backup's secrets");
    expect(fs.existsSync(wrongKeyDir), 'the DATA_DIR the refused restore would have made').toBe(false);
    expect(fresh.code, fresh.stdout + fresh.stderr).toBe(0);
    expect(fresh.stdout).toContain('ledger ok:');
    expect(overDamaged.code, overDamaged.stdout + overDamaged.stderr).toBe(0);
    const damagedFiles = fs.readdirSync(damagedDir).map((f) => f.replace(/replaced-[\dTZ-]+$/, 'replaced-TIME')).sort();
    expect(damagedFiles).toEqual(['master.key', 'master.key.replaced-TIME', 'promotion-assistant.db', 'promotion-assistant.db.replaced-TIME']);
    const keptFile = (prefix: string) => path.join(damagedDir, fs.readdirSync(damagedDir).find((f) => f.startsWith(`${prefix}.replaced-`))!);
    expect(fs.readFileSync(keptFile('promotion-assistant.db'), 'utf8'), 'the file it replaced, kept').toBe('not a database');
    expect(fs.readFileSync(keptFile('master.key'), 'utf8'), 'the key it replaced, kept').toBe(fs.readFileSync(otherKey, 'utf8'));
    expect(fs.readFileSync(path.join(damagedDir, 'master.key'), 'utf8')).toBe(fs.readFileSync(`${file}.key`, 'utf8'));
    expect(overDamaged.stdout).toMatch(/Key: \S+master\.key from \S+nightly\.db\.key; the key it replaced is kept as \S+master\.key\.replaced-/);

    // The server is as it was: it still takes sales. These come after the backup, so it has none of them.
    const late = Array.from({ length: 5 }, (_, i) => `late${i}-${newId()}`);
    for (const [i, externalId] of late.entries()) {
      const res = await sendSale(server.url, fixture, externalId, i);
      expect(res.status, await res.text()).toBe(201);
    }

    const restored = await storedSales({ ...loadConfig({ DATA_DIR: freshDir }), dataDir: freshDir }, [...before, ...late]);
    const lost = before.filter((id) => restored.times.get(id) !== 1);
    console.warn(`[backup sqlite] ${before.length} sales acknowledged before the backup began, ${duringBackup} while it ran; the fresh restore holds ${restored.all} sales; lost ${lost.length}`);
    expect(lost, 'sales acknowledged before the backup began, not in the restored database exactly once').toEqual([]);
    expect(late.filter((id) => restored.times.has(id)), 'sales acknowledged after the backup').toEqual([]);
    expect(restored.breaches).toBe(0);
    expect(fs.readFileSync(path.join(freshDir, 'master.key'), 'utf8')).toBe(fs.readFileSync(`${file}.key`, 'utf8'));

    // Once the server has stopped, in place: the late sales are gone, kept in the replaced copy.
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    const inPlace = await runEntry('restore', [file], { DATA_DIR: dataDir });
    expect(inPlace.code, inPlace.stdout + inPlace.stderr).toBe(0);
    expect(inPlace.stdout).toContain('ledger ok:');
    expect(inPlace.stdout).toContain('master.key, already the one that opens its secrets.');
    const kept = inPlace.stdout.match(/kept as (\S+promotion-assistant\.db\.replaced-\S+):/)?.[1];
    expect(kept, inPlace.stdout).toBeTruthy();
    const back = await storedSales(config, [...before, ...late]);
    expect(before.filter((id) => back.times.get(id) !== 1)).toEqual([]);
    expect(late.filter((id) => back.times.has(id))).toEqual([]);
    expect(back.breaches).toBe(0);
    const replaced = new SqliteDatabase(kept!, { readonly: true });
    try {
      expect((replaced.prepare(`select count(*) as n from conversions where external_id in (${late.map(() => '?').join(',')})`).get(...late) as { n: number }).n).toBe(late.length);
    } finally {
      replaced.close();
    }
  }, 120_000);

  it.runIf(dialect === 'postgres')('backup and restore print the pg_dump and pg_restore commands, which work as printed under write load', async () => {
    const dataDir = tempDir();
    const file = path.join(tempDir(), 'nightly.dump');
    const postgres = await freshPostgres(PG_URL);
    cleanups.push(() => postgres.drop());
    const config = { ...loadConfig({ DATA_DIR: dataDir, DATABASE_URL: postgres.databaseUrl }), dataDir };
    const fixture = await writeFixture(config);
    const server = await startServer({ DATA_DIR: dataDir, DATABASE_URL: postgres.databaseUrl, LOG_LEVEL: 'warn' });
    cleanups.push(async () => {
      if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
      await server.exited;
    });
    const env = { DATA_DIR: dataDir, DATABASE_URL: postgres.databaseUrl };

    const advice = await runEntry('backup', ['--out', file], env);
    expect(advice.code, advice.stdout + advice.stderr).toBe(1);
    expect(advice.stderr).toContain(`pg_dump --format=custom --file=${file} "$DATABASE_URL"`);
    expect(advice.stderr).toContain(`cp ${path.join(dataDir, 'master.key')} ${file}.key`);
    expect(fs.existsSync(file)).toBe(false);

    const load = startLoad(server.url, fixture);
    let dump: CommandResult;
    let before: string[];
    try {
      await load.warm();
      before = [...load.acked];
      dump = await runPrinted(advice, env);
    } finally {
      await load.stop();
    }
    expect(dump.code, dump.stdout + dump.stderr).toBe(0);
    expect(load.failures).toEqual([]);
    expect(fs.readFileSync(`${file}.key`, 'utf8')).toBe(fs.readFileSync(path.join(dataDir, 'master.key'), 'utf8'));
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);

    const restoreAdvice = await runEntry('restore', [file], env);
    expect(restoreAdvice.code, restoreAdvice.stdout + restoreAdvice.stderr).toBe(1);
    expect(restoreAdvice.stderr).toContain('pg_restore --no-owner --single-transaction --exit-on-error --dbname="$RESTORED_URL"');
    const restoredUrl = restoreAdvice.stderr.match(/export RESTORED_URL=(\S+)/)?.[1];
    expect(restoredUrl).toBeTruthy();
    cleanups.push(async () => {
      const admin = new pg.Client({ connectionString: PG_URL });
      await admin.connect();
      await admin.query(`drop database if exists ${new URL(restoredUrl!).pathname.slice(1)} with (force)`);
      await admin.end();
    });
    const restore = await runPrinted(restoreAdvice, env);
    expect(restore.code, restore.stdout + restore.stderr).toBe(0);
    expect(restore.stdout).toContain('ledger ok:');

    const restored = await storedSales({ ...config, databaseUrl: restoredUrl! }, before);
    const lost = before.filter((id) => restored.times.get(id) !== 1);
    console.warn(`[backup postgres] ${before.length} sales acknowledged before pg_dump began; the restored database holds ${restored.all} sales; lost ${lost.length}`);
    expect(lost).toEqual([]);
    expect(restored.breaches).toBe(0);
  }, 120_000);
});
