/// <reference lib="dom" />
/**
 * A newcomer's first minutes in Chromium at 390×844: the invite link, opened while the register
 * page is already showing, fills the code and names the inviter (masked) → an unknown code says
 * so → after registering, Home shows the first steps (join, link, share) and a trend without a
 * value axis → Promote lists the campaign under "open", then under "yours" once joined → the
 * first click ends the first steps and brings the axis back. Wrong addresses: an unknown hash
 * route shows "not found", a staff page "not for you" (to a promoter, and an admin page to an
 * operator at 1280×800), each with a way back. Every screen in all five languages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { CampaignCreateSchema } from '@pa/shared';
import { LOCALES } from '@pa/shared/locales';
import { createCampaign, updateCampaign } from '../apps/server/src/modules/campaigns/service';
import { checkScreen, createStaff, phoneContext, readLocale, registerThroughForm, setLanguage, signInThroughForm, startJourney, tr, watchProblems } from './harness';

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
/** Nothing inside these sticks out of the screen. */
const FIT = '.card *, .invite-banner, .route-status *, .campaign-section *';

/** The signed-out pages' language picker. */
async function pickAuthLanguage(page: Page, locale: string) {
  await page.getByTestId('auth-language').selectOption(locale);
  await page.waitForFunction((l) => document.documentElement.lang === l, locale);
}

describe('a newcomer finds their way', () => {
  it('invite link → register (code filled, inviter named) → first steps → first click; wrong addresses show where one is', async () => {
    const run = Date.now().toString(36);
    const adminId = await createStaff(server.ctx, 'admin', `ada${run}@example.com`, 'Admin-pass-1');
    const campaignId = await createCampaign(server.ctx, adminId, CampaignCreateSchema.parse({
      names: NAMES, landingUrl: landing.url, saleRewardType: 'bps', saleReward: 1000, overrideBps: 1000, holdDays: 7, approvalMode: 'auto',
    }) as Parameters<typeof createCampaign>[2]);
    await updateCampaign(server.ctx, adminId, campaignId, { status: 'active' });

    // Sam invites; his name has brackets, which masking leaves out.
    const samContext = await phoneContext(browser);
    const sam = await samContext.newPage();
    await registerThroughForm(sam, `${server.url}#/register`, `sam${run}@example.com`, 'Sam (Lyon)', 'Invite-pass-1');
    const code = (await sam.getByTestId('invite-code').textContent())!;
    await samContext.close();

    // The newcomer is on the register page already when the invite link is opened (only the hash changes).
    const context = await phoneContext(browser);
    const page = await context.newPage();
    const problems = watchProblems(page);
    await page.goto(`${server.url}#/register`);
    await page.locator('#inviteCode').waitFor();
    expect(await page.locator('#inviteCode').inputValue()).toBe('');
    await page.goto(`${server.url}#/register?invite=${code}`);
    await expect.poll(() => page.locator('#inviteCode').inputValue()).toBe(code);
    await expect.poll(() => page.getByTestId('invite-inviter').textContent()).toBe(tr(en, 'auth.invitedBy', { name: 'S*****n' }));
    expect(await page.getByTestId('invite-banner').innerText()).toContain(code);
    expect(await page.getByTestId('invite-banner').innerText()).not.toContain('Sam');
    for (const locale of LOCALES) {
      const m = readLocale(locale);
      await pickAuthLanguage(page, locale);
      await expect.poll(() => page.getByTestId('invite-inviter').textContent()).toBe(tr(m, 'auth.invitedBy', { name: 'S*****n' }));
      await checkScreen(page, `newcomer-${locale}-register-invite`, { fit: FIT });
    }
    // A code nobody has: said plainly, the field still filled for correcting.
    await page.goto(`${server.url}#/register?invite=ZZZZZZZZ`);
    await expect.poll(() => page.getByTestId('invite-banner').textContent()).toBe(tr(readLocale('es'), 'auth.inviteUnknown', { code: 'ZZZZZZZZ' }));
    expect(await page.locator('#inviteCode').inputValue()).toBe('ZZZZZZZZ');
    await checkScreen(page, 'newcomer-es-register-unknown-invite', { fit: FIT });
    // The look-up's NOT_FOUND is the one console error the browser logs here (a failed request); nothing else.
    expect(problems.splice(0)).toEqual([expect.stringMatching(/status of 404/)]);
    await pickAuthLanguage(page, 'en');
    await page.goto(`${server.url}#/register?invite=${code}`);
    await expect.poll(() => page.locator('#inviteCode').inputValue()).toBe(code);
    await page.locator('#account').fill(`nina${run}@example.com`);
    await page.locator('#displayName').fill('Nina Newcomer');
    await page.locator('#password').fill('Newcomer-pass-1');
    await page.getByTestId('register-submit').click();
    await page.getByTestId('greeting').waitFor();
    expect(await page.locator('.home-inviter').textContent()).toBe(tr(en, 'home.invitedBy', { name: 'Sam (Lyon)' }));

    // Home: the first steps, join next; an all-zero trend draws no value axis.
    const steps = page.getByTestId('first-steps');
    await steps.waitFor();
    const done = async () => Promise.all(['join', 'link', 'share'].map((id) => page.getByTestId(`first-step-${id}`).getAttribute('data-done')));
    expect(await done()).toEqual(['false', 'false', 'false']);
    expect(await page.getByTestId('first-step-join').locator('a').getAttribute('aria-current')).toBe('step');
    await page.getByTestId('trend-chart').waitFor();
    expect(await page.getByTestId('trend-empty').textContent()).toBe(tr(en, 'stats.chartEmpty'));
    expect(await page.locator('.trend-tick').count()).toBe(0);
    await page.getByTestId('metric-clicks').click();
    expect(await page.locator('.trend-tick').count()).toBe(0);

    // Promote: the campaign is open to join; none of the reader's yet.
    await page.getByTestId('first-step-join').locator('a').click();
    await page.waitForURL(/#\/promote$/);
    await page.getByTestId('campaigns-open').getByTestId(`campaign-${campaignId}`).waitFor();
    expect(await page.getByTestId('campaigns-mine').innerText()).toContain(tr(en, 'promote.mineEmpty'));

    for (const locale of LOCALES) {
      const m = readLocale(locale);
      await setLanguage(page, server.url, locale);
      await page.goto(`${server.url}#/`);
      await expect.poll(() => page.getByTestId('first-steps').locator('h2').textContent()).toBe(tr(m, 'home.firstStepsTitle'));
      await expect.poll(() => page.getByTestId('trend-empty').textContent()).toBe(tr(m, 'stats.chartEmpty'));
      await checkScreen(page, `newcomer-${locale}-home`, { fit: FIT });
      await page.goto(`${server.url}#/promote`);
      await expect.poll(() => page.getByTestId('campaigns-open').locator('h3').textContent()).toBe(NAMES[locale]);
      expect(await page.getByTestId('campaigns-open').locator('h2').innerText()).toContain(tr(m, 'promote.openSection'));
      await checkScreen(page, `newcomer-${locale}-promote-open`, { fit: FIT });
      // Wrong addresses: not found, and a staff page that is not for a promoter; the address stays as typed.
      await page.goto(`${server.url}#/nope`);
      await expect.poll(() => page.getByTestId('not-found').locator('h1').textContent()).toBe(tr(m, 'app.notFoundTitle'));
      expect(new URL(page.url()).hash).toBe('#/nope');
      expect(await page.getByTestId('not-found').innerText()).toContain('#/nope');
      await checkScreen(page, `newcomer-${locale}-not-found`, { fit: FIT });
      await page.goto(`${server.url}#/admin/users`);
      await expect.poll(() => page.getByTestId('not-allowed').locator('h1').textContent()).toBe(tr(m, 'app.notAllowedTitle'));
      await checkScreen(page, `newcomer-${locale}-not-allowed`, { fit: FIT });
    }
    await setLanguage(page, server.url, 'en');
    await page.goto(`${server.url}#/nope`);
    await page.getByTestId('route-status-home').click();
    await page.getByTestId('greeting').waitFor();
    expect(new URL(page.url()).hash).toBe('#/');

    // Joining moves the campaign to "yours" and does two steps at once (it makes the link).
    await page.getByTestId('tab-promote').click();
    await page.getByTestId(`join-${campaignId}`).click();
    await page.getByTestId('campaigns-mine').getByTestId(`campaign-${campaignId}`).waitFor();
    expect(await page.getByTestId('campaigns-open').innerText()).toContain(tr(en, 'promote.openEmpty'));
    await checkScreen(page, 'newcomer-en-promote-joined', { fit: FIT });
    await page.getByTestId('tab-home').click();
    await expect.poll(done).toEqual(['true', 'true', 'false']);
    expect(await page.getByTestId('first-step-share').locator('a').getAttribute('aria-current')).toBe('step');
    await checkScreen(page, 'newcomer-en-home-joined', { fit: FIT });

    // The first click (a visitor through the link): the first steps are done and gone; the clicks chart has an axis again.
    const link = await server.ctx.db.selectFrom('links').innerJoin('users', 'users.id', 'links.promoter_id').select('links.code').where('users.account', '=', `nina${run}@example.com`).executeTakeFirstOrThrow();
    // A person's phone (headless Chromium's own user agent counts as a bot, and a bot's visit is no first click).
    const visitor = await browser.newContext({ ignoreHTTPSErrors: true, userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1' });
    const visit = await visitor.newPage();
    await visit.goto(`${server.url}r/${link.code}`);
    await visit.locator('#landing').waitFor();
    await visitor.close();
    await expect.poll(async () => {
      await page.reload();
      await page.getByTestId('stats-updated').waitFor();
      return page.getByTestId('first-steps').count();
    }, { timeout: 10_000 }).toBe(0);
    await page.getByTestId('metric-clicks').click();
    await expect.poll(() => page.getByTestId('metric-clicks').getAttribute('aria-checked')).toBe('true');
    await expect.poll(() => page.locator('.trend-tick').count()).toBeGreaterThan(0);
    expect(await page.getByTestId('trend-empty').count()).toBe(0);
    await checkScreen(page, 'newcomer-en-home-first-click', { fit: FIT });
    expect(problems).toEqual([]);
    await context.close();

    // An operator typing an admin-only address (1280×800): "not for you", and Home is one tap away.
    await createStaff(server.ctx, 'operator', `otto${run}@example.com`, 'Operator-pass-1');
    const staffContext = await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
    const staff = await staffContext.newPage();
    const staffProblems = watchProblems(staff);
    await signInThroughForm(staff, `${server.url}#/login`, `otto${run}@example.com`, 'Operator-pass-1');
    for (const locale of LOCALES) {
      const m = readLocale(locale);
      await setLanguage(staff, server.url, locale);
      await staff.goto(`${server.url}#/admin/settings`);
      await expect.poll(() => staff.getByTestId('not-allowed').locator('h1').textContent()).toBe(tr(m, 'app.notAllowedTitle'));
      expect(await staff.getByTestId('not-allowed').innerText()).toContain('#/admin/settings');
      expect(new URL(staff.url()).hash).toBe('#/admin/settings');
      await checkScreen(staff, `newcomer-${locale}-staff-not-allowed`, { fit: FIT });
    }
    // "Home" takes staff to their Home: the overview.
    await staff.getByTestId('route-status-home').click();
    await staff.getByTestId('overview').waitFor();
    // Pages the operator may open still open.
    await staff.goto(`${server.url}#/admin/users`);
    await staff.waitForLoadState('networkidle');
    expect(await staff.getByTestId('not-allowed').count()).toBe(0);
    expect(staffProblems).toEqual([]);
    await staffContext.close();
  });
});
