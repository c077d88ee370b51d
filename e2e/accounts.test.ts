/**
 * Accounts (issue 28): one language per person — an English browser signing in as someone whose
 * account says zh-Hant shows zh-Hant, and a change in Me is stored on the account — and a phone
 * account adding an e-mail address through the mailed link (Me → E-mail address, #/verify-email),
 * each screen checked at 390×844 in zh-Hans and en, then in fr, es and zh-Hant with an address too
 * long for one line (it wraps before the "@", not inside a part).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
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

  it('the other three languages, with an address too long for one line: it wraps before the “@”, never inside the name or the domain', async () => {
    let n = 0;
    for (const locale of ['fr', 'es', 'zh-Hant'] as const) {
      const phone = `+8613${String((Date.now() + ++n) % 1_000_000_000).padStart(9, '0')}`;
      const email = `maria.fernanda.gonzalez.${locale.toLowerCase()}@correo.example-tienda.com`;
      await insertUser(server.ctx.db, { account: phone, displayName: 'María Fernanda', passwordHash: await hashPassword('Acc0unts-pass'), role: 'promoter', status: 'active', locale, parentId: null });
      const context = await phoneContext(browser, 'en-US');
      const page = await context.newPage();
      const problems = watchProblems(page);
      await signInThroughForm(page, `${server.url}#/login`, phone, 'Acc0unts-pass');
      await page.waitForFunction((l) => document.documentElement.lang === l, locale);
      await page.goto(`${server.url}#/me/email`);
      await page.locator('#email').fill(email);
      await page.getByTestId('email-send').click();
      await page.getByTestId('email-sent').waitFor();
      expect(await splitParts(page, '[data-testid="email-sent"]', email), `${locale} sent`).toEqual([]);
      await checkScreen(page, `accounts-${locale}-email-sent`);
      const sealed = await server.ctx.db.selectFrom('mail_messages').select('body_sealed').where('recipient', '=', email).executeTakeFirstOrThrow();
      const link = /#\/verify-email\?token=[A-Za-z0-9_%-]+/.exec(server.ctx.mail.open(sealed.body_sealed).text)![0];
      await page.goto(`${server.url}${link}`);
      await page.getByTestId('verify-done').waitFor();
      expect(await splitParts(page, '[data-testid="verify-done"] p', email), `${locale} verified`).toEqual([]);
      await checkScreen(page, `accounts-${locale}-verified`);
      await page.goto(`${server.url}#/me/email`);
      await expect.poll(() => page.getByTestId('email-current').innerText()).toBe(email);
      expect(await splitParts(page, '[data-testid="email-current"]', email), `${locale} current`).toEqual([]);
      await checkScreen(page, `accounts-${locale}-email`);
      await page.goto(`${server.url}#/me`);
      // In Me, a row that opens the address: on one line, cut with an ellipsis when it must be, whole in its title.
      const row = page.getByTestId('me-email').locator('.list-value-cut');
      expect(await row.getAttribute('title')).toBe(email);
      expect(await row.evaluate((el) => el.getClientRects().length === 1 && el.getBoundingClientRect().height < 30)).toBe(true);
      await checkScreen(page, `accounts-${locale}-me`);
      await page.goto(`${server.url}${link}`);
      await page.getByTestId('verify-invalid').waitFor();
      await checkScreen(page, `accounts-${locale}-verify-used`);
      expect(problems.filter((p) => !/status of 400/.test(p)), locale).toEqual([]);
      await context.close();
    }
  });
});

/**
 * The parts of `email` (the name before the "@", and the "@" with the domain) that the browser
 * broke across lines inside the first element matching `selector` (each part's text range must lie
 * on one line; the address may be split over several text nodes).
 */
function splitParts(page: Page, selector: string, email: string): Promise<string[]> {
  return page.evaluate(({ selector, email }) => {
    const root = document.querySelector(selector);
    if (!root) return [`no ${selector}`];
    const nodes: { node: Text; start: number }[] = [];
    let text = '';
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
      nodes.push({ node, start: text.length });
      text += node.data;
    }
    const from = text.indexOf(email);
    if (from < 0) return [`no ${email} in ${text}`];
    const at = email.lastIndexOf('@');
    const point = (offset: number, end: boolean) => {
      const hit = [...nodes].reverse().find((n) => (end ? n.start < offset : n.start <= offset))!;
      return { node: hit.node, offset: offset - hit.start };
    };
    return [[from, from + at], [from + at, from + email.length]].flatMap(([a, b]) => {
      const range = document.createRange();
      const start = point(a!, false);
      const end = point(b!, true);
      range.setStart(start.node, start.offset);
      range.setEnd(end.node, end.offset);
      const lines = new Set(Array.from(range.getClientRects()).filter((r) => r.width > 0).map((r) => Math.round(r.top)));
      return lines.size > 1 ? [text.slice(a, b)] : [];
    });
  }, { selector, email });
}
