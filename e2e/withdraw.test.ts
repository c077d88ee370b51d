/// <reference lib="dom" />
/**
 * The withdrawal journey in Chromium at 390×844: a promoter with approved earnings adds a payout
 * account (the number sealed in the browser) → requests a withdrawal, seeing the fee and the net
 * before sending → an operator approves it and marks it paid in the console → the promoter sees
 * the status timeline, the notification (and the badge on the Me tab) and the new balances.
 * Then the withdrawal screens and the operator's queue in all five languages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { CampaignCreateSchema } from '@pa/shared';
import { LOCALES } from '@pa/shared/locales';
import { createCampaign, updateCampaign } from '../apps/server/src/modules/campaigns/service';
import { decideCommission } from '../apps/server/src/modules/commissions/service';
import { checkLedger } from '../apps/server/src/platform/ledger';
import { writeSettings } from '../apps/server/src/platform/settings';
import { checkScreen, createShopKey, itemsPerRow, createStaff, phoneContext, postSale, readLocale, registerThroughForm, setLanguage, signInThroughForm, startJourney, tr, watchProblems } from './harness';

let journey: Awaited<ReturnType<typeof startJourney>>;
let server: typeof journey.server;
let browser: Browser;

beforeAll(async () => {
  journey = await startJourney();
  ({ server, browser } = journey);
});

afterAll(async () => {
  await journey?.close();
});

const en = readLocale('en');

describe('earnings become a paid withdrawal', () => {
  it('payout account → withdrawal with fee and net shown first → approved and paid → timeline, notification, balances', async () => {
    const run = Date.now().toString(36);
    // The program: fee 1% + CN¥1.00; a campaign whose sale the business reports through the API.
    await writeSettings(server.ctx.db, { withdrawalFeeBps: 100, withdrawalFeeFixed: 100 });
    await createStaff(server.ctx, 'operator', `otto${run}@example.com`, 'Operator-pass-1');
    const adminId = await createStaff(server.ctx, 'admin', `ada${run}@example.com`, 'Admin-pass-1');
    const campaignId = await createCampaign(server.ctx, adminId, CampaignCreateSchema.parse({
      names: { en: 'Summer Tea', 'zh-Hans': '夏日茶饮', 'zh-Hant': '夏日茶飲', fr: 'Thé d’été', es: 'Té de verano' },
      landingUrl: 'https://shop.example.com/tea', saleRewardType: 'bps', saleReward: 1000, holdDays: 0, approvalMode: 'manual',
    }) as Parameters<typeof createCampaign>[2]);
    await updateCampaign(server.ctx, adminId, campaignId, { status: 'active' });
    const key = await createShopKey(server.ctx, adminId);

    const context = await phoneContext(browser);
    const page = await context.newPage();
    const problems = watchProblems(page);
    await registerThroughForm(page, `${server.url}#/register`, `wen${run}@example.com`, 'Wen Promoter', 'Money-pass-1');
    await page.goto(`${server.url}#/campaigns/${campaignId}`);
    await page.getByTestId(`join-${campaignId}`).click();
    const link = (await page.getByTestId('campaign-link').textContent())!;
    // No poster templates: the hint that says so keeps its distance from the Poster button below it.
    const gap = await page.getByTestId('campaign-poster').evaluate((button) => button.getBoundingClientRect().top - button.previousElementSibling!.getBoundingClientRect().bottom);
    expect(gap).toBeGreaterThanOrEqual(8);
    const sale = await postSale(server.url, key.secret, { campaignId, kind: 'sale', externalId: `ORDER-${run}`, amount: 500_000, linkCode: link.split('/').pop() });
    const commission = sale.commissions[0]!;
    expect(await decideCommission(server.ctx, commission.id, 'approve', adminId, null)).toBe(true);

    // 1. A payout account, from Me.
    await page.goto(`${server.url}#/me`);
    await page.getByTestId('me-payout-accounts').click();
    await page.getByTestId('payout-add').click();
    await page.getByTestId('payout-method').selectOption('bank');
    await page.locator('#payout-holder').fill('Wen Promoter');
    await page.locator('#payout-number').fill('6222 0212 3456 7890');
    await page.getByTestId('payout-save').click();
    await expect.poll(() => page.getByTestId('payout-last4').first().textContent()).toContain('7890');
    expect(await page.locator('body').innerText()).not.toContain('6222');
    const stored = await server.ctx.db.selectFrom('payout_accounts').innerJoin('users', 'users.id', 'payout_accounts.promoter_id').select('payout_accounts.number_sealed').where('users.account', '=', `wen${run}@example.com`).executeTakeFirstOrThrow();
    expect(stored.number_sealed).not.toContain('7890');

    // 2. The withdrawal: fee and net are on the screen before it is sent.
    await page.goto(`${server.url}#/wallet`);
    await expect.poll(() => page.getByTestId('wallet-available').textContent()).toBe('CN¥500.00');
    await page.getByTestId('wallet-withdraw').click();
    await expect.poll(() => page.getByTestId('withdraw-available').textContent()).toBe('CN¥500.00');
    // The empty amount field reads as a hint, not as an amount already typed in.
    const placeholder = (await page.locator('#withdraw-amount').getAttribute('placeholder'))!;
    expect(placeholder).toBe(tr(en, 'withdraw.amountPlaceholder', { min: '10' }));
    expect(placeholder).not.toMatch(/^[\d.,\s]+$/);
    await page.locator('#withdraw-amount').fill('300');
    await expect.poll(() => page.getByTestId('withdraw-fee').textContent()).toBe('CN¥4.00');
    expect(await page.getByTestId('withdraw-net').textContent()).toBe('CN¥296.00');
    await checkScreen(page, 'withdraw-en-form-filled');
    await page.getByTestId('withdraw-submit').click();
    await page.waitForURL(/#\/withdrawals\/[0-9A-Za-z]+$/);
    const withdrawalId = page.url().split('/').pop()!;
    await expect.poll(() => page.getByTestId('withdrawal-status').getAttribute('data-status')).toBe('requested');
    await page.goto(`${server.url}#/wallet`);
    await expect.poll(() => page.getByTestId('wallet-available').textContent()).toBe('CN¥200.00');
    expect(await page.getByTestId('wallet-withdrawing').textContent()).toBe('CN¥300.00');

    // A detail page left open on the promoter's other phone: it shows the request and its Cancel
    // button, then follows the operator's approval and payment by itself — no reload, within the
    // app's refresh interval (≤ 30 s; the test moves that phone's clock on instead of waiting).
    const watcherContext = await phoneContext(browser);
    const watcher = await watcherContext.newPage();
    const watcherProblems = watchProblems(watcher);
    await signInThroughForm(watcher, `${server.url}#/login`, `wen${run}@example.com`, 'Money-pass-1');
    await watcherContext.clock.install();
    await watcher.goto(`${server.url}#/withdrawals/${withdrawalId}`);
    await watcher.reload();
    await expect.poll(() => watcher.getByTestId('withdrawal-status').getAttribute('data-status')).toBe('requested');
    await watcher.getByTestId('withdrawal-cancel').waitFor();

    // 3. The operator approves it, then marks it paid with the bank's reference.
    const opContext = await phoneContext(browser);
    const op = await opContext.newPage();
    const opProblems = watchProblems(op);
    await signInThroughForm(op, `${server.url}#/login`, `otto${run}@example.com`, 'Operator-pass-1');
    await op.goto(`${server.url}#/admin/withdrawals`);
    await op.getByTestId(`withdrawal-approve-${withdrawalId}`).click();
    await op.getByTestId('withdrawal-confirm').click();
    await op.getByTestId(`withdrawal-approve-${withdrawalId}`).waitFor({ state: 'detached' });
    await op.goto(`${server.url}#/admin/withdrawals?status=approved`);
    await op.getByTestId(`withdrawal-pay-${withdrawalId}`).click();
    await op.locator('#withdrawal-reference').fill(`BANK-${run}`);
    await op.getByTestId('withdrawal-confirm').click();
    await op.getByTestId(`withdrawal-pay-${withdrawalId}`).waitFor({ state: 'detached' });
    await op.goto(`${server.url}#/admin/withdrawals/${withdrawalId}`);
    await expect.poll(() => op.getByTestId('withdrawal-timeline').innerText()).toContain(`BANK-${run}`);
    await checkScreen(op, 'withdraw-en-admin-detail');

    await watcherContext.clock.fastForward(30_000);
    await expect.poll(() => watcher.getByTestId('withdrawal-status').getAttribute('data-status'), { timeout: 5000 }).toBe('paid');
    expect(await watcher.getByTestId('withdrawal-cancel').count()).toBe(0);
    expect(await watcher.getByTestId('withdrawal-timeline').innerText()).toContain(`BANK-${run}`);
    expect(watcherProblems).toEqual([]);
    await watcherContext.close();

    // 4. The promoter: the timeline, the badge and the notification, the balances.
    await page.goto(`${server.url}#/withdrawals/${withdrawalId}`);
    await expect.poll(() => page.getByTestId('withdrawal-status').textContent()).toBe(tr(en, 'withdrawals.status.paid'));
    const timeline = await page.getByTestId('withdrawal-timeline').innerText();
    for (const s of ['requested', 'approved', 'paid']) expect(timeline).toContain(tr(en, `withdrawals.status.${s}`));
    expect(timeline).toContain(`BANK-${run}`);
    expect(await page.getByTestId('withdrawal-net').textContent()).toBe('CN¥296.00');
    await page.goto(`${server.url}#/me`);
    // Commission created and approved, then requested, approved and paid: five unread.
    await expect.poll(() => page.getByTestId('tab-badge-me').textContent()).toBe('5');
    await page.getByTestId('me-notifications').click();
    const newest = page.getByTestId('notification-item').first();
    await expect.poll(() => newest.getAttribute('data-type')).toBe('withdrawal.paid');
    expect(await newest.innerText()).toContain('CN¥296.00');
    await checkScreen(page, 'withdraw-en-notifications');
    await newest.click();
    await page.waitForURL(new RegExp(`#/withdrawals/${withdrawalId}$`));
    await page.goto(`${server.url}#/wallet`);
    await expect.poll(() => page.getByTestId('wallet-paid-out').textContent()).toBe('CN¥296.00');
    expect(await page.getByTestId('wallet-available').textContent()).toBe('CN¥200.00');
    expect(await page.getByTestId('wallet-withdrawing').textContent()).toBe('CN¥0.00');
    expect(await checkLedger(server.ctx.db)).toEqual([]);

    // Every language: the promoter's withdrawal screens and the operator's queue.
    for (const locale of LOCALES) {
      const m = readLocale(locale);
      await setLanguage(page, server.url, locale);
      await page.goto(`${server.url}#/wallet`);
      await page.getByTestId('ledger-list').waitFor();
      await checkScreen(page, `withdraw-${locale}-wallet`);
      await page.goto(`${server.url}#/payout-accounts`);
      await page.getByTestId('payout-item').first().waitFor();
      await checkScreen(page, `withdraw-${locale}-payout-accounts`);
      await page.goto(`${server.url}#/withdraw`);
      await page.getByTestId('withdraw-available').waitFor();
      await page.locator('#withdraw-amount').fill('50');
      await expect.poll(() => page.getByTestId('withdraw-fee').textContent()).not.toBe('—');
      await checkScreen(page, `withdraw-${locale}-form`);
      await page.goto(`${server.url}#/withdrawals`);
      await page.getByTestId('withdrawal-item').first().waitFor();
      await checkScreen(page, `withdraw-${locale}-list`);
      await page.goto(`${server.url}#/withdrawals/${withdrawalId}`);
      await expect.poll(() => page.getByTestId('withdrawal-timeline').innerText()).toContain(tr(m, 'withdrawals.status.paid'));
      await checkScreen(page, `withdraw-${locale}-detail`);
      await page.goto(`${server.url}#/notifications`);
      await page.getByTestId('notification-item').first().waitFor();
      await checkScreen(page, `withdraw-${locale}-notifications`);
      await page.goto(`${server.url}#/me/devices`);
      await page.getByTestId('device-sign-out').first().waitFor(); // the other phone's session
      await checkScreen(page, `withdraw-${locale}-devices`);
      await setLanguage(op, server.url, locale);
      await op.goto(`${server.url}#/admin/withdrawals?status=all`);
      await op.getByTestId(`withdrawal-row-${withdrawalId}`).waitFor();
      // "All" is the last of seven chips in a row that scrolls sideways: chosen, it is in view.
      await expect.poll(() => op.getByTestId('withdrawals-filter-all').evaluate((el) => {
        const r = el.getBoundingClientRect();
        return r.left >= -0.5 && r.right <= window.innerWidth + 0.5;
      })).toBe(true);
      await checkScreen(op, `withdraw-${locale}-admin-queue`);
      for (const rows of await itemsPerRow(op, '.filter-bar')) expect(rows.length === 1 || rows.at(-1)! > 1, `${locale} chip rows ${rows}`).toBe(true);
    }
    expect(problems).toEqual([]);
    expect(opProblems).toEqual([]);
    await Promise.all([context.close(), opContext.close()]);
  });
});
