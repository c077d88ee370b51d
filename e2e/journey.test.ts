/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { DEFAULT_APP_NAME, LOCALES } from '@pa/shared/locales';
import { insertCampaign } from '../bench/fixtures';
import { checkScreen, createStaff, launchBrowser, phoneContext, readLocale, startPrefixProxy, startServer, tr, UNTRANSLATED, watchProblems } from './harness';

let server: Awaited<ReturnType<typeof startServer>>;
let proxy: Awaited<ReturnType<typeof startPrefixProxy>>;
let browser: Browser;

let campaignId: string;
const CAMPAIGN_NAMES = { en: 'Summer Tea', 'zh-Hans': '夏日茶饮', 'zh-Hant': '夏日茶飲', fr: 'Thé d’été', es: 'Té de verano' };

beforeAll(async () => {
  server = await startServer();
  campaignId = await insertCampaign(server.ctx.db, CAMPAIGN_NAMES, { en: 'Cold brew for hot days.', 'zh-Hans': '炎炎夏日的冷泡茶。', 'zh-Hant': '炎炎夏日的冷泡茶。', fr: 'Infusion à froid pour les jours chauds.', es: 'Infusión en frío para los días de calor.' });
  proxy = await startPrefixProxy(server.port, '/promo/');
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await proxy?.close();
  await server?.close();
});

const en = readLocale('en');
let seq = 0;

async function registerViaUi(page: Page, account: string, name: string, password: string) {
  await page.locator('#account').fill(account);
  await page.locator('#displayName').fill(name);
  await page.locator('#password').fill(password);
  await page.getByTestId('register-submit').click();
  await expect.poll(() => page.getByTestId('greeting').textContent(), { timeout: 15_000 }).toBe(tr(en, 'home.greeting', { name }));
}

async function signIn(page: Page, account: string, password: string) {
  await page.locator('#account').fill(account);
  await page.locator('#password').fill(password);
  await page.getByTestId('login-submit').click();
}

async function signOut(page: Page) {
  await page.getByTestId('tab-me').click();
  await page.getByTestId('sign-out').click();
  await page.waitForURL(/#\/login/);
}

/** register with an invite → sign in → Home → five languages → change password → sign out → sign in anew. */
async function journey(baseUrl: string, label: string, withScreenshots: boolean) {
  const context = await phoneContext(browser);
  const page = await context.newPage();
  const problems = watchProblems(page);
  const run = `${Date.now().toString(36)}${seq++}`;
  const inviter = { account: `inviter${run}@example.com`, name: `Inviter ${run}`, password: 'First-pass-1' };
  const invitee = { account: `invitee${run}@example.com`, name: `Invitee ${run}`, password: 'Second-pass-2' };

  // An inviter registers (no invite) and finds the invite link on Home.
  await page.goto(baseUrl);
  await page.waitForURL(/#\/login/);
  if (withScreenshots) await checkScreen(page, `${label}-en-sign-in`);
  await page.getByRole('link', { name: tr(en, 'auth.createAccount') }).click();
  await page.waitForURL(/#\/register/);
  await registerViaUi(page, inviter.account, inviter.name, inviter.password);
  const inviteCode = (await page.getByTestId('invite-code').textContent())!;
  const inviteLink = (await page.getByTestId('invite-link').textContent())!;
  expect(inviteCode).toMatch(/^[0-9A-HJKMNP-TV-Z]{8}$/);
  expect(inviteLink).toBe(`${baseUrl}#/register?invite=${inviteCode}`);
  await signOut(page);

  // The invitee opens the invite link: the code is filled in, and registering binds the inviter.
  await page.goto(inviteLink);
  await expect.poll(() => page.getByTestId('invite-banner').textContent()).toContain(inviteCode);
  expect(await page.locator('#inviteCode').inputValue()).toBe(inviteCode);
  if (withScreenshots) await checkScreen(page, `${label}-en-register-invite`);
  await registerViaUi(page, invitee.account, invitee.name, invitee.password);
  await expect.poll(() => page.locator('.home-inviter').textContent()).toBe(tr(en, 'home.invitedBy', { name: inviter.name }));
  await signOut(page);

  // A wrong password is refused with the localized message; the right one signs in.
  await signIn(page, invitee.account, 'Wrong-pass-9');
  await expect.poll(() => page.getByTestId('form-error').textContent()).toBe(tr(en, 'errors.INVALID_CREDENTIALS'));
  await page.locator('#password').fill(invitee.password);
  await page.getByTestId('login-submit').click();
  await expect.poll(() => page.getByTestId('greeting').textContent()).toBe(tr(en, 'home.greeting', { name: invitee.name }));

  // Every language: Home and Me, no untranslated keys, and the choice survives a reload.
  for (const locale of LOCALES) {
    const m = readLocale(locale);
    await page.getByTestId('tab-me').click();
    await page.getByTestId('me-language').click();
    await page.getByTestId(`lang-${locale}`).click();
    await expect.poll(() => page.locator('html').getAttribute('lang')).toBe(locale);
    await page.getByTestId('nav-back').click();
    await expect.poll(() => page.getByTestId('tab-me').textContent()).toBe(tr(m, 'tabs.me'));
    await expect.poll(() => page.getByTestId('me-language').textContent()).toContain(tr(m, 'app.language'));
    if (withScreenshots) await checkScreen(page, `${label}-${locale}-me`);
    expect(await page.locator('body').innerText()).not.toMatch(UNTRANSLATED);
    await page.getByTestId('tab-promote').click();
    await expect.poll(() => page.getByTestId(`campaign-${campaignId}`).locator('h3').textContent()).toBe(CAMPAIGN_NAMES[locale]);
    if (withScreenshots) await checkScreen(page, `${label}-${locale}-promote`);
    expect(await page.locator('body').innerText()).not.toMatch(UNTRANSLATED);
    await page.getByTestId('tab-home').click();
    await expect.poll(() => page.getByTestId('greeting').textContent()).toBe(tr(m, 'home.greeting', { name: invitee.name }));
    if (withScreenshots) await checkScreen(page, `${label}-${locale}-home`);
    expect(await page.locator('body').innerText()).not.toMatch(UNTRANSLATED);
  }
  await page.reload();
  await expect.poll(() => page.getByTestId('tab-home').textContent()).toBe(tr(readLocale('es'), 'tabs.home'));
  const stored = await page.evaluate(() => localStorage.getItem('pa-store'));
  expect(JSON.parse(stored!).state.locale).toBe('es');
  expect(stored).not.toContain(invitee.password);
  expect(stored).not.toMatch(/pa_session|ciphertext/);

  // Back to English, then change the password.
  await page.getByTestId('tab-me').click();
  await page.getByTestId('me-language').click();
  await page.getByTestId('lang-en').click();
  await expect.poll(() => page.locator('html').getAttribute('lang')).toBe('en');
  await page.goBack();
  await page.getByTestId('me-password').click();
  await page.locator('#current').fill(invitee.password);
  await page.locator('#next').fill('Third-pass-3');
  await page.locator('#repeat').fill('Third-pass-3');
  if (withScreenshots) await checkScreen(page, `${label}-en-change-password`);
  await page.getByTestId('password-submit').click();
  await page.waitForURL(/#\/me$/);

  // Sign out; the old password no longer works, the new one does.
  await page.getByTestId('sign-out').click();
  await page.waitForURL(/#\/login/);
  await signIn(page, invitee.account, invitee.password);
  await expect.poll(() => page.getByTestId('form-error').textContent()).toBe(tr(en, 'errors.INVALID_CREDENTIALS'));
  await page.locator('#password').fill('Third-pass-3');
  await page.getByTestId('login-submit').click();
  await expect.poll(() => page.getByTestId('greeting').textContent()).toBe(tr(en, 'home.greeting', { name: invitee.name }));

  // The account is remembered on this device (a preference in the persisted store) unless turned off.
  await signOut(page);
  expect(await page.locator('#account').inputValue()).toBe(invitee.account);
  await page.getByTestId('remember-account').uncheck();
  await page.reload();
  await page.locator('#account').waitFor();
  expect(await page.locator('#account').inputValue()).toBe('');
  expect(await page.getByTestId('remember-account').isChecked()).toBe(false);

  expect(problems).toEqual([]);
  await context.close();
}

describe('the foundation journey in Chromium at 390×844', () => {
  it('works at the site root', async () => {
    await journey(server.url, 'root', true);
  });

  it('works unchanged under a sub-path behind a prefix-stripping proxy', async () => {
    await journey(proxy.url, 'promo', false);
  });

  it('sends a signed-out visitor to sign-in and back to where they were going', async () => {
    const context = await phoneContext(browser, 'zh-CN');
    const page = await context.newPage();
    await page.goto(`${server.url}#/me/devices`);
    await page.waitForURL(/#\/login\?next=%2Fme%2Fdevices/);
    const zh = readLocale('zh-Hans');
    await expect.poll(() => page.locator('h1').textContent()).toBe(tr(zh, 'auth.signInTitle'));
    await context.close();
  });
});

describe('the browsable API reference', () => {
  it('renders under the strict CSP', async () => {
    const context = await phoneContext(browser);
    const page = await context.newPage();
    const problems = watchProblems(page);
    await page.goto(`${server.url}api/docs/`);
    await page.locator('.opblock-summary-path').first().waitFor({ timeout: 15_000 });
    expect(await page.locator('.opblock-summary-path').count()).toBeGreaterThan(8);
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('first visit in each language', () => {
  const browserTags = { 'zh-Hans': 'zh-CN', 'zh-Hant': 'zh-TW', en: 'en-GB', fr: 'fr-CA', es: 'es-MX' } as const;
  it.each(LOCALES)('%s: chosen from the browser, sign-in and register fully translated', async (locale) => {
    const context = await phoneContext(browser, browserTags[locale]);
    const page = await context.newPage();
    const problems = watchProblems(page);
    const m = readLocale(locale);
    await page.goto(server.url);
    await expect.poll(() => page.locator('h1').textContent()).toBe(tr(m, 'auth.signInTitle'));
    expect(await page.locator('html').getAttribute('lang')).toBe(locale);
    expect(await page.title()).toBe(DEFAULT_APP_NAME[locale]);
    expect(await page.locator('.auth-app-name').textContent()).toBe(DEFAULT_APP_NAME[locale]);
    // Submitting empty shows the shared rules' messages inline, in this language.
    await page.getByTestId('login-submit').click();
    await expect.poll(() => page.getByTestId('account-error').textContent()).toBe(tr(m, 'fields.required'));
    await checkScreen(page, `root-${locale}-sign-in`);
    expect(await page.locator('body').innerText()).not.toMatch(UNTRANSLATED);
    await page.goto(`${server.url}#/register?invite=7K3M9QXR`);
    await expect.poll(() => page.locator('h1').textContent()).toBe(tr(m, 'auth.registerTitle'));
    await page.locator('#account').fill('not-an-account');
    await page.locator('#password').fill('short');
    await page.getByTestId('register-submit').click();
    await expect.poll(() => page.getByTestId('account-error').textContent()).toBe(tr(m, 'fields.invalid_account'));
    await expect.poll(() => page.getByTestId('password-error').textContent()).toBe(tr(m, 'fields.too_short'));
    await checkScreen(page, `root-${locale}-register`);
    expect(await page.locator('body').innerText()).not.toMatch(UNTRANSLATED);
    // The made-up invite code is looked up and not found: that one 404, nothing else.
    expect(problems).toEqual([expect.stringMatching(/status of 404/)]);
    await context.close();
  });
});

describe('registration by approval', () => {
  it('admin switches to approval, a newcomer waits, an operator approves, the newcomer signs in', async () => {
    const run = Date.now().toString(36);
    const admin = { account: `admin${run}@example.com`, password: 'Admin-pass-1' };
    const operator = { account: `operator${run}@example.com`, password: 'Operator-pass-1' };
    const newcomer = { account: `newcomer${run}@example.com`, name: `Newcomer ${run}`, password: 'Newcomer-pass-1' };
    await createStaff(server.ctx, 'admin', admin.account, admin.password);
    await createStaff(server.ctx, 'operator', operator.account, operator.password);

    const adminPage = await (await phoneContext(browser)).newPage();
    const problems = watchProblems(adminPage);
    await adminPage.goto(server.url);
    await signIn(adminPage, admin.account, admin.password);
    await adminPage.getByTestId('tab-me').click();
    await adminPage.getByTestId('me-settings').click();
    await adminPage.getByTestId('mode-approval').click();
    await expect.poll(async () => (await server.ctx.db.selectFrom('settings').select('value').where('key', '=', 'registrationMode').executeTakeFirst())?.value).toBe('"approval"');
    await checkScreen(adminPage, 'root-en-admin-settings');

    const visitor = await (await phoneContext(browser, 'fr-FR')).newPage();
    await visitor.goto(`${server.url}#/register`);
    await visitor.locator('#account').fill(newcomer.account);
    await visitor.locator('#displayName').fill(newcomer.name);
    await visitor.locator('#password').fill(newcomer.password);
    await visitor.getByTestId('register-submit').click();
    await visitor.waitForURL(/#\/pending/);
    await expect.poll(() => visitor.getByTestId('pending').textContent()).toContain(tr(readLocale('fr'), 'auth.pendingBody'));
    await checkScreen(visitor, 'root-fr-pending');
    await visitor.goto(`${server.url}#/login`);
    await signIn(visitor, newcomer.account, newcomer.password);
    await visitor.waitForURL(/#\/pending/);

    const opPage = await (await phoneContext(browser)).newPage();
    await opPage.goto(server.url);
    await signIn(opPage, operator.account, operator.password);
    await opPage.getByTestId('tab-me').click();
    expect(await opPage.getByTestId('me-settings').count()).toBe(0); // settings are admin-only
    await opPage.getByTestId('me-users').click();
    await opPage.getByTestId(`approve-${newcomer.account}`).waitFor();
    await checkScreen(opPage, 'root-en-admin-users');
    await opPage.getByTestId(`approve-${newcomer.account}`).click();
    await opPage.getByTestId(`approve-${newcomer.account}`).waitFor({ state: 'detached' });
    // An operator opening the admin-only settings page is told it is not for them (at that address), not sent home as if it had opened.
    await opPage.goto(`${server.url}#/admin/settings`);
    await expect.poll(() => opPage.getByTestId('not-allowed').locator('h1').textContent()).toBe(tr(en, 'app.notAllowedTitle'));
    expect(await opPage.evaluate(() => window.location.hash)).toBe('#/admin/settings');

    await visitor.goto(`${server.url}#/login`);
    await signIn(visitor, newcomer.account, newcomer.password);
    await expect.poll(() => visitor.getByTestId('greeting').textContent()).toBe(tr(readLocale('fr'), 'home.greeting', { name: newcomer.name }));

    await adminPage.getByTestId('mode-open').click();
    await expect.poll(async () => (await server.ctx.db.selectFrom('settings').select('value').where('key', '=', 'registrationMode').executeTakeFirst())?.value).toBe('"open"');
    expect(problems).toEqual([]);
    await Promise.all([adminPage.context().close(), visitor.context().close(), opPage.context().close()]);
  });
});

describe('client security', () => {
  it('after a key rotation the client refetches the key and retries once; a revoked session returns to sign-in with the way back', async () => {
    const run = Date.now().toString(36);
    const user = { account: `rotate${run}@example.com`, name: `Rotate ${run}`, password: 'Rotate-pass-1' };
    const context = await phoneContext(browser);
    const page = await context.newPage();
    const problems = watchProblems(page);
    await page.goto(`${server.url}#/register`);
    await registerViaUi(page, user.account, user.name, user.password);

    // The page has the old key cached; rotate it on the server.
    const oldKey = (await server.ctx.keyring.current()).keyId;
    const newKey = (await server.ctx.keyring.rotate()).keyId;
    expect(newKey).not.toBe(oldKey);
    const statuses: number[] = [];
    page.on('response', (r) => {
      if (r.url().endsWith('/api/me/password')) statuses.push(r.status());
    });
    await page.goto(`${server.url}#/me/password`);
    await page.locator('#current').fill(user.password);
    await page.locator('#next').fill('Rotated-pass-2');
    await page.locator('#repeat').fill('Rotated-pass-2');
    await page.getByTestId('password-submit').click();
    await page.waitForURL(/#\/me$/);
    expect(statuses).toEqual([400, 200]);

    // Every session of this user ends elsewhere; the next call answers 401 and the app asks to sign in again.
    await page.getByTestId('me-password').waitFor();
    await page.evaluate(() => { window.location.hash = '#/me/profile'; });
    await page.getByTestId('profile-save').waitFor();
    await server.ctx.db.updateTable('sessions').set({ revoked_at: Date.now() }).execute();
    await page.locator('#displayName').fill(`${user.name} 2`);
    await page.getByTestId('profile-save').click();
    await page.waitForURL(/#\/login\?expired=1&next=%2Fme%2Fprofile/);
    await expect.poll(() => page.getByTestId('form-error').textContent()).toBe(tr(en, 'auth.sessionExpired'));
    await signIn(page, user.account, 'Rotated-pass-2');
    await page.waitForURL(/#\/me\/profile$/);
    expect(problems.filter((p) => !p.includes('status of 400'))).toEqual([]);
    await context.close();
  });
});

describe('the Promote tab', () => {
  it('lists active campaigns in the reader’s language and joins one', async () => {
    const context = await phoneContext(browser, 'es-ES');
    const page = await context.newPage();
    const problems = watchProblems(page);
    const run = Date.now().toString(36);
    await page.goto(`${server.url}#/register`);
    await page.locator('#account').fill(`joiner${run}@example.com`);
    await page.locator('#displayName').fill(`Joiner ${run}`);
    await page.locator('#password').fill('Joiner-pass-1');
    await page.getByTestId('register-submit').click();
    await expect.poll(() => page.getByTestId('greeting').textContent()).toBe(tr(readLocale('es'), 'home.greeting', { name: `Joiner ${run}` }));
    await page.getByTestId('tab-promote').click();
    const card = page.getByTestId(`campaign-${campaignId}`);
    await expect.poll(() => card.locator('h3').textContent()).toBe('Té de verano');
    expect(await card.innerText()).toMatch(/10\s%\spor venta/);
    await page.getByTestId(`join-${campaignId}`).click();
    await expect.poll(() => card.locator('.current-tag').textContent()).toBe(tr(readLocale('es'), 'promote.joined'));
    const links = await server.ctx.db.selectFrom('links').innerJoin('users', 'users.id', 'links.promoter_id').select(['links.is_default']).where('users.account', '=', `joiner${run}@example.com`).execute();
    expect(links).toEqual([{ is_default: 1 }]);
    expect(problems).toEqual([]);
    await context.close();
  });
});
