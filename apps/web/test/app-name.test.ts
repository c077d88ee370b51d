import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const web = path.resolve(import.meta.dirname, '..');
const vite = path.resolve(web, '../../node_modules/vite/bin/vite.js');

describe('VITE_APP_NAME at build time', () => {
  it('names the app in the title, the recorded app config and the in-app header', () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'pa-build-'));
    try {
      execFileSync(process.execPath, [vite, 'build', '--outDir', out, '--emptyOutDir', '--logLevel', 'error'], {
        cwd: web,
        env: { ...process.env, VITE_APP_NAME: 'Acme Partners' },
        stdio: 'pipe',
      });
      expect(fs.readFileSync(path.join(out, 'index.html'), 'utf8')).toContain('<title>Acme Partners</title>');
      expect(JSON.parse(fs.readFileSync(path.join(out, 'app-config.json'), 'utf8')).appName).toBe('Acme Partners');
      const js = fs.readdirSync(path.join(out, 'assets')).filter((f) => f.endsWith('.js')).map((f) => fs.readFileSync(path.join(out, 'assets', f), 'utf8')).join('\n');
      expect(js).toContain('Acme Partners');
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  }, 120_000);
});
