/// <reference lib="dom" />
/**
 * The operator console at a desk (1280×800) and on a phone (390×844), issue 14: an admin creates
 * an operator, who sets a password through the one-time link, signs in and lands on the overview;
 * the operator finds a promoter by link code and makes a password-reset link for them, which the
 * promoter uses; the admin adjusts that promoter by +12.34 with a reason, and the promoter sees it
 * in Wallet and in a notification; the admin finds the adjustment in the audit log. The campaign
 * editor: a cover over 2 MB made smaller in the browser, a new reward confirmed first, leaving with
 * unsaved changes asked first (and the announcement editor). Then the console's screens in all five
 * languages at both sizes, looked at.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { CampaignCreateSchema } from '@pa/shared';
import { LOCALES } from '@pa/shared/locales';
import { createCampaign, updateCampaign } from '../apps/server/src/modules/campaigns/service';
import { updateSettings } from '../apps/server/src/modules/settings/service';
import { sniffImage } from '../apps/server/src/domain/image-sniff';
import { checkLedger } from '../apps/server/src/platform/ledger';
import { checkDesk, checkScreen, createStaff, phoneContext, readLocale, registerThroughForm, setLanguage, startJourney, tr, watchProblems } from './harness';

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

function deskContext(locale = 'en-US'): Promise<BrowserContext> {
  return browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1, locale });
}


/** Signs in at `#/login` as staff and waits for the overview, where staff land. */
async function staffSignIn(page: Page, account: string, password: string) {
  await page.goto(`${server.url}#/login`);
  await page.locator('#account').fill(account);
  await page.locator('#password').fill(password);
  await page.getByTestId('login-submit').click();
  await page.getByTestId('overview').waitFor();
  expect(page.url()).toContain('#/admin');
}

/** Sets a password on the page a one-time link opens, and waits for the confirmation. */
async function setPasswordThroughLink(page: Page, url: string, password: string) {
  await page.goto(url);
  await page.getByTestId('reset-password').locator('input').fill(password);
  await page.getByTestId('reset-confirm').locator('input').fill(password);
  await page.getByTestId('reset-submit').click();
  await page.getByTestId('reset-done').waitFor();
}

const run = Date.now().toString(36);
const adminAccount = `ada${run}@example.com`;
const operatorAccount = `otto${run}@example.com`;
const promoterAccount = `wen${run}@example.com`;
let promoterId = '';
/** The active "Summer Tea" campaign of the first journey (10 % of each sale). */
let campaignId = '';
const en = readLocale('en');
const TWO_MB = 2 * 1024 * 1024;

/**
 * A picture of `width`×`height` random pixels drawn by the browser and saved as PNG: noise does not
 * compress, so the file is far over the server's 2 MB, as a phone's photo is.
 */
async function noisePng(page: Page, width: number, height: number): Promise<Buffer> {
  const dataUrl = await page.evaluate(({ width, height }) => {
    const c = document.createElement('canvas');
    c.width = width;
    c.height = height;
    const g = c.getContext('2d')!;
    const pixels = g.createImageData(width, height);
    for (let i = 0; i < pixels.data.length; i += 4) {
      pixels.data[i] = Math.random() * 256;
      pixels.data[i + 1] = Math.random() * 256;
      pixels.data[i + 2] = Math.random() * 256;
      pixels.data[i + 3] = 255;
    }
    g.putImageData(pixels, 0, 0);
    return c.toDataURL('image/png');
  }, { width, height });
  return Buffer.from(dataUrl.split(',')[1]!, 'base64');
}

/** The campaign as the API has it now (the page's own session), to see what was saved and what not. */
async function savedCampaign(page: Page, id: string): Promise<{ saleReward: number; names: Record<string, string> }> {
  return page.evaluate(async (campaign) => (await (await fetch(`api/admin/campaigns/${campaign}`)).json()).campaign, id);
}

describe('running the program from a desk', () => {
  it('admin makes an operator → operator sets a password, lands on the overview, resets a promoter found by link code → admin adjusts +12.34 → promoter sees it → audit log', async () => {
    const adminId = await createStaff(server.ctx, 'admin', adminAccount, 'Admin-pass-1');
    campaignId = await createCampaign(server.ctx, adminId, CampaignCreateSchema.parse({
      names: { en: 'Summer Tea', 'zh-Hans': '夏日茶饮', 'zh-Hant': '夏日茶飲', fr: 'Thé d’été', es: 'Té de verano' },
      landingUrl: 'https://shop.example.com/tea', saleRewardType: 'bps', saleReward: 1000, holdDays: 0,
    }) as Parameters<typeof createCampaign>[2]);
    await updateCampaign(server.ctx, adminId, campaignId, { status: 'active' });

    // The promoter, on a phone: registers and joins; their link's code is what the operator will search by.
    const phone = await phoneContext(browser);
    const promoter = await phone.newPage();
    const promoterProblems = watchProblems(promoter);
    await registerThroughForm(promoter, `${server.url}#/register`, promoterAccount, 'Wen Promoter', 'First-pass-1');
    await promoter.goto(`${server.url}#/campaigns/${campaignId}`);
    await promoter.getByTestId(`join-${campaignId}`).click();
    const linkCode = (await promoter.getByTestId('campaign-link').textContent())!.split('/').pop()!;
    promoterId = (await server.ctx.db.selectFrom('users').select('id').where('account', '=', promoterAccount).executeTakeFirstOrThrow()).id;

    // 1. The admin, at a desk, lands on the overview and adds an operator.
    const adminDesk = await deskContext();
    const admin = await adminDesk.newPage();
    const adminProblems = watchProblems(admin);
    await staffSignIn(admin, adminAccount, 'Admin-pass-1');
    await admin.goto(`${server.url}#/admin/staff`);
    await admin.getByTestId('staff-add').click();
    await admin.getByTestId('staff-account').locator('input').fill(operatorAccount);
    await admin.getByTestId('staff-name').locator('input').fill('Otto Operator');
    await admin.getByTestId('staff-role-operator').click();
    await admin.getByTestId('staff-submit').click();
    const inviteUrl = (await admin.getByTestId('staff-invite-url').textContent())!.trim();
    expect(inviteUrl).toContain('#/reset-password?token=');

    // 2. The operator sets a password through the link, signs in and lands on the overview.
    const operatorDesk = await deskContext();
    const operator = await operatorDesk.newPage();
    const operatorProblems = watchProblems(operator);
    await setPasswordThroughLink(operator, inviteUrl, 'Operator-pass-1');
    await staffSignIn(operator, operatorAccount, 'Operator-pass-1');
    await checkDesk(operator, 'console-overview-operator-en');
    // Their own name in the navigation opens their page in the console: no promoter tabs or menu;
    // its settings open inside the console too.
    await operator.getByTestId('staff-me').click();
    await operator.waitForURL(/#\/admin\/me$/);
    await operator.getByTestId('staff-me-page').waitFor();
    expect(await operator.locator('.tab-bar').count()).toBe(0);
    expect(await operator.getByTestId('me-wallet').count()).toBe(0);
    await checkDesk(operator, 'console-staff-me-en');
    await operator.getByTestId('me-password').click();
    await operator.waitForURL(/#\/me\/password$/);
    await operator.getByTestId('staff-shell').waitFor();
    expect(await operator.getByTestId('staff-me').getAttribute('aria-current')).toBe('page');
    // The phone's Me, typed at a desk, leads to the same page.
    await operator.goto(`${server.url}#/me`);
    await operator.waitForURL(/#\/admin\/me$/);

    // 3. The operator finds the promoter by link code and makes a reset link; the promoter uses it.
    await operator.goto(`${server.url}#/admin/promoters`);
    await operator.getByTestId('promoters-search').locator('input').fill(linkCode);
    // The search runs after a pause; open the row once the list shows its result, not the list before it.
    await expect.poll(() => operator.url()).toContain(`q=${linkCode}`);
    await operator.waitForLoadState('networkidle');
    // The search has applied (it is kept in the address) before the row is opened.
    await expect.poll(() => decodeURIComponent(operator.url())).toContain(`q=${linkCode}`);
    await operator.getByTestId(`promoter-row-${promoterAccount}`).click();
    await operator.waitForURL(/#\/admin\/promoters\/[^/?]+/);
    await operator.getByTestId('reset-link-open').click();
    const resetUrl = (await operator.getByTestId('reset-link-url').textContent())!.trim();
    expect(resetUrl).toContain('#/reset-password?token=');
    await setPasswordThroughLink(promoter, resetUrl, 'Second-pass-2');
    // Used now, the link's page says so and offers a new one by e-mail (forgot password).
    await promoter.goto(`${server.url}#/login`);
    await promoter.goto(resetUrl);
    await promoter.getByTestId('reset-password').locator('input').fill('Third-pass-3');
    await promoter.getByTestId('reset-confirm').locator('input').fill('Third-pass-3');
    await promoter.getByTestId('reset-submit').click();
    await promoter.getByTestId('reset-forgot').click();
    await promoter.waitForURL(/#\/forgot-password/);
    // The used link's refusal (400 RESET_TOKEN_INVALID) is expected here, not a problem.
    promoterProblems.splice(0, promoterProblems.length, ...promoterProblems.filter((p) => !/status of 400/.test(p)));
    // The old sessions are gone: the promoter signs in again with the new password.
    await promoter.goto(`${server.url}#/login`);
    await promoter.locator('#account').fill(promoterAccount);
    await promoter.locator('#password').fill('Second-pass-2');
    await promoter.getByTestId('login-submit').click();
    await promoter.getByTestId('greeting').waitFor();

    // 4. The admin adjusts the promoter by +12.34 with a reason.
    await admin.goto(`${server.url}#/admin/promoters/${promoterId}`);
    await admin.getByTestId('adjust-open').click();
    await admin.getByTestId('adjust-amount').locator('input').fill('12.34');
    await admin.getByTestId('adjust-reason').locator('textarea, input').first().fill('Launch bonus for the tea campaign');
    await admin.getByTestId('adjust-submit').click();
    await expect.poll(async () => (await server.ctx.db.selectFrom('adjustments').select('amount').where('promoter_id', '=', promoterId).execute()).map((r) => Number(r.amount))).toEqual([1234]);
    expect(await checkLedger(server.ctx.db)).toEqual([]);

    // 5. The promoter sees it in Wallet (with the reason) and in a notification.
    await promoter.goto(`${server.url}#/wallet`);
    await expect.poll(() => promoter.getByTestId('wallet-available').textContent()).toBe('CN¥12.34');
    await expect.poll(() => promoter.locator('body').innerText()).toContain('Launch bonus for the tea campaign');
    await checkScreen(promoter, 'console-promoter-wallet-en');
    await promoter.goto(`${server.url}#/notifications`);
    await expect.poll(() => promoter.locator('body').innerText()).toContain('12.34');
    await checkScreen(promoter, 'console-promoter-notification-en');

    // 6. The admin finds the adjustment in the audit log.
    await admin.goto(`${server.url}#/admin/audit`);
    await admin.getByTestId('audit-filter-action').locator('input').fill('promoter.adjust');
    await admin.getByTestId('audit-row-promoter.adjust').first().click();
    await expect.poll(() => admin.getByTestId('audit-detail').innerText()).toContain('Launch bonus for the tea campaign');
    // The promoter is named, not shown as an id; the id is on hover.
    const named = admin.getByTestId('audit-detail').getByTestId('audit-entity-name');
    expect(await named.innerText()).toBe('Wen Promoter');
    expect(await named.getAttribute('title')).toBe(promoterId);
    await checkDesk(admin, 'console-audit-detail-en');

    expect([...promoterProblems, ...adminProblems, ...operatorProblems]).toEqual([]);
    await Promise.all([phone.close(), adminDesk.close(), operatorDesk.close()]);
  }, 180_000);

  it('campaign editor: a cover over 2 MB is made smaller in the browser and stored; a new reward on an active campaign is confirmed first; leaving an editor with unsaved changes asks first', async () => {
    const desk = await deskContext();
    const page = await desk.newPage();
    const problems = watchProblems(page);
    await staffSignIn(page, adminAccount, 'Admin-pass-1');
    await page.goto(`${server.url}#/admin/campaigns/${campaignId}`);
    await page.getByTestId('upload-cover').waitFor();

    // 1. A cover of 1600×1000 noise, over 2 MB as PNG: the browser makes it smaller, the server (which refuses over 2 MB) keeps it.
    const big = await noisePng(page, 1600, 1000);
    expect(big.length).toBeGreaterThan(TWO_MB);
    await page.getByTestId('cover-input').setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: big });
    const cover = async () => (await server.ctx.db.selectFrom('campaign_images').select('id').where('campaign_id', '=', campaignId).where('kind', '=', 'cover').executeTakeFirst())?.id;
    await expect.poll(cover, { timeout: 30_000 }).toBeTruthy();
    const stored = await fetch(`${server.url}api/images/${await cover()}`);
    expect(stored.status).toBe(200);
    const bytes = Buffer.from(await stored.arrayBuffer());
    expect(bytes.length).toBeLessThanOrEqual(TWO_MB);
    const image = sniffImage(bytes);
    // A PNG that stays too large as PNG becomes a JPEG; the shape is kept and it is still a cover-sized picture.
    expect(image?.contentType).toBe('image/jpeg');
    expect(stored.headers.get('content-type')).toBe('image/jpeg');
    expect(image!.width / image!.height).toBeCloseTo(1.6, 2);
    expect(image!.width).toBeGreaterThanOrEqual(1000);
    expect(image!.width).toBeLessThan(1600);
    await expect.poll(() => page.getByTestId('cover-image').getAttribute('width')).toBe(String(image!.width));

    // 2. Promoters are earning on it: a new sale reward asks first. "Cancel" saves nothing and keeps the edit; confirming saves it.
    const reward = page.locator('#campaign-sale-reward');
    expect(await reward.inputValue()).toBe('10');
    expect((await savedCampaign(page, campaignId)).saleReward).toBe(1000);
    await reward.fill('12');
    await page.getByTestId('campaign-save').click();
    const dialog = page.locator('.adm-dialog');
    await dialog.getByText(tr(en, 'campaignAdmin.rewardConfirm.title')).waitFor();
    expect(await dialog.innerText()).toContain(tr(en, 'campaignAdmin.rewardConfirm.body'));
    await dialog.getByText(tr(en, 'app.cancel'), { exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await savedCampaign(page, campaignId)).saleReward).toBe(1000);
    expect(await reward.inputValue()).toBe('12');
    await page.getByTestId('campaign-unsaved').waitFor();
    await page.getByTestId('campaign-save').click();
    await dialog.getByText(tr(en, 'campaignAdmin.rewardConfirm.confirm'), { exact: true }).click();
    await expect.poll(async () => (await savedCampaign(page, campaignId)).saleReward).toBe(1200);
    await page.getByTestId('campaign-unsaved').waitFor({ state: 'detached' });

    // 3. Leaving with an unsaved change asks first: the browser's back button ("Stay" keeps the page,
    // its address and the change), then the back arrow ("Leave" goes back; nothing was saved).
    const name = page.getByTestId('campaign-name');
    await name.fill('Summer Tea (unsaved)');
    await page.goBack();
    await dialog.getByText(tr(en, 'app.unsavedLeave')).waitFor();
    expect(page.url()).toBe(`${server.url}#/admin/campaigns/${campaignId}`);
    await dialog.getByText(tr(en, 'app.stay'), { exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(page.url()).toBe(`${server.url}#/admin/campaigns/${campaignId}`);
    expect(await name.inputValue()).toBe('Summer Tea (unsaved)');
    await page.getByTestId('nav-back').click();
    await dialog.getByText(tr(en, 'app.unsavedLeave')).waitFor();
    expect(page.url()).toBe(`${server.url}#/admin/campaigns/${campaignId}`);
    await dialog.getByText(tr(en, 'app.leave'), { exact: true }).click();
    await page.getByTestId('overview').waitFor();
    expect(page.url()).toBe(`${server.url}#/admin`);
    expect((await savedCampaign(page, campaignId)).names.en).toBe('Summer Tea');

    // 4. The announcement editor too: a title typed, the browser's back → asked; "Leave" goes back and creates nothing.
    const announcements = async () => (await server.ctx.db.selectFrom('announcements').select('id').execute()).length;
    const before = await announcements();
    await page.goto(`${server.url}#/admin/announcements`);
    await page.getByTestId('new-announcement').first().click();
    await page.waitForURL(/#\/admin\/announcements\/new$/);
    await page.getByTestId('announcement-title').fill('Half-written news');
    await page.goBack();
    await dialog.getByText(tr(en, 'app.unsavedLeave')).waitFor();
    await dialog.getByText(tr(en, 'app.stay'), { exact: true }).click();
    expect(await page.getByTestId('announcement-title').inputValue()).toBe('Half-written news');
    await page.getByTestId('nav-announcements').click();
    await dialog.getByText(tr(en, 'app.unsavedLeave')).waitFor();
    await dialog.getByText(tr(en, 'app.leave'), { exact: true }).click();
    await page.waitForURL(/#\/admin\/announcements$/);
    expect(await announcements()).toBe(before);
    // Nothing unsaved any more: the browser's back goes where it goes, unasked (a new, empty form).
    await dialog.waitFor({ state: 'detached' });
    await page.goBack();
    await expect.poll(() => page.getByTestId('announcement-title').inputValue()).toBe('');
    expect(page.url()).toMatch(/#\/admin\/announcements\/new$/);
    expect(await dialog.count()).toBe(0);

    expect(problems).toEqual([]);
    await desk.close();
  }, 120_000);

  it('shows the console in every language, at a desk and on a phone', async () => {
    const screens = ['#/admin', '#/admin/promoters', `#/admin/promoters/${promoterId}`, '#/admin/staff', '#/admin/audit', '#/admin/withdrawals', '#/admin/commissions', '#/admin/users', '#/admin/campaigns', '#/admin/conversions', '#/admin/api-keys', '#/admin/webhooks', '#/admin/mail', '#/admin/settings', '#/admin/me'];
    for (const locale of LOCALES) {
      for (const size of ['desk', 'phone'] as const) {
        const context = size === 'desk' ? await deskContext() : await phoneContext(browser);
        const page = await context.newPage();
        const problems = watchProblems(page);
        await staffSignIn(page, adminAccount, 'Admin-pass-1').catch(async (error: unknown) => {
          throw new Error(`${locale} ${size}: ${String(error)}`);
        });
        await setLanguage(page, server.url, locale);
        for (const hash of screens) {
          await page.goto(`${server.url}${hash}`);
          // Their page in the console is a desk's: a phone opens the phone's Me (console entries, tabs) instead.
          if (hash === '#/admin/me') await page.waitForURL(size === 'desk' ? /#\/admin\/me$/ : /#\/me$/);
          // Shot once the page's data has come: no request in flight, no loading placeholder left.
          await page.waitForLoadState('networkidle');
          await expect.poll(() => page.locator('.page-loading, .adm-skeleton, .adm-spin-loading, .adm-dot-loading').count(), { message: `${hash} still loading`, timeout: 15_000 }).toBe(0);
          const name = `console-${hash.replace(/^#\/admin\/?/, '').replace(/\/.*/, '-page').replace(/\W+/g, '-') || 'overview'}-${size}-${locale}`;
          if (size === 'desk') await checkDesk(page, name);
          else await checkScreen(page, name);
        }
        expect(problems, `${locale} ${size}`).toEqual([]);
        await context.close();
      }
    }
  }, 300_000);

  it('staff are told in the app: a registration awaiting approval puts a badge on the desk’s Notifications; opening it leads to Registrations (en and fr)', async () => {
    const account = `bea${run}@example.com`;
    const adminId = await createStaff(server.ctx, 'admin', account, 'Admin-pass-2');
    await updateSettings(server.ctx, { userId: adminId, ip: '127.0.0.1' }, { registrationMode: 'approval' });
    const phone = await phoneContext(browser);
    const newcomer = await phone.newPage();
    await newcomer.goto(`${server.url}#/register`);
    await newcomer.locator('#account').fill(`nova${run}@example.com`);
    await newcomer.locator('#displayName').fill('Nova Pending');
    await newcomer.locator('#password').fill('Nova-pass-12');
    await newcomer.getByTestId('register-submit').click();
    await newcomer.waitForURL(/#\/pending/);
    await phone.close();
    try {
      for (const locale of ['en', 'fr'] as const) {
        const context = await deskContext();
        const page = await context.newPage();
        const problems = watchProblems(page);
        await staffSignIn(page, account, 'Admin-pass-2');
        await setLanguage(page, server.url, locale);
        await page.goto(`${server.url}#/admin`);
        await page.getByTestId('overview').waitFor();
        const badge = page.getByTestId('nav-unread');
        await expect.poll(() => badge.textContent()).toContain('1');
        await checkDesk(page, `console-notifications-badge-desk-${locale}`);
        await page.getByTestId('nav-notifications').click();
        const item = page.getByTestId('notification-item').first();
        await expect.poll(() => item.getAttribute('data-type')).toBe('staff.registration');
        expect(await item.textContent()).toContain(locale === 'en' ? '1 registration awaits approval' : '1 inscription attend une validation');
        await checkDesk(page, `console-notifications-desk-${locale}`);
        if (locale === 'fr') {
          // Opening it reads it (the badge goes) and leads to the registrations to review.
          await item.click();
          await page.waitForURL(/#\/admin\/users/);
          await expect.poll(() => badge.count()).toBe(0);
        }
        expect(problems, locale).toEqual([]);
        await context.close();
      }
    } finally {
      await updateSettings(server.ctx, { userId: adminId, ip: '127.0.0.1' }, { registrationMode: 'open' });
    }
  }, 120_000);
});
