/**
 * Requests still being worked on, so that shutdown closes the database only after their work.
 * Fastify's close waits for open connections, not for handlers: a client that hangs up leaves its
 * handler running (a conversion half-way through its transaction) after the connection is gone.
 * A request counts until its answer has been produced (onSend) and its response is closed —
 * finished, or abandoned by the client.
 */
import type { ServerResponse } from 'node:http';

const HANDLED = 1;
const CLOSED = 2;

export class InFlight {
  private readonly state = new WeakMap<ServerResponse, number>();
  private count = 0;
  private waiters: (() => void)[] = [];

  get size() {
    return this.count;
  }

  /** From onRequest. */
  enter(res: ServerResponse) {
    this.count++;
    this.state.set(res, 0);
    res.once('close', () => this.mark(res, CLOSED));
  }

  /** From onSend: the handler (or the error handler) has produced the answer. */
  handled(res: ServerResponse) {
    this.mark(res, HANDLED);
  }

  /** Resolves true once nothing is in flight, or false after `timeoutMs`. */
  idle(timeoutMs: number): Promise<boolean> {
    if (this.count === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  private mark(res: ServerResponse, bit: number) {
    const before = this.state.get(res);
    if (before === undefined || before & bit) return;
    const now = before | bit;
    if (now !== (HANDLED | CLOSED)) {
      this.state.set(res, now);
      return;
    }
    this.state.delete(res);
    if (--this.count === 0) for (const wake of this.waiters.splice(0)) wake();
  }
}
