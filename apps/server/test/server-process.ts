/**
 * The real server as a separate process, for what only a listening process shows: src/main.ts
 * through tsx, or a compiled entry (`entry` ending in .js, run with plain node).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';

const main = path.resolve(import.meta.dirname, '../src/main.ts');

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * A command-line entry of the server (`src/<name>.ts`, as `npm run <script>` starts it) as a real
 * process, with the test's environment on top of an empty DATABASE_URL and APP_SECRET.
 */
export function runEntry(name: string, args: string[], env: Record<string, string>): Promise<CommandResult> {
  const file = path.resolve(import.meta.dirname, `../src/${name}.ts`);
  const child = spawn(process.execPath, ['--import', 'tsx', file, ...args], { env: { ...process.env, DATABASE_URL: '', APP_SECRET: '', LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

export interface ServerProcess {
  child: ChildProcess;
  exited: Promise<number | null>;
  output(): string;
}

export interface RunOptions {
  /** The script to run (default src/main.ts): a .ts one through tsx, a .js one with plain node. */
  entry?: string;
  cwd?: string;
  /** The Node binary (default: this process's). */
  node?: string;
  /** Variables of this process's environment to leave out (e.g. npm's npm_package_version). */
  without?: string[];
}

export function run(env: Record<string, string>, args: string[] = [], options: RunOptions = {}): ServerProcess {
  const entry = options.entry ?? main;
  const base: NodeJS.ProcessEnv = { ...process.env };
  for (const name of options.without ?? []) delete base[name];
  const child = spawn(options.node ?? process.execPath, [...(entry.endsWith('.ts') ? ['--import', 'tsx'] : []), entry, ...args], {
    cwd: options.cwd,
    env: { ...base, DATABASE_URL: '', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => out };
}

/** One GET on a new connection (none is kept open afterwards): true when answered 200 within `timeoutMs`. */
export function answers(port: number, path: string, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path, agent: false, timeout: timeoutMs }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode === 200));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
  });
}

/**
 * Starts the server on a free loopback port and resolves once api/ready answers (within a minute:
 * loading the sources through tsx alone takes 15 s on a busy shared machine).
 */
export async function startServer(env: Record<string, string>, options: RunOptions = {}): Promise<ServerProcess & { port: number; url: string }> {
  const port = await freePort();
  const p = run({ PORT: String(port), HOST: '127.0.0.1', ...env }, [], options);
  const url = `http://127.0.0.1:${port}`;
  // Up to a minute: on a loaded shared machine, starting tsx and the server can take 20 s.
  const until = Date.now() + 60_000;
  while (Date.now() < until) {
    if (await answers(port, '/api/ready')) return { ...p, port, url };
    if (p.child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  p.child.kill('SIGKILL');
  throw new Error(`the server did not start:\n${p.output()}`);
}
