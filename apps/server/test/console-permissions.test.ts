/**
 * The staff console's permission matrix (PRODUCT.md §7, issue 14): every operation under
 * api/admin, taken from the served OpenAPI document, called by each kind of caller — nobody,
 * a promoter, an API key, an operator, an admin — on each database. A caller who may not gets
 * 401/403 and nothing but the error; one who may gets past the permission check (the ids used
 * are unknown, the bodies empty, so nothing is changed). An operation missing from the table
 * below fails the test, so a new call cannot skip the matrix.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, DIALECTS, makeEnv, signedIn, type TestEnv } from './helpers';

type Who = 'staff' | 'admin';
/** Who may call each operation: operators and admins ("staff"), or admins only. First match wins. */
const TABLE: [RegExp, Who][] = [
  // Admins only: staff, the audit log, adjustments, API keys, settings changes, campaigns' set-up, keys, the ledger check.
  [/^(GET|POST|PATCH|PUT|DELETE) \/api\/admin\/staff/, 'admin'],
  [/^(GET|POST) \/api\/admin\/audit/, 'admin'],
  [/^POST \/api\/admin\/promoters\/\{id\}\/adjustments$/, 'admin'],
  [/^(GET|POST|PATCH|DELETE) \/api\/admin\/api-keys/, 'admin'],
  [/^PATCH \/api\/admin\/settings$/, 'admin'],
  [/^POST \/api\/admin\/keys\/rotate$/, 'admin'],
  [/^(POST|PATCH|PUT|DELETE) \/api\/admin\/campaigns/, 'admin'],
  [/^GET \/api\/admin\/ledger\/check$/, 'admin'],
  // Bounties (docs/bounties.md): made (under campaigns, above) and changed by admins; promoters' proof decided by staff.
  [/^PATCH \/api\/admin\/bounties\/\{id\}$/, 'admin'],
  [/^(GET|POST) \/api\/admin\/bounty-submissions/, 'staff'],
  // Groups and the application form: admins change them (rewards follow groups); operators read them.
  [/^(POST|PATCH|PUT|DELETE) \/api\/admin\/groups/, 'admin'],
  [/^PUT \/api\/admin\/application-form$/, 'admin'],
  [/^(PATCH|POST) \/api\/admin\/promoters\/(\{id\}|group)$/, 'admin'],
  [/^GET \/api\/admin\/groups/, 'staff'],
  [/^GET \/api\/admin\/application-form$/, 'staff'],
  [/^(GET|POST|PATCH|PUT|DELETE) \/api\/admin\/webhooks/, 'admin'],
  [/^(GET|POST) \/api\/admin\/mail/, 'admin'],
  [/^(PUT) \/api\/admin\/integrations/, 'admin'],
  [/^GET \/api\/admin\/integrations/, 'staff'],
  // Operators and admins: read everything; decide registrations, enrollments, commissions; process withdrawals; announcements; help promoters.
  [/^GET \/api\/admin\/overview$/, 'staff'],
  [/^GET \/api\/admin\/promoters/, 'staff'],
  [/^POST \/api\/admin\/promoters\/\{id\}\/password-reset$/, 'staff'],
  [/^(GET|POST) \/api\/admin\/users/, 'staff'],
  [/^GET \/api\/admin\/settings$/, 'staff'],
  [/^GET \/api\/admin\/campaigns/, 'staff'],
  [/^(GET|POST|PATCH) \/api\/admin\/enrollments/, 'staff'],
  [/^GET \/api\/admin\/conversions/, 'staff'],
  // Corrections (issue 31 item 7): staff assign a conversion, end or move a customer's binding.
  [/^POST \/api\/admin\/conversions\/\{id\}\/assign$/, 'staff'],
  [/^(GET|POST) \/api\/admin\/bindings/, 'staff'],
  [/^(GET|POST) \/api\/admin\/commissions/, 'staff'],
  [/^(GET|POST) \/api\/admin\/withdrawals/, 'staff'],
  [/^(GET|POST|PATCH|DELETE) \/api\/admin\/announcements/, 'staff'],
];

const whoMay = (operation: string): Who | undefined => TABLE.find(([pattern]) => pattern.test(operation))?.[1];

describe.each(DIALECTS)('the console permission matrix on %s', (dialect) => {
  let env: TestEnv;
  const clients: Record<'nobody' | 'promoter' | 'operator' | 'admin', Client> = {} as never;
  let apiSecret = '';

  beforeAll(async () => {
    env = await makeEnv(dialect);
    clients.nobody = new Client(env.app);
    for (const role of ['promoter', 'operator', 'admin'] as const) clients[role] = (await signedIn(env, role)).client;
    apiSecret = (await clients.admin.request('POST', '/api/admin/api-keys', { name: 'Matrix', scopes: ['conversions:write', 'conversions:read'] })).json().secret;
  });
  afterAll(async () => {
    await env?.close();
  });

  it('lets each caller do exactly what its role allows, and shows the others nothing', async () => {
    const doc = (await env.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as { paths: Record<string, Record<string, unknown>> };
    const operations = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/api/admin'))
      .flatMap(([path, item]) => Object.keys(item).filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m)).map((m) => ({ method: m.toUpperCase(), path })))
      // Key rotation last: it is allowed for the admin and changes what later calls would seal with.
      .sort((a, b) => Number(a.path.endsWith('/rotate')) - Number(b.path.endsWith('/rotate')));
    expect(operations.length).toBeGreaterThan(30);

    const unlisted = operations.map((o) => `${o.method} ${o.path}`).filter((o) => !whoMay(o));
    expect(unlisted, 'operations missing from the permission table').toEqual([]);

    const problems: string[] = [];
    let checked = 0;
    for (const { method, path } of operations) {
      const operation = `${method} ${path}`;
      const who = whoMay(operation)!;
      // Unknown ids (a well-formed shape: ULID-like) and, for the action segments, a real action name would still be refused by id.
      const url = path.replace(/\{action\}/g, 'approve').replace(/\{(\w+)\}/g, '01J0000000000000000000000Z');
      const body = ['POST', 'PUT', 'PATCH'].includes(method) ? {} : undefined;
      const expectations: [string, () => Promise<{ statusCode: number; body: string }>, 'allowed' | 'denied'][] = [
        ['nobody', () => clients.nobody.request(method as 'GET', url, body), 'denied'],
        ['promoter', () => clients.promoter.request(method as 'GET', url, body), 'denied'],
        ['apiKey', () => env.app.inject({ method: method as 'GET', url, headers: { authorization: `Bearer ${apiSecret}`, ...(body ? { 'content-type': 'application/json' } : {}) }, payload: body ? '{}' : undefined }), 'denied'],
        ['operator', () => clients.operator.request(method as 'GET', url, body), who === 'staff' ? 'allowed' : 'denied'],
        ['admin', () => clients.admin.request(method as 'GET', url, body), 'allowed'],
      ];
      for (const [caller, call, expected] of expectations) {
        const res = await call();
        checked++;
        const where = `${caller} ${operation} → ${res.statusCode}`;
        if (res.statusCode >= 500) problems.push(`${where} ${res.body.slice(0, 120)}`);
        else if (expected === 'denied') {
          if (res.statusCode !== 401 && res.statusCode !== 403) problems.push(`${where} (expected 401/403)`);
          else if (Object.keys(JSON.parse(res.body) as object).join() !== 'error') problems.push(`${where} says more than its error: ${res.body.slice(0, 120)}`);
        } else if (res.statusCode === 401 || res.statusCode === 403) problems.push(`${where} (expected past the permission check) ${res.body.slice(0, 120)}`);
      }
    }
    expect(checked).toBe(operations.length * 5);
    expect(problems, problems.join('\n')).toEqual([]);
  }, 120_000);
});
