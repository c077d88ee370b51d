/// <reference lib="dom" />
/**
 * The landing-page snippet in Chromium (issue 17): a merchant's shop on another origin (HTTPS,
 * another port) carries `<script src="<base>/pa.js">`. A visitor opens a promoter's link: the shop's
 * page keeps the click id in its own cookie and drops it from the address; a navigation later, the
 * checkout page hands it to the shop's server, which reports the sale through `api/v1/conversions`
 * — and the promoter sees the commission. Then the console's copy-paste block (1280×800, five
 * languages) gives the same tag.
 */
import fs from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import Stripe from 'stripe';
import { CampaignCreateSchema } from '@pa/shared';
import { LOCALES } from '@pa/shared/locales';
import { createCampaign, updateCampaign } from '../apps/server/src/modules/campaigns/service';
import { checkDesk, checkScreen, createShopKey, createStaff, launchBrowser, phoneContext, readLocale, registerThroughForm, ROOT, setLanguage, signInThroughForm, startServer, tr, watchProblems } from './harness';

let server: Awaited<ReturnType<typeof startServer>>;
let browser: Browser;
let shop: Awaited<ReturnType<typeof startShop>>;
/** What the first journey leaves for the console's: its campaign. */
const state = { campaignId: '' };
const stripe = new Stripe('sk_test_not_used_for_calls');

/**
 * The merchant: a landing page and a checkout page that load the snippet from `snippetSrc`, and the
 * shop's server (`POST /order`), which reports the sale with its API key and the click id the page sent.
 */
async function startShop(snippetSrc: string) {
  const state: { secret: string; campaignId: string; reported: unknown[] } = { secret: '', campaignId: '', reported: [] };
  const page = (title: string, body: string) =>
    `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${title}</title>`
    + `<script async src="${snippetSrc}" data-days="30"></script></head><body>${body}</body></html>`;
  const checkoutScript = `<script>
document.getElementById('buy').addEventListener('click', async () => {
  const clickId = window.PromotionAssistant ? window.PromotionAssistant.clickId() : null;
  const res = await fetch('/order', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ orderId: 'TEA-' + Date.now(), amount: 25900, clickId }) });
  document.getElementById('result').textContent = JSON.stringify(await res.json());
});
</script>`;
  const server = https.createServer(
    { key: fs.readFileSync(path.join(ROOT, 'e2e/fixtures/landing-key.pem')), cert: fs.readFileSync(path.join(ROOT, 'e2e/fixtures/landing-cert.pem')) },
    (req, res) => {
      const url = new URL(req.url ?? '/', 'https://localhost');
      if (req.method === 'GET' && url.pathname === '/tea') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page('Summer Tea', '<h1 id="landing">Summer Tea shop</h1><a id="to-checkout" href="/tea/checkout" style="display:inline-block;padding:14px">Buy a box</a>'));
      } else if (req.method === 'GET' && url.pathname === '/tea/checkout') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page('Checkout', `<h1 id="checkout">Checkout</h1><button id="buy" style="padding:14px">Pay 259.00</button><pre id="result"></pre>${checkoutScript}`));
      } else if (req.method === 'POST' && url.pathname === '/order') {
        let body = '';
        req.on('data', (chunk: Buffer) => (body += chunk.toString()));
        req.on('end', async () => {
          const order = JSON.parse(body) as { orderId: string; amount: number; clickId: string | null };
          // The shop's server: the plain API route, with its key (docs/integrations.md).
          const answer = await fetch(`${snippetSrc.replace(/pa\.js.*$/, '')}api/v1/conversions`, {
            method: 'POST',
            headers: { authorization: `Bearer ${state.secret}`, 'content-type': 'application/json' },
            body: JSON.stringify({ campaignId: state.campaignId, kind: 'sale', externalId: order.orderId, amount: order.amount, customerExternalId: 'cus_e2e', ...(order.clickId ? { clickId: order.clickId } : {}) }),
          });
          const json = await answer.json();
          state.reported.push({ status: answer.status, clickId: order.clickId, json });
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ status: answer.status, attributedBy: json.conversion?.attributedBy ?? null }));
        });
      } else {
        // The browser's favicon.ico among them: the shop has none to give.
        res.writeHead(url.pathname === '/favicon.ico' ? 204 : 404).end();
      }
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `https://localhost:${(server.address() as AddressInfo).port}/tea`, state, close: () => new Promise<void>((r) => server.close(() => r())) };
}

beforeAll(async () => {
  server = await startServer();
  const version = (await import('../apps/server/src/modules/integrations/snippet')).snippet().version;
  shop = await startShop(`${server.url}pa.js?v=${version}`);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await shop?.close();
  await server?.close();
});

const en = readLocale('en');

describe('the landing-page snippet on a shop of another origin', () => {
  it('keeps the click across a navigation; the checkout reports the sale with it; the promoter sees the commission', async () => {
    const run = Date.now().toString(36);
    const adminId = await createStaff(server.ctx, 'admin', `snip${run}@example.com`, 'Admin-pass-1');
    const campaignId = await createCampaign(server.ctx, adminId, CampaignCreateSchema.parse({
      names: { en: 'Summer Tea' }, landingUrl: shop.url, saleRewardType: 'bps', saleReward: 1000, attributionWindowDays: 30, customerBinding: 12, approvalMode: 'auto',
    }) as Parameters<typeof createCampaign>[2]);
    await updateCampaign(server.ctx, adminId, campaignId, { status: 'active' });
    shop.state.secret = (await createShopKey(server.ctx, adminId)).secret;
    shop.state.campaignId = campaignId;

    // A promoter joins and takes the campaign's link.
    const promoterContext = await phoneContext(browser);
    const promoter = await promoterContext.newPage();
    const promoterProblems = watchProblems(promoter);
    await registerThroughForm(promoter, `${server.url}#/register`, `pia${run}@example.com`, 'Pia Promoter', 'Snippet-pass-1');
    await promoter.goto(`${server.url}#/campaigns/${campaignId}`);
    await promoter.getByTestId(`join-${campaignId}`).click();
    const link = (await promoter.getByTestId('campaign-link').textContent())!;

    // A visitor opens it: the shop's page, its click id kept in the shop's own cookie, the address clean.
    // A person's phone: the headless browser's own user agent counts as a bot, whose clicks earn nothing.
    const visitorContext = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1' });
    const visitor = await visitorContext.newPage();
    const visitorProblems = watchProblems(visitor);
    await visitor.goto(link);
    await visitor.locator('#landing').waitFor();
    await visitor.waitForFunction(() => !!(window as unknown as { PromotionAssistant?: unknown }).PromotionAssistant);
    expect(visitor.url()).toBe(shop.url);
    const kept = (await visitorContext.cookies(shop.url)).find((c) => c.name === 'pa_click')!;
    expect(kept.value).toMatch(/^[0-9A-Z]{26}$/);
    expect(kept.sameSite).toBe('Lax');
    expect(kept.secure).toBe(true);
    expect(kept.expires * 1000).toBeGreaterThan(Date.now() + 29.9 * 86_400_000);
    expect(kept.expires * 1000).toBeLessThan(Date.now() + 30.1 * 86_400_000);
    // The click the redirect stored is the one the page keeps.
    const stored = await server.ctx.db.selectFrom('clicks').select('id').where('id', '=', kept.value).executeTakeFirst();
    expect(stored?.id).toBe(kept.value);

    // A navigation later, the checkout page still has it and hands it to the shop's server.
    await visitor.locator('#to-checkout').click();
    await visitor.locator('#checkout').waitFor();
    expect(await visitor.evaluate(() => (window as unknown as { PromotionAssistant: { clickId(): string | null } }).PromotionAssistant.clickId())).toBe(kept.value);
    await visitor.locator('#buy').click();
    await expect.poll(() => visitor.locator('#result').textContent()).not.toBe('');
    expect(shop.state.reported, JSON.stringify(shop.state.reported)).toEqual([expect.objectContaining({ status: 201, clickId: kept.value })]);
    expect(await visitor.locator('#result').textContent()).toBe(JSON.stringify({ status: 201, attributedBy: 'click' }));
    expect(visitorProblems).toEqual([]);
    await visitorContext.close();

    // The promoter sees the commission: 10 % of 259.00, the first month of the customer's twelve.
    await promoter.goto(`${server.url}#/wallet`);
    await expect.poll(() => promoter.getByTestId('wallet-pending').textContent()).toBe('CN¥25.90');
    const commissionId = (shop.state.reported[0] as { json: { commissions: { id: string }[] } }).json.commissions[0]!.id;
    for (const locale of LOCALES) {
      await setLanguage(promoter, server.url, locale);
      await promoter.goto(`${server.url}#/commissions/${commissionId}`);
      await expect.poll(() => promoter.getByTestId('commission-recurring').textContent()).toBe(tr(readLocale(locale), 'commissions.recurring.months', { month: '1', of: '12' }));
      await checkScreen(promoter, `integrations-commission-recurring-${locale}`);
    }
    expect(promoterProblems).toEqual([]);
    await promoterContext.close();
    state.campaignId = campaignId;
  });

  it('an admin connects the campaign to Stripe in the console; a signed event shows recorded (1280×800, five languages)', async () => {
    const run = Date.now().toString(36);
    await createStaff(server.ctx, 'admin', `stripe${run}@example.com`, 'Admin-pass-1');
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1, locale: 'en-US' });
    const page = await context.newPage();
    const problems = watchProblems(page);
    await signInThroughForm(page, `${server.url}#/login`, `stripe${run}@example.com`, 'Admin-pass-1');
    await page.goto(`${server.url}#/admin/campaigns/${state.campaignId}`);
    const card = page.getByTestId('stripe-card');
    await expect.poll(() => page.getByTestId('stripe-state').textContent()).toBe(tr(en, 'integrations.stripe.notConnected'));
    expect(await page.getByTestId('stripe-endpoint').textContent()).toBe(`${server.url}api/v1/integrations/stripe/${state.campaignId}`);
    await page.getByTestId('stripe-secret').fill('whsec_e2eSigningSecret0123');
    await page.getByTestId('stripe-save').click();
    // No event has come yet: connected, waiting for the first one (not "receiving events").
    await expect.poll(() => page.getByTestId('stripe-state').textContent()).toMatch(/^Connected: waiting for the first event/);
    expect(await page.getByTestId('stripe-secret').inputValue()).toBe('');
    // Leaving the editor with an unsaved change asks first; "Stay" keeps the page and the change.
    const name = page.getByTestId('campaign-name');
    const saved = await name.inputValue();
    await name.fill(`${saved} (draft)`);
    await page.getByTestId('nav-campaigns').click();
    await page.locator('.adm-dialog').getByText(tr(en, 'app.unsavedLeave')).waitFor();
    await page.locator('.adm-dialog').getByText(tr(en, 'app.stay')).click();
    expect(page.url()).toContain(`#/admin/campaigns/${state.campaignId}`);
    expect(await name.inputValue()).toBe(`${saved} (draft)`);
    await name.fill(saved);
    expect(await page.locator('body').innerText()).not.toContain('e2eSigningSecret');

    // Stripe sends a paid invoice of the bound customer, signed with that secret.
    const payload = JSON.stringify({ id: `evt_${run}`, object: 'event', type: 'invoice.paid', created: Math.floor(Date.now() / 1000), data: { object: { id: `in_${run}`, object: 'invoice', customer: 'cus_e2e', currency: 'cny', amount_paid: 4900, status: 'paid' } } });
    const answer = await fetch(`${server.url}api/v1/integrations/stripe/${state.campaignId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_e2eSigningSecret0123' }) },
      body: payload,
    });
    expect(answer.status).toBe(200);
    for (const locale of LOCALES) {
      await setLanguage(page, server.url, locale);
      await page.goto(`${server.url}#/admin/campaigns/${state.campaignId}`);
      await expect.poll(() => card.getByTestId('stripe-events').innerText()).toContain(tr(readLocale(locale), 'integrations.stripe.outcome.recorded'));
      if (locale === 'en') expect(await page.getByTestId('stripe-state').textContent()).toMatch(/^Connected: receiving events/);
      expect(await card.innerText()).toContain('invoice.paid');
      await checkDesk(page, `integrations-stripe-${locale}`);
    }
    expect(problems).toEqual([]);
    await context.close();

    // On a phone too: nothing wider than the screen, every control big enough to tap.
    const phone = await phoneContext(browser);
    const phonePage = await phone.newPage();
    const phoneProblems = watchProblems(phonePage);
    await signInThroughForm(phonePage, `${server.url}#/login`, `stripe${run}@example.com`, 'Admin-pass-1');
    for (const locale of ['en', 'zh-Hant'] as const) {
      await setLanguage(phonePage, server.url, locale);
      await phonePage.goto(`${server.url}#/admin/campaigns/${state.campaignId}`);
      await phonePage.getByTestId('stripe-events').waitFor();
      await checkScreen(phonePage, `integrations-stripe-phone-${locale}`, { fit: '.stripe-card *' });
    }
    expect(phoneProblems).toEqual([]);
    await phone.close();
  });

  it('the console gives the tag to paste, with the campaign window, in every language (1280×800)', async () => {
    const run = Date.now().toString(36);
    await createStaff(server.ctx, 'admin', `desk${run}@example.com`, 'Admin-pass-1');
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1, locale: 'en-US' });
    const page = await context.newPage();
    const problems = watchProblems(page);
    await signInThroughForm(page, `${server.url}#/login`, `desk${run}@example.com`, 'Admin-pass-1');
    const version = (await import('../apps/server/src/modules/integrations/snippet')).snippet().version;
    for (const locale of LOCALES) {
      await setLanguage(page, server.url, locale);
      await page.goto(`${server.url}#/admin/api-keys`);
      const help = page.getByTestId('snippet-help');
      await help.waitFor();
      await expect.poll(() => page.getByTestId('snippet-tag').textContent()).toBe(`<script async src="${server.url}pa.js?v=${version}" data-days="30"></script>`);
      expect(await help.innerText()).toContain(tr(readLocale(locale), 'moneyAdmin.apiKeys.snippet.title'));
      await checkDesk(page, `integrations-snippet-${locale}`);
    }
    expect(await page.getByTestId('snippet-help').innerText()).toContain(tr(readLocale('es'), 'moneyAdmin.apiKeys.snippet.tagLabel', { days: '30' }));
    expect(tr(en, 'moneyAdmin.apiKeys.snippet.title')).toBe('Landing-page snippet');
    expect(problems).toEqual([]);
    await context.close();
  });
});
