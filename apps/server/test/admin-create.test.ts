/**
 * `npm run admin:create` (issue 14, item 6): the first admin of an installation started without
 * demo data. The script runs as its own process against a fresh database (SQLite file, PostgreSQL
 * database), prints a one-time link, and the link's token then sets the password through the API.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { createContext } from '../src/bootstrap';
import { loadConfig } from '../src/config';
import { freshPostgres } from '../../../bench/util';
import { Client, DIALECTS, PG_URL } from './helpers';

const script = path.resolve(import.meta.dirname, '../src/admin-create.ts');

function adminCreate(env: Record<string, string>, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { env: { ...process.env, DATABASE_URL: '', PUBLIC_URL: '', PORT: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

const linkIn = (out: string) => out.match(/(\S+#\/reset-password\?token=[A-Za-z0-9_%-]+)/)?.[1];
const tokenOf = (url: string) => decodeURIComponent(url.split('token=')[1]!);

describe.each(DIALECTS)('npm run admin:create on %s', (dialect) => {
  it('makes the first admin, prints a one-time link that sets the password, and refuses what it should', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pa-admin-create-'));
    const postgres = await freshPostgres(dialect === 'postgres' ? PG_URL : '');
    const env = { DATA_DIR: dataDir, DATABASE_URL: postgres.databaseUrl };
    try {
      const first = await adminCreate(env, ['--account', ' First.Admin@Example.com ', '--name', 'First Admin', '--url', 'https://promo.example.com/promo/']);
      expect(first.stderr).toBe('');
      expect(first.code).toBe(0);
      const link = linkIn(first.stdout)!;
      expect(link).toMatch(/^https:\/\/promo\.example\.com\/promo\/#\/reset-password\?token=[A-Za-z0-9_-]{43}$/);
      expect(first.stdout).toContain('first.admin@example.com');
      expect(first.stdout).toMatch(/30 minutes/);

      // A new link for an existing staff account ends the first one.
      const renewed = await adminCreate(env, ['--account', 'first.admin@example.com', '--new-link', '--url', 'https://promo.example.com/promo/']);
      expect(renewed.code).toBe(0);
      const newLink = linkIn(renewed.stdout)!;
      expect(newLink).toMatch(/^https:\/\/promo\.example\.com\/promo\/#\/reset-password\?token=/);
      expect(newLink).not.toBe(link);
      const noSuch = await adminCreate(env, ['--account', 'nobody@example.com', '--new-link']);
      expect(noSuch.code).toBe(1);
      expect(noSuch.stderr).toMatch(/No operator or admin/);

      // Refusals, each with a sentence and exit code 1, nothing created.
      const again = await adminCreate(env, ['--account', 'first.admin@example.com']);
      expect(again.code).toBe(1);
      expect(again.stderr).toMatch(/already exists/);
      const second = await adminCreate(env, ['--account', 'second@example.com']);
      expect(second.code).toBe(1);
      expect(second.stderr).toMatch(/--force/);
      const bad = await adminCreate(env, ['--account', 'not an account', '--force']);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toMatch(/e-mail address or phone number/);
      const none = await adminCreate(env, []);
      expect(none.code).toBe(1);
      expect(none.stderr).toMatch(/--account/);
      const badUrl = await adminCreate(env, ['--account', 'third@example.com', '--force', '--url', 'javascript:alert(1)']);
      expect(badUrl.code).toBe(1);
      expect(badUrl.stderr).toMatch(/--url/);

      // With --force another admin is made; without --url the link uses PUBLIC_URL, else localhost and PORT.
      const forced = await adminCreate({ ...env, PUBLIC_URL: 'https://team.example.org' }, ['--account', '+8613800138000', '--force']);
      expect(forced.code).toBe(0);
      expect(linkIn(forced.stdout)).toMatch(/^https:\/\/team\.example\.org\/#\/reset-password\?token=/);
      const local = await adminCreate({ ...env, PORT: '4321' }, ['--account', 'local@example.com', '--force']);
      expect(local.code).toBe(0);
      expect(linkIn(local.stdout)).toMatch(/^http:\/\/localhost:4321\/#\/reset-password\?token=/);

      // The server on the same database and keys: the link's token sets the password once.
      const config = { ...loadConfig({ DATA_DIR: dataDir, ...(postgres.databaseUrl ? { DATABASE_URL: postgres.databaseUrl } : {}) }), authRateLimitPerMinute: 10_000 };
      const { ctx, handle } = await createContext(config);
      const app = await buildApp(ctx);
      try {
        const users = await ctx.db.selectFrom('users').select(['account', 'display_name', 'role', 'status']).orderBy('created_at').orderBy('id').execute();
        expect(users).toEqual([
          { account: 'first.admin@example.com', display_name: 'First Admin', role: 'admin', status: 'active' },
          { account: '+8613800138000', display_name: 'Admin', role: 'admin', status: 'active' },
          { account: 'local@example.com', display_name: 'Admin', role: 'admin', status: 'active' },
        ]);
        const client = new Client(app);
        expect((await client.login('first.admin@example.com', 'Adm1n-password')).statusCode).toBe(401);
        const replaced = await client.request('POST', '/api/auth/reset-password', { token: tokenOf(link), password: await client.seal('Adm1n-password') });
        expect(replaced.json().error.code).toBe('RESET_TOKEN_INVALID');
        const set = await client.request('POST', '/api/auth/reset-password', { token: tokenOf(newLink), password: await client.seal('Adm1n-password') });
        expect(set.statusCode).toBe(200);
        expect(set.json()).toEqual({ ok: true, account: 'first.admin@example.com' });
        const login = await client.login('first.admin@example.com', 'Adm1n-password');
        expect(login.json().user).toMatchObject({ role: 'admin', displayName: 'First Admin' });
        expect((await client.request('GET', '/api/admin/staff')).json().items).toHaveLength(3);
        const reuse = await new Client(app).request('POST', '/api/auth/reset-password', { token: tokenOf(newLink), password: await client.seal('Other-passw0rd') });
        expect(reuse.json().error.code).toBe('RESET_TOKEN_INVALID');

        const entries = await ctx.db.selectFrom('audit_entries').select(['actor_id', 'entity', 'after_json', 'ip']).where('action', '=', 'staff.create').orderBy('at').orderBy('id').execute();
        expect(entries).toHaveLength(3);
        expect(entries[0]).toEqual({ actor_id: null, entity: 'user', ip: null, after_json: JSON.stringify({ account: 'first.admin@example.com', displayName: 'First Admin', role: 'admin', status: 'active', via: 'admin:create' }) });
        const invites = await ctx.db.selectFrom('audit_entries').select(['actor_id', 'ip']).where('action', '=', 'staff.invite').execute();
        expect(invites).toEqual([{ actor_id: null, ip: null }]);
      } finally {
        await app.close();
        await handle.close();
      }
    } finally {
      await postgres.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
