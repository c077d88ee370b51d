#!/usr/bin/env node
/**
 * Licence check (docs/licences.md): every production dependency of the workspace — what
 * `npm ls --omit=dev --all` lists, the web app's bundled packages included — must carry a licence
 * on the allow-list below, read from its own package.json (`license`, an SPDX expression, or the
 * legacy `license: {type}` / `licenses: [...]` forms). The project's own packages must say
 * Apache-2.0. Anything else (AGPL, GPL, LGPL, SSPL, BUSL, Commons Clause, a missing or unknown
 * licence, a package npm lists but that is not installed) fails, naming the package, its licence
 * and the path of dependencies that pulls it in.
 *
 *   node scripts/licences.mjs [--dir DIR] [--quiet]
 *
 * Exit 0: all allowed; 1: something is not; 2: the check itself could not run.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Permissive licences (SPDX ids): none binds the users of a self-hosted install. CC-BY-4.0 is for data (e.g. caniuse-lite). */
export const ALLOWED = new Set([
  'MIT',
  'MIT-0',
  'ISC',
  'BSD-2-Clause',
  'BSD-3-Clause',
  'Apache-2.0',
  '0BSD',
  'BlueOak-1.0.0',
  'CC0-1.0',
  'Unlicense',
  'Python-2.0',
  'CC-BY-4.0',
]);

/**
 * `<licence> WITH <exception>`: only exceptions that add permissions to an allowed licence pass.
 * Anything else after WITH (e.g. `Commons-Clause`, which takes rights away) fails.
 */
export const ALLOWED_EXCEPTIONS = new Set(['LLVM-exception']);

/** The project's own packages (root and workspaces). */
export const PROJECT_LICENCE = 'Apache-2.0';

/**
 * Parses an SPDX licence expression into a tree: `{ id, with? }`, `{ and: [a, b] }` or
 * `{ or: [a, b] }`. AND binds tighter than OR; operators are accepted in any case; a trailing `+`
 * (“or later”) keeps the named version. Returns null when the text is not an expression
 * (e.g. `SEE LICENSE IN LICENSE.txt`, `Apache 2.0 with Commons Clause`).
 */
export function parseSpdx(text) {
  const tokens = String(text).trim().match(/\(|\)|[^\s()]+/g);
  if (!tokens) return null;
  let i = 0;
  const peek = () => tokens[i];
  const isOp = (t, op) => typeof t === 'string' && t.toUpperCase() === op;
  const primary = () => {
    const t = tokens[i++];
    if (t === undefined) throw new Error('end');
    if (t === '(') {
      const inner = orExpr();
      if (tokens[i++] !== ')') throw new Error(')');
      return inner;
    }
    if (t === ')' || isOp(t, 'AND') || isOp(t, 'OR') || isOp(t, 'WITH')) throw new Error(t);
    if (!/^(LicenseRef-|DocumentRef-)?[A-Za-z0-9.-]+\+?$/.test(t)) throw new Error(t);
    const node = { id: t.replace(/\+$/, '') };
    if (isOp(peek(), 'WITH')) {
      i++;
      const exception = tokens[i++];
      if (!exception || !/^[A-Za-z0-9.-]+$/.test(exception)) throw new Error('WITH');
      node.with = exception;
    }
    return node;
  };
  const andExpr = () => {
    let left = primary();
    while (isOp(peek(), 'AND')) {
      i++;
      left = { and: [left, primary()] };
    }
    return left;
  };
  const orExpr = () => {
    let left = andExpr();
    while (isOp(peek(), 'OR')) {
      i++;
      left = { or: [left, andExpr()] };
    }
    return left;
  };
  try {
    const tree = orExpr();
    return i === tokens.length ? tree : null;
  } catch {
    return null;
  }
}

const lower = (set) => new Set([...set].map((id) => id.toLowerCase()));

/**
 * An expression passes when an OR has one allowed side and an AND has every side allowed (SPDX ids
 * compare without regard to case).
 */
export function expressionAllowed(tree, allowed = ALLOWED, exceptions = ALLOWED_EXCEPTIONS) {
  const ids = lower(allowed);
  const withs = lower(exceptions);
  const ok = (t) => {
    if (t.or) return t.or.some(ok);
    if (t.and) return t.and.every(ok);
    return ids.has(t.id.toLowerCase()) && (t.with === undefined || withs.has(t.with.toLowerCase()));
  };
  return !!tree && ok(tree);
}

/**
 * The licence a package.json declares, as one SPDX expression (or null when it declares none):
 * `license: "MIT"`, the legacy `license: { type: "MIT" }`, or the legacy `licenses: [...]` array,
 * whose entries are alternatives the user may choose between (joined with OR).
 */
export function declaredLicence(manifest) {
  const one = (l) => (typeof l === 'string' ? l.trim() : l && typeof l.type === 'string' ? l.type.trim() : '');
  const main = one(manifest.license);
  if (main) return main;
  if (Array.isArray(manifest.licenses)) {
    const all = manifest.licenses.map(one).filter(Boolean);
    if (all.length === 1) return all[0];
    if (all.length > 1) return all.map((l) => `(${l})`).join(' OR ');
  }
  return null;
}

/** Judges one package.json: `{ licence, ok, reason }`. */
export function judge(manifest, { project = false, allowed = ALLOWED } = {}) {
  const licence = declaredLicence(manifest);
  if (!licence) return { licence: '(none)', ok: false, reason: 'no licence declared' };
  if (project) return { licence, ok: licence === PROJECT_LICENCE, reason: `the project's own packages must say ${PROJECT_LICENCE}` };
  const tree = parseSpdx(licence);
  if (!tree) return { licence, ok: false, reason: 'not an SPDX licence expression' };
  return { licence, ok: expressionAllowed(tree, allowed), reason: 'not on the allow-list' };
}

/** Runs `npm ls` in `dir` and returns its JSON (npm exits non-zero on extraneous packages and the like; the tree still comes). */
function npmLs(dir) {
  let out;
  try {
    out = execFileSync('npm', ['ls', '--omit=dev', '--all', '--json', '--long'], { cwd: dir, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    if (error.code === 'ENOENT') throw new Error('npm is not on PATH');
    out = error.stdout;
  }
  try {
    return JSON.parse(out);
  } catch {
    throw new Error(`npm ls in ${dir} did not print a dependency tree`);
  }
}

/**
 * Walks the tree breadth-first, so each package is reported with the shortest path that pulls it
 * in; a package installed once (name, version and location) is judged once.
 */
export function checkTree(tree, rootDir) {
  const root = realpathSync(rootDir);
  const label = (node, name) => `${node.name ?? name}@${node.version ?? '?'}`;
  const seen = new Set();
  const problems = [];
  const counts = new Map();
  let checked = 0;
  const queue = [{ node: tree, name: tree.name ?? '(root)', trail: [tree.name ?? '(root)'] }];
  while (queue.length > 0) {
    const { node, name, trail } = queue.shift();
    const at = trail.length === 1 ? `${trail[0]} (the project root)` : trail.join(' → ');
    if (node.missing) {
      problems.push({ pkg: trail[trail.length - 1], licence: '(not installed)', reason: 'required but not installed: run npm ci', at });
      continue;
    }
    // An optional dependency that is not installed (another platform's binary, an optional peer) comes as an empty entry.
    if (!node.path) continue;
    const key = `${node.path}\0${node.version}`;
    if (seen.has(key)) continue;
    seen.add(key);
    let manifest;
    try {
      manifest = JSON.parse(readFileSync(path.join(node.path, 'package.json'), 'utf8'));
    } catch {
      problems.push({ pkg: label(node, name), licence: '(unreadable)', reason: `no package.json in ${node.path}`, at });
      continue;
    }
    const real = realpathSync(node.path);
    const project = !path.relative(root, real).split(path.sep).includes('node_modules') && !path.relative(root, real).startsWith('..');
    const verdict = judge(manifest, { project });
    checked++;
    counts.set(verdict.licence, (counts.get(verdict.licence) ?? 0) + 1);
    if (!verdict.ok) problems.push({ pkg: `${manifest.name ?? name}@${manifest.version ?? node.version}`, licence: verdict.licence, reason: verdict.reason, at });
    for (const [childName, child] of Object.entries(node.dependencies ?? {})) {
      const version = child.version ?? (typeof child.required === 'string' ? child.required : child.required?.version) ?? '?';
      queue.push({ node: child, name: childName, trail: [...trail, `${childName}@${version}`] });
    }
  }
  return { checked, counts, problems };
}

function main(argv) {
  const here = path.dirname(fileURLToPath(import.meta.url));
  let dir = path.resolve(here, '..');
  let quiet = false;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--dir') dir = path.resolve(argv[++i] ?? '.');
    else if (argv[i] === '--quiet') quiet = true;
    else {
      console.error(`licences: unknown argument ${argv[i]}\nusage: node scripts/licences.mjs [--dir DIR] [--quiet]`);
      return 2;
    }
  }
  let result;
  try {
    result = checkTree(npmLs(dir), dir);
  } catch (error) {
    console.error(`licences: ${error.message}`);
    return 2;
  }
  const { checked, counts, problems } = result;
  if (problems.length > 0) {
    console.error(`Licence check failed: ${problems.length} of ${checked} production packages not allowed (allowed: ${[...ALLOWED].join(', ')}; see docs/licences.md)`);
    for (const p of problems) console.error(`  ${p.pkg}: ${p.licence} — ${p.reason}\n    pulled in by ${p.at}`);
    return 1;
  }
  if (!quiet) {
    const summary = [...counts].sort((a, b) => b[1] - a[1]).map(([l, n]) => `${l} ${n}`).join(', ');
    console.log(`Licences: ${checked} production packages, all allowed (${summary})`);
  }
  return 0;
}

if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = main(process.argv.slice(2));
