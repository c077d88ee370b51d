/**
 * The licence check `npm test` runs (scripts/licences.mjs, docs/licences.md): on a small installed
 * tree it makes here, with a licence of every kind planted, and on the project's own tree.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const SCRIPT = path.join(ROOT, 'scripts/licences.mjs');

function check(dir: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [SCRIPT, '--dir', dir], { encoding: 'utf8' }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
    });
  });
}

type Manifest = Record<string, unknown>;

/** Writes `dir/package.json` and each installed package under `dir/node_modules/<name>`. */
function installTree(dir: string, root: Manifest, installed: Manifest[]) {
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify(root));
  for (const pkg of installed) {
    const at = path.join(dir, 'node_modules', String(pkg.name));
    mkdirSync(at, { recursive: true });
    writeFileSync(path.join(at, 'package.json'), JSON.stringify({ version: '1.0.0', ...pkg }));
  }
}

describe('the licence check', () => {
  let dir: string;
  type Run = Awaited<ReturnType<typeof check>>;
  let planted: Run;
  let real: Run;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'pa-licences-'));
    const deps = ['carrier', 'dual', 'both', 'legacy-array', 'legacy-object', 'unlabelled', 'see-file', 'commons', 'llvm', 'lowercase', 'ghost'];
    installTree(
      dir,
      { name: 'fake-app', version: '1.0.0', license: 'Apache-2.0', dependencies: Object.fromEntries(deps.map((d) => [d, '1.0.0'])), devDependencies: { 'dev-tool': '1.0.0' } },
      [
        // An allowed package that pulls in an AGPL one: named with the path through it.
        { name: 'carrier', license: 'MIT', dependencies: { 'agpl-lib': '1.0.0' } },
        { name: 'agpl-lib', license: 'AGPL-3.0-only' },
        { name: 'dual', license: '(MIT OR GPL-3.0-or-later)' },
        { name: 'both', license: '(MIT AND SSPL-1.0)' },
        { name: 'legacy-array', licenses: [{ type: 'GPL-2.0' }, { type: 'BSD-3-Clause' }] },
        { name: 'legacy-object', license: { type: 'BUSL-1.1', url: 'https://example.com/busl' } },
        { name: 'unlabelled' },
        { name: 'see-file', license: 'SEE LICENSE IN LICENSE.md' },
        { name: 'commons', license: 'Apache-2.0 WITH Commons-Clause' },
        { name: 'llvm', license: 'Apache-2.0 WITH LLVM-exception' },
        { name: 'lowercase', license: 'mit or lgpl-3.0' },
        // ghost is declared but not installed.
        // A development tool is not shipped: its licence does not matter here.
        { name: 'dev-tool', license: 'GPL-3.0-only' },
      ],
    );
    // Both at once: each is mostly npm starting up.
    [planted, real] = await Promise.all([check(dir), check(ROOT)]);
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('fails on a planted AGPL dependency, naming it, its licence and the path that pulls it in', () => {
    expect(planted.code).toBe(1);
    expect(planted.stderr).toContain('agpl-lib@1.0.0: AGPL-3.0-only — not on the allow-list\n    pulled in by fake-app → carrier@1.0.0 → agpl-lib@1.0.0');
  });

  it('judges SPDX expressions, legacy fields, missing licences and packages that are not installed', () => {
    const named = [...planted.stderr.matchAll(/^ {2}(\S+)@/gm)].map((m) => m[1]).sort();
    // Passing: dual (an OR with MIT), legacy-array (either), llvm (an exception that adds rights), lowercase (any case), carrier; dev-tool is not production.
    expect(named).toEqual(['agpl-lib', 'both', 'commons', 'ghost', 'legacy-object', 'see-file', 'unlabelled']);
    expect(planted.stderr).toContain('both@1.0.0: (MIT AND SSPL-1.0) — not on the allow-list');
    expect(planted.stderr).toContain('legacy-object@1.0.0: BUSL-1.1 — not on the allow-list');
    expect(planted.stderr).toContain('unlabelled@1.0.0: (none) — no licence declared');
    expect(planted.stderr).toContain('see-file@1.0.0: SEE LICENSE IN LICENSE.md — not an SPDX licence expression');
    expect(planted.stderr).toContain('commons@1.0.0: Apache-2.0 WITH Commons-Clause — not on the allow-list');
    expect(planted.stderr).toMatch(/ghost@1\.0\.0: \(not installed\) — required but not installed[^\n]*\n {4}pulled in by fake-app → ghost@1\.0\.0$/m);
    expect(planted.stderr).toMatch(/^Licence check failed: 7 of 12 production packages not allowed/);
  });

  it('passes the project\'s own production tree, and its own packages say Apache-2.0', () => {
    expect(real.stderr).toBe('');
    expect(real.code).toBe(0);
    expect(real.stdout).toMatch(/^Licences: \d+ production packages, all allowed \(.*Apache-2\.0 \d+/);
  });
});
