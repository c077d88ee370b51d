/**
 * Walks every operation of the served OpenAPI document with malformed values — NUL characters,
 * lone UTF-16 surrogates, huge and negative numbers, wrong types, impossible dates, bad
 * percent-escapes, over-long strings, JSON nested 10,000 levels deep —
 * as each kind of caller (nobody, promoter, operator, admin, API key), on each database. Fails on
 * any 5xx and on any error under api/ that is not `{ error: { code, message } }` with a catalogue
 * code (and catalogue field codes). Bounded: one pass over the document, a few thousand requests.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { ERROR_CODES, FIELD_CODES } from '@pa/shared';
import { campaignBody, Client, DIALECTS, makeEnv, signedIn, type TestEnv } from './helpers';
import { sample, type Json, type Operation } from './openapi-samples';

const LONG = 'x'.repeat(5000);
/** Values put in one body field at a time. */
const BODY_VALUES: Json[] = ['\u0000', 'a\u0000b', LONG, '', -1, -5, 1e20, 2 ** 53 + 2, 1.5, 0, true, null, {}, [], ['\u0000'], { '\u0000': 1 }, '2024-13-45', '9999-99-99', '\ud800', 'é'.repeat(300)];
/** Values put in one query parameter at a time (already percent-encoded). */
const QUERY_VALUES = ['%00', 'a%00b', '%ff', '%E0%A4%A', '2024-13-45', '2024-00-01', '9999-99-99', '-1', '1e309', '99999999999999999999999', '1.5', encodeURIComponent(LONG.slice(0, 3000)), '', 'true'];
/** Values put in one path parameter at a time (already percent-encoded). */
const PATH_VALUES = ['%00', 'a%00b', '%ff', '%c0%af', '%ED%A0%80', '-1', '99999999999999999999999', 'x'.repeat(300), 'missing'];

type Caller = 'nobody' | 'promoter' | 'operator' | 'admin' | 'apiKey';
const CALLERS: Caller[] = ['nobody', 'promoter', 'operator', 'admin', 'apiKey'];
const KNOWN_CODES = new Set<string>(ERROR_CODES);
const KNOWN_FIELDS = new Set<string>(FIELD_CODES);

describe.each(DIALECTS)('malformed input over every operation on %s', (dialect) => {
  let env: TestEnv;
  const clients = new Map<Caller, Client>();
  let apiSecret: string;
  const realIds: Record<string, string> = {};

  beforeAll(async () => {
    env = await makeEnv(dialect);
    for (const role of ['promoter', 'operator', 'admin'] as const) clients.set(role, (await signedIn(env, role)).client);
    clients.set('nobody', new Client(env.app));
    const admin = clients.get('admin')!;
    apiSecret = (await admin.request('POST', '/api/admin/api-keys', { name: 'Fuzz', scopes: ['conversions:write', 'conversions:read'] })).json().secret;
    realIds.campaign = (await admin.request('POST', '/api/admin/campaigns', campaignBody())).json().campaign.id;
    await admin.request('PATCH', `/api/admin/campaigns/${realIds.campaign}`, { status: 'active' });
    const promoter = clients.get('promoter')!;
    await promoter.request('POST', `/api/campaigns/${realIds.campaign}/join`);
    realIds.link = (await promoter.request('GET', '/api/links')).json().items[0].id;
  });
  afterAll(async () => {
    await env?.close();
  });

  /** A real id for a path that names a resource we made, so malformed bodies reach past the lookup. */
  const realIdFor = (path: string) => (path.includes('/campaigns/') ? realIds.campaign : path.includes('/links/') ? realIds.link : 'missing');

  async function send(caller: Caller, method: string, url: string, body: { json?: Json; raw?: string; headers?: Record<string, string> } = {}) {
    const payload = body.raw ?? (body.json === undefined ? undefined : JSON.stringify(body.json));
    if (caller === 'apiKey') {
      return env.app.inject({
        method: method as 'GET',
        url,
        payload,
        headers: { authorization: `Bearer ${apiSecret}`, ...(payload !== undefined ? { 'content-type': 'application/json' } : {}), ...body.headers },
      });
    }
    return clients.get(caller)!.request(method as 'GET', url, undefined, payload === undefined ? { headers: body.headers } : { rawBody: payload, headers: body.headers });
  }

  it('never answers 5xx, and every api/ error has a catalogue code', async () => {
    const doc = (await send('nobody', 'GET', '/api/openapi.json')).json() as { paths: Record<string, Record<string, Operation>> };
    // Sessions and keys are ended last, so the callers stay signed in for everything before.
    const ending = (p: string) => /logout|sessions|rotate|revoke|password/.test(p);
    const operations = Object.entries(doc.paths)
      .flatMap(([path, item]) => Object.entries(item).filter(([m]) => ['get', 'post', 'put', 'patch', 'delete'].includes(m)).map(([method, op]) => ({ path, method: method.toUpperCase(), op })))
      .sort((a, b) => Number(ending(a.path)) - Number(ending(b.path)));
    expect(operations.length).toBeGreaterThan(70);

    const problems: string[] = [];
    let sent = 0;
    const check = (caller: Caller, method: string, url: string, what: string, res: LightMyRequestResponse) => {
      sent++;
      const where = `${caller} ${method} ${url.slice(0, 120)} [${what.slice(0, 60)}] → ${res.statusCode}`;
      if (res.statusCode >= 500) return void problems.push(`${where} ${res.body.slice(0, 200)}`);
      if (res.statusCode < 400 || !url.startsWith('/api/')) return;
      let error: { code?: unknown; message?: unknown; fields?: Record<string, unknown> } | undefined;
      try {
        error = res.json().error;
      } catch {
        return void problems.push(`${where} not JSON: ${res.body.slice(0, 120)}`);
      }
      if (!error || typeof error.code !== 'string' || !KNOWN_CODES.has(error.code) || typeof error.message !== 'string') problems.push(`${where} ${res.body.slice(0, 200)}`);
      for (const code of Object.values(error?.fields ?? {})) if (!KNOWN_FIELDS.has(String(code))) problems.push(`${where} field code ${String(code)}`);
    };

    for (const { path, method, op } of operations) {
      const params = op.parameters ?? [];
      const pathParams = params.filter((p) => p.in === 'path');
      const queryParams = params.filter((p) => p.in === 'query');
      const fill = (value?: { name: string; encoded: string }) => path.replace(/\{(\w+)\}/g, (_, name: string) => (value?.name === name ? value.encoded : encodeURIComponent(name === 'code' ? 'fuzzcode' : realIdFor(path) ?? 'missing')));
      const baseQuery = Object.fromEntries(queryParams.filter((p) => p.required).map((p) => [p.name, String(sample(p.schema, p.name))]));
      const url = (pathValue?: { name: string; encoded: string }, query: Record<string, string> = baseQuery) => {
        const qs = Object.entries(query).map(([k, v]) => `${encodeURIComponent(k)}=${v}`).join('&');
        return fill(pathValue) + (qs ? `?${qs}` : '');
      };
      const bodySchema = op.requestBody?.content?.['application/json']?.schema;
      const baseBody = bodySchema ? (sample(bodySchema) as Record<string, Json>) : undefined;
      // A real campaign, so a body's bad value reaches past the lookup to what would store it.
      if (baseBody && 'campaignId' in baseBody) baseBody.campaignId = realIds.campaign!;
      const bodyFields = bodySchema?.properties ? Object.keys(bodySchema.properties) : [];
      const callers: Caller[] = path.startsWith('/api/v1/') ? ['apiKey', 'nobody', 'promoter'] : CALLERS;

      for (const caller of callers) {
        for (const p of pathParams) for (const v of PATH_VALUES) {
          const target = url({ name: p.name, encoded: v });
          check(caller, method, target, `path ${p.name}=${v}`, await send(caller, method, target, baseBody ? { json: baseBody } : {}));
        }
        for (const p of queryParams) {
          for (const v of QUERY_VALUES) {
            const target = url(undefined, { ...baseQuery, [p.name]: v });
            check(caller, method, target, `query ${p.name}=${v}`, await send(caller, method, target));
          }
          // The same parameter twice arrives as an array.
          const twice = `${url()}${url().includes('?') ? '&' : '?'}${p.name}=1&${p.name}=2`;
          check(caller, method, twice, `query ${p.name} twice`, await send(caller, method, twice));
        }
        if (!baseBody) continue;
        for (const field of bodyFields) for (const v of BODY_VALUES) {
          const body = { ...baseBody, [field]: v };
          check(caller, method, url(), `body ${field}=${JSON.stringify(v).slice(0, 20)}`, await send(caller, method, url(), { json: body }));
        }
        // A lone surrogate as a JSON escape (a body field holds one as a value above), and nesting
        // 10,000 levels deep (about 20 KB) in the first field.
        const first = bodyFields[0] ?? 'a';
        for (const raw of ['{"a":', '[]', '"\\u0000"', '{"x\\u0000":1}', 'null', `{"${first}":"\\ud800\\u0000"}`, `{"${first}":"x\\udfff"}`, `{"${first}":${'['.repeat(10_000)}${']'.repeat(10_000)}}`]) {
          check(caller, method, url(), `raw ${raw}`, await send(caller, method, url(), { raw }));
        }
        for (const headers of <Record<string, string>[]>[{ 'content-type': 'text/plain' }, { 'content-type': 'application/json; charset=utf-16' }, { 'content-encoding': 'gzip' }, { 'content-type': 'application/x-www-form-urlencoded' }]) {
          check(caller, method, url(), `headers ${JSON.stringify(headers)}`, await send(caller, method, url(), { json: baseBody, headers }));
        }
      }
    }
    expect(sent).toBeGreaterThan(10_000);
    expect(problems, `${problems.length} problems, e.g.\n${problems.slice(0, 30).join('\n')}`).toEqual([]);
  }, 900_000);
});
