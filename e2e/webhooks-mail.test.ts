/// <reference lib="dom" />
/**
 * Webhooks from the console at a desk (issue 16): an admin adds an endpoint pointing at a
 * receiver started here (loopback, so the server runs with WEBHOOK_ALLOW_PRIVATE), ticks every
 * event, sees the signing secret once, sends a test and sees it delivered (status and a 2xx code)
 * in the endpoint's deliveries; the receiver checks the request's signature with that secret.
 * Then a promoter on a phone: "Forgot password?" from sign-in gets the same neutral answer whether
 * or not the account exists, and Me → E-mail notifications says mail is off here and keeps a choice.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { WEBHOOK_EVENT_TYPES } from '@pa/shared';
import { startWebhookDispatcher } from '../apps/server/src/modules/webhooks/service';
import { checkScreen, createStaff, phoneContext, proseText, registerThroughForm, screenshot, startJourney, UNTRANSLATED, watchProblems } from './harness';

interface Received { id: string; timestamp: string; signature: string; body: string }

/** Answers 204 to every POST and keeps what it was sent. */
async function startReceiver() {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ id: String(req.headers['webhook-id']), timestamp: String(req.headers['webhook-timestamp']), signature: String(req.headers['webhook-signature']), body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** Standard Webhooks: base64 HMAC-SHA256, keyed by the secret's bytes, of "id.timestamp.body"; the header lists "v1,<signature>"s. */
function signedWith(secret: string, r: Received): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = crypto.createHmac('sha256', key).update(`${r.id}.${r.timestamp}.${r.body}`).digest('base64');
  return r.signature.split(' ').includes(`v1,${expected}`);
}

let journey: Awaited<ReturnType<typeof startJourney>>;
let browser: Browser;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let stopDispatcher: () => Promise<void>;

beforeAll(async () => {
  journey = await startJourney({ webhookAllowPrivate: true });
  browser = journey.browser;
  receiver = await startReceiver();
  // main.ts runs the dispatcher beside the server; the harness builds the app alone, so it is started here.
  stopDispatcher = startWebhookDispatcher(journey.server.ctx, { warn: (obj, msg) => console.warn(msg, obj) }, { intervalMs: 200 });
});

afterAll(async () => {
  await stopDispatcher?.();
  await receiver?.close();
  await journey?.close();
});

describe('webhooks from the console', () => {
  it('admin adds an endpoint, sees the secret once, sends a test and sees it delivered', async () => {
    const { server } = journey;
    const account = `hook${Date.now().toString(36)}@example.com`;
    await createStaff(server.ctx, 'admin', account, 'Admin-pass-1');
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1, locale: 'en-US' });
    const page = await context.newPage();
    const problems = watchProblems(page);
    await page.goto(`${server.url}#/login`);
    await page.locator('#account').fill(account);
    await page.locator('#password').fill('Admin-pass-1');
    await page.getByTestId('login-submit').click();
    await page.getByTestId('overview').waitFor();

    // The console's navigation leads to the page; it starts empty.
    await page.getByTestId('nav-webhooks').click();
    await page.getByTestId('webhook-add').click();
    await page.getByTestId('webhook-url').fill(receiver.url);
    await page.getByTestId('webhook-description').fill('Order system');
    await page.getByTestId('webhook-events-all').check();
    expect(await page.locator('[data-testid^="webhook-event-"]:checked').count()).toBe(WEBHOOK_EVENT_TYPES.length);
    await page.getByTestId('webhook-submit').click();

    // The secret, once, with the warning; nothing closes it but "I have stored it".
    const secret = (await page.getByTestId('webhook-secret').textContent())!.trim();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]+$/);
    expect(await page.getByTestId('webhook-secret-card').innerText()).toContain('you will not see it again');
    // Once the dialog has finished fading in.
    await expect.poll(() => page.locator('.staff-popup .adm-center-popup-body').evaluate((el) => getComputedStyle(el).opacity)).toBe('1');
    await screenshot(page, 'webhooks-secret-en');
    await page.getByTestId('webhook-secret-done').click();
    await page.waitForURL(/#\/admin\/webhooks\/[^/]+$/);
    expect(await page.getByTestId('webhook-summary').innerText()).toContain(receiver.url);
    expect(await page.locator('body').innerText()).not.toContain(secret);

    // A test: queued, sent by the dispatcher, shown delivered with the receiver's 204.
    await page.getByTestId('webhook-test').click();
    const row = page.getByTestId('deliveries').locator('tr').filter({ hasText: 'webhook.test' });
    await expect.poll(() => row.innerText(), { timeout: 15_000 }).toContain('Delivered');
    expect(await row.innerText()).toContain('204');
    await row.getByText(/1 attempt/).click();
    await expect.poll(() => row.innerText()).toMatch(/ms/);
    await screenshot(page, 'webhooks-delivered-en');
    expect(await proseText(page)).not.toMatch(UNTRANSLATED);

    // What arrived is the test event, signed with the secret the page showed.
    expect(receiver.received).toHaveLength(1);
    expect(JSON.parse(receiver.received[0]!.body)).toMatchObject({ type: 'webhook.test' });
    expect(signedWith(secret, receiver.received[0]!)).toBe(true);

    // The list shows it, enabled, with every event.
    await page.getByTestId('nav-webhooks').click();
    expect(await page.getByTestId('webhooks').innerText()).toMatch(new RegExp(`${WEBHOOK_EVENT_TYPES.length} events[\\s\\S]*Enabled`));

    // Its deliveries start failing: the list says since when, with the last error, not "Enabled".
    const endpoint = await server.ctx.db.selectFrom('webhook_endpoints').select('id').where('url', '=', receiver.url).executeTakeFirstOrThrow();
    const delivery = await server.ctx.db.selectFrom('webhook_deliveries').select('id').where('endpoint_id', '=', endpoint.id).executeTakeFirstOrThrow();
    await server.ctx.db.insertInto('webhook_attempts').values({ id: `att-${Date.now()}`, delivery_id: delivery.id, at: Date.now(), status_code: 503, duration_ms: 12, error: null }).execute();
    await server.ctx.db.updateTable('webhook_endpoints').set({ failing_since: Date.now() - 3_600_000 }).where('id', '=', endpoint.id).execute();
    await page.reload();
    await expect.poll(() => page.getByTestId(`webhook-status-${endpoint.id}`).innerText()).toMatch(/^Failing since /);
    expect(await page.getByTestId(`webhook-reason-${endpoint.id}`).innerText()).toBe('Last error: HTTP 503');
    await screenshot(page, 'webhooks-failing-en');
    await server.ctx.db.updateTable('webhook_endpoints').set({ failing_since: null }).where('id', '=', endpoint.id).execute();
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);

  it('promoter asks for a password link (the same answer for any account) and sets e-mail preferences', async () => {
    const { server } = journey;
    const phone = await phoneContext(browser);
    const page = await phone.newPage();
    const problems = watchProblems(page);
    const account = `mia${Date.now().toString(36)}@example.com`;
    await registerThroughForm(page, `${server.url}#/register`, account, 'Mia Promoter', 'First-pass-1');

    // Me → E-mail notifications: the promoter's three categories; this installation sends no mail, and says so.
    await page.goto(`${server.url}#/me`);
    await page.getByTestId('me-mail').click();
    await page.getByTestId('mail-prefs-off').waitFor();
    expect(await page.getByTestId('mail-prefs').locator('[data-testid^="mail-pref-"]').count()).toBe(3);
    await checkScreen(page, 'mail-prefs-en');
    await page.getByTestId('mail-pref-commissions').click();
    await expect.poll(() => page.getByTestId('mail-pref-commissions').getAttribute('aria-checked')).toBe('false');
    await page.reload();
    await expect.poll(() => page.getByTestId('mail-pref-commissions').getAttribute('aria-checked')).toBe('false');

    // Signed out: "Forgot password?" carries the typed account along; the answer never tells whether it exists.
    await page.getByTestId('nav-back').click();
    await page.getByTestId('sign-out').click();
    await page.waitForURL(/#\/login/);
    for (const who of [account, 'nobody@example.com']) {
      await page.goto(`${server.url}#/login`);
      await page.locator('#account').fill(who);
      await page.getByTestId('forgot-password').click();
      expect(await page.locator('#account').inputValue()).toBe(who);
      await checkScreen(page, 'forgot-password-en');
      await page.getByTestId('forgot-submit').click();
      await page.getByTestId('forgot-sent').waitFor();
      expect(await page.getByTestId('forgot-sent').innerText()).toContain('30 minutes');
    }
    await checkScreen(page, 'forgot-password-sent-en');
    expect(problems).toEqual([]);
    await phone.close();
  }, 60_000);
});
