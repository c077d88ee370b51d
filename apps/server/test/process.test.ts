import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const main = path.resolve(import.meta.dirname, '../src/main.ts');

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

function run(env: Record<string, string>, args: string[] = []) {
  const child = spawn(process.execPath, ['--import', 'tsx', main, ...args], { env: { ...process.env, DATABASE_URL: '', LOG_LEVEL: 'info', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => out };
}

describe('the server process', () => {
  it('refuses a bad setting with a sentence naming it', async () => {
    const p = run({ PORT: 'eighty' });
    expect(await p.exited).toBe(1);
    expect(p.output()).toContain('PORT must be a whole number');
  });

  it('seeds demo data once, serves, and shuts down gracefully on SIGTERM', async () => {
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
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
