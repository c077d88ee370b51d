/**
 * The boundary refuses hostile bytes with a catalogue code, the same on both databases (issue 13,
 * items 1, 2, 5, 6 and 8): NUL characters, impossible dates, bad percent-escapes, a planted CSRF
 * token, and the field codes of out-of-range numbers.
 */
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campaignBody, Client, DIALECTS, errorCode, makeEnv, signedIn, type TestEnv } from './helpers';

const stripe = new Stripe('sk_test_not_used_for_calls');

describe.each(DIALECTS)('the request boundary on %s', (dialect) => {
  let env: TestEnv;
  let admin: Client;
  let promoter: Client;
  let secret: string;
  let campaignId: string;
  let linkId: string;

  const v1 = (body: unknown) =>
    env.app.inject({ method: 'POST', url: '/api/v1/conversions', headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }, payload: JSON.stringify(body) });

  beforeAll(async () => {
    env = await makeEnv(dialect);
    admin = (await signedIn(env, 'admin')).client;
    promoter = (await signedIn(env, 'promoter')).client;
    secret = (await admin.request('POST', '/api/admin/api-keys', { name: 'Shop', scopes: ['conversions:write', 'conversions:read'] })).json().secret;
    campaignId = (await admin.request('POST', '/api/admin/campaigns', campaignBody())).json().campaign.id;
    await admin.request('PATCH', `/api/admin/campaigns/${campaignId}`, { status: 'active' });
    await promoter.request('POST', `/api/campaigns/${campaignId}/join`);
    linkId = (await promoter.request('GET', '/api/links')).json().items[0].id;
  });
  afterAll(async () => {
    await env?.close();
  });

  it('refuses NUL in bodies with VALIDATION_FAILED naming the field, also without signing in', async () => {
    const anonymous = new Client(env.app);
    const login = await anonymous.request('POST', '/api/auth/login', { account: 'a\u0000b', password: await anonymous.seal('Passw0rd-x') });
    expect(login.statusCode, login.body).toBe(400);
    expect(login.json().error).toMatchObject({ code: 'VALIDATION_FAILED', fields: { account: 'invalid' } });

    for (const field of ['externalId', 'linkCode', 'couponCode', 'customerExternalId']) {
      const res = await v1({ campaignId, kind: 'sale', externalId: 'nul-1', amount: 100, [field]: 'x\u0000y' });
      expect(res.statusCode, `${field}: ${res.body}`).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'VALIDATION_FAILED', fields: { [field]: 'invalid' } });
    }
    for (const field of ['label', 'channel']) {
      const res = await promoter.request('POST', '/api/links', { campaignId, [field]: 'a\u0000' });
      expect(res.statusCode, `${field}: ${res.body}`).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'VALIDATION_FAILED', fields: { [field]: 'invalid' } });
      const patch = await promoter.request('PATCH', `/api/links/${linkId}`, { [field]: '\u0000' });
      expect(patch.json().error).toMatchObject({ code: 'VALIDATION_FAILED', fields: { [field]: 'invalid' } });
    }
    const me = await promoter.request('PATCH', '/api/me', { displayName: 'Ann\u0000Lee' });
    expect(me.json().error).toMatchObject({ code: 'VALIDATION_FAILED', fields: { displayName: 'invalid' } });
    // A NUL in a key, and nested inside an array or object, is named too.
    const nested = await admin.request('POST', '/api/admin/campaigns', campaignBody({ names: { en: 'Tea\u0000' } }));
    expect(nested.json().error).toMatchObject({ code: 'VALIDATION_FAILED', fields: { 'names.en': 'invalid' } });
    const key = await admin.request('POST', '/api/admin/campaigns', { ...campaignBody(), 'x\u0000': 1 });
    expect(key.json().error.code).toBe('VALIDATION_FAILED');
    // Nothing was stored.
    expect((await promoter.request('GET', '/api/me')).json().user.displayName).not.toContain('\u0000');
  });

  it('refuses lone UTF-16 surrogates in bodies with VALIDATION_FAILED naming the field, and keeps pairs intact (issue 28, item 4)', async () => {
    // Every string field of a conversion: PostgreSQL used to answer 500 on each retry, SQLite stored broken bytes.
    for (const [field, value] of [['externalId', 'lone-\ud800'], ['customerExternalId', '\udc00cus'], ['couponCode', 'SAVE\udc00\ud800'], ['linkCode', '\ud83d']] as const) {
      const res = await v1({ campaignId, kind: 'sale', externalId: `sur-${field}`, amount: 100, [field]: value });
      expect(res.statusCode, `${field}: ${res.body}`).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'VALIDATION_FAILED', fields: { [field]: 'invalid' } });
    }
    // The escape as the JSON text carries it, in a key, nested, and before signing in.
    const raw = await env.app.inject({ method: 'POST', url: '/api/v1/conversions', headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }, payload: `{"campaignId":"${campaignId}","kind":"sale","externalId":"raw-\\ud800","amount":100}` });
    expect(raw.json().error).toMatchObject({ code: 'VALIDATION_FAILED', fields: { externalId: 'invalid' } });
    const nested = await admin.request('POST', '/api/admin/campaigns', campaignBody({ names: { en: 'Tea \udfff' } }));
    expect(nested.json().error).toMatchObject({ code: 'VALIDATION_FAILED', fields: { 'names.en': 'invalid' } });
    const key = await admin.request('POST', '/api/admin/campaigns', campaignBody({ names: { en: 'Tea', '\ud800': 'x' } }));
    expect(key.json().error).toMatchObject({ code: 'VALIDATION_FAILED', fields: { names: 'invalid' } });
    const login = await new Client(env.app).request('POST', '/api/auth/login', { account: 'a\ud800@example.com', password: 'x' });
    expect(login.json().error).toMatchObject({ code: 'VALIDATION_FAILED', fields: { account: 'invalid' } });
    const me = await promoter.request('PATCH', '/api/me', { displayName: 'Ann \ud800' });
    expect(me.json().error).toMatchObject({ code: 'VALIDATION_FAILED', fields: { displayName: 'invalid' } });
    expect((await promoter.request('POST', '/api/links', { campaignId, label: 'x\udbff' })).json().error.fields).toEqual({ label: 'invalid' });
    // Nothing was stored.
    expect((await env.ctx.db.selectFrom('conversions').select('id').where('external_id', 'like', 'sur-%').execute()).length).toBe(0);
    // A surrogate pair (an emoji) is a character like any other: stored and read back as sent.
    const emoji = await v1({ campaignId, kind: 'sale', externalId: 'tea-\ud83c\udf75', amount: 100, customerExternalId: 'cus-\u{1F600}' });
    expect(emoji.statusCode, emoji.body).toBe(201);
    const back = await env.app.inject({ method: 'GET', url: `/api/v1/conversions/${encodeURIComponent('tea-\u{1F375}')}?campaignId=${campaignId}&kind=sale`, headers: { authorization: `Bearer ${secret}` } });
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json().conversion).toMatchObject({ externalId: 'tea-\u{1F375}', customerExternalId: 'cus-\u{1F600}' });
  });

  it('refuses JSON nested deeper than 64 levels with VALIDATION_FAILED before parsing, also without signing in (issue 28, item 5)', async () => {
    const deep = (levels: number, inner = '1') => `{"a":${'['.repeat(levels - 1)}${inner}${']'.repeat(levels - 1)}}`;
    for (const levels of [5_000, 10_000]) {
      for (const [url, send] of [
        ['/api/auth/login', (body: string) => new Client(env.app).request('POST', '/api/auth/login', undefined, { rawBody: body })],
        ['/api/v1/conversions', (body: string) => env.app.inject({ method: 'POST', url: '/api/v1/conversions', headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }, payload: body })],
        ['/api/me', (body: string) => promoter.request('PATCH', '/api/me', undefined, { rawBody: body })],
      ] as const) {
        const body = deep(levels);
        expect(body.length).toBeLessThan(64 * 1024);
        const res = await send(body);
        expect(res.statusCode, `${url} ${levels}: ${res.body.slice(0, 200)}`).toBe(400);
        expect(res.json().error).toMatchObject({ code: 'VALIDATION_FAILED', fields: { _: 'invalid_json' } });
      }
      // Objects nest the same way.
      const objects = `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
      expect((await promoter.request('PATCH', '/api/me', undefined, { rawBody: objects })).json().error.fields).toEqual({ _: 'invalid_json' });
    }
    // 64 levels are read (and then refused by the schema, the field being unknown); 65 are not.
    expect((await promoter.request('PATCH', '/api/me', undefined, { rawBody: deep(64) })).json().error.fields).toEqual({ a: 'unknown_field' });
    expect((await promoter.request('PATCH', '/api/me', undefined, { rawBody: deep(65) })).json().error.fields).toEqual({ _: 'invalid_json' });
    // Brackets inside a string, after escaped quotes and backslashes too, are text.
    const text = JSON.stringify({ note: `${'[{'.repeat(40)}\\"${'['.repeat(70)}\\` });
    expect(text).toContain('\\\\\\"');
    expect((await promoter.request('PATCH', '/api/me', undefined, { rawBody: text })).json().error.fields).toEqual({ note: 'unknown_field' });
  });

  it('keeps a signed Stripe event with a lone surrogate or a NUL as rejected: invalid_object, acknowledged so Stripe stops retrying (issue 28, item 4)', async () => {
    const signingSecret = 'whsec_boundary_test_secret';
    expect((await admin.request('PUT', `/api/admin/integrations/stripe/${campaignId}`, { signingSecret })).statusCode).toBe(200);
    const deliver = (body: unknown, signed = true) => {
      const payload = JSON.stringify(body);
      const signature = signed ? stripe.webhooks.generateTestHeaderString({ payload, secret: signingSecret }) : 't=1,v1=00';
      return env.app.inject({ method: 'POST', url: `/api/v1/integrations/stripe/${campaignId}`, headers: { 'content-type': 'application/json', 'stripe-signature': signature }, payload });
    };
    const checkout = (id: string, object: Record<string, unknown>) => ({
      id, object: 'event', created: Math.floor(Date.now() / 1000), type: 'checkout.session.completed',
      data: { object: { id: `cs_${id}`, object: 'checkout.session', mode: 'payment', payment_status: 'paid', amount_total: 1000, currency: 'cny', metadata: {}, ...object } },
    });
    const recordedFor = async (sessionId: string) => (await env.ctx.db.selectFrom('conversions').select('id').where('campaign_id', '=', campaignId).where('external_id', '=', sessionId).execute()).length;

    for (const [id, object] of [
      ['evt_sur_coupon', { metadata: { pa_coupon: 'SAVE\ud800' } }],
      ['evt_sur_customer', { customer: 'cus_\udc00' }],
      ['evt_sur_mode', { mode: 'pay\ud800' }],
      ['evt_sur_elsewhere', { customer_details: { name: 'Ann \udbff' } }],
      ['evt_nul_customer', { customer: 'cus_\u0000' }],
    ] as const) {
      const res = await deliver(checkout(id, object));
      expect(res.statusCode, `${id}: ${res.body}`).toBe(200);
      expect(res.json()).toMatchObject({ received: true, replayed: false, event: { eventId: id, outcome: 'rejected', detail: 'invalid_object' } });
      // Stripe's retry is answered with what was kept, and nothing was recorded.
      expect((await deliver(checkout(id, object))).json()).toMatchObject({ replayed: true, event: { outcome: 'rejected', detail: 'invalid_object' } });
      expect(await recordedFor(`cs_${id}`)).toBe(0);
    }
    // The event's own id or type cannot be kept: refused, naming it.
    const badId = await deliver(checkout('evt_\ud800', {}));
    expect(badId.json().error).toMatchObject({ code: 'VALIDATION_FAILED', fields: { id: 'invalid' } });
    const badType = await deliver({ ...checkout('evt_sur_type', {}), type: 'invoice.\udfffpaid' });
    expect(badType.json().error).toMatchObject({ code: 'VALIDATION_FAILED', fields: { type: 'invalid' } });
    // Unsigned, the body is not even looked at.
    expect(errorCode(await deliver(checkout('evt_sur_unsigned', { customer: '\ud800' }), false))).toBe('SIGNATURE_INVALID');
    // The same event without the bad character is recorded.
    expect((await deliver(checkout('evt_sur_fine', { customer: 'cus_\u{1F600}' }))).json().event).toMatchObject({ outcome: 'recorded' });
    expect(await recordedFor('cs_evt_sur_fine')).toBe(1);
  });

  it('answers 404 for a NUL in a path id and VALIDATION_FAILED for one in a query', async () => {
    const anonymous = new Client(env.app);
    expect((await anonymous.request('GET', '/api/images/%00')).statusCode).toBe(404);
    expect(errorCode(await anonymous.request('GET', '/api/images/%00'))).toBe('NOT_FOUND');
    for (const url of ['/api/links/%00', `/api/links/a%00b/stats`, '/api/commissions/%00', '/api/withdrawals/%00', '/api/campaigns/%00', '/api/notifications/%00/read']) {
      const res = await promoter.request(url.endsWith('/read') ? 'POST' : 'GET', url);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(404);
      expect(errorCode(res)).toBe('NOT_FOUND');
    }
    const v1Get = await env.app.inject({ method: 'GET', url: `/api/v1/conversions/%00?campaignId=${campaignId}&kind=sale`, headers: { authorization: `Bearer ${secret}` } });
    expect(v1Get.statusCode, v1Get.body).toBe(404);
    expect((await env.app.inject({ method: 'GET', url: '/r/%00' })).statusCode).toBe(404);
    const query = await promoter.request('GET', '/api/links?campaignId=%00');
    expect(query.statusCode, query.body).toBe(400);
    expect(query.json().error).toMatchObject({ code: 'VALIDATION_FAILED', fields: { 'querystring.campaignId': 'invalid' } });
    const admins = await admin.request('GET', '/api/admin/users?q=a%00');
    expect(admins.json().error).toMatchObject({ code: 'VALIDATION_FAILED', fields: { 'querystring.q': 'invalid' } });
  });

  it('refuses impossible dates on every date parameter with VALIDATION_FAILED', async () => {
    for (const day of ['2024-13-45', '2024-00-01', '9999-99-99', '2023-02-29', '2024-04-31', '0000-01-01']) {
      for (const [field, url] of [
        ['from', `/api/commissions?from=${day}`],
        ['to', `/api/commissions?to=${day}`],
        ['from', `/api/commissions/export?from=${day}`],
        ['from', `/api/links/${linkId}/stats?from=${day}`],
        ['to', `/api/links/${linkId}/stats?to=${day}`],
        ['from', `/api/stats/summary?from=${day}&to=2024-01-01`],
      ] as const) {
        const res = await promoter.request('GET', url);
        expect(res.statusCode, `${url}: ${res.body}`).toBe(400);
        expect(res.json().error).toMatchObject({ code: 'VALIDATION_FAILED', fields: { [`querystring.${field}`]: 'invalid' } });
      }
    }
    // A real leap day is a date.
    expect((await promoter.request('GET', `/api/links/${linkId}/stats?from=2024-02-29&to=2024-03-01`)).statusCode).toBe(200);
    // An instant outside what a date can hold is refused too, not a 500.
    const far = await v1({ campaignId, kind: 'sale', externalId: 'far-1', amount: 100, occurredAt: 9_000_000_000_000_000 });
    expect(far.statusCode, far.body).toBe(400);
    expect(far.json().error).toMatchObject({ code: 'VALIDATION_FAILED', fields: { occurredAt: 'too_large' } });
  });

  it('answers bad percent-escapes in our error shape', async () => {
    for (const url of ['/api/links/%ff', '/api/links/%E0%A4%A', '/api/images/%c0%af']) {
      const res = await promoter.request('GET', url);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(404);
      expect(res.json().error).toMatchObject({ code: 'NOT_FOUND' });
      expect(typeof res.json().error.message).toBe('string');
    }
    const french = await new Client(env.app, { locale: 'fr' }).request('GET', '/api/campaigns/%ff');
    expect(french.json().error.code).toBe('NOT_FOUND');
    expect(french.json().error.message).not.toMatch(/not found/i);
  });

  it('binds the CSRF token to the session once signed in', async () => {
    const { client } = await signedIn(env, 'promoter');
    const bound = client.cookies.get('pa_csrf')!;
    // The token the sign-in set works.
    expect((await client.request('PATCH', '/api/me', { displayName: 'Bound Token' })).statusCode).toBe(200);
    // A planted cookie with the same header does not pass for a valid session.
    client.cookies.set('pa_csrf', 'planted-token-planted-token-abc');
    const planted = await client.request('PATCH', '/api/me', { displayName: 'Planted Token' });
    expect(planted.statusCode).toBe(403);
    expect(errorCode(planted)).toBe('CSRF_INVALID');
    // A token bound to another session does not pass either.
    const other = await signedIn(env, 'promoter');
    client.cookies.set('pa_csrf', other.client.cookies.get('pa_csrf')!);
    expect(errorCode(await client.request('PATCH', '/api/me', { displayName: 'Other Token' }))).toBe('CSRF_INVALID');
    // Nothing changed; and a GET gives the session's own token back, so a tab with a stale cookie recovers.
    const get = await client.request('GET', '/api/me');
    expect(get.json().user.displayName).toBe('Bound Token');
    expect(get.cookies.find((c) => c.name === 'pa_csrf')?.value).toBe(bound);
    expect((await client.request('PATCH', '/api/me', { displayName: 'Recovered' })).statusCode).toBe(200);
    // Before signing in, the double-submit token still serves sign-in and registration.
    const fresh = new Client(env.app);
    await fresh.request('GET', '/api/health');
    fresh.cookies.set('pa_csrf', 'any-pre-session-token-0123456789');
    const signIn = await fresh.login('nobody@example.com', 'Passw0rd-x');
    expect(errorCode(signIn)).toBe('INVALID_CREDENTIALS');
  });

  it('names numbers out of range too_small and too_large, strings too_short and too_long', async () => {
    const negative = await v1({ campaignId, kind: 'sale', externalId: 'neg-1', amount: -5 });
    expect(negative.json().error).toMatchObject({ code: 'VALIDATION_FAILED', fields: { amount: 'too_small' } });
    const huge = await v1({ campaignId, kind: 'sale', externalId: 'huge-1', amount: 1e20 });
    expect(huge.json().error).toMatchObject({ code: 'VALIDATION_FAILED', fields: { amount: 'too_large' } });
    const page = await promoter.request('GET', '/api/links?limit=0');
    expect(page.json().error.fields).toEqual({ 'querystring.limit': 'too_small' });
    expect((await promoter.request('GET', '/api/links?limit=1000')).json().error.fields).toEqual({ 'querystring.limit': 'too_large' });
    expect((await promoter.request('POST', '/api/links', { campaignId, channel: 'x'.repeat(25) })).json().error.fields).toEqual({ channel: 'too_long' });
  });
});
