import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { freePort, run } from './server-process';

const ledgerCheck = path.resolve(import.meta.dirname, '../src/ledger-check.ts');


describe('the server process', () => {
  it('refuses a bad setting with a sentence naming it', async () => {
    const p = run({ PORT: 'eighty' });
    expect(await p.exited).toBe(1);
    expect(p.output()).toContain('PORT must be a whole number');
  });

  it('seeds demo data once, serves, shuts down gracefully on SIGTERM; ledger:check passes, and fails on a tampered balance', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pa-proc-'));
    try {
      const port = await freePort();
      const p = run({ PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir }, ['--demo']);
      let ok = false;
      for (let i = 0; i < 100 && !ok; i++) {
        await new Promise((r) => setTimeout(r, 200));
        ok = await fetch(`http://127.0.0.1:${port}/api/ready`).then((r) => r.ok, () => false);
      }
      expect(ok).toBe(true);
      expect(p.output()).toContain('admin@demo.example');
      expect(p.output()).toContain('sofia@demo.example');
      p.child.kill('SIGTERM');
      expect(await p.exited).toBe(0);
      expect(p.output()).toContain('shutting down');

      // A second start on the same database creates no demo data and prints no passwords.
      const again = run({ PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir }, ['--demo']);
      for (let i = 0; i < 100; i++) {
        await new Promise((r) => setTimeout(r, 200));
        if (await fetch(`http://127.0.0.1:${port}/api/ready`).then((r) => r.ok, () => false)) break;
      }
      again.child.kill('SIGINT');
      expect(await again.exited).toBe(0);
      expect(again.output()).not.toContain('Demo data created');

      // The demo's conversions went through the real services: the ledger check passes…
      const check = () => {
        const c = spawn(process.execPath, ['--import', 'tsx', ledgerCheck], { env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir }, stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        c.stdout.on('data', (d) => (out += d));
        c.stderr.on('data', (d) => (out += d));
        return new Promise<{ code: number | null; out: string }>((resolve) => c.on('exit', (code) => resolve({ code, out })));
      };
      const clean = await check();
      expect(clean.code, clean.out).toBe(0);
      expect(clean.out).toMatch(/^ledger ok: \d+ journals balanced/);
      // …and a tampered balance makes it fail with the account named.
      const db = new Database(path.join(dataDir, 'promotion-assistant.db'));
      const row = db.prepare("select account from ledger_balances where account like 'promoter:%:pending' limit 1").get() as { account: string };
      db.prepare('update ledger_balances set balance = balance + 1 where account = ?').run(row.account);
      db.close();
      const broken = await check();
      expect(broken.code).toBe(1);
      expect(broken.out).toContain(`balance_mismatch ${row.account}`);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
