/**
 * Accounts (issue 28): one language per person — an English browser signing in as someone whose
 * account says zh-Hant shows zh-Hant, and a change in Me is stored on the account — and a phone
 * account adding an e-mail address through the mailed link (Me → E-mail address, #/verify-email),
 * each screen checked at 390×844 in zh-Hans and en.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { insertUser } from '../apps/server/src/modules/users/repository';
import { hashPassword } from '../apps/server/src/platform/crypto/password';
import { checkScreen, launchBrowser, phoneContext, setLanguage, signInThroughForm, startServer, watchProblems } from './harness';

describe('accounts: the stored language and a phone account’s e-mail address', () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let browser: Browser;
  beforeAll(async () => {
    // Mail on (to a port nothing listens on: mails are written, never sent), so the link exists.
    server = await startServer({ mail: { smtpUrl: 'smtp://127.0.0.1:9', from: 'Promo <promo@example.com>', publicUrl: 'http://127.0.0.1/', appName: null } });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('an English browser shows the account’s language after sign-in; a change in Me is stored; a phone account verifies an address', async () => {
    const phone = `+8613${String(Date.now() % 1_000_000_000).padStart(9, '0')}`;
    const userId = await insertUser(server.ctx.db, { account: phone, displayName: '林小雨', passwordHash: await hashPassword('Acc0unts-pass'), role: 'promoter', status: 'active', locale: 'zh-Hans', parentId: null });
    const context = await phoneContext(browser, 'en-US');
    const page = await context.newPage();
    const problems = watchProblems(page);
    await page.goto(server.url);
    await page.waitForFunction(() => document.documentElement.lang === 'en');
    await signInThroughForm(page, `${server.url}#/login`, phone, 'Acc0unts-pass');
    // The account's language, not the browser's.
    await page.waitForFunction(() => document.documentElement.lang === 'zh-Hans');
    await page.goto(`${server.url}#/me`);
    await page.getByTestId('me-email').waitFor();
    expect(await page.getByTestId('me-email').innerText()).toContain('邮箱地址');
    await checkScreen(page, 'accounts-zh-Hans-me');

    await page.goto(`${server.url}#/me/email`);
    await page.locator('#email').fill('lin.xiaoyu@example.com');
    await page.getByTestId('email-send').click();
    await page.getByTestId('email-sent').waitFor();
    await checkScreen(page, 'accounts-zh-Hans-email-sent');
    // Not yet verified.
    expect(await page.getByTestId('email-current').innerText()).toBe('尚未添加');

    // Changing the language in Me changes the account's too.
    await setLanguage(page, server.url, 'en');
    await expect.poll(async () => (await server.ctx.db.selectFrom('users').select('locale').where('id', '=', userId).executeTakeFirstOrThrow()).locale).toBe('en');

    // The mailed link (read from the sealed outbox) confirms the address, in the reader's language.
    const sealed = await server.ctx.db.selectFrom('mail_messages').select('body_sealed').where('recipient', '=', 'lin.xiaoyu@example.com').executeTakeFirstOrThrow();
    const link = /#\/verify-email\?token=[A-Za-z0-9_%-]+/.exec(server.ctx.mail.open(sealed.body_sealed).text)![0];
    await page.goto(`${server.url}${link}`);
    await page.getByTestId('verify-done').waitFor();
    expect(await page.getByTestId('verify-done').innerText()).toContain('lin.xiaoyu@example.com');
    await checkScreen(page, 'accounts-en-verified');
    await page.goto(`${server.url}#/me/email`);
    await expect.poll(() => page.getByTestId('email-current').innerText()).toBe('lin.xiaoyu@example.com');
    await checkScreen(page, 'accounts-en-email');
    // Used once: the same link again says so.
    await page.goto(`${server.url}#/me`);
    await page.goto(`${server.url}${link}`);
    await page.getByTestId('verify-invalid').waitFor();
    await checkScreen(page, 'accounts-en-verify-used');
    expect(problems.filter((p) => !/status of 400/.test(p))).toEqual([]);
    await context.close();
  });
});
