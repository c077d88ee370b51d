import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campaignBody, Client, DIALECTS, errorCode, makeEnv, makePng, signedIn, type TestEnv } from './helpers';


describe.each(DIALECTS)('campaigns on %s', (dialect) => {
  let env: TestEnv;
  let admin: Client;
  beforeAll(async () => {
    env = await makeEnv(dialect);
    admin = (await signedIn(env, 'admin')).client;
  });
  afterAll(async () => {
    await env?.close();
  });

  const create = async (overrides: Record<string, unknown> = {}) => {
    const res = await admin.request('POST', '/api/admin/campaigns', campaignBody(overrides));
    expect(res.statusCode, res.body).toBe(201);
    return res.json().campaign as { id: string; status: string };
  };
  const move = (id: string, status: string) => admin.request('PATCH', `/api/admin/campaigns/${id}`, { status });

  it('admins create campaigns as drafts with every field stored', async () => {
    const res = await admin.request('POST', '/api/admin/campaigns', campaignBody({ tiers: [{ minSales: 10, bps: 1500 }], overrideBps: 500, holdDays: 14, joinMode: 'approval' }));
    expect(res.statusCode).toBe(201);
    expect(res.json().campaign).toMatchObject({
      status: 'draft', names: { en: 'Summer Tea', 'zh-Hans': '夏日茶饮' }, landingUrl: 'https://shop.example.com/tea', allowedHosts: ['m.example.com'],
      saleRewardType: 'bps', saleReward: 1000, leadReward: 200, tiers: [{ minSales: 10, bps: 1500 }], overrideBps: 500, holdDays: 14,
      attributionWindowDays: 30, approvalMode: 'auto', joinMode: 'approval', cover: null, posters: [],
    });
  });

  it('only admins create or edit; operators may read', async () => {
    const { client: promoter } = await signedIn(env, 'promoter');
    expect(errorCode(await promoter.request('POST', '/api/admin/campaigns', campaignBody()))).toBe('FORBIDDEN');
    const { client: operator } = await signedIn(env, 'operator');
    expect(errorCode(await operator.request('POST', '/api/admin/campaigns', campaignBody()))).toBe('FORBIDDEN');
    const c = await create();
    expect(errorCode(await operator.request('PATCH', `/api/admin/campaigns/${c.id}`, { status: 'active' }))).toBe('FORBIDDEN');
    expect((await operator.request('GET', `/api/admin/campaigns/${c.id}`)).statusCode).toBe(200);
    expect(errorCode(await promoter.request('GET', `/api/admin/campaigns/${c.id}`))).toBe('FORBIDDEN');
  });

  it('rejects bad campaign input with field codes', async () => {
    const res = await admin.request('POST', '/api/admin/campaigns', campaignBody({ landingUrl: 'http://shop.example.com', allowedHosts: ['not a host'], saleReward: -1, holdDays: 91, names: {} }));
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields).toMatchObject({ landingUrl: 'invalid', 'allowedHosts.0': 'invalid', saleReward: 'too_small', holdDays: 'too_large', names: 'required' });
    const bps = await admin.request('POST', '/api/admin/campaigns', campaignBody({ saleReward: 10_001 }));
    expect(bps.json().error.fields).toEqual({ saleReward: 'too_large' });
  });

  it('moves through draft → active ↔ paused → ended, and nothing else', async () => {
    const c = await create();
    expect(errorCode(await move(c.id, 'paused'))).toBe('INVALID_STATE_TRANSITION');
    expect(errorCode(await move(c.id, 'ended'))).toBe('INVALID_STATE_TRANSITION');
    expect((await move(c.id, 'active')).json().campaign.status).toBe('active');
    expect((await move(c.id, 'paused')).json().campaign.status).toBe('paused');
    expect((await move(c.id, 'active')).json().campaign.status).toBe('active');
    expect((await move(c.id, 'ended')).json().campaign.status).toBe('ended');
    expect(errorCode(await move(c.id, 'active'))).toBe('INVALID_STATE_TRANSITION');
    expect(errorCode(await admin.request('PATCH', `/api/admin/campaigns/${c.id}`, { holdDays: 3 }))).toBe('INVALID_STATE_TRANSITION');
    expect(errorCode(await move('nope', 'active'))).toBe('NOT_FOUND');
  });

  it('stores cover and poster images, checked from their bytes, served with ETag and long caching', async () => {
    const c = await create();
    const png = makePng(750, 1334);
    const poster = await admin.upload(`/api/admin/campaigns/${c.id}/images?kind=poster`, png, 'image/png');
    expect(poster.statusCode, poster.body).toBe(201);
    expect(poster.json()).toMatchObject({ width: 750, height: 1334, contentType: 'image/png' });
    // Declared as JPEG, but the bytes say PNG: the bytes win.
    const cover = await admin.upload(`/api/admin/campaigns/${c.id}/images?kind=cover`, makePng(640, 360), 'image/jpeg');
    expect(cover.json().contentType).toBe('image/png');
    const got = await admin.request('GET', `/${poster.json().url}`);
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('image/png');
    expect(got.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(Buffer.compare(got.rawPayload, png)).toBe(0);
    const again = await admin.request('GET', `/${poster.json().url}`, undefined, { headers: { 'if-none-match': String(got.headers.etag) } });
    expect(again.statusCode).toBe(304);
    const campaign = (await admin.request('GET', `/api/admin/campaigns/${c.id}`)).json().campaign;
    expect(campaign.cover.id).toBe(cover.json().id);
    expect(campaign.posters.map((p: { id: string }) => p.id)).toEqual([poster.json().id]);

    const fake = await admin.upload(`/api/admin/campaigns/${c.id}/images?kind=poster`, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'image/png');
    expect(errorCode(fake)).toBe('UNSUPPORTED_MEDIA_TYPE');
    const big = Buffer.concat([makePng(10, 10), Buffer.alloc(2 * 1024 * 1024)]);
    expect(errorCode(await admin.upload(`/api/admin/campaigns/${c.id}/images?kind=poster`, big, 'image/png'))).toBe('PAYLOAD_TOO_LARGE');
    expect(errorCode(await admin.upload(`/api/admin/campaigns/${c.id}/images?kind=poster`, png, 'image/gif'))).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect((await admin.request('GET', `/api/admin/campaigns/${c.id}`)).json().campaign.posters).toHaveLength(1);
    const { client: promoter } = await signedIn(env, 'promoter');
    expect(errorCode(await promoter.upload(`/api/admin/campaigns/${c.id}/images?kind=poster`, png, 'image/png'))).toBe('FORBIDDEN');
  });

  it('promoters see active campaigns in their language, search them, and join', async () => {
    const open = await create({ names: { en: 'Open Coffee', fr: 'Café ouvert' } });
    const draft = await create({ names: { en: 'Secret Draft' } });
    await move(open.id, 'active');
    const { client: promoter } = await signedIn(env, 'promoter', { locale: 'fr-FR' });
    const list = (await promoter.request('GET', '/api/campaigns?q=caf')).json().items;
    expect(list.map((c: { id: string }) => c.id)).toContain(open.id);
    expect(list.find((c: { id: string }) => c.id === open.id)).toMatchObject({ name: 'Café ouvert', enrollment: null, currency: 'CNY', shareText: 'Try {name}: {link} (code {code})' });
    expect((await promoter.request('GET', '/api/campaigns')).json().items.map((c: { id: string }) => c.id)).not.toContain(draft.id);
    expect(errorCode(await promoter.request('GET', `/api/campaigns/${draft.id}`))).toBe('NOT_FOUND');

    const joined = await promoter.request('POST', `/api/campaigns/${open.id}/join`);
    expect(joined.statusCode).toBe(201);
    expect(joined.json().enrollment.status).toBe('approved');
    expect((await promoter.request('POST', `/api/campaigns/${open.id}/join`)).statusCode).toBe(200);
    const links = (await promoter.request('GET', `/api/links?campaignId=${open.id}`)).json().items;
    expect(links).toHaveLength(1);
    expect(links[0]).toMatchObject({ isDefault: true, status: 'active', campaignName: 'Café ouvert' });
    expect((await promoter.request('GET', '/api/campaigns?joined=true')).json().items.map((c: { id: string }) => c.id)).toEqual([open.id]);
  });

  it('approval campaigns: pending until an operator decides; approval brings the default link', async () => {
    const c = await create({ joinMode: 'approval' });
    await move(c.id, 'active');
    const { client: promoter } = await signedIn(env, 'promoter');
    expect((await promoter.request('POST', `/api/campaigns/${c.id}/join`)).json().enrollment.status).toBe('pending');
    expect(errorCode(await promoter.request('POST', '/api/links', { campaignId: c.id }))).toBe('ENROLLMENT_REQUIRED');
    const { client: operator } = await signedIn(env, 'operator');
    const pending = (await operator.request('GET', '/api/admin/enrollments?status=pending')).json().items.find((e: { campaignId: string }) => e.campaignId === c.id);
    expect(errorCode(await promoter.request('POST', `/api/admin/enrollments/${pending.id}/approve`))).toBe('FORBIDDEN');
    expect((await operator.request('POST', `/api/admin/enrollments/${pending.id}/approve`)).statusCode).toBe(200);
    expect(errorCode(await operator.request('POST', `/api/admin/enrollments/${pending.id}/reject`))).toBe('INVALID_STATE_TRANSITION');
    expect((await promoter.request('GET', `/api/links?campaignId=${c.id}`)).json().items).toHaveLength(1);
    expect((await promoter.request('GET', `/api/campaigns/${c.id}`)).json().campaign.enrollment.status).toBe('approved');

    const { client: other } = await signedIn(env, 'promoter');
    await other.request('POST', `/api/campaigns/${c.id}/join`);
    const second = (await operator.request('GET', '/api/admin/enrollments?status=pending')).json().items.find((e: { campaignId: string }) => e.campaignId === c.id);
    expect((await operator.request('POST', `/api/admin/enrollments/${second.id}/reject`)).statusCode).toBe(200);
    expect((await other.request('GET', `/api/links?campaignId=${c.id}`)).json().items).toHaveLength(0);
    // Each promoter was told the decision, with the campaign's names for whatever language they read in.
    const told = async (client: typeof promoter) => (await client.request('GET', '/api/notifications')).json().items.map((n: { type: string; params: { campaignId: string; campaign: Record<string, string> } }) => [n.type, n.params.campaignId, n.params.campaign.en]);
    expect(await told(promoter)).toEqual([['enrollment.approved', c.id, 'Summer Tea']]);
    expect(await told(other)).toEqual([['enrollment.rejected', c.id, 'Summer Tea']]);
  });

  it('joining a paused campaign is refused', async () => {
    const c = await create();
    await move(c.id, 'active');
    await move(c.id, 'paused');
    const { client: promoter } = await signedIn(env, 'promoter');
    expect(errorCode(await promoter.request('POST', `/api/campaigns/${c.id}/join`))).toBe('CAMPAIGN_NOT_ACTIVE');
  });
});
