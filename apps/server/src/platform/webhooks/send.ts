/**
 * One delivery attempt over HTTP: a POST of the signed body, at most `timeoutMs` in all, to an
 * address the outbound policy allows (platform/outbound-address.ts: checked where the name
 * resolves, so the address connected to is the one checked), through the webhook client
 * (./http1.ts: connections kept open, a pass's requests written together).
 */
import { urlProblem } from '../outbound-address';
import { post, type PostOutcome } from './http1';

export type AttemptOutcome = PostOutcome;

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
  const checked = checkedUrl(url, options.allowPrivate);
  if (typeof checked === 'string') return Promise.resolve({ statusCode: null, durationMs: 0, error: `url ${checked}` });
  return post(checked, options.allowPrivate, { ...headers, 'content-type': 'application/json', 'user-agent': options.userAgent }, body, options.timeoutMs);
}
