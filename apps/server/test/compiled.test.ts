/**
 * The compiled server (issue 29): scripts/build-server.mjs bundles it, and each entry runs with
 * plain `node` from a working folder of its own — the server finds its data and the web app
 * relative to that folder (never to where its code lies), serves the API, the web app and pa.js,
 * sends a webhook from its sender thread, and the production commands (admin:create,
 * ledger:check, stats:rebuild) work from the bundle too.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgres } from '../../../bench/util';
import { DIALECTS, PG_URL } from './helpers';
import { firstAdmin, saleThroughApi, WebhookReceiver, type CommandResult } from './installation';
import { startServer } from './server-process';

const ROOT = path.resolve(import.meta.dirname, '../../..');

/**
 * A Node.js older than 22 on this machine, outside node_modules/.bin (where npm ci put Node 24):
 * the system's Node 20 on CI's machine. Null where there is none.
 */
function olderNode(): { path: string; version: string } | null {
  const dirs = (process.env.PATH ?? '').split(path.delimiter).filter((dir) => dir && !dir.includes(`node_modules${path.sep}.bin`));
  for (const candidate of [...dirs.map((dir) => path.join(dir, 'node')), '/usr/bin/node', '/usr/local/bin/node']) {
    if (!fs.existsSync(candidate)) continue;
    const version = execFileSync(candidate, ['--version'], { encoding: 'utf8' }).trim();
    if (Number(version.slice(1).split('.')[0]) < 22) return { path: candidate, version };
  }
  return null;
}
const OLDER_NODE = olderNode();

/** Runs a compiled command in `cwd` with plain node. */
function runCompiled(script: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<CommandResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script, ...args], { cwd, env: { ...process.env, DATABASE_URL: '', DATA_DIR: '', WEB_DIST: '', PUBLIC_URL: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The nice values of the threads of process `pid` (Linux: /proc/<pid>/task/<tid>/stat, field 19). */
function threadNiceValues(pid: number): number[] {
  return fs.readdirSync(`/proc/${pid}/task`).map((tid) => {
    const stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  });
}

describe.each(DIALECTS)('the compiled server on %s', (dialect) => {
  // Under the repository, so that the bundle's imports find node_modules as apps/server/dist's do.
  let outdir = '';
  let cwd = '';
  const receiver = new WebhookReceiver();

  beforeAll(async () => {
    fs.mkdirSync(path.join(ROOT, '.cache'), { recursive: true });
    outdir = fs.mkdtempSync(path.join(ROOT, '.cache/compiled-test-'));
    execFileSync(process.execPath, [path.join(ROOT, 'scripts/build-server.mjs'), '--outdir', outdir], { stdio: 'pipe' });
    cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'pa-compiled-'));
    fs.mkdirSync(path.join(cwd, 'apps/web/dist/assets'), { recursive: true });
    fs.writeFileSync(path.join(cwd, 'apps/web/dist/index.html'), '<!doctype html><html><head><title>compiled</title></head><body>the web app of this folder</body></html>');
    fs.writeFileSync(path.join(cwd, 'apps/web/dist/assets/app-1234abcd.js'), 'console.log("app");\n');
    await receiver.start();
  });
  afterAll(async () => {
    await receiver.stop();
    if (outdir) fs.rmSync(outdir, { recursive: true, force: true });
    if (cwd) fs.rmSync(cwd, { recursive: true, force: true });
  });

  it('runs with plain node from its own folder: API, web app, pa.js, a webhook from the sender thread, and the commands', async () => {
    const entries = fs.readdirSync(outdir);
    expect(entries).toEqual(expect.arrayContaining(['main.js', 'admin-create.js', 'ledger-check.js', 'stats-rebuild.js', 'webhook-sender.js', 'pa.js', 'package.json']));
    // Nothing of tsx or TypeScript is imported at run time.
    const meta = JSON.parse(fs.readFileSync(path.join(outdir, 'meta.json'), 'utf8')) as { packages: string[] };
    expect(meta.packages).not.toContain('tsx');
    expect(meta.packages).not.toContain('typescript');
    expect(meta.packages.some((p) => p.startsWith('@pa/'))).toBe(false);

    // DATA_DIR and WEB_DIST unset: ./data and ./apps/web/dist of the working folder. No npm around
    // to name the version: the build's.
    const version = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version as string;
    const postgres = await freshPostgres(dialect === 'postgres' ? PG_URL : '');
    const env = { DATABASE_URL: postgres.databaseUrl };
    const server = await startServer({ ...env, DATA_DIR: '', WEB_DIST: '', WEBHOOK_ALLOW_PRIVATE: 'true', AUTH_RATE_LIMIT: '1000' }, { entry: path.join(outdir, 'main.js'), cwd, without: ['npm_package_version'] });
    try {
      const health = await fetch(`${server.url}/api/health`);
      expect(await health.json()).toEqual({ status: 'ok', version });
      // The master key (and on SQLite the database) in ./data.
      expect(fs.existsSync(path.join(cwd, 'data/master.key'))).toBe(true);
      expect(fs.existsSync(path.join(cwd, 'data/promotion-assistant.db'))).toBe(dialect === 'sqlite');

      const index = await fetch(`${server.url}/`);
      expect(index.status).toBe(200);
      expect(await index.text()).toContain('the web app of this folder');
      expect((await fetch(`${server.url}/assets/app-1234abcd.js`)).status).toBe(200);

      const snippet = await fetch(`${server.url}/pa.js`);
      expect(snippet.status).toBe(200);
      expect(Buffer.from(await snippet.arrayBuffer()).equals(fs.readFileSync(path.join(ROOT, 'apps/server/src/modules/integrations/pa.js')))).toBe(true);

      const admin = await firstAdmin(server.url, (args) => runCompiled(path.join(outdir, 'admin-create.js'), args, cwd, env));
      await saleThroughApi(admin, receiver);
      // Sent by the sender thread (it lowers its own priority to nice 10), not on the main thread.
      expect(threadNiceValues(server.child.pid!)).toContain(10);
      expect(server.output()).not.toMatch(/sending on the main thread|could not start/);
      expect(server.output()).not.toMatch(/SQLite checkpoint/);

      const ledger = await runCompiled(path.join(outdir, 'ledger-check.js'), [], cwd, env);
      expect(ledger.stderr).toBe('');
      expect(ledger).toMatchObject({ code: 0, stdout: expect.stringMatching(/^ledger ok: \d+ journals balanced/) });
      const stats = await runCompiled(path.join(outdir, 'stats-rebuild.js'), ['--dry-run'], cwd, env);
      expect(stats.stderr).toBe('');
      expect(stats).toMatchObject({ code: 0, stdout: expect.stringContaining('no differences') });
    } finally {
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
      await postgres.drop();
    }
  }, 120_000);

  // better-sqlite3 13 crashes Node 20 with a segmentation fault when its binary loads: the
  // commands refuse first, with a sentence and exit code 1 (docs/deployment.md, "Node.js").
  it.runIf(dialect === 'sqlite' && OLDER_NODE)(`refuses to start on ${OLDER_NODE?.version ?? 'a Node.js older than 22'} with a sentence, not a crash`, async () => {
    const data = fs.mkdtempSync(path.join(os.tmpdir(), 'pa-old-node-'));
    try {
      for (const entry of ['main.js', 'ledger-check.js']) {
        const result = await new Promise<CommandResult>((resolve) => {
          const child = spawn(OLDER_NODE!.path, [path.join(outdir, entry)], { cwd, env: { ...process.env, DATABASE_URL: '', DATA_DIR: data, WEB_DIST: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
          let stdout = '';
          let stderr = '';
          child.stdout.on('data', (d) => (stdout += d));
          child.stderr.on('data', (d) => (stderr += d));
          child.on('exit', (code, signal) => resolve({ code: code ?? (signal ? -1 : null), stdout, stderr }));
        });
        expect(result.code, `${entry}: ${result.stderr}`).toBe(1);
        expect(result.stderr).toContain(`Promotion Assistant needs Node.js 22.14 or later (22 or 24 LTS); this is Node.js ${OLDER_NODE!.version.slice(1)}.`);
        expect(result.stderr, 'the sentence alone, no stack').not.toMatch(/^\s+at /m);
        // Refused before the database was made.
        expect(fs.existsSync(path.join(data, 'promotion-assistant.db'))).toBe(false);
      }
    } finally {
      fs.rmSync(data, { recursive: true, force: true });
    }
  }, 60_000);
});
