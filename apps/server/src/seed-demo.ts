/**
 * Demo data for `npm start`: on a database with no users, an admin, an operator and four
 * promoters (two invited by Lin, so Team has members); passwords are random and printed once.
 * Then about five weeks of a demo program, written by the real services as it would have
 * happened: the campaign with a cover and a poster template (PNG drawn in demo-images.ts), the
 * promoters joining, clicks on their links every day (people and a few bots, through the click
 * writer and its rollups), leads and sales reported through the conversion service, commissions
 * approved by the scheduler's pass when their hold ended, withdrawals requested, approved and
 * paid, announcements and notifications. Every name says "demo".
 *
 * Dates are true: each step runs with the clock set to its moment (`asOf`), so its rows, ledger
 * journals, notifications and audit entries carry that time — a commission is stamped with its
 * sale's time, its approval with the end of its hold — and nothing lies in the future. The same
 * seed of the random numbers gives the same program each time.
 */
import { randomBytes } from 'node:crypto';
import { AnnouncementCreateSchema, CampaignCreateSchema, type Locale } from '@pa/shared';
import type { AppContext } from './context';
import { demoCoverPng, demoPosterTemplatePng } from './demo-images';
import { createAnnouncement } from './modules/announcements/service';
import { addImage, createCampaign, join, updateCampaign, type CampaignValues } from './modules/campaigns/service';
import { approveDue, recordConversion } from './modules/commissions/service';
import { createLink } from './modules/links/service';
import { moveWithdrawal, requestWithdrawal, storePayoutAccount } from './modules/withdrawals/service';
import { hashPassword } from './platform/crypto/password';
import { newId } from './platform/ids';
import { classifyUserAgent } from './platform/visitor';
import { insertUser } from './modules/users/repository';

interface DemoAccount {
  account: string;
  displayName: string;
  role: 'admin' | 'operator' | 'promoter';
  locale: Locale;
  invitedBy?: string;
  /** When the account was opened, in days before now. */
  daysAgo: number;
}

const ACCOUNTS: DemoAccount[] = [
  { account: 'admin@demo.example', displayName: 'Demo Admin', role: 'admin', locale: 'en', daysAgo: 36 },
  { account: 'operator@demo.example', displayName: 'Demo Operator', role: 'operator', locale: 'en', daysAgo: 36 },
  { account: 'lin@demo.example', displayName: 'Lin Wei (demo)', role: 'promoter', locale: 'zh-Hans', daysAgo: 34 },
  { account: 'camille@demo.example', displayName: 'Camille (demo)', role: 'promoter', locale: 'fr', daysAgo: 32 },
  { account: 'sofia@demo.example', displayName: 'Sofía (demo)', role: 'promoter', locale: 'es', invitedBy: 'lin@demo.example', daysAgo: 31 },
  { account: 'marco@demo.example', displayName: 'Marco (demo)', role: 'promoter', locale: 'en', invitedBy: 'lin@demo.example', daysAgo: 29 },
];

/** Random password meeting the rules: letters and digits, 14 characters. */
function demoPassword(): string {
  const raw = randomBytes(9).toString('base64url').replace(/[-_]/g, 'x');
  return `Demo${raw.slice(0, 8)}7`;
}

const DAY = 86_400_000;
const HOUR = 3_600_000;
const MINUTE = 60_000;

/**
 * Runs `fn` with `Date.now()` reading `at` (and moving on with real time), so the real services
 * stamp what they write with that moment. Only while seeding, before the app serves or its
 * scheduler runs; steps run one at a time, in order of time.
 */
async function asOf<T>(at: number, fn: () => Promise<T>): Promise<T> {
  const real = Date.now;
  const offset = at - real();
  Date.now = () => real() + offset;
  try {
    return await fn();
  } finally {
    Date.now = real;
  }
}

/** A small seeded generator (mulberry32): the same demo every time. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return { next, int: (n: number) => Math.floor(next() * n), pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]! };
}

export async function seedDemo(ctx: AppContext): Promise<{ account: string; password: string; role: string }[] | null> {
  const db = ctx.db;
  const existing = await db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  if (existing) return null;
  const now = Date.now();
  const created: { account: string; password: string; role: string }[] = [];
  const ids = new Map<string, string>();
  for (const a of ACCOUNTS) {
    const password = demoPassword();
    const passwordHash = await hashPassword(password);
    const id = await asOf(now - a.daysAgo * DAY, () => insertUser(db, {
      account: a.account,
      displayName: a.displayName,
      passwordHash,
      role: a.role,
      status: 'active',
      locale: a.locale,
      parentId: a.invitedBy ? (ids.get(a.invitedBy) ?? null) : null,
    }));
    ids.set(a.account, id);
    created.push({ account: a.account, password, role: a.role + (a.invitedBy ? ` (invited by ${a.invitedBy})` : '') });
  }
  await seedDemoProgram(ctx, ids, now);
  // What is older than two days has been read; the rest waits in the inbox.
  await db.updateTable('notifications').set((eb) => ({ read_at: eb('created_at', '+', 2 * HOUR) })).where('created_at', '<', now - 2 * DAY).execute();
  return created;
}

/** Two published announcements in every language: a pinned welcome and a recent tip. */
async function seedDemoAnnouncements(ctx: AppContext, adminId: string, now: number) {
  await asOf(now - 30 * DAY, () => createAnnouncement(ctx, adminId, AnnouncementCreateSchema.parse({
    status: 'published',
    pinned: true,
    texts: {
      en: { title: 'Welcome to the demo program', body: 'This is demo content. Join the “Summer Tea (demo)” campaign, share your link, and watch your clicks and commissions arrive here.' },
      'zh-Hans': { title: '欢迎来到演示推广计划', body: '这是演示内容。加入“夏日茶饮（演示）”活动，分享你的链接，就能在这里看到点击和佣金。' },
      'zh-Hant': { title: '歡迎來到示範推廣計畫', body: '這是示範內容。加入「夏日茶飲（示範）」活動，分享你的連結，就能在這裡看到點擊和佣金。' },
      fr: { title: 'Bienvenue dans le programme de démonstration', body: 'Ceci est un contenu de démonstration. Rejoignez la campagne « Thé d’été (démo) », partagez votre lien et suivez ici vos clics et vos commissions.' },
      es: { title: 'Bienvenido al programa de demostración', body: 'Este es contenido de demostración. Únete a la campaña «Té de verano (demo)», comparte tu enlace y sigue aquí tus clics y comisiones.' },
    },
  })));
  await asOf(now - 3 * DAY, () => createAnnouncement(ctx, adminId, AnnouncementCreateSchema.parse({
    status: 'published',
    texts: {
      en: { title: 'Demo tip: share a poster', body: 'Demo content: the campaign now has a poster template. Open your link and choose “Poster” to make one with your QR code.' },
      'zh-Hans': { title: '演示小贴士：分享海报', body: '演示内容：活动已有海报模板。打开你的链接，选择“海报”，即可生成带有你二维码的海报。' },
      'zh-Hant': { title: '示範小提醒：分享海報', body: '示範內容：活動已有海報範本。打開你的連結，選擇「海報」，就能產生附上你 QR 碼的海報。' },
      fr: { title: 'Astuce de démo : partagez une affiche', body: 'Contenu de démonstration : la campagne a maintenant un modèle d’affiche. Ouvrez votre lien et choisissez « Affiche » pour en créer une avec votre QR code.' },
      es: { title: 'Consejo de demo: comparte un póster', body: 'Contenido de demostración: la campaña ya tiene una plantilla de póster. Abre tu enlace y elige «Póster» para crear uno con tu código QR.' },
    },
  })));
}

/** Where the demo's visitors come from, and with what. */
const PHONES = [
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.49',
];
const DESKTOPS = ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36'];
const BOTS = ['Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)'];
const REFERRERS = [null, null, null, 'weibo.com', 'www.xiaohongshu.com', 'm.facebook.com', 'www.instagram.com'];

interface DemoLink {
  id: string;
  code: string;
  promoterId: string;
  /** Human visits on an ordinary day, and the day the link was made (days before now). */
  perDay: number;
  since: number;
}

/**
 * About a month of visits on each link, through the click writer (rows, the 24-hour uniqueness
 * and the day rollups, as the redirect writes them): more at weekends and in the evening, some
 * visitors coming back, a bot now and then. Returns the human clicks per link, oldest first.
 */
async function seedDemoClicks(ctx: AppContext, campaignId: string, links: DemoLink[], now: number) {
  const rnd = random(20_240_601);
  const clicks: { id: string; linkId: string; at: number; bot: boolean; ip: string; ua: string; referrer: string | null; promoterId: string }[] = [];
  for (const link of links) {
    const visitors = Array.from({ length: 40 + rnd.int(40) }, (_, i) => ({ ip: `198.51.100.${(i * 7 + link.perDay) % 250 + 1}`, ua: rnd.next() < 0.85 ? rnd.pick(PHONES) : rnd.pick(DESKTOPS) }));
    for (let d = Math.min(link.since, 30); d >= 0; d--) {
      const dayStart = now - d * DAY - ((now - d * DAY) % DAY);
      const weekend = [0, 6].includes(new Date(dayStart).getUTCDay());
      // Today only has had part of its visits yet.
      const share = d === 0 ? Math.min(1, (now - dayStart) / DAY + 0.2) : 1;
      const n = Math.max(0, Math.round(link.perDay * share * (weekend ? 1.5 : 1) * (0.5 + rnd.next())));
      for (let i = 0; i < n; i++) {
        // Mostly in the day and the evening; today, in the hours gone by so far.
        const at = d === 0
          ? dayStart + Math.floor(rnd.next() * Math.max(0, now - 5 * MINUTE - dayStart))
          : dayStart + (8 + rnd.int(15)) * HOUR + rnd.int(60) * MINUTE + rnd.int(60_000);
        const v = rnd.next() < 0.3 ? visitors[rnd.int(8)]! : rnd.pick(visitors);
        clicks.push({ id: '', linkId: link.id, at, bot: false, ip: v.ip, ua: v.ua, referrer: rnd.pick(REFERRERS), promoterId: link.promoterId });
      }
      if (rnd.next() < 0.35) {
        const at = dayStart + rnd.int(24) * HOUR + rnd.int(60) * MINUTE;
        if (at <= now - 5 * MINUTE) clicks.push({ id: '', linkId: link.id, at, bot: true, ip: '192.0.2.10', ua: rnd.pick(BOTS), referrer: null, promoterId: link.promoterId });
      }
    }
  }
  clicks.sort((a, b) => a.at - b.at);
  for (const c of clicks) {
    c.id = newId(c.at);
    const ua = classifyUserAgent(c.ua);
    ctx.clicks.push({
      id: c.id, linkId: c.linkId, campaignId, promoterId: c.promoterId, at: c.at,
      visitorHash: ctx.visitors.hash(c.ip, c.ua, c.at), bot: ua.bot, device: ua.device, referrerHost: c.referrer, attributed: true,
    });
  }
  await ctx.clicks.flush();
  const humans = new Map<string, { id: string; at: number }[]>();
  for (const c of clicks) if (!c.bot) humans.set(c.linkId, [...(humans.get(c.linkId) ?? []), { id: c.id, at: c.at }]);
  return humans;
}

async function seedDemoProgram(ctx: AppContext, ids: Map<string, string>, now: number) {
  const admin = ids.get('admin@demo.example')!;
  const operator = ids.get('operator@demo.example')!;
  const [lin, camille, sofia, marco] = ['lin', 'camille', 'sofia', 'marco'].map((n) => ids.get(`${n}@demo.example`)!) as [string, string, string, string];
  const values = CampaignCreateSchema.parse({
    names: { en: 'Summer Tea (demo)', 'zh-Hans': '夏日茶饮（演示）', 'zh-Hant': '夏日茶飲（示範）', fr: 'Thé d’été (démo)', es: 'Té de verano (demo)' },
    descriptions: {
      en: 'A demo campaign: cold-brew tea for hot days. Share your link and earn 10% of every order.',
      'zh-Hans': '演示活动：炎炎夏日的冷泡茶。分享你的链接，每笔订单可得 10% 佣金。',
      'zh-Hant': '示範活動：炎炎夏日的冷泡茶。分享你的連結，每筆訂單可得 10% 佣金。',
      fr: 'Campagne de démonstration : du thé infusé à froid pour l’été. Partagez votre lien et gagnez 10 % de chaque commande.',
      es: 'Campaña de demostración: té infusionado en frío para el verano. Comparte tu enlace y gana el 10 % de cada pedido.',
    },
    landingUrl: 'https://shop.example.com/summer-tea',
    saleRewardType: 'bps', saleReward: 1000, leadReward: 200, overrideBps: 1000, holdDays: 7,
    shareTexts: {
      en: 'Cold tea for hot days — {name}: {link}',
      'zh-Hans': '夏天就喝{name}，戳这里：{link}',
      'zh-Hant': '夏天就喝{name}，點這裡：{link}',
      fr: 'Du thé froid pour l’été — {name} : {link}',
      es: 'Té frío para el verano — {name}: {link}',
    },
  }) as CampaignValues;
  const campaignId = await asOf(now - 35 * DAY, async () => {
    const id = await createCampaign(ctx, admin, values);
    await addImage(ctx, admin, id, 'cover', demoCoverPng());
    await addImage(ctx, admin, id, 'poster', demoPosterTemplatePng());
    await updateCampaign(ctx, admin, id, { status: 'active' });
    return id;
  });
  await seedDemoAnnouncements(ctx, admin, now);

  // The promoters join (each gets a default link); Lin (who reads Chinese) adds a second link for a group chat.
  const linkOf = async (promoterId: string) => ctx.db.selectFrom('links').select(['id', 'code']).where('promoter_id', '=', promoterId).where('campaign_id', '=', campaignId).where('is_default', '=', 1).executeTakeFirstOrThrow();
  const joined = async (promoterId: string, daysAgo: number, perDay: number): Promise<DemoLink> => {
    await asOf(now - daysAgo * DAY, () => join(ctx, promoterId, campaignId));
    return { ...(await linkOf(promoterId)), promoterId, perDay, since: daysAgo };
  };
  const linMain = await joined(lin, 33, 9);
  const camilleMain = await joined(camille, 31, 5);
  const sofiaMain = await joined(sofia, 30, 7);
  const marcoMain = await joined(marco, 28, 3);
  const groupId = await asOf(now - 26 * DAY, () => createLink(ctx, lin, { campaignId, label: '茶友群（演示）' }));
  const linGroup: DemoLink = { id: groupId, code: (await ctx.db.selectFrom('links').select('code').where('id', '=', groupId).executeTakeFirstOrThrow()).code, promoterId: lin, perDay: 5, since: 26 };
  const humans = await seedDemoClicks(ctx, campaignId, [linMain, linGroup, camilleMain, sofiaMain, marcoMain], now);

  // What happened afterwards, oldest first: sales and leads (attributed to a visit on the link a
  // little earlier), one refund, payout accounts and withdrawals. Before each step, the
  // scheduler's pass approves what came due, at the time it came due.
  type Step = { at: number; run: () => Promise<unknown> };
  const steps: Step[] = [];
  let n = 0;
  const rnd = random(7);
  const sale = (link: DemoLink, kind: 'lead' | 'sale', amount: number, daysAgo: number) => {
    const at = now - daysAgo * DAY - (10 + rnd.int(Math.min(6 * 60, Math.ceil(daysAgo * 12 * 60)))) * MINUTE;
    const externalId = `DEMO-${kind === 'sale' ? 'ORDER' : 'LEAD'}-${String(1001 + n++)}`;
    // The visit that led to it: the latest on the link in the two days before.
    const click = (humans.get(link.id) ?? []).filter((c) => c.at < at && at - c.at < 2 * DAY).at(-1);
    steps.push({ at, run: () => recordConversion(ctx, null, { campaignId, kind, externalId, ...(kind === 'sale' ? { amount } : {}), ...(click ? { clickId: click.id } : { linkCode: link.code }), occurredAt: at }) });
    return externalId;
  };
  sale(linMain, 'sale', 39_900, 26);
  sale(linGroup, 'sale', 12_800, 22);
  sale(sofiaMain, 'sale', 25_900, 20);
  sale(linMain, 'lead', 0, 19);
  const refunded = sale(camilleMain, 'sale', 9_900, 18);
  sale(linMain, 'sale', 25_900, 15);
  sale(sofiaMain, 'lead', 0, 12);
  sale(marcoMain, 'lead', 0, 10);
  sale(linGroup, 'sale', 8_800, 9);
  sale(camilleMain, 'sale', 39_900, 8);
  sale(sofiaMain, 'sale', 12_800, 6);
  sale(marcoMain, 'sale', 8_800, 5);
  sale(linMain, 'sale', 19_900, 4);
  sale(camilleMain, 'sale', 12_800, 3);
  sale(sofiaMain, 'sale', 15_800, 2);
  sale(linGroup, 'sale', 8_800, 1);
  sale(linMain, 'lead', 0, 0.2);
  // A few in the last hours, so this week's leaderboard has more than one name.
  sale(sofiaMain, 'sale', 12_800, 0.12);
  sale(camilleMain, 'sale', 25_900, 0.08);
  sale(marcoMain, 'lead', 0, 0.05);
  steps.push({ at: now - 14 * DAY, run: () => recordConversion(ctx, null, { campaignId, kind: 'refund', externalId: `${refunded}-REFUND`, refundOf: refunded, amount: 9_900, occurredAt: now - 14 * DAY }) });

  const account = (promoterId: string, method: 'alipay' | 'bank', holderName: string, number: string, daysAgo: number) =>
    steps.push({ at: now - daysAgo * DAY, run: () => storePayoutAccount(ctx, promoterId, { method, holderName, number, isDefault: true }) });
  const withdraw = (promoterId: string, amount: number, key: string, daysAgo: number, then: { approve?: number; pay?: number; reference?: string } = {}) => {
    let id = '';
    steps.push({ at: now - daysAgo * DAY, run: async () => (id = (await requestWithdrawal(ctx, promoterId, { amount }, key)).withdrawal.id) });
    if (then.approve !== undefined) steps.push({ at: now - then.approve * DAY, run: () => moveWithdrawal(ctx, id, 'approve', { userId: operator, promoterOnly: false }, {}) });
    if (then.pay !== undefined) steps.push({ at: now - then.pay * DAY, run: () => moveWithdrawal(ctx, id, 'pay', { userId: operator, promoterOnly: false }, { reference: then.reference }) });
  };
  account(lin, 'alipay', 'Lin Wei (demo)', '+8613800000000', 20);
  account(sofia, 'bank', 'Sofía (demo)', '6222 0000 0000 0000 123', 13);
  // Lin has been paid once and a second request waits for an operator; Sofía's is approved, waiting for the bank batch.
  withdraw(lin, 4_000, 'demo-withdrawal-1', 11.9, { approve: 11.5, pay: 10.8, reference: 'DEMO-PAYOUT-0001' });
  withdraw(sofia, 2_000, 'demo-withdrawal-2', 4.7, { approve: 4.2 });
  withdraw(lin, 1_500, 'demo-withdrawal-3', 0.9);

  const dueUntil = async (until: number) => {
    for (;;) {
      const next = await ctx.db.selectFrom('commissions').select('available_at').where('status', '=', 'pending').where('available_at', '<=', until).orderBy('available_at').limit(1).executeTakeFirst();
      if (!next) return;
      // The scheduler passes every few minutes: a commission is approved just after its hold ends.
      const at = Math.min(Number(next.available_at) + 5 * MINUTE, until);
      await asOf(at, () => approveDue(ctx, at));
    }
  };
  steps.sort((a, b) => a.at - b.at);
  for (const step of steps) {
    await dueUntil(step.at);
    await asOf(step.at, step.run);
  }
  await dueUntil(now);
}
