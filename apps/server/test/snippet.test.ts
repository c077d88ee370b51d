/**
 * The landing-page snippet (issue 17): how `<base>/pa.js` is served (≤ 2 KB gzip, cacheable with its
 * version, loadable by other sites), and what it does on a page — run here in a VM with the few
 * browser objects it touches; the journey (e2e/integrations.test.ts) runs it in Chromium.
 */
import vm from 'node:vm';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, DIALECTS, errorCode, makeEnv, signedIn, type TestEnv } from './helpers';

/** Runs the snippet's source on a page at `href`, its tag carrying `dataset`; returns what it left. */
function runOnPage(source: string, href: string, dataset: Record<string, string> = {}, cookie = '', cookiesAllowed = true) {
  const written: string[] = [];
  let jar = cookie;
  const replaced: string[] = [];
  const location = new URL(href);
  const window: Record<string, unknown> = {};
  const document = {
    currentScript: { dataset },
    get cookie() { return jar; },
    set cookie(value: string) {
      written.push(value);
      if (!cookiesAllowed) return;
      const [pair] = value.split(';');
      jar = [...jar.split('; ').filter((c) => c && !c.startsWith(`${pair!.split('=')[0]}=`)), pair].join('; ');
    },
  };
  const history = { state: null, replaceState: (_state: unknown, _title: string, url: string) => replaced.push(url) };
  vm.runInNewContext(source, { window, document, location, history, URL });
  const api = window.PromotionAssistant as { clickId(): string | null };
  return { written, replaced, clickId: api.clickId() };
}

describe.each(DIALECTS)('the landing-page snippet on %s', (dialect) => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await makeEnv(dialect);
  });
  afterAll(async () => {
    await env?.close();
  });

  it('is served small, gzipped, cacheable by version, to any site', async () => {
    const plain = await env.app.inject({ method: 'GET', url: '/pa.js' });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(plain.headers['cache-control']).toBe('public, max-age=3600');
    expect(plain.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(plain.headers['set-cookie']).toBeUndefined();
    expect(plain.body).toContain('PromotionAssistant');

    const gz = await env.app.inject({ method: 'GET', url: '/pa.js', headers: { 'accept-encoding': 'gzip, br' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.rawPayload.length).toBeLessThanOrEqual(2048);
    expect(gunzipSync(gz.rawPayload).toString()).toBe(plain.body);

    // The console names the version; with it in the address the file is cached for a year.
    const { client } = await signedIn(env, 'admin');
    const info = (await client.request('GET', '/api/admin/integrations/snippet')).json();
    expect(info).toEqual({ version: expect.stringMatching(/^[0-9a-f]{12}$/), bytes: plain.rawPayload.length, gzipBytes: gz.rawPayload.length });
    const versioned = await env.app.inject({ method: 'GET', url: `/pa.js?v=${info.version}` });
    expect(versioned.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(versioned.headers.etag).toBe(`"${info.version}"`);
    // Another version (an old page's address) is still answered, for an hour only.
    expect((await env.app.inject({ method: 'GET', url: '/pa.js?v=000000000000' })).headers['cache-control']).toBe('public, max-age=3600');
    expect((await env.app.inject({ method: 'GET', url: '/pa.js', headers: { 'if-none-match': `"${info.version}"` } })).statusCode).toBe(304);

    // The version is for staff; promoters and strangers are refused.
    expect(errorCode(await new Client(env.app).request('GET', '/api/admin/integrations/snippet'))).toBe('UNAUTHENTICATED');
    expect(errorCode(await (await signedIn(env, 'promoter')).client.request('GET', '/api/admin/integrations/snippet'))).toBe('FORBIDDEN');
  });

  it('keeps pa_click for the attribution window, takes it out of the address, and gives it back', async () => {
    const source = (await env.app.inject({ method: 'GET', url: '/pa.js' })).body;
    const id = '01JDW5C8V4Z7QK3M2N9P0R1S2T';

    const landed = runOnPage(source, `https://shop.example/tea?utm_source=x&q=a%20b+c&pa_click=${id}#top`, { days: '45' });
    expect(landed.written).toEqual([`pa_click=${id}; Max-Age=${45 * 86400}; Path=/; SameSite=Lax; Secure`]);
    // The rest of the address stays exactly as written (no re-encoding).
    expect(landed.replaced).toEqual(['https://shop.example/tea?utm_source=x&q=a%20b+c#top']);
    expect(landed.clickId).toBe(id);

    // A later page of the site (no pa_click in its address) still has it; nothing is written.
    const later = runOnPage(source, 'https://shop.example/checkout', {}, `theme=dark; pa_click=${id}`);
    expect(later.written).toEqual([]);
    expect(later.replaced).toEqual([]);
    expect(later.clickId).toBe(id);

    // Cookies refused: the page it landed on still knows the id.
    const blocked = runOnPage(source, `https://shop.example/?pa_click=${id}`, {}, '', false);
    expect(blocked.clickId).toBe(id);
    expect(blocked.replaced).toEqual(['https://shop.example/']);

    // No data-days: 30 days; days are held to 1–365 (0 is one day); http: no Secure.
    expect(runOnPage(source, `http://localhost:8080/?pa_click=${id}`).written).toEqual([`pa_click=${id}; Max-Age=${30 * 86400}; Path=/; SameSite=Lax`]);
    expect(runOnPage(source, `https://shop.example/?pa_click=${id}`, { days: '0' }).written[0]).toContain(`Max-Age=86400;`);
    expect(runOnPage(source, `https://shop.example/?pa_click=${id}`, { days: '9999' }).written[0]).toContain(`Max-Age=${365 * 86400};`);
    // data-domain shares it with the site's subdomains — only the page's own domain or one above it.
    expect(runOnPage(source, `https://www.shop.example/?pa_click=${id}`, { domain: 'shop.example' }).written)
      .toEqual([`pa_click=${id}; Max-Age=${30 * 86400}; Path=/; SameSite=Lax; Domain=shop.example; Secure`]);
    for (const domain of ['other.example', 'x; Path=/evil', 'hop.example']) {
      expect(runOnPage(source, `https://www.shop.example/?pa_click=${id}`, { domain }).written).toEqual([`pa_click=${id}; Max-Age=${30 * 86400}; Path=/; SameSite=Lax; Secure`]);
    }

    // Something that is not a click id is not kept (but still leaves the address); a bad cookie is not given back.
    const bad = runOnPage(source, 'https://shop.example/?pa_click=%3Cscript%3E&a=1');
    expect(bad.written).toEqual([]);
    expect(bad.replaced).toEqual(['https://shop.example/?a=1']);
    expect(bad.clickId).toBeNull();
    expect(runOnPage(source, 'https://shop.example/', {}, 'pa_click=a%20b').clickId).toBeNull();
    expect(runOnPage(source, 'https://shop.example/').clickId).toBeNull();
    // A path starting with two slashes stays on this site.
    expect(runOnPage(source, `https://shop.example//deals?pa_click=${id}`).replaced).toEqual(['https://shop.example//deals']);
  });
});
