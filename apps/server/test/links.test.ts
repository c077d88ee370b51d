import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LINK_CACHE_TTL_MS } from '../src/platform/link-cache';
import { rebuildRollups } from '../src/platform/rollups-rebuild';
import { classifyUserAgent } from '../src/platform/visitor';
import { campaignBody, Client, DIALECTS, errorCode, makeEnv, signedIn, type TestEnv } from './helpers';

const PHONE = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Mobile Safari/537.36';
const DESKTOP = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';
const BOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
/** What chat apps and social sites send when they fetch a shared link for its preview card. */
const PREVIEWS = {
  whatsapp: 'WhatsApp/2.23.20.0 A',
  telegram: 'TelegramBot (like TwitterBot)',
  slack: 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
  discord: 'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)',
  facebook: 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
  twitter: 'Twitterbot/1.0',
  linkedin: 'LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)',
  skypeTeams: 'Mozilla/5.0 (Windows NT 6.1; WOW64) SkypeUriPreview Preview/0.5 skype-url-preview@microsoft.com',
  iMessage: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_11_1) AppleWebKit/601.2.4 (KHTML, like Gecko) Version/9.0.1 Safari/601.2.4 facebookexternalhit/1.1 Facebot Twitterbot/1.0',
  line: 'facebookexternalhit/1.1;line-poker/1.0',
  kakao: 'facebookexternalhit/1.1; kakaotalk-scrap/1.0; +https://devtalk.kakao.com/t/scrap/33984',
  snapchat: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_11_1) AppleWebKit/601.2.4 (KHTML, like Gecko) Version/9.0.1 Safari/601.2.4 facebookexternalhit/1.1 Facebot Twitterbot/1.0 Snap URL Preview Service; bot; snapchat; https://developers.snap.com/robots',
  pinterest: 'Pinterestbot/1.0 (+http://www.pinterest.com/bot.html)',
  qq: 'Mozilla/5.0 (Windows NT 6.1; WOW64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/51.0.2704.79 Safari/537.36 QQ-URL-Manager',
  dingtalk: 'DingTalkBot-LinkService/1.0',
  zalo: 'Zalo/1.0 (Link preview)',
  vk: 'Mozilla/5.0 (compatible; vkShare; +http://vk.com/dev/Share)',
  mastodon: 'http.rb/5.1.1 (Mastodon/4.2.0; +https://mastodon.social/)',
  bluesky: 'Mozilla/5.0 (compatible; Bluesky Cardyb/1.1; +mailto:support@bsky.app)',
  // Not in the isbot list: our own (platform/visitor.ts).
  viber: 'Viber/21.0.0.3 (Android)',
  viberIos: 'Viber/13.3.0.5 CFNetwork/1126 Darwin/19.5.0',
};
/** People: the browsers inside those apps (the person tapped the link), and ordinary ones. */
const PEOPLE = {
  phone: PHONE,
  desktop: DESKTOP,
  iPhone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
  whatsappInApp: 'Mozilla/5.0 (Linux; Android 13; SM-A525F Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/119.0.6045.163 Mobile Safari/537.36 WhatsApp/1.0',
  facebookInApp: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/21B80 [FBAN/FBIOS;FBAV/440.0.0.33.118;FBBV/535838574;FBDV/iPhone15,2;FBMD/iPhone;FBSN/iOS;FBSV/17.1;FBSS/3;FBID/phone;FBLC/en_US;FBOP/5;FBRV/0]',
  telegramInApp: 'Mozilla/5.0 (Linux; Android 12) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/118.0 Mobile Safari/537.36 Telegram-Android/10.2.0',
  weChat: 'Mozilla/5.0 (iPhone; CPU iPhone OS 16_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.30(0x18001e31) NetType/WIFI Language/zh_CN',
  qq: 'Mozilla/5.0 (iPhone; CPU iPhone OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 QQ/8.9.80.637 V1_IPH_SQ_8.9.80_1_APP_A Pixel/1170 Core/WKWebView Device/Apple(iPhone 13) NetType/WIFI QBWebViewType/1 WKType/1',
  lark: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Lark/6.8.6 LarkLocale/zh_CN ChannelName/Feishu',
  viberInApp: 'Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/UD1A.230803.041; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/120.0.6099.144 Mobile Safari/537.36 Viber/21.0.0.3',
};

describe('who is a person', () => {
  it.each(Object.entries(PREVIEWS))('a link-preview fetcher (%s) is a bot', (_, ua) => {
    expect(classifyUserAgent(ua)).toEqual({ bot: true, device: 'bot' });
  });
  it.each(Object.entries(PEOPLE))('a browser (%s) is a person', (_, ua) => {
    expect(classifyUserAgent(ua).bot).toBe(false);
  });
  it('a request without a user agent is a bot', () => {
    expect(classifyUserAgent('').bot).toBe(true);
  });
  it.each([
    ['phone', PHONE, 'mobile'],
    ['iPhone', PEOPLE.iPhone, 'mobile'],
    ['WeChat on an iPhone', PEOPLE.weChat, 'mobile'],
    ['Android in-app browser', PEOPLE.whatsappInApp, 'mobile'],
    ['iPad', 'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1', 'tablet'],
    ['Android tablet', 'Mozilla/5.0 (Linux; Android 13; SM-X700) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36', 'tablet'],
    ['Windows', DESKTOP, 'desktop'],
    ['Mac', PEOPLE.lark, 'desktop'],
    ['smart TV', 'Mozilla/5.0 (SMART-TV; Linux; Tizen 6.0) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/4.0 Chrome/76.0.3809.146 TV Safari/537.36', 'other'],
    ['game console', 'Mozilla/5.0 (PlayStation; PlayStation 5/2.26) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.0 Safari/605.1.15', 'other'],
  ])('a person\'s device class: %s is %s', (_, ua, device) => {
    expect(classifyUserAgent(ua)).toEqual({ bot: false, device });
  });
});

describe.each(DIALECTS)('links and the tracked redirect on %s', (dialect) => {
  let env: TestEnv;
  let admin: Client;
  let promoter: Client;
  let campaignId: string;
  beforeAll(async () => {
    env = await makeEnv(dialect);
    admin = (await signedIn(env, 'admin')).client;
    promoter = (await signedIn(env, 'promoter')).client;
    campaignId = (await admin.request('POST', '/api/admin/campaigns', campaignBody())).json().campaign.id;
    await admin.request('PATCH', `/api/admin/campaigns/${campaignId}`, { status: 'active' });
    await promoter.request('POST', `/api/campaigns/${campaignId}/join`);
  });
  afterAll(async () => {
    await env?.close();
  });

  const visit = (code: string, ua = PHONE, ip = '198.51.100.7', extra: Record<string, string> = {}) =>
    env.app.inject({ method: 'GET', url: `/r/${code}`, headers: { 'user-agent': ua, ...extra }, remoteAddress: ip });

  it('creates links with custom or generated codes, labels, channels and deep paths', async () => {
    const custom = await promoter.request('POST', '/api/links', { campaignId, code: 'Tea-Lover', label: 'Moments', channel: 'wechat', path: '/tea/oolong?size=l' });
    expect(custom.statusCode, custom.body).toBe(201);
    expect(custom.json().link).toMatchObject({ code: 'Tea-Lover', label: 'Moments', channel: 'wechat', destination: 'https://shop.example.com/tea/oolong?size=l', status: 'active', isDefault: false, clicks: 0 });
    const other = await promoter.request('POST', '/api/links', { campaignId, path: 'https://m.example.com/app' });
    expect(other.json().link.code).toMatch(/^[a-z2-9]{7}$/);
    expect(other.json().link.destination).toBe('https://m.example.com/app');
  });

  it('refuses taken and reserved codes, other hosts and non-https destinations', async () => {
    await promoter.request('POST', '/api/links', { campaignId, code: 'taken-one' });
    const { client: rival } = await signedIn(env, 'promoter');
    await rival.request('POST', `/api/campaigns/${campaignId}/join`);
    const taken = await rival.request('POST', '/api/links', { campaignId, code: 'TAKEN-ONE' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error).toMatchObject({ code: 'LINK_CODE_TAKEN', fields: { code: 'taken' } });
    expect((await rival.request('POST', '/api/links', { campaignId, code: 'Admin' })).json().error).toMatchObject({ code: 'VALIDATION_FAILED', fields: { code: 'reserved' } });
    expect((await rival.request('POST', '/api/links', { campaignId, code: 'a b c' })).json().error.fields).toEqual({ code: 'invalid' });
    expect((await rival.request('POST', '/api/links', { campaignId, code: 'abc' })).json().error.fields).toEqual({ code: 'too_short' });
    expect((await rival.request('POST', '/api/links', { campaignId, channel: 'x'.repeat(25) })).json().error.fields).toEqual({ channel: 'too_long' });
    const evil = await rival.request('POST', '/api/links', { campaignId, path: 'https://evil.example.net/phish' });
    expect(evil.json().error).toMatchObject({ code: 'DESTINATION_NOT_ALLOWED', fields: { path: 'not_allowed' } });
    expect((await rival.request('POST', '/api/links', { campaignId, path: '//evil.example.net/x' })).json().error).toMatchObject({ code: 'VALIDATION_FAILED', fields: { path: 'invalid' } });
    expect((await rival.request('POST', '/api/links', { campaignId, path: 'javascript:alert(1)' })).json().error).toMatchObject({ code: 'VALIDATION_FAILED', fields: { path: 'invalid' } });
    expect((await rival.request('POST', '/api/links', { campaignId, path: 'http://shop.example.com/x' })).json().error.fields).toEqual({ path: 'invalid' });
    const { client: outsider } = await signedIn(env, 'promoter');
    expect(errorCode(await outsider.request('POST', '/api/links', { campaignId }))).toBe('ENROLLMENT_REQUIRED');
    expect(errorCode(await outsider.request('POST', '/api/links', { campaignId: 'missing' }))).toBe('NOT_FOUND');
  });

  it('keeps links private to their promoter', async () => {
    const mine = (await promoter.request('POST', '/api/links', { campaignId, label: 'private' })).json().link;
    const { client: other } = await signedIn(env, 'promoter');
    expect(errorCode(await other.request('GET', `/api/links/${mine.id}`))).toBe('NOT_FOUND');
    expect(errorCode(await other.request('PATCH', `/api/links/${mine.id}`, { label: 'hijacked' }))).toBe('NOT_FOUND');
    expect(errorCode(await other.request('GET', `/api/links/${mine.id}/stats`))).toBe('NOT_FOUND');
    expect((await other.request('GET', '/api/links')).json().items).toEqual([]);
    expect((await promoter.request('GET', `/api/links/${mine.id}`)).json().link.label).toBe('private');
    expect(errorCode(await new Client(env.app).request('GET', '/api/links'))).toBe('UNAUTHENTICATED');
  });

  it('redirects with pa_click, records each click in batches, and counts unique visitors per 24 h', async () => {
    const link = (await promoter.request('POST', '/api/links', { campaignId, code: 'redirect-me', path: '/tea?ref=x#top' })).json().link;
    const first = await visit('REDIRECT-ME', PHONE, '198.51.100.7', { referer: 'https://chat.example.org/group/1' });
    expect(first.statusCode).toBe(302);
    expect(first.headers['cache-control']).toBe('no-store');
    expect(first.headers['x-content-type-options']).toBe('nosniff');
    // None of the site's page headers or cookies: the redirect answers for itself.
    expect(first.headers['set-cookie']).toBeUndefined();
    expect(first.headers['content-security-policy']).toBeUndefined();
    expect(first.headers['permissions-policy']).toBeUndefined();
    const location = new URL(String(first.headers.location));
    expect(`${location.origin}${location.pathname}`).toBe('https://shop.example.com/tea');
    expect(location.searchParams.get('ref')).toBe('x');
    expect(location.hash).toBe('#top');
    const clickId = location.searchParams.get('pa_click')!;
    expect(clickId).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    await visit('redirect-me', PHONE, '198.51.100.7'); // same visitor: not unique
    await visit('redirect-me', DESKTOP, '198.51.100.7'); // another browser: unique
    await visit('redirect-me', BOT, '198.51.100.9'); // a bot: recorded, flagged, never unique
    await env.ctx.clicks.flush();
    const clicks = await env.ctx.db.selectFrom('clicks').selectAll().where('link_id', '=', link.id).orderBy('id').execute();
    expect(clicks.map((c) => [c.is_unique, c.is_bot, c.device])).toEqual([[1, 0, 'mobile'], [0, 0, 'mobile'], [1, 0, 'desktop'], [0, 1, 'bot']]);
    expect(clicks[0]).toMatchObject({ id: clickId, referrer_host: 'chat.example.org', attributed: 1 });
    expect(JSON.stringify(clicks)).not.toContain('198.51.100.7');
    expect(clicks[0]!.visitor_hash).toHaveLength(43);
    const stats = (await promoter.request('GET', `/api/links/${link.id}/stats`)).json();
    expect(stats.totals).toEqual({ clicks: 3, uniqueClicks: 2, botClicks: 1 });
    expect(stats.days).toHaveLength(30);
    expect((await promoter.request('GET', `/api/links/${link.id}`)).json().link).toMatchObject({ clicks: 3, uniqueClicks: 2, botClicks: 1 });
  });

  it('counts only people’s visits as clicks: bots, chat-app previews and HEAD requests are kept apart, wherever clicks are read', async () => {
    const { client: leader, user: leaderUser } = await signedIn(env, 'promoter');
    const { client: member, user } = await signedIn(env, 'promoter');
    await env.ctx.db.updateTable('users').set({ parent_id: leaderUser.id }).where('id', '=', user.id).execute();
    await member.request('POST', `/api/campaigns/${campaignId}/join`);
    const link = (await member.request('GET', '/api/links')).json().items[0] as { id: string; code: string };
    const teamActive = async () => (await leader.request('GET', '/api/team')).json().counts.active as number;

    // The link is shared in a chat: the apps fetch it for their previews, a search engine follows it.
    await visit(link.code, BOT, '198.51.100.20');
    await visit(link.code, PREVIEWS.whatsapp, '198.51.100.21');
    await visit(link.code, PREVIEWS.viber, '198.51.100.22');
    expect((await env.app.inject({ method: 'HEAD', url: `/r/${link.code}`, headers: { 'user-agent': PHONE }, remoteAddress: '198.51.100.23' })).statusCode).toBe(302);
    await env.ctx.clicks.flush();
    // No person yet: no clicks, and the member is not active in the leader's team.
    expect((await member.request('GET', `/api/links/${link.id}`)).json().link).toMatchObject({ clicks: 0, uniqueClicks: 0, botClicks: 4 });
    expect((await member.request('GET', '/api/stats/summary?range=today')).json().current.clicks).toBe(0);
    expect(await teamActive()).toBe(0);

    // A person opens it twice on their phone.
    await visit(link.code, PHONE, '198.51.100.24');
    await visit(link.code, PHONE, '198.51.100.24');
    await env.ctx.clicks.flush();
    // Every visit is kept, flagged.
    const rows = await env.ctx.db.selectFrom('clicks').select(['is_bot']).where('link_id', '=', link.id).orderBy('id').execute();
    expect(rows.map((r) => r.is_bot)).toEqual([1, 1, 1, 1, 0, 0]);

    const stats = (await member.request('GET', `/api/links/${link.id}/stats`)).json();
    expect(stats.totals).toEqual({ clicks: 2, uniqueClicks: 1, botClicks: 4 });
    expect(stats.days.filter((d: { clicks: number }) => d.clicks > 0)).toEqual([expect.objectContaining({ clicks: 2, uniqueClicks: 1, botClicks: 4 })]);
    expect((await member.request('GET', `/api/links/${link.id}`)).json().link).toMatchObject({ clicks: 2, uniqueClicks: 1, botClicks: 4 });
    expect((await member.request('GET', '/api/links')).json().items[0]).toMatchObject({ id: link.id, clicks: 2, uniqueClicks: 1, botClicks: 4 });
    // Home: the figures, the trend, the breakdown and the top links.
    expect((await member.request('GET', '/api/stats/summary?range=today')).json().current).toMatchObject({ clicks: 2, uniqueClicks: 1 });
    expect((await member.request('GET', '/api/stats/timeseries?range=7d&metric=clicks')).json().points.at(-1).value).toBe(2);
    expect((await member.request('GET', '/api/stats/breakdown?range=7d&by=link')).json().items[0].figures).toMatchObject({ clicks: 2, uniqueClicks: 1 });
    const home = (await member.request('GET', '/api/stats/overview?range=today')).json();
    expect(home.current).toMatchObject({ clicks: 2, uniqueClicks: 1 });
    expect(home.series.at(-1)).toMatchObject({ clicks: 2, uniqueClicks: 1 });
    expect(home.topLinks[0].figures).toMatchObject({ clicks: 2 });
    // Team: now active (a person clicked).
    expect(await teamActive()).toBe(1);
    // The rebuild from the stored clicks agrees with what the click writer summed.
    expect((await rebuildRollups(env.ctx.db, env.ctx.dialect, env.ctx.config.timeZone, { apply: false })).differences).toEqual([]);
  });

  it('validates stats ranges', async () => {
    const link = (await promoter.request('POST', '/api/links', { campaignId })).json().link;
    expect((await promoter.request('GET', `/api/links/${link.id}/stats?from=2026-01-01&to=2026-01-07`)).json().days).toHaveLength(7);
    expect(errorCode(await promoter.request('GET', `/api/links/${link.id}/stats?from=2026-02-01&to=2026-01-07`))).toBe('VALIDATION_FAILED');
    expect(errorCode(await promoter.request('GET', `/api/links/${link.id}/stats?from=2024-01-01&to=2026-01-07`))).toBe('VALIDATION_FAILED');
    expect(errorCode(await promoter.request('GET', `/api/links/${link.id}/stats?from=yesterday`))).toBe('VALIDATION_FAILED');
  });

  it('unknown codes get a small localized 404 page', async () => {
    const res = await env.app.inject({ method: 'GET', url: '/r/no-such-code', headers: { 'accept-language': 'zh-TW' } });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('連結不存在');
    expect(String(res.headers['content-security-policy'])).toContain("default-src 'none'");
    expect((await env.app.inject({ method: 'GET', url: '/r/%3Cscript%3E' })).statusCode).toBe(404);
  });

  it('disabled links, paused campaigns and suspended promoters go to the landing page without attribution', async () => {
    const link = (await promoter.request('POST', '/api/links', { campaignId, code: 'switchable', path: '/deep' })).json().link;
    expect(new URL(String((await visit('switchable')).headers.location)).searchParams.get('pa_click')).toBeTruthy();

    expect((await promoter.request('PATCH', `/api/links/${link.id}`, { status: 'disabled' })).json().link.status).toBe('disabled');
    expect((await visit('switchable')).headers.location).toBe('https://shop.example.com/tea');
    await promoter.request('PATCH', `/api/links/${link.id}`, { status: 'active' });

    await admin.request('PATCH', `/api/admin/campaigns/${campaignId}`, { status: 'paused' });
    expect((await visit('switchable')).headers.location).toBe('https://shop.example.com/tea');
    await admin.request('PATCH', `/api/admin/campaigns/${campaignId}`, { status: 'active' });
    expect(String((await visit('switchable')).headers.location)).toContain('pa_click=');

    const { client: suspended, user } = await signedIn(env, 'promoter');
    await suspended.request('POST', `/api/campaigns/${campaignId}/join`);
    await suspended.request('POST', '/api/links', { campaignId, code: 'soon-gone' });
    expect(String((await visit('soon-gone')).headers.location)).toContain('pa_click=');
    await admin.request('POST', `/api/admin/users/${user.id}/suspend`);
    expect((await visit('soon-gone')).headers.location).toBe('https://shop.example.com/tea');

    await env.ctx.clicks.flush();
    const rows = await env.ctx.db.selectFrom('clicks').select(['attributed']).where('link_id', '=', link.id).orderBy('id').execute();
    expect(rows.map((r) => r.attributed)).toEqual([1, 0, 0, 1]);
  });

  it('another instance sees a change within the cache bound', async () => {
    const link = (await promoter.request('POST', '/api/links', { campaignId, code: 'two-instances' })).json().link;
    const second = await env.restart();
    const viaSecond = () => second.app.inject({ method: 'GET', url: '/r/two-instances', headers: { 'user-agent': PHONE } });
    expect(String((await viaSecond()).headers.location)).toContain('pa_click=');
    await promoter.request('PATCH', `/api/links/${link.id}`, { status: 'disabled' }); // made on the first instance
    await new Promise((r) => setTimeout(r, LINK_CACHE_TTL_MS + 100));
    expect((await viaSecond()).headers.location).toBe('https://shop.example.com/tea');
    await second.close();
  });

  it('writes buffered clicks on shutdown', async () => {
    const local = await makeEnv(dialect);
    const a = (await signedIn(local, 'admin')).client;
    const p = (await signedIn(local, 'promoter')).client;
    const id = (await a.request('POST', '/api/admin/campaigns', campaignBody())).json().campaign.id;
    await a.request('PATCH', `/api/admin/campaigns/${id}`, { status: 'active' });
    await p.request('POST', `/api/campaigns/${id}/join`);
    await p.request('POST', '/api/links', { campaignId: id, code: 'last-words' });
    for (let i = 0; i < 25; i++) await local.app.inject({ method: 'GET', url: '/r/last-words', headers: { 'user-agent': PHONE } });
    const db = local.ctx.db;
    await local.app.close(); // graceful stop flushes the buffer
    const row = await db.selectFrom('clicks').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(row.n)).toBe(25);
    await local.close();
  });
});
