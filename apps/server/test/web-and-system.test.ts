import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { brotliCompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_TEXTS } from '@pa/shared/texts';
import { Client, DIALECTS, makeEnv, type TestEnv } from './helpers';
import { rawExchange } from './raw-http';

/** A stand-in build folder, so these tests do not depend on `npm run build`. */
function fakeDist(appName: string | null) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pa-dist-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html>\n<html>\n  <head>\n    <title>x</title>\n    <script type="module" src="./assets/index-abc123.js"></script>\n  </head>\n</html>');
  fs.writeFileSync(path.join(dir, 'assets/index-abc123.js'), 'console.log(1)');
  fs.writeFileSync(path.join(dir, 'icon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  fs.writeFileSync(path.join(dir, 'app-config.json'), JSON.stringify({ appName, version: '0.1.0' }));
  fs.writeFileSync(path.join(dir, 'assets/index-abc123.js.br'), brotliCompressSync('console.log(1)'));
  fs.writeFileSync(path.join(dir, 'assets/fr-abc123.js'), 'export default {}');
  fs.writeFileSync(path.join(dir, 'preload.json'), JSON.stringify({ locales: { fr: ['assets/fr-abc123.js', 'assets/fr-FR-abc123.js'] }, home: ['assets/home-abc123.js', 'assets/home-abc123.css'], homeTexts: { fr: ['assets/app-fr-abc123.js'], en: ['assets/app-en-abc123.js'] } }));
  return dir;
}

describe.each(DIALECTS)('serving the app, health and the API reference on %s', (dialect) => {
  let env: TestEnv;
  let dist: string;
  beforeAll(async () => {
    dist = fakeDist(null);
    env = await makeEnv(dialect, { webDist: dist });
  });
  afterAll(async () => {
    await env?.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('serves index.html never cached and hashed assets cached immutably, with a strict CSP', async () => {
    const c = new Client(env.app);
    const index = await c.request('GET', '/');
    expect(index.statusCode).toBe(200);
    expect(index.headers['cache-control']).toBe('no-store');
    const csp = String(index.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    expect(index.headers['x-content-type-options']).toBe('nosniff');
    expect(index.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    const asset = await c.request('GET', '/assets/index-abc123.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('sends the Brotli copy of an asset to a browser that accepts it, and the file itself to others', async () => {
    const c = new Client(env.app);
    const br = await c.request('GET', '/assets/index-abc123.js', undefined, { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toContain('javascript');
    expect(br.headers.vary).toContain('Accept-Encoding');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const plain = await c.request('GET', '/assets/index-abc123.js', undefined, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe('console.log(1)');
  });

  it("names the reader's locale files in index.html as modulepreload links", async () => {
    const fr = await new Client(env.app, { locale: 'fr-FR' }).request('GET', '/');
    expect(fr.headers['cache-control']).toBe('no-store');
    expect(fr.headers.vary).toContain('Accept-Language');
    expect(fr.body).toContain('<link rel="modulepreload" crossorigin href="./assets/fr-abc123.js">');
    expect(fr.body).toContain('<link rel="modulepreload" crossorigin href="./assets/fr-FR-abc123.js">');
    expect(fr.body.indexOf('fr-abc123.js')).toBeLessThan(fr.body.indexOf('</head>'));
    const en = await new Client(env.app, { locale: 'en-US' }).request('GET', '/index.html');
    expect(en.statusCode).toBe(200);
    expect(en.body).not.toContain('modulepreload');
    expect(en.body).not.toContain('home-abc123');
  });

  it("names Home's files too when the visitor has a session cookie (the app opens on Home)", async () => {
    const back = await new Client(env.app, { locale: 'en-US' }).request('GET', '/', undefined, { headers: { cookie: 'pa_session=whatever' } });
    expect(back.headers.vary).toContain('Cookie');
    expect(back.body).toContain('<link rel="modulepreload" crossorigin href="./assets/home-abc123.js">');
    expect(back.body).toContain('<link rel="preload" as="style" crossorigin href="./assets/home-abc123.css">');
    expect(back.body).toContain('<link rel="modulepreload" crossorigin href="./assets/app-en-abc123.js">');
    expect(back.body).not.toContain('fr-abc123');
  });

  it("names the promoter app's texts in the reader's language with Home's files (the texts are split by area)", async () => {
    const back = await new Client(env.app, { locale: 'fr-FR' }).request('GET', '/', undefined, { headers: { cookie: 'pa_session=whatever' } });
    expect(back.body).toContain('<link rel="modulepreload" crossorigin href="./assets/fr-abc123.js">');
    expect(back.body).toContain('<link rel="modulepreload" crossorigin href="./assets/app-fr-abc123.js">');
    expect(back.body).not.toContain('app-en-abc123');
    const first = await new Client(env.app, { locale: 'fr-FR' }).request('GET', '/');
    expect(first.body).not.toContain('app-fr-abc123');
  });

  it('names the app in the manifest: the localized default when VITE_APP_NAME was unset', async () => {
    const zh = await new Client(env.app, { locale: 'zh-CN' }).request('GET', '/manifest.webmanifest');
    expect(zh.json()).toMatchObject({ name: '推广助手', start_url: './', scope: './', theme_color: '#ffffff' });
    const es = await new Client(env.app, { locale: 'es-ES' }).request('GET', '/manifest.webmanifest');
    expect(es.json().name).toBe('Asistente de promoción');
  });

  it('answers unknown pages with a small localized HTML page, and unknown API paths with the error shape', async () => {
    const page = await new Client(env.app, { locale: 'fr-FR' }).request('GET', '/no-such-page');
    expect(page.statusCode).toBe(404);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('Page introuvable');
    expect(page.body).toContain('lang="fr"');
    const api = await new Client(env.app, { locale: 'zh-TW' }).request('GET', '/api/nope');
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ error: { code: 'NOT_FOUND', message: '找不到此項目。' } });
  });

  it('reports liveness and readiness', async () => {
    const c = new Client(env.app);
    expect((await c.request('GET', '/api/health')).json()).toMatchObject({ status: 'ok' });
    expect((await c.request('GET', '/api/ready')).json()).toEqual({ status: 'ready', database: 'ok' });
    // Unknown addresses get the site's headers too.
    const missing = await c.request('GET', '/no/such/page');
    expect(missing.statusCode).toBe(404);
    expect(String(missing.headers['content-security-policy'])).toContain("default-src 'self'");
    expect(missing.headers['permissions-policy']).toContain('camera=()');
    expect((await c.request('POST', '/api/no-such-call', {})).json().error.code).toBe('NOT_FOUND');
  });

  it('is not ready when its database does not answer: 503 SERVICE_UNAVAILABLE with Retry-After, and no more', async () => {
    // A second instance on the same database, whose connection is then closed under it.
    const other = await env.restart();
    const c = new Client(other.app);
    expect((await c.request('GET', '/api/ready')).statusCode).toBe(200);
    await other.ctx.db.destroy();
    const res = await c.request('GET', '/api/ready');
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('1');
    expect(res.json()).toEqual({ error: { code: 'SERVICE_UNAVAILABLE', message: expect.any(String) } });
    expect(res.body).not.toMatch(/pool|closed|sqlite|connection/i);
    // Liveness does not depend on the database.
    expect((await c.request('GET', '/api/health')).statusCode).toBe(200);
  });

  it('publishes the OpenAPI document and a browsable reference', async () => {
    const c = new Client(env.app);
    const doc = (await c.request('GET', '/api/openapi.json')).json();
    expect(doc.openapi).toMatch(/^3\./);
    for (const p of ['/api/auth/public-key', '/api/auth/register', '/api/auth/login', '/api/auth/logout', '/api/auth/logout-all', '/api/me', '/api/me/password', '/api/me/sessions', '/api/health', '/api/ready']) {
      expect(doc.paths[p], p).toBeTruthy();
    }
    expect(doc.paths['/api/auth/register'].post.requestBody.content['application/json'].schema.properties.password).toBeTruthy();
    // The tracked redirect lives outside the site's context (app.ts) and is described all the same.
    expect(doc.paths['/r/{code}'].get).toBeTruthy();
    const ui = await c.request('GET', '/api/docs/');
    expect(ui.statusCode).toBe(200);
    expect(ui.headers['content-type']).toContain('text/html');
  });
});

describe('a configured app name', () => {
  it('is used in the manifest for every language', async () => {
    const dist = fakeDist('Acme Partners');
    const env = await makeEnv('sqlite', { webDist: dist });
    try {
      const res = await new Client(env.app, { locale: 'zh-CN' }).request('GET', '/manifest.webmanifest');
      expect(res.json().name).toBe('Acme Partners');
    } finally {
      await env.close();
      fs.rmSync(dist, { recursive: true, force: true });
    }
  });
});

describe('paths with a .. segment (issue 28, item 6)', () => {
  it('are not found over a real socket: the not-found page, our error shape under api/, nothing logged above info', async () => {
    const dist = fakeDist(null);
    const lines: string[] = [];
    const stream = new Writable({ write(chunk, _enc, cb) { lines.push(String(chunk)); cb(); } });
    const env = await makeEnv('sqlite', { webDist: dist }, { logger: { level: 'info', stream } });
    try {
      // Raw bytes, as inject() or an HTTP client would resolve the dots before sending.
      await env.app.listen({ port: 0, host: '127.0.0.1' });
      const port = (env.app.server.address() as AddressInfo).port;
      const get = (target: string) => rawExchange(port, `GET ${target} HTTP/1.1\r\nHost: x\r\nAccept-Language: en\r\nConnection: close\r\n\r\n`);
      for (const target of ['/%2e%2e/etc/passwd', '/../etc/passwd', '/..', '/.%2e/', '/assets/..%2f..', '/assets/..%2f..%2fpackage.json', '/assets%2f..%2f..%2fx', '/assets/..%5c..%5cx', '/a/%2e%2e/%2e%2e/x', '/assets/../index.html']) {
        const answer = await get(target);
        expect(answer.status, target).toBe(404);
        expect(answer.headers['content-type'], target).toContain('text/html');
        expect(answer.body, target).toContain(SERVER_TEXTS.en.pages.notFoundTitle);
      }
      // The API reference's own files (another static server) too.
      for (const target of ['/api/%2e%2e/%2e%2e/x', '/api/../../x', '/api/images/..%2f..%2fx', '/api/docs/static/..%2f..%2fpackage.json', '/api/docs/static/%2e%2e/x', '/api/docs/static/..%5c..%5cx']) {
        const answer = await get(target);
        expect(answer.status, target).toBe(404);
        expect(JSON.parse(answer.body), target).toEqual({ error: { code: 'NOT_FOUND', message: expect.any(String) } });
      }
      // The build's own files are still served, and a query may hold dots.
      expect((await get('/assets/index-abc123.js')).status).toBe(200);
      expect((await get('/api/docs/static/index.css')).status).toBe(200);
      expect((await get('/?next=../x')).status).toBe(200);
      expect((await get('/api/health?x=..%2f..')).status).toBe(200);
      await new Promise((r) => setTimeout(r, 50)); // the log stream is written asynchronously
      const loud = lines.filter((line) => (JSON.parse(line) as { level: number }).level > 30);
      expect(lines.length).toBeGreaterThan(10);
      expect(loud).toEqual([]);
    } finally {
      await env.close();
      fs.rmSync(dist, { recursive: true, force: true });
    }
  });
});
