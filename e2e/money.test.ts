/// <reference lib="dom" />
/**
 * The money journey in Chromium at 390×844: a visitor comes through a member's tracked link; the
 * business posts the sale through `api/v1/conversions` with that `pa_click` → the member sees a
 * pending commission with its availability date → an operator approves it in the console → the
 * member's Wallet shows it available, and the member's inviter sees the team override.
 * On the way an admin adds a reward rule in the editor, and staff assign an unattributed sale from
 * its conversion page (the rule decides it) and reverse its commissions.
 * Then Wallet, commissions and the commission detail in all five languages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { CampaignCreateSchema } from '@pa/shared';
import { LOCALES } from '@pa/shared/locales';
import { createCampaign, updateCampaign } from '../apps/server/src/modules/campaigns/service';
import { checkScreen, createShopKey, itemsPerRow, createStaff, phoneContext, postSale, readLocale, registerThroughForm, setLanguage, signInThroughForm, startJourney, tr, watchProblems } from './harness';

let journey: Awaited<ReturnType<typeof startJourney>>;
let server: typeof journey.server;
let landing: typeof journey.landing;
let browser: Browser;

beforeAll(async () => {
  journey = await startJourney();
  ({ server, landing, browser } = journey);
});

afterAll(async () => {
  await journey?.close();
});

const en = readLocale('en');
const NAMES = { en: 'Summer Tea', 'zh-Hans': '夏日茶饮', 'zh-Hant': '夏日茶飲', fr: 'Thé d’été', es: 'Té de verano' };

describe('a sale through the API becomes money in the wallet', () => {
  it('click → sale → pending with its date → approved → available; the inviter sees the override', async () => {
    const run = Date.now().toString(36);
    // The program: a manual-approval campaign (10% per sale, 10% override, 7-day hold) and an API key.
    const adminId = await createStaff(server.ctx, 'admin', `boss${run}@example.com`, 'Admin-pass-1');
    const campaignId = await createCampaign(server.ctx, adminId, CampaignCreateSchema.parse({
      names: NAMES, landingUrl: landing.url, saleRewardType: 'bps', saleReward: 1000, overrideBps: 1000, holdDays: 7, approvalMode: 'manual',
    }) as Parameters<typeof createCampaign>[2]);
    await updateCampaign(server.ctx, adminId, campaignId, { status: 'active' });
    const key = await createShopKey(server.ctx, adminId);

    // An inviter and the member they invited; the member joins and takes the link.
    const inviterContext = await phoneContext(browser);
    const inviter = await inviterContext.newPage();
    const inviterProblems = watchProblems(inviter);
    await registerThroughForm(inviter, `${server.url}#/register`, `ines${run}@example.com`, 'Inès Inviter', 'Money-pass-1');
    const inviteLink = (await inviter.getByTestId('invite-link').textContent())!;
    const memberContext = await phoneContext(browser);
    const member = await memberContext.newPage();
    const problems = watchProblems(member);
    await registerThroughForm(member, inviteLink, `max${run}@example.com`, 'Max Member', 'Money-pass-1');
    await member.goto(`${server.url}#/campaigns/${campaignId}`);
    await member.getByTestId(`join-${campaignId}`).click();
    const link = (await member.getByTestId('campaign-link').textContent())!;

    // A visitor clicks; the shop receives pa_click and reports the sale with it.
    const visitorContext = await browser.newContext({ ignoreHTTPSErrors: true, userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1' });
    const visitor = await visitorContext.newPage();
    await visitor.goto(link);
    await visitor.locator('#landing').waitFor();
    const clickId = new URL(visitor.url()).searchParams.get('pa_click')!;
    await visitorContext.close();
    const { conversion, commissions } = await postSale(server.url, key.secret, { campaignId, kind: 'sale', externalId: `ORDER-${run}`, amount: 25_900, clickId });
    expect(conversion.attributedBy).toBe('click');
    expect(commissions.map((c) => [c.level, c.amount])).toEqual([[1, 2590], [2, 259]]);
    const [direct, override] = commissions as [typeof commissions[0], typeof commissions[0]];

    // The member sees it pending, with the date it becomes available.
    await member.goto(`${server.url}#/wallet`);
    await expect.poll(() => member.getByTestId('wallet-pending').textContent()).toBe('CN¥25.90');
    expect(await member.getByTestId('wallet-available').textContent()).toBe('CN¥0.00');
    await member.getByTestId('wallet-commissions').click();
    await member.getByTestId(`commission-${direct.id}`).click();
    const date = new Intl.DateTimeFormat('en', { dateStyle: 'medium' }).format(direct.availableAt);
    await expect.poll(() => member.getByTestId('commission-availability').textContent()).toBe(tr(en, 'commissions.availableOn', { date }));
    expect(await member.getByTestId('commission-rule').innerText()).toContain(tr(en, 'commissions.rule.saleRate', { rate: '10%', base: 'CN¥259.00' }));
    // Why this amount (issue 31): the steps of the decision, in words.
    await expect.poll(() => member.getByTestId('commission-explanation').innerText()).toContain('Matched the campaign’s base reward: 10% of CN¥259.00 → CN¥25.90');
    expect(await member.getByTestId('commission-explanation').innerText()).toContain('Commission: CN¥25.90.');
    await checkScreen(member, 'money-en-commission-pending');

    // An operator approves it in the review queue.
    const adminContext = await phoneContext(browser);
    const admin = await adminContext.newPage();
    const adminProblems = watchProblems(admin);
    await signInThroughForm(admin, `${server.url}#/login`, `boss${run}@example.com`, 'Admin-pass-1');
    await admin.goto(`${server.url}#/admin/commissions`);
    await admin.getByTestId(`approve-commission-${direct.id}`).click();
    await admin.getByTestId(`approve-commission-${direct.id}`).waitFor({ state: 'detached' });
    await checkScreen(admin, 'money-en-admin-review');
    // The conversion's page: what the shop sent and how it was decided.
    const saleRow = await server.ctx.db.selectFrom('conversions').select('id').where('external_id', '=', `ORDER-${run}`).executeTakeFirstOrThrow();
    await admin.goto(`${server.url}#/admin/conversions/${saleRow.id}`);
    await expect.poll(() => admin.getByTestId('conversion-explanation').innerText()).toContain('Credited by a click on the promoter’s link');
    expect(await admin.getByTestId('conversion-click-id').textContent()).toBe(clickId);
    await checkScreen(admin, 'money-en-admin-conversion');
    // Issue 31: an admin adds a reward rule in the editor (20% on the SKU GIFT-BOX) and saves it.
    await admin.goto(`${server.url}#/admin/campaigns/${campaignId}/rewards`);
    await admin.getByTestId('rule-add').click();
    await admin.getByTestId('rule-0-label').fill('Gift boxes');
    await admin.getByTestId('rules-0-conditions-0-value').fill('GIFT-BOX');
    await admin.getByTestId('rule-0-reward').fill('20');
    await admin.getByTestId('rules-save').click();
    // The campaign is live: the editor asks before changing what it pays.
    await admin.getByRole('button', { name: tr(en, 'rewardRules.confirm.confirm') }).click();
    await admin.getByTestId('rules-unsaved').waitFor({ state: 'detached' });
    expect(await admin.getByTestId('rule-0-label').inputValue()).toBe('Gift boxes');
    // A gift box sold with nothing that names a promoter: unattributed, found by its order id.
    await postSale(server.url, key.secret, { campaignId, kind: 'sale', externalId: `GIFT-${run}`, amount: 10_000, items: [{ sku: 'GIFT-BOX', quantity: 1, amount: 10_000 }] });
    await admin.goto(`${server.url}#/admin/conversions`);
    await admin.getByTestId('conversions-search').locator('input').fill(`GIFT-${run}`);
    const giftRow = await server.ctx.db.selectFrom('conversions').select('id').where('external_id', '=', `GIFT-${run}`).executeTakeFirstOrThrow();
    await admin.getByTestId(`conversion-row-${giftRow.id}`).click();
    await expect.poll(() => admin.getByTestId('conversion-outcome').textContent()).toBe(tr(en, 'moneyAdmin.conversions.reason.no_match'));
    expect(await admin.getByTestId('conversion-commissions-empty').count()).toBe(1);
    // Staff assign it to the member, with the reason; the rule just saved decides what it earns.
    const memberRow = await server.ctx.db.selectFrom('users').select('id').where('account', '=', `max${run}@example.com`).executeTakeFirstOrThrow();
    await admin.getByTestId('conversion-assign').click();
    await admin.getByTestId('corr-promoter-search').fill('Max Member');
    await admin.getByTestId(`corr-promoter-${memberRow.id}`).click();
    await admin.getByTestId('assign-conversion-submit').click();
    expect(await admin.getByTestId('corr-reason-error').textContent()).toBe(tr(en, 'corrections.reason.required'));
    await admin.getByTestId('corr-reason').fill('The customer showed the member’s flyer at the till');
    await admin.getByTestId('assign-conversion-submit').click();
    await admin.getByTestId('assign-conversion').waitFor({ state: 'detached' });
    await expect.poll(() => admin.getByTestId('conversion-explanation').innerText()).toContain('Assigned to the promoter by staff on');
    const why = await admin.getByTestId('conversion-explanation').innerText();
    expect(why).toContain('Reason: The customer showed the member’s flyer at the till');
    expect(why).toContain('Matched rule ‘Gift boxes’ for SKU GIFT-BOX');
    expect(why).toContain('Commission: CN¥20.00.');
    expect(await admin.getByTestId('conversion-outcome').textContent()).toBe(tr(en, 'conversions.attributedBy.staff'));
    expect(await admin.getByTestId('conversion-promoter').textContent()).toBe('Max Member');
    const made = await server.ctx.db.selectFrom('commissions').select(['id', 'level']).where('conversion_id', '=', giftRow.id).orderBy('level').execute();
    expect(made.map((c) => c.level)).toEqual([1, 2]);
    const [giftDirect, giftOverride] = made as [typeof made[0], typeof made[0]];
    expect(await admin.getByTestId(`conversion-commission-amount-${giftDirect.id}`).textContent()).toBe('CN¥20.00');
    await checkScreen(admin, 'money-en-admin-conversion-assigned');
    // Then both commissions are reversed (a clawback, with the reason and the warning about the balance).
    for (const c of [giftDirect, giftOverride]) {
      await admin.getByTestId(`reverse-commission-${c.id}`).click();
      expect(await admin.getByTestId('reverse-commission-warning').textContent()).toBe(tr(en, 'corrections.reverse.warningPending'));
      await admin.getByTestId('corr-reason').fill('Sold by the shop itself after all');
      await admin.getByTestId('reverse-commission-submit').click();
      await admin.getByTestId('reverse-commission').waitFor({ state: 'detached' });
      await expect.poll(() => admin.getByTestId(`conversion-commission-status-${c.id}`).textContent()).toBe(tr(en, 'commissions.status.reversed'));
      expect(await admin.getByTestId(`reverse-commission-${c.id}`).count()).toBe(0);
    }
    expect(await admin.getByTestId(`conversion-commission-reversed-${giftDirect.id}`).textContent()).toBe(tr(en, 'corrections.commissions.reversed', { amount: 'CN¥20.00' }));
    await checkScreen(admin, 'money-en-admin-conversion-reversed');
    // The operator also gives the member a coupon code, which the member then sees on the campaign.
    const enrollment = await server.ctx.db.selectFrom('enrollments').innerJoin('users', 'users.id', 'enrollments.promoter_id').select('enrollments.id').where('users.account', '=', `max${run}@example.com`).executeTakeFirstOrThrow();
    await admin.goto(`${server.url}#/admin/enrollments`);
    await admin.getByTestId('enrollment-tab-approved').click();
    await admin.getByTestId(`edit-coupon-${enrollment.id}`).click();
    await admin.getByTestId('coupon-input').fill(`max-${run}`);
    await admin.locator('.adm-dialog-button-bold').click();
    await expect.poll(() => admin.getByTestId(`coupon-${enrollment.id}`).textContent()).toBe(`MAX-${run.toUpperCase()}`);
    await checkScreen(admin, 'money-en-admin-coupon');
    // The admin's ledger check screen agrees that everything balances.
    await admin.goto(`${server.url}#/me`);
    await admin.getByTestId('me-ledger-check').click();
    await expect.poll(() => admin.locator('.console-ledger-ok').textContent()).toContain(tr(en, 'moneyAdmin.ledgerCheck.ok'));
    expect(adminProblems).toEqual([]);
    await adminContext.close();

    // The member's wallet shows it available; the timeline has both steps.
    await member.goto(`${server.url}#/wallet`);
    await expect.poll(() => member.getByTestId('wallet-available').textContent()).toBe('CN¥25.90');
    expect(await member.getByTestId('wallet-pending').textContent()).toBe('CN¥0.00');
    await member.goto(`${server.url}#/campaigns/${campaignId}`);
    await expect.poll(() => member.getByTestId('campaign-coupon').textContent()).toBe(`MAX-${run.toUpperCase()}`);
    await member.goto(`${server.url}#/commissions/${direct.id}`);
    await expect.poll(() => member.getByTestId('commission-status').textContent()).toBe(tr(en, 'commissions.status.approved'));
    expect(await member.getByTestId('commission-timeline').innerText()).toContain(tr(en, 'commissions.event.approved', { amount: 'CN¥25.90' }));

    // The inviter sees the team override (still pending: overrides are reviewed on their own).
    await inviter.goto(`${server.url}#/commissions`);
    const row = inviter.getByTestId(`commission-${override.id}`);
    await expect.poll(() => row.innerText()).toContain(tr(en, 'commissions.kind.override'));
    expect(await row.innerText()).toContain('CN¥2.59');
    await inviter.goto(`${server.url}#/wallet`);
    await expect.poll(() => inviter.getByTestId('wallet-pending').textContent()).toBe('CN¥2.59');

    // Every language: the member's wallet, commissions and the commission; the inviter's commissions.
    for (const locale of LOCALES) {
      const m = readLocale(locale);
      await setLanguage(member, server.url, locale);
      await member.goto(`${server.url}#/wallet`);
      await expect.poll(() => member.locator('.page-nav-title').textContent()).toBe(tr(m, 'wallet.title'));
      await member.getByTestId('ledger-list').waitFor();
      await checkScreen(member, `money-${locale}-wallet`);
      await member.goto(`${server.url}#/commissions`);
      await member.getByTestId(`commission-${direct.id}`).waitFor();
      await checkScreen(member, `money-${locale}-commissions`);
      // The filter chips wrap into even rows: never one chip alone on its row.
      for (const rows of await itemsPerRow(member, '.filter-bar')) expect(rows.length === 1 || rows.at(-1)! > 1, `${locale} chip rows ${rows}`).toBe(true);
      await member.goto(`${server.url}#/commissions/${direct.id}`);
      await expect.poll(() => member.getByTestId('commission-status').textContent()).toBe(tr(m, 'commissions.status.approved'));
      await checkScreen(member, `money-${locale}-commission`);
      await setLanguage(inviter, server.url, locale);
      await inviter.goto(`${server.url}#/commissions`);
      await expect.poll(() => inviter.getByTestId(`commission-${override.id}`).innerText()).toContain(tr(m, 'commissions.kind.override'));
      await checkScreen(inviter, `money-${locale}-inviter-commissions`);
    }
    expect(problems).toEqual([]);
    expect(inviterProblems).toEqual([]);
    await Promise.all([memberContext.close(), inviterContext.close()]);
  });
});
