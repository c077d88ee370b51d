/**
 * Shared by the benchmarks: a free loopback port, waiting for a server to answer, starting and
 * stopping the real server, a fresh PostgreSQL database, another build of the project in a git
 * worktree (for A/B runs), the machine line and a median.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/** Resolves once `url` answers at all (any status, redirects not followed). */
export async function waitFor(url: string) {
  for (let i = 0; i < 150; i++) {
    if (await fetch(url, { redirect: 'manual' }).then(() => true, () => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`not up: ${url}`);
}

/** Sends SIGTERM to `child` and resolves once it has exited (at once if it already has). */
export async function stop(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

/** The servers `startServer` spawned that have not exited yet (for an interrupted benchmark to stop). */
export const runningServers = new Set<ChildProcess>();

/**
 * The Node options a build runs its server with: what its own `npm run serve` puts between `node`
 * and the server's entry (a build is measured with its own options), without `--import tsx`:
 * every launch here runs the sources through tsx, which needs no build of the checkout.
 */
export function serverNodeArgs(root: string): string[] {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
  const serve = pkg.scripts?.serve ?? '';
  const words = serve.split(/\s+/);
  const from = words.indexOf('node');
  // Today's scripts run the compiled server; builds from before issue 29 ran the sources through tsx.
  const to = words.findIndex((w) => w === 'apps/server/dist/main.js' || w === 'apps/server/src/main.ts');
  if (from < 0 || to < from) return [];
  const args = words.slice(from + 1, to);
  const tsx = args.indexOf('--import');
  if (tsx >= 0 && args[tsx + 1] === 'tsx') args.splice(tsx, 2);
  return args;
}

/**
 * The real server of the project checked out at `root` (its own `apps/server/src/main.ts`, run
 * with the Node options of its own `serve` script), on a free loopback port with `env` on top of this process's; resolves once it answers
 * `api/health`, and rejects at once if it exits before (a build that does not start).
 */
export async function startServer(root: string, env: Record<string, string>, nodeArgs: string[] = []): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [...nodeArgs, ...serverNodeArgs(root), '--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  runningServers.add(child);
  let exited = false;
  child.once('exit', () => {
    exited = true;
    runningServers.delete(child);
  });
  const died = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await Promise.race([waitFor(`${url}/api/health`), died]).catch(async (error: unknown) => {
    await stop(child);
    throw error;
  });
  if (exited) throw new Error(`the server in ${root} exited (code ${child.exitCode ?? child.signalCode}) before answering`);
  return { child, url };
}

/**
 * A fresh PostgreSQL database on the server of `adminUrl` (for a benchmark run): its URL, and a
 * function that drops it. With no `adminUrl` (SQLite), no URL and a drop that does nothing.
 */
export async function freshPostgres(adminUrl: string): Promise<{ databaseUrl: string; drop(): Promise<void> }> {
  if (!adminUrl) return { databaseUrl: '', drop: async () => undefined };
  const name = `pa_bench_${randomBytes(4).toString('hex')}`;
  const run = async (sql: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    await client.query(sql);
    await client.end();
  };
  await run(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { databaseUrl: url.toString(), drop: () => run(`drop database if exists ${name} with (force)`) };
}

export interface Build {
  /** The checkout to run from. */
  root: string;
  /** e.g. "acfcdc7 Operator console (issue 14)…". */
  description: string;
  /** Whether its package-lock.json differs from this checkout's (it runs on this checkout's node_modules all the same). */
  lockDiffers: boolean;
  /** Removes the worktree (and its node_modules links). */
  remove(): void;
}

/**
 * Another build of the project: `ref` checked out with `git worktree add` in a temp folder, on
 * this checkout's installed dependencies. node_modules is a folder of links rather than one link:
 * the workspace packages (node_modules/@pa/* → ../../packages/…) must resolve to the worktree's own
 * packages, not this checkout's, so those relative links are copied as they are and every other
 * package links to this checkout's copy.
 */
export function worktreeBuild(repo: string, ref: string): Build {
  const git = (...args: string[]) => {
    try {
      return execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
    } catch (error) {
      throw new Error(`git ${args.join(' ')}: ${(error as { stderr?: string }).stderr?.trim() || String(error)}`);
    }
  };
  const commit = git('rev-parse', '--verify', `${ref}^{commit}`);
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'pa-bench-build-'));
  const root = path.join(parent, 'checkout');
  git('worktree', 'add', '--detach', root, commit);
  const remove = () => {
    // The links first (rmSync unlinks symbolic links, never follows them), then the worktree.
    fs.rmSync(path.join(root, 'node_modules'), { recursive: true, force: true });
    try {
      git('worktree', 'remove', '--force', root);
    } catch (error) {
      console.error(`could not remove the worktree ${root}:`, error);
    }
    fs.rmSync(parent, { recursive: true, force: true });
  };
  try {
    linkNodeModules(path.join(repo, 'node_modules'), path.join(root, 'node_modules'));
    const lock = fs.readFileSync(path.join(repo, 'package-lock.json'), 'utf8');
    const lockDiffers = git('show', `${commit}:package-lock.json`) !== lock.trim();
    return { root, description: shorten(git('log', '-1', '--format=%h %s', commit)), lockDiffers, remove };
  } catch (error) {
    remove();
    throw error;
  }
}

function shorten(line: string, max = 80) {
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}

function linkNodeModules(from: string, to: string) {
  fs.mkdirSync(to);
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isSymbolicLink()) fs.symlinkSync(fs.readlinkSync(source), target); // a workspace package: the same relative link
    else if (entry.isDirectory() && entry.name.startsWith('@')) linkNodeModules(source, target); // a scope: link its packages one by one
    else fs.symlinkSync(source, target);
  }
}

/** This checkout as a build (nothing to remove). */
export function checkoutBuild(repo: string): Build {
  const git = (...args: string[]) => execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8' }).trim();
  const changed = git('status', '--porcelain', '--untracked-files=no') !== '';
  return { root: repo, description: `this checkout (${git('log', '-1', '--format=%h')}${changed ? ' + uncommitted changes' : ''})`, lockDiffers: false, remove: () => undefined };
}

/** The machine line every benchmark prints: "2 × <CPU model>, Node v20…". */
/**
 * CPU time (ms, user + system) used so far, from /proc (Linux; null elsewhere): the processes
 * `pids` (all their threads), their main threads alone, `others` (each), every process named
 * `postgres` (the database server's backends and helpers), and the whole machine (busy, all
 * cores); and the ms the main threads spent ready to run while another thread had the CPU
 * (`mainWaited`, from schedstat).
 */
export function cpuTimes(pids: number[], others: Record<string, number> = {}): { processes: number; mainThreads: number; mainWaited: number; others: Record<string, number>; postgres: number; machine: number } | null {
  const ticks = (file: string) => {
    try {
      const stat = fs.readFileSync(file, 'utf8');
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // After the command: state is field 3; utime and stime are fields 14 and 15.
      return { name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')), ticks: Number(rest[11]) + Number(rest[12]) };
    } catch {
      return null;
    }
  };
  if (!fs.existsSync('/proc/self/stat')) return null;
  const TICK_MS = 10; // USER_HZ is 100 on Linux
  const ms = (file: string) => (ticks(file)?.ticks ?? 0) * TICK_MS;
  let processes = 0;
  let mainThreads = 0;
  let mainWaited = 0;
  for (const pid of pids) {
    processes += ms(`/proc/${pid}/stat`);
    mainThreads += ms(`/proc/${pid}/task/${pid}/stat`);
    try {
      // schedstat: ns on a CPU, ns waiting on a run queue, time slices.
      mainWaited += Number(fs.readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[1]) / 1e6;
    } catch {
      // No schedstat in this kernel: reported as 0.
    }
  }
  let postgres = 0;
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    const t = ticks(`/proc/${pid}/stat`);
    if (t?.name === 'postgres') postgres += t.ticks * TICK_MS;
  }
  // /proc/stat's first line: cpu user nice system idle iowait irq softirq steal guest guest_nice
  // (guest time is counted in user and nice already; idle, iowait and steal are not this machine's work).
  const [user, nice, system, , , irq, softirq] = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const machine = (user! + nice! + system! + irq! + softirq!) * TICK_MS;
  return { processes, mainThreads, mainWaited, others: Object.fromEntries(Object.entries(others).map(([k, pid]) => [k, ms(`/proc/${pid}/stat`)])), postgres, machine };
}

export function machine(): string {
  return `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}`;
}

export function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
