/**
 * The webhook receiver of bench:conversions E and F, in a process of its own (as a merchant's
 * receiver is on another machine: in the load generator's event loop, its work would slow the load
 * instead of the server). Verifies every delivery with the `standardwebhooks` package, answers 204,
 * and counts deliveries, distinct event ids and what did not verify; the parent asks over IPC.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

let verifier: Webhook | null = null;
let delivered = 0;
let unverified = 0;
let ids = new Set<string>();

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    try {
      verifier!.verify(Buffer.concat(chunks).toString(), Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])));
      delivered++;
      ids.add(String(req.headers['webhook-id']));
    } catch {
      unverified++;
    }
    res.statusCode = 204;
    res.end();
  });
});

type Message = { type: 'reset'; secret: string } | { type: 'stats' };
process.on('message', (message: Message) => {
  if (message.type === 'reset') {
    verifier = new Webhook(message.secret);
    delivered = 0;
    unverified = 0;
    ids = new Set();
    process.send!({ type: 'reset' });
  } else {
    process.send!({ type: 'stats', delivered, unverified, distinct: ids.size });
  }
});
process.on('disconnect', () => process.exit(0));
server.listen(0, '127.0.0.1', () => process.send!({ type: 'listening', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks` }));
