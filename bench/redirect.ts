/**
 * npm run bench:redirect — 20 s at 50 connections on loopback against `r/:code` of the real
 * server (SQLite, a separate process, LOG_LEVEL=info; the redirect itself logs only warnings), then the same against a bare Fastify 302
 * server; prints requests/s, p50 and p99 of both and their ratio; then stops the real server
 * gracefully and checks that every redirect served was stored as a click. Also prints each server's
 * CPU time per request (from /proc), which moves less than req/s when the machine is shared.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { createContext } from '../apps/server/src/bootstrap';
import { loadConfig } from '../apps/server/src/config';
import { insertLink, insertUser } from './fixtures';
import { freePort, stop, waitFor } from './util';

const ROOT = path.resolve(import.meta.dirname, '..');
const DURATION = Number(process.env.BENCH_SECONDS ?? 20);
const CONNECTIONS = 50;

let serverLog = '';
function start(args: string[], env: Record<string, string>): ChildProcess {
  const prof = process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir=/tmp/prof'] : [];
  const child = spawn(process.execPath, [...prof, '--import', 'tsx', ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  child.stdout?.on('data', (d) => (serverLog += d));
  return child;
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux; NaN elsewhere). */
function cpuSeconds(pid: number | undefined) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
  } catch {
    return Number.NaN;
  }
}

/** The load, and the server's CPU time per request over it (steadier than req/s on a shared machine). */
async function measure(child: ChildProcess, url: string) {
  const before = cpuSeconds(child.pid);
  const result = await load(url);
  const cpu = cpuSeconds(child.pid) - before;
  return { ...result, cpuUs: (cpu * 1e6) / (result.rps * DURATION) };
}

async function load(url: string, duration = DURATION) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration, followRedirect: false, headers: { 'user-agent': 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/130.0 Mobile Safari/537.36' } });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, redirects: result['3xx'], errors: result.errors + result.non2xx - result['3xx'] };
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pa-bench-'));
const config = { ...loadConfig({ DATA_DIR: dataDir }), dataDir };
const { ctx, handle } = await createContext(config);
const promoterId = await insertUser(ctx.db);
const code = await insertLink(ctx.db, promoterId);
await handle.close();

const port = await freePort();
const server = start(['apps/server/src/main.ts'], { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info', DATABASE_URL: '' });
await waitFor(`http://127.0.0.1:${port}/api/health`);
const warmup = await load(`http://127.0.0.1:${port}/r/${code}`, 3);
const real = await measure(server, `http://127.0.0.1:${port}/r/${code}`);
await stop(server);

const barePort = await freePort();
const bare = start(['bench/bare-302.ts'], { PORT: String(barePort) });
await waitFor(`http://127.0.0.1:${barePort}/r/x`);
await load(`http://127.0.0.1:${barePort}/r/x`, 3);
const baseline = await measure(bare, `http://127.0.0.1:${barePort}/r/x`);
await stop(bare);

const after = await createContext(config);
const stored = Number((await after.ctx.db.selectFrom('clicks').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
await after.handle.close();
fs.rmSync(dataDir, { recursive: true, force: true });

const ratio = real.rps / baseline.rps;
console.log(`\nTracked redirect benchmark — ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, ${DURATION} s, ${CONNECTIONS} connections, loopback`);
console.table({
  'r/:code (SQLite)': { 'req/s': Math.round(real.rps), 'p50 ms': real.p50, 'p99 ms': real.p99, redirects: real.redirects, errors: real.errors, 'server CPU µs/req': Math.round(real.cpuUs) },
  'bare Fastify 302': { 'req/s': Math.round(baseline.rps), 'p50 ms': baseline.p50, 'p99 ms': baseline.p99, redirects: baseline.redirects, errors: baseline.errors, 'server CPU µs/req': Math.round(baseline.cpuUs) },
});
// What the server itself answered (autocannon stops counting at the deadline; the server may
// still answer requests already sent), from its shutdown log line.
const stoppedLine = serverLog.split('\n').find((l) => l.includes('"msg":"stopped"'));
const served = stoppedLine ? (JSON.parse(stoppedLine) as { clicksAccepted: number }).clicksAccepted : -1;
void warmup;
console.log(`ratio ${ratio.toFixed(2)} (target ≥ 0.5) · p99 ${real.p99} ms (target ≤ 10) · redirects served ${served}, clicks stored ${stored} (${served - stored} lost)`);
const ok = ratio >= 0.5 && real.p99 <= 10 && stored === served && real.errors === 0;
console.log(ok ? 'All targets met.' : 'TARGET MISSED.');
process.exit(ok ? 0 : 1);
