/**
 * Who makes the HTTP requests of webhook deliveries: a thread of their own (the dispatcher of a
 * running server), so that signing and sending — most of a delivery's cost — never take the request
 * thread's time; or the calling thread (tests calling a dispatcher pass directly). The dispatcher
 * keeps the database work: claims and outcomes stay on the app's one connection (SQLite allows one
 * writer, platform/../db/checkpointer.ts).
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { postWebhook, type AttemptOutcome } from './send';
import { webhookHeaders } from './signing';

/**
 * Compiled (apps/server/dist, scripts/build-server.mjs), the thread is the bundle's own entry beside
 * this one; run from the sources, sender-worker.ts loads through tsx, registered in the thread.
 */
const COMPILED = !import.meta.url.endsWith('.ts');
const COMPILED_ENTRY = './webhook-sender.js';
const THREAD_BOOT = `
const { workerData } = require('node:worker_threads');
require(workerData.tsx).register();
import(workerData.entry).catch((error) => { setImmediate(() => { throw error; }); });
`;

interface SendItem {
  eventId: string;
  url: string;
  body: string;
  /** Signing secrets, the current one first. */
  secrets: string[];
}
interface SendOptions {
  allowPrivate: boolean;
  timeoutMs: number;
  userAgent: string;
}
export interface SendBatch {
  seq: number;
  items: SendItem[];
  options: SendOptions;
}

export interface WebhookSender {
  send(items: SendItem[], options: SendOptions): Promise<AttemptOutcome[]>;
  close(): Promise<void>;
}

/** Sends on the calling thread. */
export const inlineSender: WebhookSender = {
  send: (items, options) => Promise.all(items.map((item) => postWebhook(item.url, webhookHeaders(item.secrets, item.eventId, Math.floor(Date.now() / 1000), item.body), item.body, options))),
  close: async () => {},
};

/**
 * Sends on a worker thread; if the thread cannot start or dies, on the calling thread from then on
 * (the batch in flight gets its outcomes either way).
 */
export function threadedSender(log: { warn(obj: unknown, msg: string): void }): WebhookSender {
  let worker: Worker | null = null;
  let seq = 0;
  const waiting = new Map<number, { resolve(o: AttemptOutcome[]): void; items: SendItem[]; options: SendOptions }>();
  const fallBack = (error: unknown) => {
    if (!worker) return;
    log.warn({ err: error }, 'webhook sender thread stopped; sending on the main thread');
    worker = null;
    for (const [key, w] of waiting) {
      waiting.delete(key);
      void inlineSender.send(w.items, w.options).then(w.resolve);
    }
  };
  let started = false;
  const start = () => {
    started = true;
    try {
      const w = COMPILED
        ? new Worker(new URL(COMPILED_ENTRY, import.meta.url))
        : new Worker(THREAD_BOOT, { eval: true, workerData: { tsx: createRequire(import.meta.url).resolve('tsx/esm/api'), entry: new URL('./sender-worker.ts', import.meta.url).href } });
      worker = w;
      w.unref();
      w.on('message', (message: { seq: number; outcomes: AttemptOutcome[] }) => {
        const entry = waiting.get(message.seq);
        waiting.delete(message.seq);
        entry?.resolve(message.outcomes);
      });
      w.on('error', fallBack);
      w.on('exit', (code) => fallBack(new Error(`exit ${code}`)));
    } catch (error) {
      log.warn({ err: error }, 'webhook sender thread could not start; sending on the main thread');
    }
  };
  return {
    send(items, options) {
      if (items.length === 0) return Promise.resolve([]);
      if (!started) start();
      if (!worker) return inlineSender.send(items, options);
      const current = worker;
      return new Promise((resolve) => {
        const key = ++seq;
        waiting.set(key, { resolve, items, options });
        current.postMessage({ seq: key, items, options } satisfies SendBatch);
      });
    },
    async close() {
      const w = worker;
      worker = null;
      if (w) await w.terminate();
    },
  };
}
