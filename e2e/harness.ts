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
import type { Locale } from '@pa/shared';
import { AUDIT_TEXTS, COMMON_TEXTS, CONVERSION_TEXTS, NOTIFICATION_TEXTS } from '@pa/shared/texts';
import { buildApp } from '../apps/server/src/app';
import { createContext } from '../apps/server/src/bootstrap';
import { loadConfig, type Config } from '../apps/server/src/config';
import { newApiKeySecret } from '../apps/server/src/platform/api-keys';
import { newId } from '../apps/server/src/platform/ids';

export const ROOT = path.resolve(import.meta.dirname, '..');
export const ARTIFACTS = path.join(ROOT, 'e2e/artifacts');
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** `overrides`: settings a journey needs beyond the defaults (e.g. webhooks to a receiver on loopback). */
export async function startServer(overrides: Partial<Config> = {}) {
  const dist = path.join(ROOT, 'apps/web/dist/index.html');
  if (!fs.existsSync(dist)) throw new Error('The web app is not built: run "npm run build" first.');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pa-e2e-'));
  const config = { ...loadConfig({}), dataDir, port: 0, host: '127.0.0.1', authRateLimitPerMinute: 1000, ...overrides };
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

/** The elements a finger can act on (a label stands for the input inside it). */
const INTERACTIVE = 'a[href], button, input:not([type="hidden"]), select, textarea, summary, label:has(input), [role="button"], [role="link"], [role="tab"], [role="radio"], [role="checkbox"], [role="switch"], [role="menuitem"], [role="option"], [tabindex]:not([tabindex="-1"])';

/**
 * Touch targets (WCAG 2.5.8, with Apple's and our 44 px instead of 24): every visible interactive
 * element on the page measures at least 44×44 CSS px, and the 44×44 square centred on it overlaps
 * no other interactive element (targets do not overlap; a control wholly inside another, like a
 * field's "show password" button, is a deliberate part of it; a bar pinned to the screen is not
 * crowded by what scrolls beneath it). WCAG's spacing exception for
 * small targets is not taken: the small targets reported (an 18 px tall activity title, an 80×26
 * "Sign out") had room around them and were still hard to hit. Exempt, and only these: a link
 * inside a sentence (an inline `a` whose block holds more text than the link; WCAG's inline
 * exception), and an input inside a label (the label is the target). Nested targets count once,
 * as the outermost. Returns the misses as "tag.class “text” W×H".
 */
export async function smallTouchTargets(page: Page): Promise<string[]> {
  return page.evaluate((selector) => {
    const MIN = 44;
    type Box = { left: number; top: number; right: number; bottom: number };
    const visible = (el: Element) => {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || el.closest('.visually-hidden, [aria-hidden="true"], [inert]')) return false;
      const style = getComputedStyle(el);
      return style.visibility !== 'hidden' && Number(style.opacity) > 0 && style.pointerEvents !== 'none';
    };
    const inSentence = (el: Element) => {
      if (el.tagName !== 'A' || getComputedStyle(el).display !== 'inline') return false;
      const block = el.parentElement;
      return !!block && (block.textContent ?? '').trim().length > (el.textContent ?? '').trim().length;
    };
    const targets = Array.from(document.querySelectorAll(selector))
      .filter((el) => visible(el) && !(el.tagName === 'INPUT' && el.closest('label')) && !inSentence(el));
    const outermost = targets.filter((el) => !targets.some((other) => other !== el && other.contains(el)));
    // A bar fixed to the screen (tab bar, save bar) overlaps whatever scrolls beneath it: not crowding.
    const pinned = (el: Element): boolean => {
      for (let e: Element | null = el; e; e = e.parentElement) if (['fixed', 'sticky'].includes(getComputedStyle(e).position)) return true;
      return false;
    };
    const boxes = outermost.map((el) => {
      const r = el.getBoundingClientRect();
      const cx = (r.left + r.right) / 2;
      const cy = (r.top + r.bottom) / 2;
      const square: Box = { left: cx - MIN / 2, top: cy - MIN / 2, right: cx + MIN / 2, bottom: cy + MIN / 2 };
      return { el, r, square, pinned: pinned(el) };
    });
    const overlap = (a: Box, b: Box) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
    const inside = (a: Box, b: Box) => a.left >= b.left - 0.5 && a.right <= b.right + 0.5 && a.top >= b.top - 0.5 && a.bottom <= b.bottom + 0.5;
    // Crowding: a target's square reaches into another's box, unless one lies wholly inside the
    // other (a button placed in a text field, such as "show password").
    const crowds = (a: (typeof boxes)[number], b: (typeof boxes)[number]) => a.pinned === b.pinned && overlap(a.square, b.r) && !inside(a.r, b.r) && !inside(b.r, a.r);
    const describe = (el: Element, r: DOMRect) =>
      `${el.tagName.toLowerCase()}.${String(el.className).trim().split(/\s+/).slice(0, 2).join('.')} “${(el.textContent || el.getAttribute('aria-label') || '').trim().slice(0, 30)}” ${Math.round(r.width)}×${Math.round(r.height)}`;
    return boxes
      .filter((a) => a.r.width < MIN - 0.5 || a.r.height < MIN - 0.5 || boxes.some((b) => b !== a && crowds(a, b)))
      .map(({ el, r }) => describe(el, r));
  }, INTERACTIVE);
}

/**
 * Records the screen as `name`, then checks that no i18n key shows untranslated, that the page
 * is no wider than the screen and that its touch targets are big enough (smallTouchTargets).
 * With `fit` (a selector), also that none of the elements it matches sticks out of the screen
 * (clipped text inside a card or list would not widen the page).
 */
export async function checkScreen(page: Page, name: string, { fit }: { fit?: string } = {}) {
  await screenshot(page, name);
  expect(await proseText(page), name).not.toMatch(UNTRANSLATED);
  expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth), name).toBe(false);
  // Soft: a journey reports every screen's small targets at once, then fails.
  expect.soft(await smallTouchTargets(page), `${name}: touch targets under 44×44 px or crowding another`).toEqual([]);
  expect.soft(await splitWords(page, '.chip'), `${name}: words split across lines in a filter chip`).toEqual([]);
  if (fit === undefined) return;
  const wide = await page.evaluate((selector) => Array.from(document.querySelectorAll(selector))
    .filter((el) => { const r = el.getBoundingClientRect(); return !el.closest('.visually-hidden') && r.width > 0 && (r.right > window.innerWidth + 0.5 || r.left < -0.5); })
    .map((el) => `${el.tagName}.${el.className}`), fit);
  expect(wide, name).toEqual([]);
}

/** A staff screen at a desk (a mouse, not a finger): recorded, no untranslated key, nothing wider than the window. */
export async function checkDesk(page: Page, name: string) {
  await screenshot(page, name);
  expect(await proseText(page), name).not.toMatch(UNTRANSLATED);
  expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth), `${name}: wider than the window`).toBe(false);
}

/**
 * Words of Latin script (CJK breaks between characters by design) that the browser broke across
 * two lines inside the elements matching `selector`: each word's text range must lie on one line.
 */
export async function splitWords(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((sel) => {
    const split: string[] = [];
    for (const el of Array.from(document.querySelectorAll(sel))) {
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const m of (node.textContent ?? '').matchAll(/\S+/g)) {
          if (!/[A-Za-zÀ-ɏ]/.test(m[0])) continue;
          const range = document.createRange();
          range.setStart(node, m.index);
          range.setEnd(node, m.index + m[0].length);
          if (new Set(Array.from(range.getClientRects()).map((r) => Math.round(r.top))).size > 1) split.push(m[0]);
        }
      }
    }
    return split;
  }, selector);
}

/** How many of the children of each element matching `selector` sit on each row (by their top edge). */
export async function itemsPerRow(page: Page, selector: string): Promise<number[][]> {
  return page.evaluate((sel) => Array.from(document.querySelectorAll(sel)).map((bar) => {
    const rows = new Map<number, number>();
    for (const child of Array.from(bar.children)) {
      const top = Math.round(child.getBoundingClientRect().top);
      rows.set(top, (rows.get(top) ?? 0) + 1);
    }
    return [...rows.entries()].sort((a, b) => a[0] - b[0]).map(([, n]) => n);
  }), selector);
}

/**
 * The web app's texts in `locale`: its three areas (sign-in's, the promoter app's, the console's)
 * and the shared catalogue's parts merged where the app puts them (src/i18n/index.ts), as it holds
 * them once all are loaded: error and field texts at the top, the inbox's messages under
 * `notifications`, the conversion terms as `conversions`, the audit names under `auditAdmin`.
 */
export function readLocale(locale: string): Record<string, unknown> {
  const areas = ['common', 'app', 'console'].map((area) => JSON.parse(fs.readFileSync(path.join(ROOT, `apps/web/src/i18n/locales/${locale}/${area}.json`), 'utf8')) as Record<string, unknown>);
  const l = locale as Locale;
  const texts = Object.assign({}, ...areas, COMMON_TEXTS[l], { conversions: CONVERSION_TEXTS[l] }) as Record<string, unknown>;
  texts.notifications = { ...(texts.notifications as object), ...NOTIFICATION_TEXTS[l] };
  texts.auditAdmin = { ...(texts.auditAdmin as object), ...AUDIT_TEXTS[l] };
  return texts;
}

export function tr(messages: Record<string, unknown>, key: string, vars: Record<string, string> = {}): string {
  const value = key.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown>)?.[k], messages);
  if (typeof value !== 'string') throw new Error(`no message ${key}`);
  return value.replace(/\{\{(\w+)\}\}/g, (_, name: string) => vars[name] ?? '');
}

/** Text that looks like an i18n key left untranslated (e.g. "home.greeting"). */
export const UNTRANSLATED = /\b(app|tabs|auth|fields|errors|home|promote|team|me|profile|language|password|devices|about|languages|campaign|links|poster|campaignAdmin|admin|moneyAdmin|wallet|ledger|commissions|payoutAccounts|withdraw|withdrawals|withdrawalsAdmin|notifications|conversions|stats|leaderboard|announcements|announcementsAdmin|console|overview|staffAdmin|resetPassword|promotersAdmin|auditAdmin|webhooksAdmin|mailAdmin|mailPrefs|forgotPassword|integrations|emailAddress|verifyEmail|rewardRules|corrections|groupsAdmin|bounties|bountiesAdmin)\.[A-Za-z_]+\b/;

/**
 * The page's words, without what it shows as code (<code>: an audit action such as
 * `campaign.create` is a code to read as it is, not a translation key left over).
 */
export function proseText(page: Page): Promise<string> {
  return page.evaluate(() => {
    let text = document.body.innerText;
    for (const code of Array.from(document.querySelectorAll('code'))) {
      const shown = code.innerText;
      if (shown) text = text.split(shown).join(' ');
    }
    return text;
  });
}

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

/** Signs in through the form at `url` (the sign-in page) and waits for where one lands: Home for a promoter, the overview for staff. */
export async function signInThroughForm(page: Page, url: string, account: string, password: string) {
  await page.goto(url);
  await page.locator('#account').fill(account);
  await page.locator('#password').fill(password);
  await page.getByTestId('login-submit').click();
  await page.getByTestId('greeting').or(page.getByTestId('overview')).waitFor();
}

/** A server (with `overrides` to its settings), the HTTPS landing page and Chromium for one journey file; `close` stops all three. */
export async function startJourney(overrides: Partial<Config> = {}) {
  const server = await startServer(overrides);
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
