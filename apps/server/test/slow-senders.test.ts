/**
 * Clients that hold connections open (issue 13, item 3): a body sent one byte at a time must not
 * keep its connection past REQUEST_TIMEOUT, and connections past MAX_CONNECTIONS are refused,
 * while api/health keeps answering; one address flooding connections gets no more than
 * MAX_CONNECTIONS_PER_ADDRESS, and api/health keeps answering others (issue 28, item 3). Loopback
 * only (127.0.0.2… as the clients' own addresses), bounded in count and time.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openFileLimit } from '../src/config';
import { answers, startServer } from './server-process';

/** 2,000, or fewer where this process may not open that many descriptors (both ends are here and in the server). */
const SLOW = Math.min(2000, Math.floor((openFileLimit() ?? 4096) / 4));
const REQUEST_TIMEOUT_S = 4;

/** api/health within 2 s on a new connection (this machine also runs the 2,000 clients). */
const health = (port: number) => answers(port, '/api/health', 2000);

interface Slow {
  socket: net.Socket;
  openedAt: number;
  closedAt: number | null;
  received: string;
}

/** A connection that declares a 60 KB body and sends its first byte. */
function openSlow(port: number, head: string, localAddress?: string): Promise<Slow> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1', localAddress });
    const slow: Slow = { socket, openedAt: 0, closedAt: null, received: '' };
    socket.on('data', (d) => (slow.received += d));
    socket.on('error', () => undefined); // a reset by the server is one way of being closed
    socket.on('close', () => (slow.closedAt = Date.now()));
    socket.once('connect', () => {
      slow.openedAt = Date.now();
      socket.write(head);
      resolve(slow);
    });
    socket.once('error', reject);
  });
}

function tempDir() {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'pa-slow-'));
}

describe('clients holding connections open', () => {
  it(`${SLOW} slow bodies are cut after REQUEST_TIMEOUT with a 408 in the catalogue's shape; api/health answers every poll meanwhile`, async () => {
    const dataDir = tempDir();
    const server = await startServer({ DATA_DIR: dataDir, LOG_LEVEL: 'warn', REQUEST_TIMEOUT: String(REQUEST_TIMEOUT_S), HEADERS_TIMEOUT: '2' });
    const polls: boolean[] = [];
    const poller = setInterval(() => void health(server.port).then((ok) => polls.push(ok)), 250);
    const slows: Slow[] = [];
    try {
      // Not signed in, a declared 60 KB body, one byte a second from each connection; from ten
      // addresses (127.0.0.2…11), 200 each, under MAX_CONNECTIONS_PER_ADDRESS (256).
      const head = 'POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 61440\r\n\r\n{';
      for (let i = 0; i < SLOW; i += 200) {
        slows.push(...(await Promise.all(Array.from({ length: Math.min(200, SLOW - i) }, (_, j) => openSlow(server.port, head, `127.0.0.${2 + ((i + j) % 10)}`)))));
      }
      const drip = setInterval(() => {
        for (const s of slows) if (s.closedAt === null) s.socket.write(' ');
      }, 1000);
      // Node checks the deadlines every second: all should be gone 1 s after the timeout; 3 s of slack.
      const deadline = Math.max(...slows.map((s) => s.openedAt)) + REQUEST_TIMEOUT_S * 1000 + 4000;
      while (Date.now() < deadline && slows.some((s) => s.closedAt === null)) await new Promise((r) => setTimeout(r, 200));
      clearInterval(drip);
      clearInterval(poller);
      await new Promise((r) => setTimeout(r, 1100)); // the last polls

      const open = slows.filter((s) => s.closedAt === null).length;
      expect(open, 'slow connections still open after the timeout').toBe(0);
      const longest = Math.max(...slows.map((s) => s.closedAt! - s.openedAt));
      expect(longest).toBeLessThan(REQUEST_TIMEOUT_S * 1000 + 3000);
      expect(Math.min(...slows.map((s) => s.closedAt! - s.openedAt))).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_S * 1000 - 100);
      // Each was told before being closed: 408, our shape, Connection: close (after the early 403 of
      // the CSRF check, which answers without waiting for the body).
      const timeouts = slows.map((s) => s.received.slice(s.received.indexOf('HTTP/1.1 408 ')));
      expect(timeouts.filter((t) => t.startsWith('HTTP/1.1 408 ')).length).toBe(SLOW);
      expect(timeouts[0]).toMatch(/\r\nConnection: close\r\n/i);
      expect(JSON.parse(timeouts[0]!.split('\r\n\r\n')[1]!)).toEqual({ error: { code: 'REQUEST_TIMEOUT', message: expect.any(String) } });

      expect(polls.length).toBeGreaterThan(20);
      // Every poll, but one: the moment 2,000 connections time out together, on a shared 2-core machine.
      expect(polls.filter((ok) => !ok).length, 'api/health polls that failed').toBeLessThanOrEqual(1);
      expect(server.output()).not.toMatch(/EMFILE|"level":(50|60)/);
    } finally {
      clearInterval(poller);
      for (const s of slows) s.socket.destroy();
      server.child.kill('SIGKILL');
      await server.exited;
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  it('refuses connections past MAX_CONNECTIONS at once, and serves again once they are gone', async () => {
    const dataDir = tempDir();
    const server = await startServer({ DATA_DIR: dataDir, LOG_LEVEL: 'warn', MAX_CONNECTIONS: '50', MAX_CONNECTIONS_PER_ADDRESS: '25' });
    const slows: Slow[] = [];
    try {
      // Headers that never end: each holds a connection until HEADERS_TIMEOUT (10 s by default);
      // from four addresses, 20 each, so that the global bound is reached before any address's own.
      for (let i = 0; i < 80; i++) slows.push(await openSlow(server.port, 'GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n', `127.0.0.${2 + (i % 4)}`));
      await new Promise((r) => setTimeout(r, 500));
      expect(slows.slice(0, 50).filter((s) => s.closedAt !== null).length).toBe(0);
      expect(slows.slice(50).filter((s) => s.closedAt !== null).length).toBe(30);
      expect(await health(server.port)).toBe(false);
      for (const s of slows) s.socket.destroy();
      await new Promise((r) => setTimeout(r, 200));
      expect(await health(server.port)).toBe(true);
    } finally {
      for (const s of slows) s.socket.destroy();
      server.child.kill('SIGKILL');
      await server.exited;
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);

  it('one address flooding idle connections gets MAX_CONNECTIONS_PER_ADDRESS of them; api/health polled from another answers', async () => {
    const dataDir = tempDir();
    const [cap, perAddress, flood] = [40, 20, 100];
    const server = await startServer({ DATA_DIR: dataDir, LOG_LEVEL: 'warn', MAX_CONNECTIONS: String(cap), MAX_CONNECTIONS_PER_ADDRESS: String(perAddress), HEADERS_TIMEOUT: '30' });
    const sockets = new Set<{ socket: net.Socket; openedAt: number }>();
    let attempts = 0;
    let flooding = true;
    // The flood: `flood` idle connections from 127.0.0.2 at all times, each one the server closes opened again.
    const open = () => {
      if (!flooding) return;
      attempts++;
      const entry = { socket: net.connect({ port: server.port, host: '127.0.0.1', localAddress: '127.0.0.2' }), openedAt: Date.now() };
      sockets.add(entry);
      entry.socket.on('error', () => undefined);
      entry.socket.on('close', () => {
        sockets.delete(entry);
        setTimeout(open, 20);
      });
    };
    const polls: boolean[] = [];
    try {
      for (let i = 0; i < flood; i++) open();
      await new Promise((r) => setTimeout(r, 500));
      // api/health from 127.0.0.1, each on a new connection, while the flood goes on.
      const until = Date.now() + 4000;
      while (Date.now() < until) {
        polls.push(await answers(server.port, '/api/health', 2000));
        await new Promise((r) => setTimeout(r, 50));
      }
      console.warn(`flood: ${attempts} connections tried from 127.0.0.2; api/health: ${polls.filter(Boolean).length} of ${polls.length} polls answered`);
      const held = [...sockets].filter((s) => Date.now() - s.openedAt > 1000 && !s.socket.destroyed).length;
      flooding = false;
      expect(attempts, 'the flood went on past the limit').toBeGreaterThan(flood * 2);
      expect(held, 'connections the flooding address holds').toBe(perAddress);
      expect(polls.length).toBeGreaterThanOrEqual(10);
      expect(polls.filter(Boolean).length / polls.length, 'share of api/health polls answered').toBeGreaterThanOrEqual(0.95);
      expect(server.output()).toMatch(/connections past MAX_CONNECTIONS_PER_ADDRESS refused/);
      expect(server.output()).not.toMatch(/EMFILE|"level":(50|60)/);
    } finally {
      flooding = false;
      for (const s of sockets) s.socket.destroy();
      server.child.kill('SIGKILL');
      await server.exited;
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});
