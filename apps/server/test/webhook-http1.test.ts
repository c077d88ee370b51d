/**
 * The webhook client (platform/webhooks/http1.ts) against raw TCP servers that answer the way real
 * ones do, and the ways they go wrong: pipelined requests answered in order; bodies by length, in
 * chunks, or until the connection ends; interim 1xx answers; `connection: close` with requests
 * still waiting (sent again on new connections); an answer that never comes (that request times
 * out, those behind it are sent again); a server that never answers; bytes that are not HTTP; and
 * a name that resolves to a forbidden address. Idle connections: closed before the receiver's
 * `Keep-Alive: timeout=`, a request caught by the receiver closing its idle connection sent again
 * without the one-at-a-time penalty, and forgotten origins' connections closed, each watched from
 * the server's side of the socket.
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { ForbiddenAddressError } from '../src/platform/outbound-address';
import { closeAll, deliveryError, post } from '../src/platform/webhooks/http1';

interface Received {
  connection: number;
  id: string;
}

/** A server that splits what arrives into requests and answers each with `answer` (or not, when it returns null). */
async function rawServer(answer: (request: Received, socket: net.Socket, index: number) => string | null) {
  const received: Received[] = [];
  const sockets = new Set<net.Socket>();
  /** When each connection closed (performance.now()), by connection number. */
  const closed = new Map<number, number>();
  let connections = 0;
  const server = net.createServer((socket) => {
    const connection = ++connections;
    sockets.add(socket);
    socket.on('close', () => {
      sockets.delete(socket);
      closed.set(connection, performance.now());
    });
    socket.on('error', () => {});
    let buffer = '';
    socket.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('latin1');
      for (;;) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = buffer.slice(0, end);
        const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
        if (buffer.length < end + 4 + length) return;
        const id = /webhook-id: (\S+)/i.exec(head)?.[1] ?? '';
        buffer = buffer.slice(end + 4 + length);
        const request = { connection, id };
        received.push(request);
        const reply = answer(request, socket, received.length - 1);
        if (reply !== null && !socket.destroyed) socket.write(reply);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`);
  return {
    url,
    received,
    closed,
    connections: () => connections,
    close: () => new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    }),
  };
}

const send = (url: URL, ids: string[], timeoutMs = 5_000) => Promise.all(ids.map((id) => post(url, true, { 'webhook-id': id }, `{"id":"${id}","text":"héllo"}`, timeoutMs)));
const ids = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

describe('the webhook HTTP/1.1 client', () => {
  afterAll(() => closeAll());

  it('pipelines a pass over a few kept connections, every request answered in order', async () => {
    const server = await rawServer(() => 'HTTP/1.1 204 No Content\r\n\r\n');
    try {
      const outcomes = await send(server.url, ids(64, 'p'));
      expect(outcomes.every((o) => o.statusCode === 204 && o.error === null)).toBe(true);
      expect(server.received.map((r) => r.id).sort()).toEqual(ids(64, 'p').sort());
      expect(server.connections()).toBeLessThanOrEqual(8);
      // The connections stay open for the next pass.
      const again = await send(server.url, ids(16, 'q'));
      expect(again.every((o) => o.statusCode === 204)).toBe(true);
      expect(server.connections()).toBeLessThanOrEqual(8);
    } finally {
      await server.close();
    }
  });

  it('reads bodies by length, in chunks (with extensions and trailers) and after interim answers', async () => {
    const replies = [
      'HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello',
      'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\n4;x=y\r\nabcd\r\n3\r\nefg\r\n0\r\nX-Trailer: 1\r\n\r\n',
      'HTTP/1.1 500 Internal Server Error\r\ncontent-length: 0\r\n\r\n',
      'HTTP/1.1 410 Gone\r\nContent-Type: text/plain\r\nContent-Length: 4\r\n\r\ngone',
    ];
    const server = await rawServer((_, __, i) => replies[i % replies.length]!);
    try {
      // One connection, one at a time: each answer's framing has to be read right for the next one.
      const codes: (number | null)[] = [];
      for (const id of ids(8, 'f')) codes.push((await send(server.url, [id]))[0]!.statusCode);
      expect(codes).toEqual([200, 201, 500, 410, 200, 201, 500, 410]);
      expect(server.connections()).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('an answer whose body runs until the connection ends', async () => {
    const server = await rawServer((_, socket) => {
      socket.end('HTTP/1.1 202 Accepted\r\n\r\nno length, ends with the connection');
      return null;
    });
    try {
      const [outcome] = await send(server.url, ['c0']);
      expect(outcome).toMatchObject({ statusCode: 202, error: null });
    } finally {
      await server.close();
    }
  });

  it('`connection: close` with requests waiting behind: they are sent again on new connections, one at a time', async () => {
    let answered = 0;
    const server = await rawServer((_, socket) => {
      answered++;
      // The first connection answers once and closes; every later request is answered normally.
      if (answered === 1) {
        socket.end('HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
        return null;
      }
      return 'HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n';
    });
    try {
      const outcomes = await send(server.url, ids(12, 'k'));
      expect(outcomes.map((o) => o.statusCode)).toEqual(Array(12).fill(200));
      // Each request got an answer once; none was answered twice (the closed connection did not answer the rest).
      const answeredIds = new Set(server.received.map((r) => r.id));
      expect(answeredIds.size).toBe(12);
    } finally {
      await server.close();
    }
  });

  it('a server that closes after every answer: more requests than connections are all answered', async () => {
    const server = await rawServer((_, socket) => {
      socket.end('HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return null;
    });
    try {
      const outcomes = await send(server.url, ids(80, 'z'));
      expect(outcomes.map((o) => o.statusCode)).toEqual(Array(80).fill(200));
      expect(new Set(server.received.map((r) => r.id)).size).toBe(80);
    } finally {
      await server.close();
    }
  });

  it('an answer that never comes: that request times out, the ones behind it are sent again and answered', async () => {
    const server = await rawServer((request) => (request.id === 't0' && request.connection === 1 ? null : 'HTTP/1.1 204 No Content\r\n\r\n'));
    try {
      const outcomes = await send(server.url, ids(6, 't'), 600);
      expect(outcomes[0]).toMatchObject({ statusCode: null, error: 'no answer within 600 ms' });
      expect(outcomes.slice(1).map((o) => o.statusCode)).toEqual(Array(5).fill(204));
    } finally {
      await server.close();
    }
  });

  it('a server that closes without answering: each request is sent at most twice, then fails', async () => {
    const server = await rawServer((_, socket) => {
      socket.destroy();
      return null;
    });
    try {
      const outcomes = await send(server.url, ids(4, 'x'));
      expect(outcomes.every((o) => o.statusCode === null && /connection closed/.test(o.error ?? ''))).toBe(true);
      for (const id of ids(4, 'x')) expect(server.received.filter((r) => r.id === id).length).toBeLessThanOrEqual(2);
    } finally {
      await server.close();
    }
  });

  it('nobody listening: more requests than connections all fail at once with the refusal, none by time-out', async () => {
    const server = await rawServer(() => null);
    const url = server.url;
    await server.close();
    const started = Date.now();
    const outcomes = await send(url, ids(200, 'r'), 5_000);
    // Only "could not connect": not ECONNREFUSED, nor the address and port (they would map the network).
    expect(new Set(outcomes.map((o) => `${o.statusCode} ${o.error}`))).toEqual(new Set(['null could not connect']));
    expect(Date.now() - started).toBeLessThan(4_000);
  });

  it('bytes that are not HTTP are an error, not an answer', async () => {
    const server = await rawServer(() => 'SSH-2.0-OpenSSH_9.2\r\n\r\n');
    try {
      const [outcome] = await send(server.url, ['g0']);
      expect(outcome!.statusCode).toBeNull();
      expect(outcome!.error).toBeTruthy();
    } finally {
      await server.close();
    }
  });

  it('refuses a name that resolves to a forbidden address, without connecting', async () => {
    const server = await rawServer(() => 'HTTP/1.1 204 No Content\r\n\r\n');
    try {
      const url = new URL(`http://localhost:${server.url.port}/hooks`);
      const [outcome] = await Promise.all([post(url, false, {}, '{}', 2_000)]);
      // The same words as a refused port: whether a name resolves to a refused address is not told.
      expect(outcome).toMatchObject({ statusCode: null, error: 'could not connect' });
      expect(server.received).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it("closes an idle connection a little before the receiver's `Keep-Alive: timeout=`", async () => {
    let answeredAt = 0;
    const server = await rawServer(() => {
      answeredAt = performance.now();
      return 'HTTP/1.1 204 No Content\r\nConnection: keep-alive\r\nKeep-Alive: timeout=3\r\n\r\n';
    });
    try {
      expect((await send(server.url, ['ka0']))[0]!.statusCode).toBe(204);
      // This server never closes a connection itself: whatever closes it is the client (the old client idled 30 s).
      const deadline = performance.now() + 6_000;
      while (!server.closed.has(1) && performance.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      const after = server.closed.get(1)! - answeredAt;
      expect(after).toBeGreaterThan(1_500);
      expect(after).toBeLessThan(3_000);
    } finally {
      await server.close();
    }
  });

  it('a request written just as the receiver closes its idle connection is sent again, and the origin keeps pipelining', async () => {
    // The first connection answers once, then closes when the next request arrives (as a receiver
    // whose keep-alive time ran out at that moment); every other connection answers.
    const server = await rawServer((request, socket, index) => {
      if (request.connection === 1 && index > 0) {
        socket.destroy();
        return null;
      }
      return 'HTTP/1.1 204 No Content\r\n\r\n';
    });
    try {
      expect((await send(server.url, ['s0']))[0]!.statusCode).toBe(204);
      expect((await send(server.url, ['s1']))[0]).toMatchObject({ statusCode: 204, error: null });
      expect(server.received.map((r) => [r.connection, r.id])).toEqual([[1, 's0'], [1, 's1'], [2, 's1']]);
      // Not sent one request per connection for ten minutes: a pass still goes over a few pipelined connections.
      const outcomes = await send(server.url, ids(64, 'm'));
      expect(outcomes.every((o) => o.statusCode === 204)).toBe(true);
      expect(server.connections()).toBeLessThanOrEqual(2 + 8);
    } finally {
      await server.close();
    }
  });

  it('origins forgotten when there are too many: their idle connections are closed, not dropped', async () => {
    const server = await rawServer(() => 'HTTP/1.1 204 No Content\r\n\r\n');
    try {
      expect((await send(server.url, ['o0']))[0]!.statusCode).toBe(204);
      expect(server.closed.has(1)).toBe(false);
      // More origins than the client remembers (1,000): names that resolve to loopback, refused
      // before connecting (private addresses not allowed), so nothing else is reached.
      const started = performance.now();
      const outcomes = await Promise.all(Array.from({ length: 1001 }, (_, i) => post(new URL(`http://localhost:${i + 1}/x`), false, {}, '{}', 5_000)));
      expect(outcomes.every((o) => o.error === 'could not connect')).toBe(true);
      const deadline = performance.now() + 3_000;
      while (!server.closed.has(1) && performance.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      // Closed when its origin was forgotten (the idle time-out is 30 s).
      expect(server.closed.get(1)! - started).toBeLessThan(3_000);
    } finally {
      await server.close();
    }
  });

  it.each([
    // Before the connection: nothing that maps the network, only a certificate the receiver has to fix.
    [Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:8080'), { code: 'ECONNREFUSED' }), false, 'could not connect'],
    [Object.assign(new Error('connect EHOSTUNREACH 10.0.0.6:22'), { code: 'EHOSTUNREACH' }), false, 'could not connect'],
    [Object.assign(new Error('getaddrinfo ENOTFOUND db.internal'), { code: 'ENOTFOUND' }), false, 'could not connect'],
    [new ForbiddenAddressError('db.internal', '10.0.0.7'), false, 'could not connect'],
    [Object.assign(new Error('write EPROTO …wrong version number'), { code: 'ERR_SSL_WRONG_VERSION_NUMBER' }), false, 'could not connect'],
    [Object.assign(new Error('certificate has expired'), { code: 'CERT_HAS_EXPIRED' }), false, 'certificate not accepted (CERT_HAS_EXPIRED)'],
    [Object.assign(new Error('self-signed certificate'), { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' }), false, 'certificate not accepted (DEPTH_ZERO_SELF_SIGNED_CERT)'],
    // After: the client's own words, never a system error's text.
    [Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }), true, 'connection closed before an answer'],
    [new Error('answer not understood'), true, 'answer not understood'],
  ] as const)('a failed attempt caused by %s (connected: %s) is recorded as "%s"', (error, connected, words) => {
    expect(deliveryError(error, connected)).toBe(words);
  });
});
