/**
 * Requests counted for /metrics by route pattern (never the raw address: the series stay as few as
 * the routes), method and status, with how long each took. Each route gets a hook of its own that
 * holds its series, so a request costs a map lookup and a few additions (platform/metrics.ts).
 */
import type { FastifyInstance, onResponseHookHandler, preHandlerHookHandler } from 'fastify';
import type { Metrics } from './metrics';

/** The route label of requests no route matched. */
const UNMATCHED = 'unmatched';

/** Counts the requests of every route registered after this call (call it before any route). */
export function recordRequests(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onRoute', (route) => {
    const series = metrics.route(route.url);
    const hook: onResponseHookHandler = (request, reply, done) => {
      series.observe(request.method, reply.statusCode, reply.elapsedTime / 1000);
      done();
    };
    const own = route.onResponse;
    route.onResponse = own ? [...(Array.isArray(own) ? own : [own]), hook] : [hook];
  });
}

/**
 * For the not-found handler (platform/errors.ts, which always answers 404): counted under
 * UNMATCHED as it starts answering (that handler's own hooks take no onResponse).
 */
export function unmatchedRecorder(metrics: Metrics): preHandlerHookHandler {
  const series = metrics.route(UNMATCHED);
  return (request, reply, done) => {
    series.observe(request.method, 404, reply.elapsedTime / 1000);
    done();
  };
}
