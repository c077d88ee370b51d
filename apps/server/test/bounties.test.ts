/**
 * Bounties (issue 31 item 5; docs/bounties.md) on both databases: a performance bounty earned
 * exactly once when fifty sales recorded at once cross its goal (and not by a promoter outside its
 * groups, nor before it starts); a goal of an amount in sales; a submission bounty whose proof is
 * approved twice at once pays once, a rejected one can be sent again; the promoter's list with
 * progress; the reward's explanation word for word in English and in the four other languages; the
 * scheduler approving it after the hold. After each: `checkLedger` clean, the figures as a rebuild
 * makes them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPLANATION_TEXTS } from '@pa/shared/texts';
import { formatDate, formatMoney } from '@pa/shared/format';
import { approveDue } from '../src/modules/commissions/service';
import { checkLedger } from '../src/platform/ledger';
import { rebuildRollups } from '../src/platform/rollups-rebuild';
import { readSettings, zoneOf } from '../src/platform/settings';
import { dayKey } from '../src/platform/time';
import { campaignBody, Client, DIALECTS, errorCode, makeEnv, makePng, signedIn, type TestEnv } from './helpers';

type Json = Record<string, unknown>;
interface Person { client: Client; id: string; code: string }
const DAY = 86_400_000;

describe.each(DIALECTS)('bounties on %s', (dialect) => {
  let env: TestEnv;
  let admin: Client;
  let operator: Client;
  let secret: string;
  let campaignId: string;
  let seq = 0;
  const ext = (p: string) => `${p}-${Date.now().toString(36)}-${seq++}`;

  const post = (body: Json) => env.app.inject({ method: 'POST', url: '/api/v1/conversions', headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }, payload: JSON.stringify({ campaignId, ...body }) });
  const clean = async () => {
    expect(await checkLedger(env.ctx.db)).toEqual([]);
    expect((await rebuildRollups(env.ctx.db, env.dialect, zoneOf(env.ctx), { apply: false })).differences).toEqual([]);
  };
  const bountyRewards = (bountyId: string) =>
    env.ctx.db.selectFrom('commissions').selectAll().where('bounty_id', '=', bountyId).orderBy('created_at').execute();

  async function promoter(groupId = 'default'): Promise<Person> {
    const { client, user } = await signedIn(env, 'promoter');
    await env.ctx.db.updateTable('users').set({ group_id: groupId }).where('id', '=', user.id).execute();
    expect((await client.request('POST', `/api/campaigns/${campaignId}/join`)).statusCode).toBeLessThan(300);
    const links = (await client.request('GET', '/api/links')).json().items as { code: string; campaignId: string }[];
    return { client, id: user.id, code: links.find((l) => l.campaignId === campaignId)!.code };
  }
  async function bounty(body: Json) {
    const res = await admin.request('POST', `/api/admin/campaigns/${campaignId}/bounties`, body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json().bounty as Json & { id: string };
  }

  beforeAll(async () => {
    env = await makeEnv(dialect);
    admin = (await signedIn(env, 'admin')).client;
    operator = (await signedIn(env, 'operator')).client;
    secret = (await admin.request('POST', '/api/admin/api-keys', { name: 'Shop', scopes: ['conversions:write'] })).json().secret;
    campaignId = (await admin.request('POST', '/api/admin/campaigns', campaignBody({ holdDays: 7, overrideBps: 0, saleReward: 1000 }))).json().campaign.id as string;
    expect((await admin.request('PATCH', `/api/admin/campaigns/${campaignId}`, { status: 'active' })).statusCode).toBe(200);
    const now = Date.now();
    await env.ctx.db.insertInto('promoter_groups').values({ id: 'gold', name: 'Gold', description: '', is_default: 0, created_at: now, updated_at: now }).execute();
  }, 120_000);
  afterAll(async () => {
    await env?.close();
  });

  it('earns a performance bounty exactly once when fifty sales at once cross its goal; not outside its groups or dates', async () => {
    const a = await promoter();
    const five = await bounty({ kind: 'performance', names: { en: 'Five sales', fr: 'Cinq ventes' }, reward: 5_000, goal: { metric: 'sales', value: 5, period: 'month' } });
    const gold = await bounty({ kind: 'performance', names: { en: 'Gold only' }, reward: 700, goal: { metric: 'sales', value: 1, period: 'campaign' }, groupIds: ['gold'] });
    const later = await bounty({ kind: 'performance', names: { en: 'Next month' }, reward: 800, goal: { metric: 'sales', value: 1, period: 'campaign' }, startsAt: Date.now() + 30 * DAY });
    expect(five).toMatchObject({ kind: 'performance', reward: 5_000, status: 'active', earnedCount: 0, pendingSubmissions: 0, groupIds: [], goal: { metric: 'sales', value: 5, period: 'month' } });
    // An operator cannot make one (an admin's, like the campaign's rewards).
    expect(errorCode(await operator.request('POST', `/api/admin/campaigns/${campaignId}/bounties`, { kind: 'submission', names: { en: 'x' }, reward: 1 }))).toBe('FORBIDDEN');

    const before = Date.now();
    const results = await Promise.all(Array.from({ length: 50 }, () => post({ kind: 'sale', externalId: ext('S'), amount: 2_000, linkCode: a.code })));
    for (const r of results) expect(r.statusCode, r.body).toBe(201);
    const rewards = await bountyRewards(five.id);
    expect(rewards).toHaveLength(1);
    const r = rewards[0]!;
    const period = dayKey(Number(r.occurred_at), zoneOf(env.ctx)).slice(0, 7);
    expect(r).toMatchObject({ promoter_id: a.id, kind: 'bounty', conversion_id: null, level: 1, status: 'pending', bounty_period: period });
    expect(Number(r.amount)).toBe(5_000);
    expect(Number(r.occurred_at)).toBeGreaterThanOrEqual(before);
    expect(Number(r.available_at)).toBe(Number(r.occurred_at) + 7 * DAY);
    // The database itself refuses a second award for the promoter and period.
    await expect(env.ctx.db.insertInto('commissions').values({ ...r, id: `${r.id}-again` }).execute()).rejects.toThrow();
    expect(await bountyRewards(gold.id)).toHaveLength(0);
    expect(await bountyRewards(later.id)).toHaveLength(0);
    await clean();

    // The wallet counts it pending with the fifty sales' commissions.
    const wallet = (await a.client.request('GET', '/api/wallet')).json() as { pending: number };
    expect(wallet.pending).toBe(50 * 200 + 5_000);
    // The promoter's list: progress this month, earned; the later and the gold ones are not shown.
    const list = (await a.client.request('GET', '/api/bounties')).json() as { currency: string; items: (Json & { id: string })[] };
    expect(list.items.map((i) => i.id)).toEqual([five.id]);
    expect(list.items[0]).toMatchObject({ name: 'Five sales', kind: 'performance', reward: 5_000, earned: true, progress: { current: 50 }, submission: null, campaignId });
    const fr = (await a.client.request('GET', '/api/bounties', undefined, { headers: { 'accept-language': 'fr' } })).json() as { items: Json[] };
    expect(fr.items[0]!.name).toBe('Cinq ventes');
    // Staff's list counts it; the goal of a bounty earned stays.
    const admins = (await admin.request('GET', `/api/admin/campaigns/${campaignId}/bounties`)).json().items as (Json & { id: string })[];
    expect(admins.find((b) => b.id === five.id)).toMatchObject({ earnedCount: 1 });
    expect(errorCode(await admin.request('PATCH', `/api/admin/bounties/${five.id}`, { goal: { metric: 'sales', value: 3, period: 'month' } }))).toBe('INVALID_STATE_TRANSITION');
    const renamed = await admin.request('PATCH', `/api/admin/bounties/${five.id}`, { names: { en: 'Five sales', fr: 'Cinq ventes', es: 'Cinco ventas' } });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(errorCode(await admin.request('PATCH', `/api/admin/bounties/${five.id}`, { groupIds: ['no-such-group'] }))).toBe('VALIDATION_FAILED');
    expect(errorCode(await admin.request('PATCH', `/api/admin/bounties/${five.id}`, { startsAt: 2_000, endsAt: 1_000 }))).toBe('VALIDATION_FAILED');

    // The commission reads as a bounty's, with no conversion.
    const detail = (await a.client.request('GET', `/api/commissions/${r.id}`)).json() as { commission: Json; conversion: unknown };
    expect(detail.commission).toMatchObject({ kind: 'bounty', conversionId: null, amount: 5_000 });
    expect(detail.conversion).toBeNull();
    const staffList = (await admin.request('GET', `/api/admin/commissions?campaignId=${campaignId}&limit=100`)).json() as { items: (Json & { id: string })[] };
    expect(staffList.items.find((c) => c.id === r.id)).toMatchObject({ kind: 'bounty', externalId: null });

    // Explained word for word in English, and in every other language.
    const { currency } = await readSettings(env.ctx.db);
    const month = new Intl.DateTimeFormat('en', { year: 'numeric', month: 'long', timeZone: 'UTC' }).format(Date.UTC(Number(period.slice(0, 4)), Number(period.slice(5)) - 1, 1));
    const english = [
      `Bounty ‘Five sales’: the goal of 5 sales in ${month} was reached.`,
      `Commission: ${formatMoney(5_000, currency, 'en')}.`,
      `Available on ${formatDate(Number(r.available_at), 'en', zoneOf(env.ctx))}, after the 7-day hold.`,
    ];
    const said = (res: { json(): unknown }) => (res.json() as { steps: { text: string }[] }).steps.map((s) => s.text);
    expect(said(await a.client.request('GET', `/api/commissions/${r.id}/explanation`))).toEqual(english);
    expect(said(await operator.request('GET', `/api/admin/commissions/${r.id}/explanation`))).toEqual(english);
    for (const locale of ['fr', 'es', 'zh-Hans', 'zh-Hant']) {
      const texts = said(await a.client.request('GET', `/api/commissions/${r.id}/explanation`, undefined, { headers: { 'accept-language': locale } }));
      expect(texts, locale).toHaveLength(3);
      texts.forEach((t, i) => {
        expect(t, locale).toBeTruthy();
        expect(t, locale).not.toBe(english[i]);
        expect(t, locale).not.toMatch(/\{\{|undefined|NaN/);
      });
      expect(EXPLANATION_TEXTS[locale as 'fr']['bounty.sales_month']).toBeTruthy();
    }
    // Another promoter cannot read it.
    const other = await promoter();
    expect(errorCode(await other.client.request('GET', `/api/commissions/${r.id}/explanation`))).toBe('NOT_FOUND');

    // The gold promoter's first sale earns the gold bounty (campaign-long) once.
    const g = await promoter('gold');
    expect((await post({ kind: 'sale', externalId: ext('G'), amount: 1_000, linkCode: g.code })).statusCode).toBe(201);
    expect((await post({ kind: 'sale', externalId: ext('G'), amount: 1_000, linkCode: g.code })).statusCode).toBe(201);
    expect((await bountyRewards(gold.id)).map((c) => [c.promoter_id, c.bounty_period])).toEqual([[g.id, 'campaign']]);
    await clean();

    // After the hold the scheduler approves it like any other commission.
    expect(await approveDue(env.ctx, Date.now() + 8 * DAY)).toBeGreaterThanOrEqual(51);
    expect((await bountyRewards(five.id))[0]!.status).toBe('approved');
    await clean();
  }, 120_000);

  it('earns a goal of an amount in sales when the amount is reached (refunds lower the progress)', async () => {
    const p = await promoter();
    const amount = await bounty({ kind: 'performance', names: { en: 'Sell 100' }, reward: 1_500, goal: { metric: 'saleAmount', value: 10_000, period: 'campaign' }, groupIds: ['default'] });
    const first = ext('A');
    expect((await post({ kind: 'sale', externalId: first, amount: 6_000, linkCode: p.code })).statusCode).toBe(201);
    expect((await post({ kind: 'refund', externalId: ext('R'), refundOf: first, amount: 2_000 })).statusCode).toBe(201);
    expect((await post({ kind: 'sale', externalId: ext('A'), amount: 4_000, linkCode: p.code })).statusCode).toBe(201);
    expect(await bountyRewards(amount.id)).toHaveLength(0);
    let mine = ((await p.client.request('GET', '/api/bounties')).json().items as (Json & { id: string })[]).find((b) => b.id === amount.id)!;
    expect(mine).toMatchObject({ earned: false, progress: { current: 8_000, periodEndsAt: null } });
    expect((await post({ kind: 'sale', externalId: ext('A'), amount: 2_000, linkCode: p.code })).statusCode).toBe(201);
    expect((await bountyRewards(amount.id)).map((c) => Number(c.amount))).toEqual([1_500]);
    mine = ((await p.client.request('GET', '/api/bounties')).json().items as (Json & { id: string })[]).find((b) => b.id === amount.id)!;
    expect(mine).toMatchObject({ earned: true, progress: { current: 10_000 } });
    await clean();
  }, 60_000);

  it('counts leads for a leads goal, and nothing that occurred after the bounty ended', async () => {
    const p = await promoter();
    const leads = await bounty({ kind: 'performance', names: { en: 'Two sign-ups' }, reward: 900, goal: { metric: 'leads', value: 2, period: 'month' } });
    const ended = await bounty({ kind: 'performance', names: { en: 'Ended' }, reward: 600, goal: { metric: 'sales', value: 1, period: 'campaign' }, startsAt: Date.now() - 10 * DAY, endsAt: Date.now() - 5 * DAY });
    expect((await post({ kind: 'sale', externalId: ext('L'), amount: 1_000, linkCode: p.code })).statusCode).toBe(201);
    expect(await bountyRewards(ended.id)).toHaveLength(0);
    expect((await post({ kind: 'lead', externalId: ext('L'), linkCode: p.code })).statusCode).toBe(201);
    expect(await bountyRewards(leads.id)).toHaveLength(0);
    expect((await post({ kind: 'lead', externalId: ext('L'), linkCode: p.code })).statusCode).toBe(201);
    expect((await bountyRewards(leads.id)).map((c) => c.promoter_id)).toEqual([p.id]);
    expect((await post({ kind: 'lead', externalId: ext('L'), linkCode: p.code })).statusCode).toBe(201);
    expect(await bountyRewards(leads.id)).toHaveLength(1);
    await clean();
  }, 60_000);

  it('pays a submission bounty once when its proof is approved twice at once; a rejected proof can be sent again', async () => {
    const p = await promoter();
    const q = await promoter();
    const outsider = await promoter('gold');
    const review = await bounty({ kind: 'submission', names: { en: 'Post a review' }, descriptions: { en: 'Link to your review' }, reward: 3_000, groupIds: ['default'] });
    // Not for the gold group: unknown to them.
    expect(errorCode(await outsider.client.request('POST', `/api/bounties/${review.id}/submissions`, { text: 'Here' }))).toBe('NOT_FOUND');

    const image = await p.client.upload(`/api/bounties/${review.id}/images`, makePng(40, 30), 'image/png');
    expect(image.statusCode, image.body).toBe(201);
    const { id: imageId, url } = image.json() as { id: string; url: string };
    expect((await p.client.request('GET', `/${url}`)).statusCode).toBe(200);
    expect(errorCode(await q.client.request('GET', `/${url}`))).toBe('NOT_FOUND');
    expect(errorCode(await p.client.upload(`/api/bounties/${review.id}/images`, Buffer.from('not an image'), 'image/png'))).toBe('UNSUPPORTED_MEDIA_TYPE');

    const sent = await p.client.request('POST', `/api/bounties/${review.id}/submissions`, { url: 'https://example.com/review', text: 'My review', imageId });
    expect(sent.statusCode, sent.body).toBe(201);
    const submission = sent.json().submission as Json & { id: string };
    expect(submission).toMatchObject({ status: 'pending', url: 'https://example.com/review', imageUrl: url, commissionId: null });
    // One waiting at a time.
    expect(errorCode(await p.client.request('POST', `/api/bounties/${review.id}/submissions`, { text: 'Again' }))).toBe('INVALID_STATE_TRANSITION');
    const pending = (await operator.request('GET', `/api/admin/bounty-submissions?status=pending&bountyId=${review.id}`)).json() as { items: Json[]; nextCursor: string | null };
    expect(pending.items).toHaveLength(1);
    // The queue says what the proof is for: the bounty and its campaign, named in the reader's language.
    expect(pending.items[0]).toMatchObject({ id: submission.id, bountyName: 'Post a review', campaignName: 'Summer Tea', promoterId: p.id });

    const approvals = await Promise.all([
      operator.request('POST', `/api/admin/bounty-submissions/${submission.id}/approve`),
      admin.request('POST', `/api/admin/bounty-submissions/${submission.id}/approve`),
    ]);
    expect(approvals.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(errorCode(approvals.find((r) => r.statusCode === 409)!)).toBe('INVALID_STATE_TRANSITION');
    const rewards = await bountyRewards(review.id);
    expect(rewards).toHaveLength(1);
    expect(rewards[0]).toMatchObject({ promoter_id: p.id, bounty_period: 'once', status: 'pending', kind: 'bounty' });
    const approved = approvals.find((r) => r.statusCode === 200)!.json().submission as Json;
    expect(approved).toMatchObject({ status: 'approved', commissionId: rewards[0]!.id });
    await clean();
    // Earned: no more proof.
    expect(errorCode(await p.client.request('POST', `/api/bounties/${review.id}/submissions`, { text: 'Once more' }))).toBe('INVALID_STATE_TRANSITION');
    const explained = (await p.client.request('GET', `/api/commissions/${rewards[0]!.id}/explanation`)).json().steps as { text: string }[];
    expect(explained[0]!.text).toBe(`Bounty ‘Post a review’: the proof was approved by staff on ${formatDate(Number(rewards[0]!.occurred_at), 'en', zoneOf(env.ctx))}.`);
    const notes = (await p.client.request('GET', '/api/notifications')).json().items as { type: string; params: Json }[];
    expect(notes.find((n) => n.type === 'bounty.earned')?.params).toMatchObject({ bountyId: review.id, amount: 3_000, bounty: { en: 'Post a review' } });

    // Rejected with a reason: told, and may send another.
    const second = (await q.client.request('POST', `/api/bounties/${review.id}/submissions`, { text: 'Mine' })).json().submission as Json & { id: string };
    expect(errorCode(await admin.request('POST', `/api/admin/bounty-submissions/${second.id}/reject`, {}))).toBe('VALIDATION_FAILED');
    const rejected = await operator.request('POST', `/api/admin/bounty-submissions/${second.id}/reject`, { reason: 'No link to the review' });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(errorCode(await operator.request('POST', `/api/admin/bounty-submissions/${second.id}/approve`))).toBe('INVALID_STATE_TRANSITION');
    const qNotes = (await q.client.request('GET', '/api/notifications')).json().items as { type: string; params: Json }[];
    expect(qNotes.find((n) => n.type === 'bounty.submission_rejected')?.params).toMatchObject({ reason: 'No link to the review', bounty: { en: 'Post a review' } });
    const mine = ((await q.client.request('GET', '/api/bounties')).json().items as (Json & { id: string })[]).find((b) => b.id === review.id)!;
    expect(mine).toMatchObject({ earned: false, progress: null, submission: { id: second.id, status: 'rejected', reason: 'No link to the review' } });
    expect((await q.client.request('POST', `/api/bounties/${review.id}/submissions`, { text: 'With the link', url: 'https://example.com/r2' })).statusCode).toBe(201);
    expect(await bountyRewards(review.id)).toHaveLength(1);

    // Staff may take a bounty's reward back like any commission (it has no conversion to lock).
    const reversed = await admin.request('POST', `/api/admin/commissions/${rewards[0]!.id}/reverse`, { reason: 'Review removed' });
    expect(reversed.statusCode, reversed.body).toBe(200);
    expect(reversed.json()).toMatchObject({ reversed: 3_000, commission: { kind: 'bounty', status: 'reversed' } });
    await clean();

    // Staff's list, paged.
    const page1 = (await operator.request('GET', `/api/admin/bounty-submissions?bountyId=${review.id}&limit=2`)).json() as { items: Json[]; nextCursor: string | null };
    expect(page1.items).toHaveLength(2);
    const page2 = (await operator.request('GET', `/api/admin/bounty-submissions?bountyId=${review.id}&limit=2&cursor=${encodeURIComponent(page1.nextCursor!)}`)).json() as { items: Json[]; nextCursor: string | null };
    expect(page2).toMatchObject({ nextCursor: null });
    expect(page2.items).toHaveLength(1);
    const counted = ((await admin.request('GET', `/api/admin/campaigns/${campaignId}/bounties`)).json().items as (Json & { id: string })[]).find((b) => b.id === review.id);
    expect(counted).toMatchObject({ earnedCount: 1, pendingSubmissions: 1 });
    // Archived: no longer open to promoters.
    expect((await admin.request('PATCH', `/api/admin/bounties/${review.id}`, { status: 'archived' })).json().bounty).toMatchObject({ status: 'archived' });
    expect(((await q.client.request('GET', '/api/bounties')).json().items as Json[]).some((b) => b.id === review.id)).toBe(false);
    await clean();
  }, 60_000);
});
