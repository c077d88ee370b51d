#!/usr/bin/env node
/**
 * Compiles the server into apps/server/dist (git-ignored) with esbuild: one JavaScript file per
 * entry below, run with plain `node` (no tsx, no TypeScript at run time). Our own code and the
 * workspace packages (@pa/shared) are bundled; every other package stays an import of
 * node_modules at run time (better-sqlite3 is native, and the production dependencies are
 * installed by `npm ci --omit=dev` where the release runs). A file beside the bundle keeps what
 * the bundle reads beside itself: pa.js (modules/integrations/snippet.ts) and the webhook
 * sender's thread (platform/webhooks/sender.ts). `meta.json` lists what the bundle imports
 * (the release checks that package.json installs each).
 *
 * `node scripts/build-server.mjs [--outdir DIR]` builds; `buildServer({ outdir })` from another script.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import * as esbuild from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The entries: `name` is the file in dist (`node apps/server/dist/<name>.js`). An `optional` one
 * is left out while its source does not exist (commands another branch adds).
 */
export const ENTRIES = [
  { name: 'main', source: 'apps/server/src/main.ts' },
  { name: 'admin-create', source: 'apps/server/src/admin-create.ts' },
  { name: 'ledger-check', source: 'apps/server/src/ledger-check.ts' },
  { name: 'stats-rebuild', source: 'apps/server/src/stats-rebuild.ts' },
  { name: 'backup', source: 'apps/server/src/backup.ts', optional: true },
  { name: 'restore', source: 'apps/server/src/restore.ts', optional: true },
  // Started by platform/webhooks/sender.ts from beside the bundle (`./webhook-sender.js`).
  { name: 'webhook-sender', source: 'apps/server/src/platform/webhooks/sender-worker.ts' },
];

/** Files the bundle reads beside itself, copied as they are. */
export const ASSETS = [{ from: 'apps/server/src/modules/integrations/pa.js', to: 'pa.js' }];

/** Inputs of the build (for scripts/build.mjs's up-to-date check, which adds package.json's version), relative to the root. */
export const INPUTS = ['apps/server/src', 'apps/server/package.json', 'packages/shared', 'scripts/build-server.mjs', 'package-lock.json'];

export const DEFAULT_OUTDIR = path.join(root, 'apps/server/dist');

/** A bare import's package: "@fastify/static/x" → "@fastify/static", "pg" → "pg"; null for node: builtins. */
export function packageOf(specifier) {
  if (specifier.startsWith('node:')) return null;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** Bare imports stay imports, except the workspace's own packages (@pa/*), which are bundled. */
const externalPackages = {
  name: 'external-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@pa/')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

/**
 * Builds every entry into `outdir` (emptied first) and returns the entries built and the packages
 * the bundle imports at run time.
 */
export async function buildServer({ outdir = DEFAULT_OUTDIR, quiet = false } = {}) {
  const version = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).version;
  const entries = ENTRIES.filter((e) => {
    if (fs.existsSync(path.join(root, e.source))) return true;
    if (e.optional) return false;
    throw new Error(`build-server: ${e.source} does not exist`);
  });
  // Emptied first (no stale entries), but only a folder this build made or an empty one.
  const ours = ['package.json', 'meta.json'].some((f) => fs.existsSync(path.join(outdir, f)));
  if (fs.existsSync(outdir) && fs.readdirSync(outdir).length > 0 && !ours) {
    throw new Error(`build-server: ${outdir} is not empty and holds no earlier build; not emptying it`);
  }
  fs.rmSync(outdir, { recursive: true, force: true });
  fs.mkdirSync(outdir, { recursive: true });
  // The files are ES modules wherever dist is put (the release, an image).
  fs.writeFileSync(path.join(outdir, 'package.json'), `${JSON.stringify({ type: 'module' }, null, 2)}\n`);
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: Object.fromEntries(entries.map((e) => [e.name, e.source])),
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
    // The version /api/health and the webhook User-Agent report (config.ts), without npm to say it.
    define: { PA_BUILD_VERSION: JSON.stringify(version) },
    plugins: [externalPackages],
    metafile: true,
    logLevel: 'warning',
  });
  for (const asset of ASSETS) fs.copyFileSync(path.join(root, asset.from), path.join(outdir, asset.to));
  const packages = new Set();
  for (const output of Object.values(result.metafile.outputs)) {
    for (const imported of output.imports) {
      if (!imported.external) continue;
      const name = packageOf(imported.path);
      if (name) packages.add(name);
    }
  }
  const meta = { version, entries: entries.map((e) => e.name), packages: [...packages].sort() };
  fs.writeFileSync(path.join(outdir, 'meta.json'), `${JSON.stringify(meta, null, 2)}\n`);
  if (!quiet) {
    const sizes = entries.map((e) => `${e.name}.js ${(fs.statSync(path.join(outdir, `${e.name}.js`)).size / 1024).toFixed(0)} KB`);
    console.log(`server compiled into ${path.relative(process.cwd(), outdir) || '.'}: ${sizes.join(', ')}`);
  }
  return meta;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { outdir: { type: 'string' } } });
  buildServer(values.outdir ? { outdir: path.resolve(values.outdir) } : {}).catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
