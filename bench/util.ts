/**
 * Shared by the benchmarks: a free loopback port, waiting for a server to answer, stopping a child
 * process, and a fresh PostgreSQL database.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
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
  return { databaseUrl: url.toString(), drop: () => run(`drop database ${name} with (force)`) };
}
