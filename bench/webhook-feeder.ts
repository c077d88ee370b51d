/**
 * Configuration G of bench:conversions: keeps the webhook receiver (bench/webhook-receiver.ts) as
 * busy as E's deliveries keep it, with no webhook work in the server at all, to measure what the
 * receiver alone costs a server that shares its machine. Sends `rate` requests per second, signed
 * the Standard Webhooks way with the receiver's current secret (each verifies), built once and
 * written over four kept-alive connections, so that the feeder's own share stays small (a few µs a
 * request). Runs until told to stop over IPC, then reports how many it sent.
 */
import { createHmac } from 'node:crypto';
import net from 'node:net';

const [url, secret, rateText] = process.argv.slice(2) as [string, string, string];
const rate = Number(rateText);
const target = new URL(url);
const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
const body = JSON.stringify({ type: 'commission.created', timestamp: new Date().toISOString(), data: { id: '0'.repeat(26), note: 'x'.repeat(480) } });
const timestamp = Math.floor(Date.now() / 1000);
const GROUP = 16;
const group = Array.from({ length: GROUP }, (_, i) => {
  const id = `msg_feed${i}`;
  const signature = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return `POST ${target.pathname} HTTP/1.1\r\nhost: ${target.host}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nwebhook-id: ${id}\r\nwebhook-timestamp: ${timestamp}\r\nwebhook-signature: v1,${signature}\r\n\r\n${body}`;
}).join('');
const bytes = Buffer.from(group);
const sockets = await Promise.all(Array.from({ length: 4 }, () => new Promise<net.Socket>((resolve) => {
  const socket = net.connect(Number(target.port), target.hostname, () => resolve(socket));
  socket.on('data', () => {});
})));
let sent = 0;
let owed = 0;
let turn = 0;
const TICK_MS = 10;
const timer = setInterval(() => {
  owed += (rate * TICK_MS) / 1000 / GROUP;
  for (; owed >= 1; owed--) {
    sockets[turn++ % sockets.length]!.write(bytes);
    sent += GROUP;
  }
}, TICK_MS);
process.on('message', () => {
  clearInterval(timer);
  for (const s of sockets) s.end();
  process.send!({ type: 'stopped', sent });
});
process.on('disconnect', () => process.exit(0));
process.send!({ type: 'ready' });
