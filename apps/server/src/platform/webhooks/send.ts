/**
 * One delivery attempt over HTTP: a POST of the signed body, at most `timeoutMs` in all, to an
 * address the outbound policy allows (platform/outbound-address.ts: checked where the name
 * resolves, so the address connected to is the one checked). The answer's body is read (at most
 * 4 KB kept, for nothing but to let the connection end cleanly) and dropped.
 */
import http from 'node:http';
import https from 'node:https';
import { ForbiddenAddressError, guardedLookup, urlProblem } from '../outbound-address';

/**
 * Connections to receivers are kept open between deliveries (a connection per delivery cost more
 * than the delivery). Each new connection resolves its name through the guarded lookup.
 */
const agents = { 'http:': new http.Agent({ keepAlive: true, maxSockets: 64 }), 'https:': new https.Agent({ keepAlive: true, maxSockets: 64 }) };

export interface AttemptOutcome {
  /** The receiver's HTTP status, or null when there was no answer. */
  statusCode: number | null;
  durationMs: number;
  /** Why there was no answer (or why the URL was refused), in a few words. */
  error: string | null;
}

/** The policy's verdict on a URL, parsed, remembered per address (the same few endpoints get every delivery). */
const verdicts = new Map<string, URL | string>();
function checkedUrl(url: string, allowPrivate: boolean): URL | string {
  const key = `${allowPrivate ? 1 : 0}${url}`;
  let verdict = verdicts.get(key);
  if (verdict === undefined) {
    if (verdicts.size >= 1000) verdicts.clear();
    verdict = urlProblem(url, allowPrivate) ?? new URL(url);
    verdicts.set(key, verdict);
  }
  return verdict;
}

export function postWebhook(url: string, headers: Record<string, string>, body: string, options: { allowPrivate: boolean; timeoutMs: number; userAgent: string }): Promise<AttemptOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const checked = checkedUrl(url, options.allowPrivate);
  if (typeof checked === 'string') return Promise.resolve({ statusCode: null, durationMs: 0, error: `url ${checked}` });
  const target = checked;
  const client = target.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: AttemptOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const request = client.request(target, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': options.userAgent },
      lookup: guardedLookup(options.allowPrivate, target.protocol === 'http:'),
      agent: agents[target.protocol as 'http:' | 'https:'],
    }, (response) => {
      let kept = 0;
      response.on('data', (chunk: Buffer) => {
        kept += chunk.length;
        if (kept > 4096) response.destroy();
      });
      const done = () => finish({ statusCode: response.statusCode ?? null, durationMs: elapsed(), error: null });
      response.on('end', done);
      response.on('close', done);
      response.on('error', done);
    });
    const timer = setTimeout(() => {
      request.destroy(new Error(`no answer within ${options.timeoutMs} ms`));
    }, options.timeoutMs);
    request.on('error', (error) => {
      const message = error instanceof ForbiddenAddressError ? `address forbidden: ${error.address}` : error.message;
      finish({ statusCode: null, durationMs: elapsed(), error: message.slice(0, 300) });
    });
    request.end(body);
  });
}
