#!/usr/bin/env node
/**
 * `npm run build`: the type check, the web app (Vite, then the first-visit budget of
 * scripts/bundle-size.mjs) and the compiled server (scripts/build-server.mjs).
 *
 * `--if-changed` (`npm start`, `npm run release`) skips a step whose inputs are those of its last
 * successful run and whose output is as that run left it: a digest of every input file (and of the
 * version in package.json, and for the web app the VITE_ variables it reads) and a fingerprint of the output
 * folder (each file's path, size and modification time) are kept in .cache/build-stamps.json.
 * Without the flag every step runs (and leaves its stamp).
 *
 * `--no-typecheck` (`npm start`) leaves the type check out: it checks the code, not what is built
 * (esbuild and Vite strip the types), and took 62 of a first start's 127 s on the 2-core machine
 * (docs/benchmarks.md, "First start"). `npm run build`, `npm test` and `npm run release` keep it.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildServer, INPUTS as SERVER_INPUTS } from './build-server.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const STAMPS = path.join(root, '.cache/build-stamps.json');
/** Never inputs: installed packages, build outputs, what tests and benchmarks leave behind. */
const SKIP_NAMES = new Set(['node_modules', 'dist', '.vite', 'coverage', 'test-results', '.cache']);
const SKIP_PATHS = new Set(['e2e/artifacts', 'bench/results', 'bench/reports']);
const skipped = (dir, name) => SKIP_NAMES.has(name) || SKIP_PATHS.has(path.relative(root, path.join(dir, name)).split(path.sep).join('/'));

function npm(args, env = process.env) {
  // npm is a script on Windows and a program elsewhere; the shell finds either.
  const result = spawnSync('npm', args, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32', env });
  if (result.status !== 0) throw new Error(`npm ${args.join(' ')} failed`);
}

function node(script) {
  const result = spawnSync(process.execPath, [script], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`node ${path.relative(root, script)} failed`);
}

/** The version in package.json, which both builds write into their output (not the whole file: its scripts are no input). */
const version = () => `version=${JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).version}`;

export const STEPS = [
  {
    name: 'typecheck',
    check: true,
    inputs: ['packages', 'apps', 'e2e', 'bench', 'tsconfig.base.json', 'package-lock.json'],
    run: () => npm(['run', 'typecheck']),
  },
  {
    name: 'web',
    inputs: ['apps/web', 'packages/shared', 'scripts/bundle-size.mjs', 'package-lock.json'],
    extra: (env) => [version(), ...Object.keys(env).filter((k) => k.startsWith('VITE_')).sort().map((k) => `${k}=${env[k]}`)],
    output: 'apps/web/dist',
    run: () => {
      // Production React whatever NODE_ENV the caller has (vitest sets `test`, which Vite would keep).
      npm(['run', 'build', '-w', '@pa/web'], { ...process.env, NODE_ENV: 'production' });
      node(path.join(root, 'scripts/bundle-size.mjs'));
    },
  },
  { name: 'server', inputs: SERVER_INPUTS, extra: () => [version()], output: 'apps/server/dist', run: () => buildServer() },
];

function* files(dir) {
  let entries;
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!skipped(dir, entry.name)) yield* files(full);
    } else if (entry.isFile()) yield full;
  }
}

/** A digest of the inputs' contents (paths and bytes) and of the environment the step reads. */
export function inputDigest(step, env = process.env) {
  const hash = createHash('sha256');
  for (const input of step.inputs) {
    const full = path.join(root, input);
    const list = fs.existsSync(full) && fs.statSync(full).isDirectory() ? [...files(full)] : fs.existsSync(full) ? [full] : [];
    for (const file of list) {
      hash.update(path.relative(root, file)).update('\0').update(fs.readFileSync(file)).update('\0');
    }
  }
  for (const line of step.extra?.(env) ?? []) hash.update(line).update('\0');
  return hash.digest('hex');
}

/** Each output file's path, size and modification time; null when the output folder is missing. */
function outputFingerprint(step) {
  if (!step.output) return 'none';
  const dir = path.join(root, step.output);
  if (!fs.existsSync(dir)) return null;
  const hash = createHash('sha256');
  for (const file of walkAll(dir)) {
    const { size, mtimeMs } = fs.statSync(file);
    hash.update(`${path.relative(dir, file)}\0${size}\0${mtimeMs}\0`);
  }
  return hash.digest('hex');
}

function* walkAll(dir) {
  const entries = fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walkAll(full);
    else if (entry.isFile()) yield full;
  }
}

function readStamps() {
  try {
    return JSON.parse(fs.readFileSync(STAMPS, 'utf8'));
  } catch {
    return {};
  }
}

function writeStamps(stamps) {
  fs.mkdirSync(path.dirname(STAMPS), { recursive: true });
  const temp = `${STAMPS}.${process.pid}.tmp`;
  fs.writeFileSync(temp, `${JSON.stringify(stamps, null, 2)}\n`);
  fs.renameSync(temp, STAMPS);
}

/**
 * Runs the steps (all, or with `ifChanged` those not up to date; without `typecheck` not the type
 * check); returns the names of those run.
 */
export async function build({ ifChanged = false, typecheck = true, log = console.log } = {}) {
  const ran = [];
  for (const step of STEPS) {
    if (step.check && !typecheck) continue;
    const stamps = readStamps();
    const inputs = inputDigest(step);
    const previous = stamps[step.name];
    if (ifChanged && previous && previous.inputs === inputs && previous.output !== null && previous.output === outputFingerprint(step)) {
      log(`build: ${step.name} is up to date`);
      continue;
    }
    delete stamps[step.name];
    writeStamps(stamps);
    const started = Date.now();
    await step.run();
    ran.push(step.name);
    // Stamped with the digest taken before the step ran: an input edited meanwhile runs it again next time.
    writeStamps({ ...readStamps(), [step.name]: { inputs, output: outputFingerprint(step) } });
    log(`build: ${step.name} done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  return ran;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  build({ ifChanged: process.argv.includes('--if-changed'), typecheck: !process.argv.includes('--no-typecheck') }).catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
