/**
 * The HTTP/1.1 client of webhook deliveries. Node's own client costs about 70 µs of CPU per request
 * on this project's machine, most of it one socket write per request (docs/benchmarks-history.md); a
 * webhook sender makes many small POSTs to few receivers, so this one keeps connections open per
 * origin and writes the requests gathered in one turn of the event loop together: up to DEPTH per
 * connection in one write (pipelining, RFC 9112 §9.3), answered in order. About 28 µs a request.
 *
 * Pipelined POSTs are safe here because a delivery may arrive more than once anyway (receivers
 * deduplicate by `webhook-id`), and because whatever goes wrong falls back to one request per
 * connection:
 * - a connection that closes (or says `connection: close`) with requests unanswered: those are
 *   sent again, once, on connections of their own, and the origin is sent one at a time from then;
 * - an answer slower than SLOW_MS: the origin is sent one at a time for a while (a receiver that
 *   works through its requests one after another would make the later ones wait);
 * - no answer within the timeout: that request fails; those behind it are sent again as above.
 * Connections resolve their name through the outbound policy's lookup (the address connected to
 * is the one checked, platform/outbound-address.ts). Answers' bodies are read and dropped.
 *
 * Idle connections are closed by this side before the receiver closes them: a little before the
 * `Keep-Alive: timeout=N` of the receiver's last answer (Node's servers say 5 s), else after
 * IDLE_MS. A request written just as the receiver closed its idle connection is sent again without
 * the one-at-a-time penalty (that race is nobody's fault).
 *
 * What goes wrong before a connection is made says only "could not connect" (or which certificate
 * problem): refused ports, unreachable hosts and names resolved to refused addresses look the same,
 * so the delivery log shown to admins cannot be used to map the network behind the server.
 */
import net from 'node:net';
import tls from 'node:tls';
import { ForbiddenAddressError, guardedLookup } from '../outbound-address';

export interface PostOutcome {
  /** The receiver's HTTP status, or null when there was no answer. */
  statusCode: number | null;
  durationMs: number;
  /** Why there was no answer, in a few words. */
  error: string | null;
}

/** Requests in flight on one connection while the origin answers promptly. */
const DEPTH = 16;
/** Connections per origin: pipelining, and one request at a time. */
const MAX_PIPELINED_CONNECTIONS = 8;
const MAX_CONNECTIONS = 64;
/** An answer slower than this sends the origin one request at a time for SINGLE_FOR_MS. */
const SLOW_MS = 1_000;
const SINGLE_FOR_MS = 10 * 60_000;
/** An idle connection is closed after this, or sooner when the receiver says it keeps connections for less. */
const IDLE_MS = 30_000;
/** Closing before the receiver's `Keep-Alive: timeout=N`: this long before, at most a quarter of N. */
const IDLE_MARGIN_MS = 1_000;
/** Origins remembered; past this, the idle ones are dropped and their connections closed. */
const MAX_ORIGINS = 1000;
/** A head of an answer larger than this is not HTTP we talk. */
const MAX_HEAD = 64 * 1024;

interface Request {
  /** The whole request, head and body (ASCII head; the body's UTF-8 is encoded with the write). */
  text: string;
  deadline: number;
  timeoutMs: number;
  started: number;
  /** Sent again once already (after its connection closed unanswered). */
  resent: boolean;
  done: (outcome: PostOutcome) => void;
}

const enum Body { Head, Length, ChunkSize, ChunkData, ChunkEnd, Trailers, UntilClose }

class Connection {
  readonly socket: net.Socket;
  readonly inflight: Request[] = [];
  private connected = false;
  private closed = false;
  private buffer: Buffer = Buffer.alloc(0);
  private body = Body.Head;
  private remaining = 0;
  private status = 0;
  private closeAfter = false;
  private idle: NodeJS.Timeout | null = null;
  /** How long the receiver keeps this connection idle (its last `Keep-Alive: timeout=`), null when it did not say. */
  private keepAliveMs: number | null = null;
  /**
   * Requests were written after the connection had been idle, and nothing has been read since: if
   * it closes now, the receiver most likely closed it as idle while they were on their way.
   */
  private reused = false;

  constructor(private readonly origin: Origin) {
    const { url, allowPrivate } = origin;
    const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const lookup = guardedLookup(allowPrivate, url.protocol === 'http:');
    this.socket = url.protocol === 'https:'
      ? tls.connect({ host, port, servername: net.isIP(host) ? undefined : host, lookup, ALPNProtocols: ['http/1.1'] }, () => (this.connected = true))
      : net.connect({ host, port, lookup }, () => (this.connected = true));
    this.socket.setNoDelay(true);
    this.socket.on('data', (chunk: Buffer) => this.read(chunk));
    this.socket.on('end', () => {
      if (this.body === Body.UntilClose) this.complete();
      this.close(new Error('connection closed before an answer'));
    });
    this.socket.on('error', (error) => this.close(error));
    this.socket.on('close', () => this.close(new Error('connection closed before an answer')));
  }

  get open() {
    return !this.closed && !this.closeAfter;
  }

  write(requests: Request[]) {
    if (this.idle) {
      clearTimeout(this.idle);
      this.reused = true;
    }
    this.idle = null;
    const now = performance.now();
    for (const r of requests) {
      r.started = now;
      this.inflight.push(r);
    }
    let text = '';
    for (const r of requests) text += r.text;
    this.socket.write(text);
    watch();
  }

  /** Called by the sweep: its oldest request (answers come in order) has had its time. */
  expire(now: number) {
    const head = this.inflight[0];
    if (!head || now < head.deadline) return;
    this.inflight.shift();
    head.done({ statusCode: null, durationMs: Math.round(now - head.started), error: `no answer within ${head.timeoutMs} ms` });
    this.close(new Error('connection closed behind an unanswered request'));
  }

  private read(chunk: Buffer) {
    this.reused = false;
    const data = this.buffer.length > 0 ? Buffer.concat([this.buffer, chunk]) : chunk;
    let at = 0;
    this.buffer = Buffer.alloc(0);
    while (at < data.length && !this.closed) {
      if (this.body === Body.Head || this.body === Body.ChunkSize || this.body === Body.Trailers) {
        const end = data.indexOf(this.body === Body.Head ? '\r\n\r\n' : '\r\n', at);
        if (end < 0) {
          if (data.length - at > MAX_HEAD) return this.close(new Error('answer not understood'));
          break;
        }
        const text = data.toString('latin1', at, end);
        at = end + (this.body === Body.Head ? 4 : 2);
        if (this.body === Body.Head) {
          if (!this.head(text)) return;
        } else if (this.body === Body.ChunkSize) {
          const size = parseInt(text.split(';')[0]!.trim(), 16);
          if (!Number.isFinite(size) || size < 0) return this.close(new Error('answer not understood'));
          if (size === 0) this.body = Body.Trailers;
          else {
            this.body = Body.ChunkData;
            this.remaining = size;
          }
        } else if (text === '') {
          this.complete();
        }
        continue;
      }
      if (this.body === Body.UntilClose) {
        at = data.length;
        break;
      }
      // Length, ChunkData, ChunkEnd: bytes to skip.
      const take = Math.min(this.remaining, data.length - at);
      at += take;
      this.remaining -= take;
      if (this.remaining > 0) break;
      if (this.body === Body.Length || this.body === Body.ChunkEnd) {
        if (this.body === Body.Length) this.complete();
        else this.body = Body.ChunkSize;
      } else {
        this.body = Body.ChunkEnd;
        this.remaining = 2;
      }
    }
    if (at < data.length && !this.closed) this.buffer = Buffer.from(data.subarray(at));
  }

  /** The status line and headers of an answer; false when the connection was closed over it. */
  private head(text: string): boolean {
    const lines = text.split('\r\n');
    const m = /^HTTP\/1\.([01]) (\d{3})/.exec(lines[0] ?? '');
    if (!m || this.inflight.length === 0) {
      this.close(new Error('answer not understood'));
      return false;
    }
    const status = Number(m[2]);
    // Interim answers (100 Continue, 103 Early Hints): the final one follows.
    if (status >= 100 && status < 200 && status !== 101) return true;
    let length: number | null = null;
    let chunked = false;
    let close = m[1] === '0';
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i]!;
      const colon = line.indexOf(':');
      if (colon <= 0) continue;
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim().toLowerCase();
      if (name === 'content-length') length = Number(value);
      else if (name === 'transfer-encoding') chunked = value.split(',').map((s) => s.trim()).includes('chunked');
      else if (name === 'connection') close = value.split(',').map((s) => s.trim()).includes('close') || (m[1] === '0' && !value.includes('keep-alive'));
      else if (name === 'keep-alive') {
        const timeout = /(?:^|[,;\s])timeout\s*=\s*"?(\d+)/.exec(value);
        if (timeout) this.keepAliveMs = Math.min(Number(timeout[1]) * 1000, IDLE_MS);
      }
    }
    this.status = status;
    this.closeAfter = close;
    if (status === 204 || status === 304) this.complete();
    else if (chunked) this.body = Body.ChunkSize;
    else if (length !== null && Number.isSafeInteger(length) && length >= 0) {
      this.body = Body.Length;
      this.remaining = length;
      if (length === 0) this.complete();
    } else {
      this.body = Body.UntilClose;
      this.closeAfter = true;
    }
    return true;
  }

  /** An answer ended: its request has its outcome. */
  private complete() {
    const request = this.inflight.shift();
    this.body = Body.Head;
    if (request) {
      const durationMs = performance.now() - request.started;
      if (durationMs > SLOW_MS) this.origin.singleUntil = Date.now() + SINGLE_FOR_MS;
      request.done({ statusCode: this.status, durationMs: Math.round(durationMs), error: null });
    }
    if (this.closeAfter) {
      this.close(new Error('connection closed before an answer'));
      return;
    }
    if (this.inflight.length === 0) {
      const keep = this.keepAliveMs;
      const idleMs = keep === null ? IDLE_MS : keep - Math.min(IDLE_MARGIN_MS, keep / 4);
      if (idleMs <= 0) {
        this.close(null);
        return;
      }
      this.idle = setTimeout(() => this.close(null), idleMs);
      this.idle.unref();
    }
    this.origin.pump();
  }

  /** Ends the connection; what it had not answered is sent again (once) or fails with `error`. */
  close(error: Error | null) {
    if (this.closed) return;
    this.closed = true;
    if (this.idle) clearTimeout(this.idle);
    this.socket.destroy();
    this.origin.forget(this);
    const unanswered = this.inflight.splice(0);
    if (unanswered.length === 0) {
      // Its place may go to what waits for a connection.
      this.origin.pump();
      return;
    }
    const message = deliveryError(error, this.connected);
    // Never connected: nothing was sent, and another connection would meet the same refusal.
    if (!this.connected) {
      for (const r of unanswered) r.done({ statusCode: null, durationMs: Math.round(performance.now() - r.started), error: message.slice(0, 300) });
      // What waits gets a connection of its own, and its own answer (the same refusal, normally).
      this.origin.pump();
      return;
    }
    // Closed by the receiver as idle while the requests were on their way: sent again, with no
    // penalty and not counted as their one resend (each stale connection can fail so only once).
    if (!this.reused) this.origin.singleUntil = Date.now() + SINGLE_FOR_MS;
    this.origin.again(unanswered, message, !this.reused);
  }

  get idleNow() {
    return this.inflight.length === 0;
  }
}

/** Certificate problems are worth telling the admin (their receiver's to fix); Node's and OpenSSL's codes. */
const CERTIFICATE = /CERT|ALTNAME|ISSUER|SELF_SIGNED|SIGNATURE/;

/**
 * The words a failed attempt is recorded with (the delivery log admins read). Before the connection
 * was made: "could not connect", whatever the reason (a refused port, an unreachable host, a name
 * that resolves to an address the policy refuses, ECONNREFUSED 10.0.0.5:8080…) — those details
 * would map the network behind the server — except a certificate the receiver has to fix. After:
 * this client's own words ("connection closed before an answer", "answer not understood"), never a
 * system error's text (which names addresses).
 */
export function deliveryError(error: Error | null, connected: boolean): string {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (!connected) {
    if (error instanceof ForbiddenAddressError || !code || !CERTIFICATE.test(code)) return 'could not connect';
    return `certificate not accepted (${code})`;
  }
  if (!error) return 'connection closed';
  return code ? 'connection closed before an answer' : error.message;
}

class Origin {
  readonly connections: Connection[] = [];
  readonly queue: Request[] = [];
  /** Until then, one request per connection. */
  singleUntil = 0;
  private scheduled = false;

  constructor(readonly url: URL, readonly allowPrivate: boolean) {}

  add(request: Request) {
    this.queue.push(request);
    watch();
    // Everything asked for in this turn goes out together.
    if (!this.scheduled) {
      this.scheduled = true;
      queueMicrotask(() => {
        this.scheduled = false;
        this.pump();
      });
    }
  }

  /** Requests of a connection that closed unanswered: once more each (`counted`), or they fail. */
  again(requests: Request[], message: string, counted = true) {
    const now = performance.now();
    for (const r of requests) {
      if ((counted && r.resent) || now >= r.deadline) r.done({ statusCode: null, durationMs: Math.round(now - r.started), error: message.slice(0, 300) });
      else {
        if (counted) r.resent = true;
        this.queue.push(r);
      }
    }
    this.pump();
  }

  /** No request waiting and none in flight. */
  get idle() {
    return this.queue.length === 0 && this.connections.every((c) => c.idleNow);
  }

  forget(connection: Connection) {
    const i = this.connections.indexOf(connection);
    if (i >= 0) this.connections.splice(i, 1);
  }

  /** Writes what waits onto connections with room, opening connections up to the limit. */
  pump() {
    const single = Date.now() < this.singleUntil;
    const depth = single ? 1 : DEPTH;
    const most = single ? MAX_CONNECTIONS : MAX_PIPELINED_CONNECTIONS;
    while (this.queue.length > 0) {
      let best: Connection | null = null;
      let withRoom = 0;
      for (const c of this.connections) {
        if (!c.open || c.inflight.length >= depth) continue;
        withRoom++;
        if (!best || c.inflight.length < best.inflight.length) best = c;
      }
      const mayOpen = most - this.connections.length;
      if ((!best || best.inflight.length > 0) && mayOpen > 0) {
        best = new Connection(this);
        this.connections.push(best);
        withRoom++;
      }
      if (!best) break;
      // Spread what waits over the connections it may use: an equal share each, at most `depth` in flight.
      const share = Math.ceil(this.queue.length / Math.max(1, withRoom + Math.max(0, mayOpen - 1)));
      best.write(this.queue.splice(0, Math.max(1, Math.min(depth - best.inflight.length, share))));
    }
  }
}

const origins = new Map<string, Origin>();

/**
 * Time-outs: one sweep every SWEEP_MS while anything is in flight, rather than a timer re-armed on
 * every answer (a request's time runs out up to SWEEP_MS late).
 */
const SWEEP_MS = 200;
let sweeper: NodeJS.Timeout | null = null;
function watch() {
  if (sweeper) return;
  sweeper = setInterval(() => {
    const now = performance.now();
    let inFlight = false;
    for (const origin of origins.values()) {
      for (const c of [...origin.connections]) {
        c.expire(now);
        if (c.inflight.length > 0) inFlight = true;
      }
      // Waiting for a connection all this time (a receiver that takes none): no answer either.
      for (const r of origin.queue.filter((q) => now >= q.deadline)) {
        origin.queue.splice(origin.queue.indexOf(r), 1);
        r.done({ statusCode: null, durationMs: Math.round(now - r.started), error: `no answer within ${r.timeoutMs} ms` });
      }
      if (origin.queue.length > 0) inFlight = true;
    }
    if (!inFlight && sweeper) {
      clearInterval(sweeper);
      sweeper = null;
    }
  }, SWEEP_MS);
  sweeper.unref();
}

/** POSTs `body` with `headers` to `url` (already checked by the outbound policy). */
export function post(url: URL, allowPrivate: boolean, headers: Record<string, string>, body: string, timeoutMs: number): Promise<PostOutcome> {
  const key = `${allowPrivate ? 1 : 0}${url.protocol}//${url.host}`;
  let origin = origins.get(key);
  if (!origin) {
    if (origins.size >= MAX_ORIGINS) dropIdleOrigins();
    origin = new Origin(url, allowPrivate);
    origins.set(key, origin);
  }
  let text = `POST ${url.pathname}${url.search} HTTP/1.1\r\nhost: ${url.host}\r\ncontent-length: ${Buffer.byteLength(body)}\r\n`;
  for (const name in headers) text += `${name}: ${headers[name]}\r\n`;
  text += `\r\n${body}`;
  return new Promise((resolve) => {
    const now = performance.now();
    origin.add({ text, deadline: now + timeoutMs, timeoutMs, started: now, resent: false, done: resolve });
  });
}

/**
 * Too many origins remembered: the idle ones are forgotten, their connections closed (a dropped
 * connection would otherwise stay open, and its requests outside the sweep's reach). Origins with
 * requests under way stay.
 */
function dropIdleOrigins() {
  for (const [key, origin] of origins) {
    if (!origin.idle) continue;
    for (const c of [...origin.connections]) c.close(null);
    origins.delete(key);
  }
}

/** Closes every connection (tests, and a thread that ends). */
export function closeAll() {
  for (const origin of origins.values()) for (const c of [...origin.connections]) c.close(null);
  origins.clear();
}
