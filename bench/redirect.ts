/**
 * npm run bench:redirect — 20 s at 50 connections on loopback against `r/:code` of the real
 * server (SQLite, a separate process, LOG_LEVEL=info; the redirect itself logs only warnings), and
 * 20 s against a bare Fastify 302 server, in alternating rounds (4 × 5 s each, by default: this
 * machine's speed drifts by a third from minute to minute, and alternating puts both sides in the
 * same minutes); prints requests/s, p50 and p99 of both and their ratio; then stops the real server
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
import { freePort, serverNodeArgs, stop, waitFor } from './util';

const ROOT = path.resolve(import.meta.dirname, '..');
const DURATION = Number(process.env.BENCH_SECONDS ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
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

type Load = Awaited<ReturnType<typeof load>>;
/** A side's rounds summed: requests/s over all of them, the worst round's p50 and p99, server CPU time per request. */
class Side {
  rounds: Load[] = [];
  cpu = 0;
  constructor(readonly child: ChildProcess, readonly url: string) {}
  async round(seconds: number) {
    const before = cpuSeconds(this.child.pid);
    this.rounds.push(await load(this.url, seconds));
    this.cpu += cpuSeconds(this.child.pid) - before;
  }
  get rps() {
    return this.rounds.reduce((s, r) => s + r.rps, 0) / this.rounds.length;
  }
  summary() {
    const requests = this.rps * DURATION;
    return {
      'req/s': Math.round(this.rps),
      'p50 ms': Math.max(...this.rounds.map((r) => r.p50)),
      'p99 ms': Math.max(...this.rounds.map((r) => r.p99)),
      redirects: this.rounds.reduce((s, r) => s + r.redirects, 0),
      errors: this.rounds.reduce((s, r) => s + r.errors, 0),
      'server CPU µs/req': Math.round((this.cpu * 1e6) / requests),
    };
  }
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
// Run as `npm run serve` runs it (its Node options included).
const server = start([...serverNodeArgs(ROOT), 'apps/server/src/main.ts'], { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info', DATABASE_URL: '' });
const barePort = await freePort();
const bare = start(['bench/bare-302.ts'], { PORT: String(barePort) });
await waitFor(`http://127.0.0.1:${port}/api/health`);
await waitFor(`http://127.0.0.1:${barePort}/r/x`);
const real = new Side(server, `http://127.0.0.1:${port}/r/${code}`);
const baseline = new Side(bare, `http://127.0.0.1:${barePort}/r/x`);
await load(real.url, 3);
await load(baseline.url, 3);
// Alternating, and each side first in every other round, so neither always follows the other.
for (let round = 0; round < ROUNDS; round++) {
  const [first, second] = round % 2 === 0 ? [real, baseline] : [baseline, real];
  await first.round(DURATION / ROUNDS);
  await second.round(DURATION / ROUNDS);
}
await stop(server);
await stop(bare);

const after = await createContext(config);
const stored = Number((await after.ctx.db.selectFrom('clicks').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
await after.handle.close();
fs.rmSync(dataDir, { recursive: true, force: true });

const ratio = real.rps / baseline.rps;
const realSummary = real.summary();
console.log(`\nTracked redirect benchmark — ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, ${DURATION} s a side in ${ROUNDS} alternating rounds, ${CONNECTIONS} connections, loopback`);
console.table({ 'r/:code (SQLite)': realSummary, 'bare Fastify 302': baseline.summary() });
console.log(`ratio per round: ${real.rounds.map((r, i) => (r.rps / baseline.rounds[i]!.rps).toFixed(2)).join(', ')}`);
// What the server itself answered (autocannon stops counting at the deadline; the server may
// still answer requests already sent), from its shutdown log line.
const stoppedLine = serverLog.split('\n').find((l) => l.includes('"msg":"stopped"'));
const stopped = stoppedLine ? (JSON.parse(stoppedLine) as { clicksAccepted: number; groupCommits: number; itemsCommitted: number }) : null;
const served = stopped ? stopped.clicksAccepted : -1;
if (stopped) console.log(`group commits ${stopped.groupCommits}, ${(stopped.itemsCommitted / stopped.groupCommits).toFixed(1)} clicks each on average`);
console.log(`ratio ${ratio.toFixed(2)} (target ≥ 0.5) · p99 ${realSummary['p99 ms']} ms (target ≤ 10) · redirects served ${served}, clicks stored ${stored} (${served - stored} lost)`);
const ok = ratio >= 0.5 && realSummary['p99 ms'] <= 10 && stored === served && realSummary.errors === 0;
console.log(ok ? 'All targets met.' : 'TARGET MISSED.');
process.exit(ok ? 0 : 1);
