/// <reference lib="dom" />
/**
 * The promoter's first half of the day, end to end in Chromium at 390×844: an admin creates and
 * activates a campaign with a poster template → a promoter joins, copies the link, makes and saves
 * the poster (a 750×1334 PNG whose QR code decodes to the link) → a visitor in a fresh context
 * opens the link and lands on the (HTTPS) landing page with pa_click → the link shows 1 click,
 * 1 unique, and the chat app's preview fetch apart, not as a click. Then Promote, campaign detail, link detail and poster in all five languages.
 */
import fs from 'node:fs';
import jsQR from 'jsqr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { LOCALES } from '@pa/shared/locales';
import { checkScreen, createStaff, phoneContext, readLocale, registerThroughForm, setLanguage, signInThroughForm, startJourney, tr, UNTRANSLATED, watchProblems } from './harness';

let journey: Awaited<ReturnType<typeof startJourney>>;
let server: typeof journey.server;
let landing: typeof journey.landing;
let browser: Browser;
let landingUrl: string;

beforeAll(async () => {
  journey = await startJourney();
  ({ server, landing, browser } = journey);
  landingUrl = landing.url;
});

afterAll(async () => {
  await journey?.close();
});

const en = readLocale('en');
const NAMES = { en: 'Summer Tea', 'zh-Hans': '夏日茶饮', 'zh-Hant': '夏日茶飲', fr: 'Thé d’été', es: 'Té de verano' } as const;
const DESCRIPTIONS = {
  en: 'Cold brew for hot days. Every bottle is brewed for 12 hours.',
  'zh-Hans': '炎炎夏日的冷泡茶，每一瓶都经过 12 小时冷萃。',
  'zh-Hant': '炎炎夏日的冷泡茶，每一瓶都經過 12 小時冷萃。',
  fr: 'Du thé infusé à froid pour les jours de chaleur, 12 heures d’infusion par bouteille.',
  es: 'Té infusionado en frío para los días de calor: 12 horas de infusión por botella.',
} as const;
const SHARE = { en: 'Cold tea for hot days, try {name}: {link}', 'zh-Hans': '夏天就喝{name}，戳这里：{link}', 'zh-Hant': '夏天就喝{name}，點這裡：{link}', fr: 'Du thé froid pour l’été — {name} : {link}', es: 'Té frío para el verano — {name}: {link}' } as const;

/** A poster template drawn by the browser itself (a real PNG of 750×1334), as a designer would upload. */
async function drawTemplate(page: Page): Promise<Buffer> {
  const dataUrl = await page.evaluate(() => {
    const c = document.createElement('canvas');
    c.width = 750;
    c.height = 1334;
    const ctx = c.getContext('2d')!;
    const g = ctx.createLinearGradient(0, 0, 0, 1334);
    g.addColorStop(0, '#ffd666');
    g.addColorStop(1, '#d46b08');
    ctx.fillStyle = g;
    ctx.fillRect(0, 0, 750, 1334);
    ctx.fillStyle = 'rgba(255,255,255,0.3)';
    for (let i = 0; i < 5; i++) {
      ctx.beginPath();
      ctx.arc(135 + i * 120, 260 + (i % 2) * 120, 60, 0, Math.PI * 2);
      ctx.fill();
    }
    ctx.fillStyle = 'rgba(120,60,0,0.25)';
    ctx.beginPath();
    ctx.ellipse(375, 720, 170, 220, 0, 0, Math.PI * 2);
    ctx.fill();
    return c.toDataURL('image/png');
  });
  return Buffer.from(dataUrl.split(',')[1]!, 'base64');
}

/** Reads a PNG's size from its IHDR chunk. */
function pngSize(png: Buffer) {
  expect(png.subarray(1, 4).toString('ascii')).toBe('PNG');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** Decodes the QR code in a PNG: the browser turns the PNG into pixels, jsQR (in Node) reads them. */
async function decodeQr(page: Page, png: Buffer): Promise<string | null> {
  const pixels = await page.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.naturalWidth;
    c.height = img.naturalHeight;
    const ctx = c.getContext('2d')!;
    ctx.drawImage(img, 0, 0);
    // The lower quarter holds the QR card; reading only it keeps the transfer small.
    const top = Math.floor(c.height * 0.7);
    return { data: Array.from(ctx.getImageData(0, top, c.width, c.height - top).data), width: c.width, height: c.height - top };
  }, png.toString('base64'));
  return jsQR(Uint8ClampedArray.from(pixels.data), pixels.width, pixels.height)?.data ?? null;
}

async function clipboard(page: Page) {
  return page.evaluate(() => navigator.clipboard.readText());
}

interface DrawnText {
  role: 'title' | 'subtitle' | 'name' | 'cta' | 'code';
  font: string;
  lines: string[];
  x: number;
  y: number;
  height: number;
  area: { x: number; y: number; w: number; h: number };
  ellipsized: boolean;
}
/** The poster's white card (750×1334 canvas) and the QR code's right edge inside it. */
const CARD = { x: 36, y: 1010, w: 678, h: 288 };
const QR_RIGHT = CARD.x + 24 + 240;

/**
 * Every text drawn on the poster on screen, held against the canvas: the page records where it
 * drew each text; the browser measures each line again in the font it was drawn in. Each line
 * lies inside its area (the space above the card, or the card's text column right of the QR
 * code), the areas inside the canvas, nothing cut with "…", and each text is the whole `expected`.
 */
async function checkPosterTexts(page: Page, label: string, expected: Partial<Record<DrawnText['role'], string>>, roles: DrawnText['role'][]) {
  const texts = JSON.parse((await page.getByTestId('poster-image').getAttribute('data-text-boxes'))!) as DrawnText[];
  expect(texts.map((t) => t.role), label).toEqual(roles);
  const widths = await page.evaluate((ts) => {
    const ctx = document.createElement('canvas').getContext('2d')!;
    return ts.map((t) => t.lines.map((line) => ((ctx.font = t.font), ctx.measureText(line).width)));
  }, texts);
  const compact = (s: string) => s.replace(/\s+/g, '');
  texts.forEach((t, i) => {
    const where = `${label} ${t.role}: ${t.lines.join(' | ')}`;
    expect(t.ellipsized, where).toBe(false);
    if (expected[t.role] !== undefined) expect(compact(t.lines.join('')), where).toBe(compact(expected[t.role]!));
    expect(t.area.x >= 0 && t.area.y >= 0 && t.area.x + t.area.w <= 750 && t.area.y + t.area.h <= 1334, where).toBe(true);
    if (t.role === 'name' || t.role === 'cta' || t.role === 'code') {
      expect(t.area.x >= QR_RIGHT && t.area.y >= CARD.y && t.area.x + t.area.w <= CARD.x + CARD.w && t.area.y + t.area.h <= CARD.y + CARD.h, where).toBe(true);
    } else {
      expect(t.area.y + t.area.h <= CARD.y, where).toBe(true);
    }
    expect(t.x, where).toBeGreaterThanOrEqual(t.area.x);
    expect(t.y, where).toBeGreaterThanOrEqual(t.area.y);
    expect(t.y + t.height, where).toBeLessThanOrEqual(t.area.y + t.area.h);
    for (const w of widths[i]!) expect(t.x + w, where).toBeLessThanOrEqual(t.area.x + t.area.w + 0.5);
  });
}

describe('campaign → link → poster → tracked visit', () => {
  it('runs the whole share loop and counts the visit once', async () => {
    const run = Date.now().toString(36);

    // 1. The admin creates the campaign in the console, uploads a poster template and activates it.
    await createStaff(server.ctx, 'admin', `admin${run}@example.com`, 'Admin-pass-1');
    const adminContext = await phoneContext(browser);
    const admin = await adminContext.newPage();
    const adminProblems = watchProblems(admin);
    await signInThroughForm(admin, `${server.url}#/login`, `admin${run}@example.com`, 'Admin-pass-1');
    await admin.goto(`${server.url}#/admin/campaigns`);
    await admin.getByTestId('new-campaign').click();
    for (const locale of LOCALES) {
      await admin.getByTestId(`locale-${locale}`).click();
      await admin.locator('#campaign-name').fill(NAMES[locale]);
      await admin.locator('#campaign-share-text').fill(SHARE[locale]);
      await admin.locator('#campaign-description').fill(DESCRIPTIONS[locale]);
    }
    await admin.getByTestId('locale-en').click();
    await admin.locator('#campaign-landing').fill(landingUrl);
    await admin.locator('#campaign-sale-reward').fill('10');
    await admin.locator('#campaign-lead-reward').fill('2.50');
    await admin.getByTestId('campaign-save').click();
    await admin.waitForURL(/#\/admin\/campaigns\/[0-9A-Z]+$/);
    const campaignId = admin.url().split('/').pop()!;
    await admin.getByTestId('poster-input').setInputFiles({ name: 'summer.png', mimeType: 'image/png', buffer: await drawTemplate(admin) });
    await expect.poll(async () => (await server.ctx.db.selectFrom('campaign_images').select('kind').where('campaign_id', '=', campaignId).execute()).map((r) => r.kind)).toEqual(['poster']);
    await admin.getByTestId('campaign-activate').click();
    await expect.poll(async () => (await server.ctx.db.selectFrom('campaigns').select('status').where('id', '=', campaignId).executeTakeFirst())?.status).toBe('active');
    await checkScreen(admin, 'promote-en-admin-campaign');
    expect(adminProblems).toEqual([]);
    await adminContext.close();

    // 2. A promoter registers, finds the campaign, reads its terms and joins.
    const context = await phoneContext(browser);
    const page = await context.newPage();
    const problems = watchProblems(page);
    const name = `Mia ${run}`;
    await registerThroughForm(page, `${server.url}#/register`, `mia${run}@example.com`, name, 'Promoter-pass-1');
    await page.getByTestId('tab-promote').click();
    // Not joined yet: listed as open to join, apart from the reader's own (none).
    await page.getByTestId('campaigns-open').getByTestId(`campaign-${campaignId}`).waitFor();
    expect(await page.getByTestId('campaigns-mine').getByTestId(`campaign-${campaignId}`).count()).toBe(0);
    await page.getByTestId(`open-${campaignId}`).click();
    await expect.poll(() => page.getByTestId('campaign-name').textContent()).toBe('Summer Tea');
    const terms = await page.getByTestId('campaign-terms').innerText();
    expect(terms).toContain(tr(en, 'campaign.terms.salePercent', { value: '10%' }));
    expect(terms).toContain(tr(en, 'campaign.terms.lead', { value: 'CN¥2.50' }));
    await page.getByTestId(`join-${campaignId}`).click();

    // 3. The default link is there: copy it, and the share text filled with it.
    const linkField = page.getByTestId('campaign-link');
    await linkField.waitFor();
    const link = (await linkField.textContent())!;
    expect(link).toMatch(new RegExp(`^${server.url}r/[0-9A-Za-z_-]{4,}$`));
    await page.locator('.copy-field', { has: linkField }).getByRole('button').click();
    await expect.poll(() => clipboard(page)).toBe(link);
    await page.locator('.copy-field', { has: page.getByTestId('campaign-share-text') }).getByRole('button').click();
    await expect.poll(() => clipboard(page)).toBe(`Cold tea for hot days, try Summer Tea: ${link}`);

    // 4. The poster maker: campaign template, QR, name and code → a PNG of 750×1334 whose QR is the link.
    await page.getByTestId('campaign-poster').click();
    await page.getByTestId('poster-image').waitFor();
    const downloadPromise = page.waitForEvent('download');
    await page.getByTestId('poster-save').click();
    const download = await downloadPromise;
    const code = link.split('/').pop()!;
    expect(download.suggestedFilename()).toBe(`poster-${code}.png`);
    const png = fs.readFileSync((await download.path())!);
    expect(pngSize(png)).toEqual({ width: 750, height: 1334 });
    expect(await decodeQr(page, png)).toBe(link);
    expect(problems).toEqual([]);

    // 5. The link is shared in a chat: the app fetches it for its preview card (no click). Then a
    // visitor in a fresh browser context opens the link and lands on the shop with pa_click.
    const previewContext = await browser.newContext({ ignoreHTTPSErrors: true, userAgent: 'WhatsApp/2.23.20.0 A' });
    expect((await previewContext.request.get(link, { maxRedirects: 0 })).status()).toBe(302);
    await previewContext.close();
    const visitorContext = await browser.newContext({ ignoreHTTPSErrors: true, userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1' });
    const visitor = await visitorContext.newPage();
    await visitor.goto(link);
    await visitor.locator('#landing').waitFor();
    const landedUrl = new URL(visitor.url());
    expect(`${landedUrl.origin}${landedUrl.pathname}`).toBe(landingUrl);
    const clickId = landedUrl.searchParams.get('pa_click');
    expect(clickId).toMatch(/^[0-9A-Z]{26}$/);
    await visitorContext.close();

    // 6. The promoter's link detail shows the visit: 1 click, 1 unique (clicks are written in batches);
    // the preview is kept apart, and said so.
    await page.goto(`${server.url}#/links`);
    await page.getByTestId(`link-${code}`).click();
    await expect.poll(async () => {
      await page.reload();
      await page.getByTestId('link-clicks').waitFor();
      return [await page.getByTestId('link-clicks').textContent(), await page.getByTestId('link-unique').textContent()];
    }, { timeout: 10_000 }).toEqual(['1', '1']);
    expect(await page.getByTestId('link-bots').textContent()).toBe(tr(readLocale('en'), 'links.botVisits_one', { n: '1' }));
    const stored = await server.ctx.db.selectFrom('clicks').select(['id', 'is_unique', 'is_bot', 'device']).orderBy('id').execute();
    expect(stored).toEqual([expect.objectContaining({ is_unique: 0, is_bot: 1, device: 'bot' }), { id: clickId, is_unique: 1, is_bot: 0, device: 'mobile' }]);
    const linkPath = new URL(page.url()).hash;

    // 7. The four screens in every language, with nothing left untranslated or overflowing.
    for (const locale of LOCALES) {
      const m = readLocale(locale);
      await setLanguage(page, server.url, locale);
      await page.goto(`${server.url}#/promote`);
      await expect.poll(() => page.getByTestId('campaigns-mine').getByTestId(`campaign-${campaignId}`).locator('h3').textContent()).toBe(NAMES[locale]);
      expect(await page.getByTestId('campaigns-mine').locator('h2').innerText()).toContain(tr(m, 'promote.mineSection'));
      await checkScreen(page, `promote-${locale}-promote`);
      await page.goto(`${server.url}#/campaigns/${campaignId}`);
      await expect.poll(() => page.getByTestId('campaign-name').textContent()).toBe(NAMES[locale]);
      await page.getByTestId('campaign-share-text').waitFor();
      expect(await page.getByTestId('campaign-share-text').textContent()).toBe(SHARE[locale].replace('{name}', NAMES[locale]).replace('{link}', link));
      await checkScreen(page, `promote-${locale}-campaign`);
      await page.goto(`${server.url}${linkPath}`);
      await expect.poll(() => page.getByTestId('link-clicks').textContent()).toBe('1');
      await expect.poll(() => page.locator('.page-nav-title').textContent()).toBe(tr(m, 'links.detail'));
      expect(await page.getByTestId('link-bots').textContent()).toBe(tr(m, 'links.botVisits_one', { n: '1' }));
      await page.getByTestId('qr-image').waitFor();
      await checkScreen(page, `promote-${locale}-link`);
      await page.getByTestId('link-poster').click();
      await page.getByTestId('poster-image').waitFor();
      const card = { name, cta: tr(m, 'poster.ctaLink'), code: tr(m, 'poster.codeLine', { code }) };
      await checkPosterTexts(page, `${locale} template`, card, ['name', 'cta', 'code']);
      await checkScreen(page, `promote-${locale}-poster`);
      // The plain design draws the campaign's name and description too.
      await page.getByTestId('template-plain').click();
      await expect.poll(async () => (await page.getByTestId('poster-image').getAttribute('data-text-boxes'))?.includes('"title"'), { timeout: 10_000 }).toBe(true);
      await checkPosterTexts(page, `${locale} plain`, { ...card, title: NAMES[locale], subtitle: DESCRIPTIONS[locale] }, ['title', 'subtitle', 'name', 'cta', 'code']);
      await checkScreen(page, `promote-${locale}-poster-plain`);
      const body = await page.locator('body').innerText();
      expect(body).not.toMatch(UNTRANSLATED);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
      expect(overflow, locale).toBe(false);
    }
    expect(problems).toEqual([]);
    await context.close();
  });

  it('makes the invite poster on Team with the invite link in its QR code', async () => {
    const run = Date.now().toString(36);
    const context = await phoneContext(browser, 'zh-CN');
    const page = await context.newPage();
    const problems = watchProblems(page);
    await registerThroughForm(page, `${server.url}#/register`, `lei${run}@example.com`, '李雷', 'Promoter-pass-1');
    await page.getByTestId('tab-team').click();
    const invite = (await page.getByTestId('team-invite-link').textContent())!;
    expect(invite).toMatch(/#\/register\?invite=[0-9A-Z]{8}$/);
    await page.getByTestId('invite-poster').click();
    await page.getByTestId('poster-image').waitFor();
    const code = invite.split('=').pop()!;
    // Every language: every text whole and inside the poster ("Code d’invitation : …" was cut in French and English), and the saved image is that poster.
    for (const locale of LOCALES) {
      const m = readLocale(locale);
      await setLanguage(page, server.url, locale);
      await page.goto(`${server.url}#/`);
      const app = (await page.getByTestId('header-app-name').textContent())!;
      await page.goto(`${server.url}#/poster/invite`);
      await expect.poll(() => page.locator('.page-nav-title').textContent()).toBe(tr(m, 'poster.inviteNav'));
      await page.getByTestId('poster-image').waitFor();
      await checkPosterTexts(page, `${locale} invite`, { title: tr(m, 'poster.inviteTitle', { app }), subtitle: tr(m, 'poster.inviteSubtitle'), name: '李雷', cta: tr(m, 'poster.ctaInvite'), code: tr(m, 'poster.inviteCodeLine', { code }) }, ['title', 'subtitle', 'name', 'cta', 'code']);
      await checkScreen(page, `promote-${locale}-invite-poster`);
      const downloadPromise = page.waitForEvent('download');
      await page.getByTestId('poster-save').click();
      const png = fs.readFileSync((await (await downloadPromise).path())!);
      expect(pngSize(png)).toEqual({ width: 750, height: 1334 });
      expect(await decodeQr(page, png)).toBe(invite);
    }
    expect(problems).toEqual([]);
    await context.close();
  });
});
