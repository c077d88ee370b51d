/// <reference lib="dom" />
/**
 * Issue 28, item 11: every console table fits the desk. At 1280×800 and 1024×768 (the smallest
 * desk), in all five languages, no table box scrolls sideways, every button in a table lies wholly
 * inside the window with its label unclipped, and an e-mail address never breaks mid-address (one
 * line, cut with an ellipsis and whole in its title when it does not fit). One browser, one
 * signed-in admin, the language switched in the app; the demo program (`npm start --demo`) gives
 * the tables rows with actions (pending commissions, requested and approved withdrawals, staff),
 * plus what the demo lacks: a promoter with a long address and a pending commission, a join
 * request, an API key and a webhook endpoint with a delivery.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { CampaignCreateSchema } from '@pa/shared';
import { LOCALES } from '@pa/shared/locales';
import { createCampaign, join, updateCampaign, type CampaignValues } from '../apps/server/src/modules/campaigns/service';
import { recordConversion } from '../apps/server/src/modules/commissions/service';
import { insertUser } from '../apps/server/src/modules/users/repository';
import { createEndpoint, sendTest } from '../apps/server/src/modules/webhooks/service';
import { createGroup } from '../apps/server/src/modules/groups/service';
import { hashPassword } from '../apps/server/src/platform/crypto/password';
import { seedDemo } from '../apps/server/src/seed-demo';
import { createShopKey, screenshot, setLanguage, startJourney, watchProblems } from './harness';

let journey: Awaited<ReturnType<typeof startJourney>>;
let admin = { account: '', password: '' };
let promoterId = '';
let webhookId = '';
const LONG_EMAIL = 'marie-christine.delacroix-fontaine@boutique-exemple-international.fr';

beforeAll(async () => {
  journey = await startJourney();
  const { ctx } = journey.server;
  const demo = (await seedDemo(ctx))!;
  admin = demo.find((a) => a.role === 'admin')!;
  const id = async (account: string) => (await ctx.db.selectFrom('users').select('id').where('account', '=', account).executeTakeFirstOrThrow()).id;
  const adminId = await id(admin.account);
  promoterId = await id('lin@demo.example');
  const campaign = await ctx.db.selectFrom('campaigns').select('id').executeTakeFirstOrThrow();

  // A promoter whose address is long enough to wrap, with a commission waiting for review.
  const longId = await insertUser(ctx.db, { account: LONG_EMAIL, displayName: 'Marie-Christine Delacroix-Fontaine', passwordHash: await hashPassword('Long-pass-1'), role: 'promoter', status: 'active', locale: 'fr', parentId: null });
  await join(ctx, longId, campaign.id);
  const code = (await ctx.db.selectFrom('links').select('code').where('promoter_id', '=', longId).executeTakeFirstOrThrow()).code;
  await recordConversion(ctx, null, { campaignId: campaign.id, kind: 'sale', externalId: 'TABLES-ORDER-1', amount: 45_600, linkCode: code, occurredAt: Date.now() - 60_000 } as Parameters<typeof recordConversion>[2]);

  // A campaign one joins on approval, with a request waiting.
  const gated = await createCampaign(ctx, adminId, CampaignCreateSchema.parse({
    names: { en: 'Invitation only', fr: 'Sur invitation', es: 'Solo con invitación', 'zh-Hans': '仅限邀请', 'zh-Hant': '僅限邀請' },
    landingUrl: 'https://shop.example.com/vip', saleRewardType: 'bps', saleReward: 1000, joinMode: 'approval',
  }) as CampaignValues);
  await updateCampaign(ctx, adminId, gated, { status: 'active' });
  await join(ctx, longId, gated);

  // A promoter group with a long name (issue 31), its promoter shown in the promoters table's group column.
  const group = await createGroup(ctx, { userId: adminId, ip: null }, { name: 'Partenaires premium des boutiques de thé', description: 'Boutiques spécialisées du réseau international' });
  await ctx.db.updateTable('users').set({ group_id: group.id }).where('id', '=', longId).execute();
  // A registration waiting with its answers to the application form (the queue shows them).
  const applicant = await insertUser(ctx.db, { account: 'jean-baptiste.applicant@boutique-exemple.fr', displayName: 'Jean-Baptiste Applicant', passwordHash: await hashPassword('Long-pass-1'), role: 'promoter', status: 'pending', locale: 'fr', parentId: null, groupId: group.id });
  const answer = (position: number, kind: 'url' | 'longText', question: string, value: string) => ({
    id: `answer-${position}`, user_id: applicant, question_id: `q-${position}`, source: 'registration' as const, position, kind, question_json: JSON.stringify({ en: question }), value, option_json: null, created_at: Date.now(),
  });
  await ctx.db.insertInto('application_answers').values([
    answer(0, 'url', 'Your website or social profile', 'https://www.instagram.com/the.very.long.profile.name.of.a.tea.blogger/'),
    answer(1, 'longText', 'How will you promote our teas?', 'Une dégustation filmée chaque semaine, puis un article détaillé avec les liens vers la boutique.'),
  ]).execute();

  await createShopKey(ctx, adminId);
  const { endpoint } = await createEndpoint(ctx, { userId: adminId, ip: null }, { url: 'https://hooks.example.com/promotion-assistant/receiver', events: ['commission.created'] });
  webhookId = endpoint.id;
  await sendTest(ctx, { userId: adminId, ip: null }, webhookId, 'en');
});

afterAll(async () => {
  await journey?.close();
});

/** What does not fit, on the screen as it is: the table boxes, the buttons in them, the e-mail addresses. */
function misfits(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const vw = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth > window.innerWidth) out.push(`page ${document.documentElement.scrollWidth} px wide`);
    for (const box of Array.from(document.querySelectorAll<HTMLElement>('.data-table-scroll'))) {
      if (box.scrollWidth > box.clientWidth + 0.5) {
        const widths = Array.from(box.querySelectorAll('th')).filter((th) => th.offsetWidth > 0).map((th) => `${(th.textContent ?? '').replace(/[↕▲▼]/g, '').trim() || '·'} ${th.offsetWidth}`);
        out.push(`table scrolls sideways: ${box.scrollWidth} > ${box.clientWidth} (${widths.join(', ')})`);
      }
    }
    for (const b of Array.from(document.querySelectorAll<HTMLElement>('.data-table-scroll button, .data-table-scroll a.adm-button, .data-table-scroll [role="button"], .data-table-bulk button'))) {
      const r = b.getBoundingClientRect();
      if (r.width === 0 || b.closest('.visually-hidden')) continue;
      const name = (b.textContent || b.getAttribute('aria-label') || '').trim().slice(0, 30);
      if (r.left < -0.5 || r.right > vw + 0.5) out.push(`button “${name}” at ${Math.round(r.left)}–${Math.round(r.right)}, window 0–${vw}`);
      // Its label whole inside it (not "Va…" for "Valider").
      const label = document.createRange();
      label.selectNodeContents(b);
      const l = label.getBoundingClientRect();
      if (l.width > 0 && (l.left < r.left - 0.5 || l.right > r.right + 0.5)) out.push(`button “${name}” label clipped: ${Math.round(l.width)} px in ${Math.round(r.width)}`);
    }
    // An e-mail address: one line, or cut with an ellipsis with the whole address in its title.
    const walker = document.createTreeWalker(document.querySelector('.data-table-scroll')?.closest('main') ?? document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      for (const m of text.matchAll(/[^\s@]+@[^\s@]+\.[^\s@]+/g)) {
        const el = node.parentElement!;
        if (!el.closest('.data-table-scroll') || el.getClientRects().length === 0) continue;
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const lines = new Set(Array.from(range.getClientRects()).filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        if (lines.size > 1) out.push(`e-mail “${m[0]}” on ${lines.size} lines`);
        const clipper = el.closest<HTMLElement>('[title]');
        if (el.scrollWidth > el.clientWidth + 0.5 && (!clipper || !clipper.title.includes(m[0]) || getComputedStyle(el).textOverflow !== 'ellipsis')) out.push(`e-mail “${m[0]}” clipped without an ellipsis and a title`);
      }
    }
    return out;
  });
}

describe('console tables at a desk', () => {
  it('show their actions without sideways scrolling at 1280×800 and 1024×768 in every language', async () => {
    const { browser, server } = journey;
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1, locale: 'en-US' });
    const page = await context.newPage();
    const problems = watchProblems(page);
    await page.goto(`${server.url}#/login`);
    await page.locator('#account').fill(admin.account);
    await page.locator('#password').fill(admin.password);
    await page.getByTestId('login-submit').click();
    await page.getByTestId('overview').waitFor();

    const screens = [
      '#/admin', '#/admin/commissions', '#/admin/withdrawals', '#/admin/withdrawals?status=approved', '#/admin/withdrawals?status=all',
      '#/admin/enrollments', '#/admin/conversions', '#/admin/promoters', `#/admin/promoters/${promoterId}`, '#/admin/users?status=active', '#/admin/users?status=pending', '#/admin/groups',
      '#/admin/campaigns', '#/admin/announcements', '#/admin/staff', '#/admin/audit', '#/admin/api-keys', '#/admin/webhooks',
      `#/admin/webhooks/${webhookId}`, '#/admin/mail',
    ];
    const failures: string[] = [];
    let tables = 0;
    const withActions = new Set<string>();
    for (const locale of LOCALES) {
      await page.setViewportSize({ width: 1280, height: 800 });
      await setLanguage(page, server.url, locale);
      for (const hash of screens) {
        await page.setViewportSize({ width: 1280, height: 800 });
        await page.goto(`${server.url}${hash}`);
        await page.waitForLoadState('networkidle');
        const loading = page.locator('.page-loading, .adm-skeleton, .adm-spin-loading, .adm-dot-loading, .data-table-loading');
        // Generous: the lazy page and its data on a shared, loaded machine (expect.poll waits 1 s by default).
        await expect.poll(() => loading.count(), { message: `${hash} still loading`, timeout: 20_000 }).toBe(0).catch(async (error: unknown) => {
          // What is still spinning, and the screen, to tell a slow machine from a page that never loads.
          await screenshot(page, `tables-loading-${locale}`);
          throw new Error(`${String(error)}: ${await loading.first().evaluate((el) => el.parentElement?.outerHTML.slice(0, 500)).catch(() => '')} ${problems.join(' ')}`);
        });
        if (locale === 'fr' && (hash === '#/admin/commissions' || hash === '#/admin/withdrawals')) await screenshot(page, `tables-${hash.slice(8)}-1280-fr`);
        for (const [width, height] of [[1280, 800], [1024, 768]] as const) {
          await page.setViewportSize({ width, height });
          await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
          for (const miss of await misfits(page)) failures.push(`${locale} ${width}×${height} ${hash}: ${miss}`);
          tables += await page.locator('.data-table-scroll').count();
          if (await page.locator('.data-table-scroll .data-table-actions-cell button').count() > 0) withActions.add(hash);
        }
      }
    }
    expect(failures).toEqual([]);
    // The check saw what it claims: tables on (nearly) every screen, and their action buttons.
    expect(tables).toBeGreaterThanOrEqual(LOCALES.length * 2 * (screens.length - 2));
    expect([...withActions].sort()).toEqual(expect.arrayContaining(['#/admin/api-keys', '#/admin/commissions', '#/admin/enrollments', '#/admin/staff', '#/admin/users?status=active', '#/admin/withdrawals', '#/admin/withdrawals?status=approved']));
    expect(problems).toEqual([]);
    await context.close();
  }, 600_000);
});
