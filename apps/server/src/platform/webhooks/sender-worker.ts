/**
 * The webhook sender's thread (platform/webhooks/sender.ts): signs and posts the attempts it is
 * given, and answers with their outcomes. It runs at a lower CPU priority than the request thread
 * where the system allows (Linux: per thread), so under full load deliveries wait a little and
 * requests do not.
 */
import fs from 'node:fs';
import os from 'node:os';
import { parentPort } from 'node:worker_threads';
import { postWebhook } from './send';
import type { SendBatch } from './sender';
import { webhookHeaders } from './signing';

try {
  // "/proc/thread-self" → "<pid>/task/<tid>": setpriority on a thread id sets that thread's nice value.
  const tid = Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
  if (Number.isInteger(tid) && tid > 0) os.setPriority(tid, 10);
} catch {
  // Not Linux, or not allowed: the thread runs at the process's priority.
}

parentPort!.on('message', (batch: SendBatch) => {
  void Promise.all(batch.items.map((item) => {
    const headers = webhookHeaders(item.secrets, item.eventId, Math.floor(Date.now() / 1000), item.body);
    return postWebhook(item.url, headers, item.body, batch.options);
  })).then((outcomes) => parentPort!.postMessage({ seq: batch.seq, outcomes }));
});
