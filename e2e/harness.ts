/// <reference lib="dom" />
/**
 * Journey harness: the real server (built web app, SQLite in a temp folder) listening on
 * loopback, an optional prefix-stripping proxy to serve it under a sub-path, and Debian's
 * Chromium driven by playwright-core at a phone viewport; and the steps several journeys share
 * (staff accounts, the shop's API key and its sales, registering and signing in, checking a screen).
 */
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { buildApp } from '../apps/server/src/app';
import { createContext } from '../apps/server/src/bootstrap';
import { loadConfig } from '../apps/server/src/config';
import { newApiKeySecret } from '../apps/server/src/platform/api-keys';
import { newId } from '../apps/server/src/platform/ids';

export const ROOT = path.resolve(import.meta.dirname, '..');
export const ARTIFACTS = path.join(ROOT, 'e2e/artifacts');
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export async function startServer() {
  const dist = path.join(ROOT, 'apps/web/dist/index.html');
  if (!fs.existsSync(dist)) throw new Error('The web app is not built: run "npm run build" first.');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pa-e2e-'));
  const config = { ...loadConfig({}), dataDir, port: 0, host: '127.0.0.1', authRateLimitPerMinute: 1000 };
  const { ctx, handle } = await createContext(config);
  const app = await buildApp(ctx);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/`,
    port,
    ctx,
    async close() {
      await app.close();
      await handle.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A reverse proxy that serves the app under `prefix` (e.g. "/promo/") by stripping it. */
export async function startPrefixProxy(targetPort: number, prefix: string) {
  const server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    if (url === prefix.slice(0, -1)) {
      res.writeHead(301, { location: prefix }).end();
      return;
    }
    if (!url.startsWith(prefix)) {
      res.writeHead(404).end('outside the proxied prefix');
      return;
    }
    const upstream = http.request(
      { host: '127.0.0.1', port: targetPort, method: req.method, path: `/${url.slice(prefix.length)}`, headers: req.headers },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}${prefix}`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

export async function phoneContext(browser: Browser, locale = 'en-US'): Promise<BrowserContext> {
  return browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 1,
    isMobile: true,
    hasTouch: true,
    locale,
    userAgent: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Mobile Safari/537.36',
    permissions: ['clipboard-read', 'clipboard-write'],
  });
}

/** Collects page errors and CSP violations; a journey asserts none happened. */
export function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    const text = m.text();
    if (m.type() === 'error' && !/Failed to load resource: the server responded with a status of 401/.test(text)) problems.push(`console: ${text}`);
  });
  return problems;
}

export async function screenshot(page: Page, name: string) {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  await page.waitForLoadState('networkidle').catch(() => undefined);
  // Let toasts fade so they do not cover the screen being recorded.
  await page.locator('.adm-toast-main').waitFor({ state: 'detached', timeout: 5000 }).catch(() => undefined);
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/**
 * Records the screen as `name`, then checks that no i18n key shows untranslated and that the page
 * is no wider than the screen. With `fit` (a selector), also that none of the elements it matches
 * sticks out of the screen (clipped text inside a card or list would not widen the page).
 */
export async function checkScreen(page: Page, name: string, { fit }: { fit?: string } = {}) {
  await screenshot(page, name);
  expect(await page.locator('body').innerText(), name).not.toMatch(UNTRANSLATED);
  expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth), name).toBe(false);
  if (fit === undefined) return;
  const wide = await page.evaluate((selector) => Array.from(document.querySelectorAll(selector))
    .filter((el) => { const r = el.getBoundingClientRect(); return !el.closest('.visually-hidden') && r.width > 0 && (r.right > window.innerWidth + 0.5 || r.left < -0.5); })
    .map((el) => `${el.tagName}.${el.className}`), fit);
  expect(wide, name).toEqual([]);
}

export function readLocale(locale: string): Record<string, unknown> {
  return JSON.parse(fs.readFileSync(path.join(ROOT, `apps/web/src/i18n/locales/${locale}.json`), 'utf8'));
}

export function tr(messages: Record<string, unknown>, key: string, vars: Record<string, string> = {}): string {
  const value = key.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown>)?.[k], messages);
  if (typeof value !== 'string') throw new Error(`no message ${key}`);
  return value.replace(/\{\{(\w+)\}\}/g, (_, name: string) => vars[name] ?? '');
}

/** Text that looks like an i18n key left untranslated (e.g. "home.greeting"). */
export const UNTRANSLATED = /\b(app|tabs|auth|fields|errors|home|promote|team|me|profile|language|password|devices|about|languages|campaign|links|poster|campaignAdmin|admin|moneyAdmin|wallet|ledger|commissions|payoutAccounts|withdraw|withdrawals|withdrawalsAdmin|notifications|stats|leaderboard)\.[A-Za-z_]+\b/;

/** Staff accounts are never self-registered: made directly, as an installer would. Returns the user's id. */
export async function createStaff(ctx: Awaited<ReturnType<typeof startServer>>['ctx'], role: 'operator' | 'admin', account: string, password: string): Promise<string> {
  const { insertUser } = await import('../apps/server/src/modules/users/repository');
  const { hashPassword } = await import('../apps/server/src/platform/crypto/password');
  return insertUser(ctx.db, { account, displayName: role === 'admin' ? 'Ada Admin' : 'Otto Operator', passwordHash: await hashPassword(password), role, status: 'active', locale: 'en', parentId: null });
}

/** The shop's API key (conversions:write, no signature required), made by `createdBy`; its `secret` goes in the Bearer header. */
export async function createShopKey(ctx: Awaited<ReturnType<typeof startServer>>['ctx'], createdBy: string) {
  const key = newApiKeySecret(ctx);
  await ctx.db.insertInto('api_keys').values({ id: newId(), name: 'Shop', prefix: key.prefix, secret_hash: key.hash, secret_sealed: key.sealed, scopes_json: '["conversions:write"]', require_signature: 0, created_by: createdBy, created_at: Date.now(), last_used_at: null, revoked_at: null }).execute();
  return key;
}

/** What `api/v1/conversions` answers for a new sale (the parts the journeys read). */
export interface PostedSale {
  conversion: { attributedBy: string };
  commissions: { id: string; level: number; amount: number; availableAt: number }[];
}

/** The shop reports a conversion through `api/v1/conversions` with its key's `secret`; expects it created (201). */
export async function postSale(serverUrl: string, secret: string, body: Record<string, unknown>): Promise<PostedSale> {
  const res = await fetch(`${serverUrl}api/v1/conversions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as PostedSale;
}

/**
 * The merchant's landing page: HTTPS (campaigns accept nothing else) on localhost with a test-only
 * self-signed certificate; records the addresses it was asked for.
 */
export async function startLandingServer() {
  const landed: string[] = [];
  const server = https.createServer(
    { key: fs.readFileSync(path.join(ROOT, 'e2e/fixtures/landing-key.pem')), cert: fs.readFileSync(path.join(ROOT, 'e2e/fixtures/landing-cert.pem')) },
    (req, res) => {
      landed.push(req.url ?? '');
      const click = new URL(req.url ?? '/', 'https://localhost').searchParams.get('pa_click') ?? '';
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><title>Shop</title><h1 id="landing">Summer Tea shop</h1><p id="click">${click.replace(/[^0-9A-Za-z]/g, '')}</p>`);
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `https://localhost:${(server.address() as AddressInfo).port}/tea`,
    landed,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** Opens Me → Language on `baseUrl` and picks `locale`; waits until the page has switched. */
export async function setLanguage(page: Page, baseUrl: string, locale: string) {
  await page.goto(`${baseUrl}#/me/language`);
  await page.getByTestId(`lang-${locale}`).click();
  await page.waitForFunction((l) => document.documentElement.lang === l, locale);
}

/** Registers through the form at `url` (the register page, or an invite link) and waits for Home. */
export async function registerThroughForm(page: Page, url: string, account: string, name: string, password: string) {
  await page.goto(url);
  await page.locator('#account').fill(account);
  await page.locator('#displayName').fill(name);
  await page.locator('#password').fill(password);
  await page.getByTestId('register-submit').click();
  await page.getByTestId('greeting').waitFor();
}

/** Signs in through the form at `url` (the sign-in page) and waits for Home. */
export async function signInThroughForm(page: Page, url: string, account: string, password: string) {
  await page.goto(url);
  await page.locator('#account').fill(account);
  await page.locator('#password').fill(password);
  await page.getByTestId('login-submit').click();
  await page.getByTestId('greeting').waitFor();
}

/** A server, the HTTPS landing page and Chromium for one journey file; `close` stops all three. */
export async function startJourney() {
  const server = await startServer();
  const landing = await startLandingServer();
  const browser = await launchBrowser();
  return {
    server,
    landing,
    browser,
    async close() {
      await browser.close();
      await landing.close();
      await server.close();
    },
  };
}
