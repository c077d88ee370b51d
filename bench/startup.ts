/**
 * npm run bench:startup — how long the server takes from `node` to listening, and its memory then:
 * the compiled server (`node apps/server/dist/main.js`, what `npm run serve` runs since issue 29)
 * against the sources through tsx (`node --import tsx apps/server/src/main.ts`, what it ran
 * before), both with the `serve` script's Node options, SQLite, LOG_LEVEL=info. Each run is a new
 * process: a first start on an empty DATA_DIR (migrations, keys) and a restart on the database it
 * left. The two sides alternate (this shared machine's speed drifts from minute to minute). Per
 * side: the median of the runs of the time from spawn to the "Server listening" line, the CPU time
 * spent by then (from /proc), and the resident set (VmRSS) one second after listening.
 * `npm run build` (or scripts/build-server.mjs) first; BENCH_RUNS (default 7) runs per side.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, machine, median, serverNodeArgs, stop } from './util';

const ROOT = path.resolve(import.meta.dirname, '..');
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const COMPILED = path.join(ROOT, 'apps/server/dist/main.js');

interface Sample {
  listeningMs: number;
  cpuMs: number;
  rssMb: number;
}

const SIDES = {
  compiled: [...serverNodeArgs(ROOT), COMPILED],
  tsx: [...serverNodeArgs(ROOT), '--import', 'tsx', 'apps/server/src/main.ts'],
};

function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10; // utime + stime, clock ticks of 10 ms
}

function rssMb(pid: number): number {
  const line = fs.readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'))!;
  return Number(line.split(/\s+/)[1]) / 1024;
}

async function once(args: string[], dataDir: string): Promise<Sample> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const listeningMs = await new Promise<number>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (d: Buffer) => {
        out += d;
        if (out.includes('Server listening')) resolve(performance.now() - started);
      });
      child.once('exit', (code) => reject(new Error(`exited ${code} before listening:\n${out}`)));
    });
    const cpu = cpuMs(child.pid!);
    await new Promise((r) => setTimeout(r, 1000));
    return { listeningMs, cpuMs: cpu, rssMb: rssMb(child.pid!) };
  } finally {
    await stop(child);
  }
}

if (!fs.existsSync(COMPILED)) {
  console.error('apps/server/dist/main.js is missing: run "npm run build" (or node scripts/build-server.mjs) first.');
  process.exit(1);
}
console.log(`${machine()}, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}; ${RUNS} runs per side`);
const results: Record<string, { first: Sample[]; restart: Sample[] }> = { compiled: { first: [], restart: [] }, tsx: { first: [], restart: [] } };
for (let i = 0; i < RUNS; i++) {
  for (const [side, args] of Object.entries(SIDES)) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pa-bench-startup-'));
    try {
      results[side]!.first.push(await once(args, dataDir));
      results[side]!.restart.push(await once(args, dataDir));
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
}
const row = (samples: Sample[]) => ({
  'to listening (ms)': Math.round(median(samples.map((s) => s.listeningMs))),
  'CPU by then (ms)': Math.round(median(samples.map((s) => s.cpuMs))),
  'RSS 1 s after (MB)': Number(median(samples.map((s) => s.rssMb)).toFixed(1)),
});
console.table({
  'compiled, first start': row(results.compiled!.first),
  'tsx, first start': row(results.tsx!.first),
  'compiled, restart': row(results.compiled!.restart),
  'tsx, restart': row(results.tsx!.restart),
});
console.log(`load average after: ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
