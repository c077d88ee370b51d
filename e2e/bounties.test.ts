/// <reference lib="dom" />
/**
 * Bounties (issue 31 item 5) in Chromium: an admin at a desk creates a submission bounty in the
 * campaign's bounties page → the promoter (390×844) opens it from Home, sends proof with a link
 * and an image → an operator approves it in the review queue → the promoter sees it earned. Then
 * the bounty screens in all five languages: the promoter's list (goals with progress) and proof
 * form, the console's bounties page at 1280×800 and 1024×768, its form, and the review queue.
 */
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { BountyCreateSchema, CampaignCreateSchema } from '@pa/shared';
import { LOCALES } from '@pa/shared/locales';
import { createBounty, submitProof } from '../apps/server/src/modules/bounties/service';
import { createCampaign, updateCampaign } from '../apps/server/src/modules/campaigns/service';
import { recordConversion } from '../apps/server/src/modules/commissions/service';
import { checkDesk, checkScreen, createStaff, phoneContext, readLocale, registerThroughForm, setLanguage, signInThroughForm, startJourney, tr, watchProblems } from './harness';

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
const texts = (en: string, fr: string, es: string, hans: string, hant: string) => ({ en, fr, es, 'zh-Hans': hans, 'zh-Hant': hant });

/** A small PNG (a 2×2 blue square), as a phone's screenshot would be sent. */
function png(): Buffer {
  const crc = (buf: Buffer) => {
    let c = ~0;
    for (const b of buf) {
      c ^= b;
      for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
    }
    return ~c >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type), data]);
    const out = Buffer.alloc(8 + data.length + 4);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(2, 0);
  header.writeUInt32BE(2, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows = Buffer.from([0, 30, 100, 230, 30, 100, 230, 0, 30, 100, 230, 30, 100, 230]);
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', header), chunk('IDAT', zlib.deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

/** Waits for the console's table or list to be drawn (no skeleton left). */
async function settled(page: Page, testId: string) {
  await page.getByTestId(testId).first().waitFor();
  await page.locator('.adm-skeleton').first().waitFor({ state: 'detached', timeout: 5000 }).catch(() => undefined);
}

describe('bounties', () => {
  it('staff create a submission bounty → the promoter sends proof → approved → earned; every screen in five languages', async () => {
    const run = Date.now().toString(36);
    const adminId = await createStaff(server.ctx, 'admin', `boss${run}@example.com`, 'Admin-pass-1');
    await createStaff(server.ctx, 'operator', `otto${run}@example.com`, 'Operator-pass-1');
    const campaignId = await createCampaign(server.ctx, adminId, CampaignCreateSchema.parse({
      names: texts('Summer Tea', 'Thé d’été', 'Té de verano', '夏日茶饮', '夏日茶飲'), landingUrl: 'https://shop.example.com/tea', saleRewardType: 'bps', saleReward: 1000,
    }) as Parameters<typeof createCampaign>[2]);
    await updateCampaign(server.ctx, adminId, campaignId, { status: 'active' });

    // The promoter registers and joins.
    const promoterContext = await phoneContext(browser);
    const promoter = await promoterContext.newPage();
    const problems = watchProblems(promoter);
    await registerThroughForm(promoter, `${server.url}#/register`, `pia${run}@example.com`, 'Pia Promoter', 'Bounty-pass-1');
    await promoter.goto(`${server.url}#/campaigns/${campaignId}`);
    await promoter.getByTestId(`join-${campaignId}`).click();
    await promoter.getByTestId('campaign-link').waitFor();
    const promoterRow = await server.ctx.db.selectFrom('users').select('id').where('account', '=', `pia${run}@example.com`).executeTakeFirstOrThrow();
    const linkCode = (await server.ctx.db.selectFrom('links').select('code').where('promoter_id', '=', promoterRow.id).executeTakeFirstOrThrow()).code;

    // Goals with progress: 3 of 5 sales this month, CN¥120.00 of CN¥500.00 in sales this month.
    await createBounty(server.ctx, adminId, campaignId, BountyCreateSchema.parse({
      kind: 'performance', goal: { metric: 'sales', value: 5, period: 'month' }, reward: 5_000,
      names: texts('5 sales in a month', '5 ventes en un mois', '5 ventas en un mes', '一个月 5 笔销售', '一個月 5 筆銷售'),
      descriptions: texts('Reach five sales in one calendar month.', 'Atteignez cinq ventes dans le mois.', 'Consigue cinco ventas en un mes.', '一个自然月内完成五笔销售。', '一個自然月內完成五筆銷售。'),
    }));
    await createBounty(server.ctx, adminId, campaignId, BountyCreateSchema.parse({
      kind: 'performance', goal: { metric: 'saleAmount', value: 50_000, period: 'month' }, reward: 8_800, endsAt: Date.now() + 40 * 86_400_000,
      names: texts('CN¥500 in a month', '500 CN¥ en un mois', '500 CN¥ en un mes', '一个月销售额 500 元', '一個月銷售額 500 元'),
    }));
    for (const [i, amount] of [4_000, 4_000, 4_000].entries()) {
      await recordConversion(server.ctx, null, { campaignId, kind: 'sale', externalId: `B-${run}-${i}`, amount, linkCode, occurredAt: Date.now() - 60_000 } as Parameters<typeof recordConversion>[2]);
    }

    // An admin at a desk creates a submission bounty from the campaign editor's link.
    const deskContext = await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1, locale: 'en-US' });
    const desk = await deskContext.newPage();
    const deskProblems = watchProblems(desk);
    await signInThroughForm(desk, `${server.url}#/login`, `boss${run}@example.com`, 'Admin-pass-1');
    await desk.goto(`${server.url}#/admin/campaigns/${campaignId}`);
    await desk.getByTestId('campaign-bounties-link').click();
    await expect.poll(() => desk.url()).toContain(`/admin/campaigns/${campaignId}/bounties`);
    await settled(desk, 'bounties-table');
    await desk.getByTestId('bounty-add').click();
    await desk.getByTestId('bounty-kind-submission').click();
    await desk.getByTestId('bounty-submit').click();
    await expect.poll(() => desk.getByTestId('bounty-name-error').textContent()).toBe(tr(en, 'campaignAdmin.errors.bountyNameRequired'));
    await desk.getByTestId('bounty-name').fill('Post a review video');
    await desk.getByTestId('bounty-description').fill('Film a short review of our tea and post it. Send the link to your post.');
    await desk.getByTestId('bounty-reward').fill('30');
    await desk.getByTestId('bounty-submit').click();
    await desk.getByTestId('bounty-form').waitFor({ state: 'detached' });
    const created = await server.ctx.db.selectFrom('bounties').select('id').where('kind', '=', 'submission').executeTakeFirstOrThrow();
    await expect.poll(() => desk.getByTestId(`bounty-row-${created.id}`).innerText()).toContain('CN¥30.00');
    expect(await desk.getByTestId(`bounty-row-${created.id}`).innerText()).toContain(tr(en, 'bountiesAdmin.kind.submission'));

    // The promoter finds it from Home, with the goals' progress, and sends proof.
    await promoter.goto(`${server.url}#/`);
    await promoter.getByTestId('action-bounties').click();
    await promoter.getByTestId('bounty-list').waitFor();
    expect(await promoter.getByTestId('bounty-list').innerText()).toContain('3 of 5 sales this month');
    expect(await promoter.getByTestId('bounty-list').innerText()).toContain('CN¥120.00 of CN¥500.00 in sales this month');
    await promoter.getByTestId(`bounty-open-${created.id}`).click();
    await promoter.getByTestId('proof-submit').click();
    await expect.poll(() => promoter.getByTestId('proof-text-error').textContent()).toBe(tr(en, 'bounties.form.textError.required'));
    await promoter.getByTestId('proof-text').fill('I posted a one-minute review on my channel.');
    await promoter.getByTestId('proof-url').fill('video.example.com/pia/tea-review');
    await promoter.getByTestId('proof-image-input').setInputFiles({ name: 'shot.png', mimeType: 'image/png', buffer: png() });
    await promoter.getByTestId('proof-image-remove').waitFor();
    await promoter.getByTestId('proof-submit').click();
    await expect.poll(() => promoter.getByTestId('bounty-submission-state').innerText()).toContain(tr(en, 'bounties.submission.pending'));
    await checkScreen(promoter, 'bounties-en-pending');

    // An operator approves it in the review queue, proof in sight.
    const opContext = await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1, locale: 'en-US' });
    const op = await opContext.newPage();
    const opProblems = watchProblems(op);
    await signInThroughForm(op, `${server.url}#/login`, `otto${run}@example.com`, 'Operator-pass-1');
    await op.goto(`${server.url}#/admin/bounties/submissions`);
    const card = op.locator('[data-testid^="submission-row-"]').first();
    await card.waitFor();
    expect(await card.innerText()).toContain('I posted a one-minute review on my channel.');
    expect(await card.getByTestId('submission-url').getAttribute('href')).toBe('https://video.example.com/pia/tea-review');
    await expect.poll(() => card.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(2);
    await checkDesk(op, 'bounties-en-queue-pending');
    await card.locator('[data-testid^="submission-approve-"]').click();
    await card.waitFor({ state: 'detached' });
    await op.getByTestId('submissions-filter-approved').click();
    await op.locator('[data-testid^="submission-row-"]').first().waitFor();

    // The promoter sees it earned; a commission of the reward waits in the wallet.
    await promoter.goto(`${server.url}#/bounties`);
    await expect.poll(() => promoter.getByTestId(`bounty-card-${created.id}`).innerText()).toContain(tr(en, 'bounties.earned'));
    await checkScreen(promoter, 'bounties-en-earned');

    // For the screens: a task not yet proven (the form), and one waiting in the queue.
    const video = await createBounty(server.ctx, adminId, campaignId, BountyCreateSchema.parse({
      kind: 'submission', reward: 2_000, endsAt: Date.now() + 20 * 86_400_000,
      names: texts('Share a photo of your tea', 'Partagez une photo de votre thé', 'Comparte una foto de tu té', '分享你的茶饮照片', '分享你的茶飲照片'),
      descriptions: texts('Post a photo with #SummerTea on social media and send us the link.', 'Publiez une photo avec #SummerTea sur les réseaux sociaux et envoyez-nous le lien.', 'Publica una foto con #SummerTea en redes sociales y envíanos el enlace.', '在社交媒体上发布带 #SummerTea 的照片，并把链接发给我们。', '在社群媒體上發布帶 #SummerTea 的照片，並把連結傳給我們。'),
    }));
    const queued = await createBounty(server.ctx, adminId, campaignId, BountyCreateSchema.parse({
      kind: 'submission', reward: 1_500, names: texts('Write a blog post', 'Écrivez un article de blog', 'Escribe una entrada de blog', '写一篇博客文章', '寫一篇部落格文章'),
    }));
    await submitProof(server.ctx, promoterRow.id, queued.id, { text: 'My article about the summer menu, with photos and prices.', url: 'https://blog.example.com/summer-tea' });

    for (const locale of LOCALES) {
      const m = readLocale(locale);
      await setLanguage(promoter, server.url, locale);
      // Home's quick actions, with the way to the bounties under them.
      await promoter.goto(`${server.url}#/`);
      await expect.poll(() => promoter.getByTestId('action-bounties').innerText()).toContain(tr(m, 'home.actionBounties'));
      await checkScreen(promoter, `bounties-${locale}-home`, { fit: '.quick-actions *' });
      await promoter.goto(`${server.url}#/bounties`);
      await expect.poll(() => promoter.locator('.page-nav-title').textContent()).toBe(tr(m, 'bounties.title'));
      await promoter.getByTestId('bounty-list').waitFor();
      await checkScreen(promoter, `bounties-${locale}-list`, { fit: '.bounty-card *' });
      await promoter.goto(`${server.url}#/bounties/${video.id}`);
      await promoter.getByTestId('proof-form').waitFor();
      await checkScreen(promoter, `bounties-${locale}-form`, { fit: '.sub-page *' });

      await setLanguage(desk, server.url, locale);
      for (const [width, height] of [[1280, 800], [1024, 768]] as const) {
        await desk.setViewportSize({ width, height });
        await desk.goto(`${server.url}#/admin/campaigns/${campaignId}/bounties`);
        await settled(desk, 'bounties-table');
        await expect.poll(() => desk.locator('[data-testid^="bounty-row-"]').count()).toBe(5);
        await checkDesk(desk, `bounties-${locale}-console-${width}`);
        // The table whole at the desk: no sideways scrolling, its buttons inside the window.
        expect(await desk.evaluate(() => Array.from(document.querySelectorAll<HTMLElement>('.data-table-scroll')).filter((box) => box.scrollWidth > box.clientWidth + 0.5).length), `${locale} ${width}`).toBe(0);
        await desk.goto(`${server.url}#/admin/bounties/submissions`);
        await desk.locator('[data-testid^="submission-row-"]').first().waitFor();
        await checkDesk(desk, `bounties-${locale}-queue-${width}`);
      }
      await desk.goto(`${server.url}#/admin/campaigns/${campaignId}/bounties`);
      await settled(desk, 'bounties-table');
      await desk.getByTestId('bounty-add').click();
      await desk.getByTestId('bounty-form').waitFor();
      await desk.waitForTimeout(400); // the dialog's opening animation
      await checkDesk(desk, `bounties-${locale}-console-form-1024`);
      await desk.setViewportSize({ width: 1280, height: 800 });
    }
    // A rejection with its reason: the promoter reads it and may send proof again.
    await setLanguage(desk, server.url, 'en');
    await desk.goto(`${server.url}#/admin/bounties/submissions`);
    const waiting = desk.locator('[data-testid^="submission-row-"]').first();
    await waiting.locator('[data-testid^="submission-reject-"]').click();
    await desk.getByTestId('bounty-reject-confirm').click();
    await desk.getByTestId('bounty-reject-reason').fill('The link does not open: please send the address of the published article.');
    await desk.getByTestId('bounty-reject-confirm').click();
    await waiting.waitFor({ state: 'detached' });
    await setLanguage(promoter, server.url, 'en');
    await promoter.goto(`${server.url}#/bounties`);
    const rejected = promoter.getByTestId(`bounty-card-${queued.id}`);
    await expect.poll(() => rejected.innerText()).toContain(tr(en, 'bounties.submission.reason', { reason: 'The link does not open: please send the address of the published article.' }));
    expect(await rejected.innerText()).toContain(tr(en, 'bounties.sendAgain'));
    await checkScreen(promoter, 'bounties-en-rejected');
    await promoter.getByTestId(`bounty-open-${queued.id}`).click();
    await promoter.getByTestId('proof-form').waitFor();
    expect(await promoter.locator('#proof-title').textContent()).toBe(tr(en, 'bounties.form.titleAgain'));

    expect(problems).toEqual([]);
    expect(deskProblems).toEqual([]);
    expect(opProblems).toEqual([]);
    await Promise.all([promoterContext.close(), deskContext.close(), opContext.close()]);
  });
});
