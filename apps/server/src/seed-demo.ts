/**
 * Demo data for `npm start`: on a database with no users, an admin, an operator and three
 * promoters (the third invited by the first); passwords are random and printed once. Then a demo
 * campaign (named as such) that two promoters joined, and a few conversions reported through the
 * real conversion service, so Wallet, commissions and the ledger have something to show.
 */
import { randomBytes } from 'node:crypto';
import { AnnouncementCreateSchema, CampaignCreateSchema, type Locale } from '@pa/shared';
import type { AppContext } from './context';
import { createAnnouncement } from './modules/announcements/service';
import { createCampaign, join, updateCampaign, type CampaignValues } from './modules/campaigns/service';
import { approveDue, recordConversion } from './modules/commissions/service';
import { moveWithdrawal, requestWithdrawal, storePayoutAccount } from './modules/withdrawals/service';
import { hashPassword } from './platform/crypto/password';
import { insertUser } from './modules/users/repository';

interface DemoAccount {
  account: string;
  displayName: string;
  role: 'admin' | 'operator' | 'promoter';
  locale: Locale;
  invitedBy?: string;
}

const ACCOUNTS: DemoAccount[] = [
  { account: 'admin@demo.example', displayName: 'Demo Admin', role: 'admin', locale: 'en' },
  { account: 'operator@demo.example', displayName: 'Demo Operator', role: 'operator', locale: 'en' },
  { account: 'lin@demo.example', displayName: 'Lin Wei (demo)', role: 'promoter', locale: 'zh-Hans' },
  { account: 'camille@demo.example', displayName: 'Camille (demo)', role: 'promoter', locale: 'fr' },
  { account: 'sofia@demo.example', displayName: 'Sofía (demo)', role: 'promoter', locale: 'es', invitedBy: 'lin@demo.example' },
];

/** Random password meeting the rules: letters and digits, 14 characters. */
function demoPassword(): string {
  const raw = randomBytes(9).toString('base64url').replace(/[-_]/g, 'x');
  return `Demo${raw.slice(0, 8)}7`;
}

const DAY = 86_400_000;

export async function seedDemo(ctx: AppContext): Promise<{ account: string; password: string; role: string }[] | null> {
  const db = ctx.db;
  const existing = await db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  if (existing) return null;
  const created: { account: string; password: string; role: string }[] = [];
  const ids = new Map<string, string>();
  for (const a of ACCOUNTS) {
    const password = demoPassword();
    const id = await insertUser(db, {
      account: a.account,
      displayName: a.displayName,
      passwordHash: await hashPassword(password),
      role: a.role,
      status: 'active',
      locale: a.locale,
      parentId: a.invitedBy ? (ids.get(a.invitedBy) ?? null) : null,
    });
    ids.set(a.account, id);
    created.push({ account: a.account, password, role: a.role + (a.invitedBy ? ` (invited by ${a.invitedBy})` : '') });
  }
  await seedDemoCampaign(ctx, ids);
  await seedDemoAnnouncement(ctx, ids.get('admin@demo.example')!);
  return created;
}

/** One pinned, published announcement in every language, so Home shows what announcements look like. */
async function seedDemoAnnouncement(ctx: AppContext, adminId: string) {
  await createAnnouncement(ctx, adminId, AnnouncementCreateSchema.parse({
    status: 'published',
    pinned: true,
    texts: {
      en: { title: 'Welcome to the demo program', body: 'This is demo content. Join the “Summer Tea (demo)” campaign, share your link, and watch your clicks and commissions arrive here.' },
      'zh-Hans': { title: '欢迎来到演示推广计划', body: '这是演示内容。加入“夏日茶饮（演示）”活动，分享你的链接，就能在这里看到点击和佣金。' },
      'zh-Hant': { title: '歡迎來到示範推廣計畫', body: '這是示範內容。加入「夏日茶飲（示範）」活動，分享你的連結，就能在這裡看到點擊和佣金。' },
      fr: { title: 'Bienvenue dans le programme de démonstration', body: 'Ceci est un contenu de démonstration. Rejoignez la campagne « Thé d’été (démo) », partagez votre lien et suivez ici vos clics et vos commissions.' },
      es: { title: 'Bienvenido al programa de demostración', body: 'Este es contenido de demostración. Únete a la campaña «Té de verano (demo)», comparte tu enlace y sigue aquí tus clics y comisiones.' },
    },
  }));
}

async function seedDemoCampaign(ctx: AppContext, ids: Map<string, string>) {
  const admin = ids.get('admin@demo.example')!;
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
  const campaignId = await createCampaign(ctx, admin, values);
  await updateCampaign(ctx, admin, campaignId, { status: 'active' });
  const lin = ids.get('lin@demo.example')!;
  const sofia = ids.get('sofia@demo.example')!;
  await join(ctx, lin, campaignId);
  await join(ctx, sofia, campaignId);
  const code = async (promoterId: string) => (await ctx.db.selectFrom('links').select('code').where('promoter_id', '=', promoterId).where('campaign_id', '=', campaignId).executeTakeFirstOrThrow()).code;
  const now = Date.now();
  const report = (promoterId: string, linkCode: string, kind: 'lead' | 'sale', n: number, amount: number, daysAgo: number) =>
    recordConversion(ctx, null, { campaignId, kind, externalId: `DEMO-${kind}-${promoterId.slice(-4)}-${n}`, ...(kind === 'sale' ? { amount } : {}), linkCode, occurredAt: now - daysAgo * DAY });
  const [linCode, sofiaCode] = [await code(lin), await code(sofia)];
  await report(sofia, sofiaCode, 'sale', 1, 25_900, 12);
  await report(sofia, sofiaCode, 'lead', 2, 0, 3);
  await report(sofia, sofiaCode, 'sale', 3, 12_800, 1);
  await report(lin, linCode, 'sale', 4, 39_900, 9);
  await report(lin, linCode, 'sale', 5, 8_800, 0);
  // Sales older than the 7-day hold are approved, as the scheduler would.
  await approveDue(ctx, now);

  // Lin has a (demo) Alipay account and has been paid once; a second withdrawal waits for an operator.
  const operator = ids.get('operator@demo.example')!;
  await storePayoutAccount(ctx, lin, { method: 'alipay', holderName: 'Lin Wei (demo)', number: '+8613800000000', isDefault: true });
  const paid = await requestWithdrawal(ctx, lin, { amount: 2_000 }, 'demo-withdrawal-1');
  await moveWithdrawal(ctx, paid.withdrawal.id, 'approve', { userId: operator, promoterOnly: false }, {});
  await moveWithdrawal(ctx, paid.withdrawal.id, 'pay', { userId: operator, promoterOnly: false }, { reference: 'DEMO-PAYOUT-0001' });
  await requestWithdrawal(ctx, lin, { amount: 1_500 }, 'demo-withdrawal-2');
}
