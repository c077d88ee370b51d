import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, DIALECTS, errorCode, makeEnv, signedIn, type TestEnv } from './helpers';

type Texts = Record<string, { title: string; body: string }>;
const EN = { title: 'Double commission this week', body: 'Every sale until Sunday earns twice the usual rate.' };
const ZH = { title: '本周佣金翻倍', body: '周日前的每笔订单佣金翻倍。' };
const FR = { title: 'Commission doublée cette semaine', body: 'Chaque vente jusqu’à dimanche rapporte le double.' };
const ES = { title: 'Comisión doble esta semana', body: 'Cada venta hasta el domingo gana el doble.' };

const tick = () => new Promise((resolve) => setTimeout(resolve, 3));

describe.each(DIALECTS)('announcements on %s', (dialect) => {
  let env: TestEnv;
  let admin: Client;
  let operator: Client;
  let operatorId: string;
  let adminId: string;

  const create = async (client: Client, body: Record<string, unknown>) => {
    const res = await client.request('POST', '/api/admin/announcements', body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json().announcement as { id: string; status: string; publishedAt: number | null; pinned: boolean; texts: Texts; createdAt: number; updatedAt: number };
  };
  const patch = (client: Client, id: string, body: Record<string, unknown>) => client.request('PATCH', `/api/admin/announcements/${id}`, body);
  const auditsOf = async (id: string) =>
    (await env.ctx.db.selectFrom('audit_entries').select(['action', 'actor_id', 'before_json', 'after_json']).where('entity', '=', 'announcement').where('entity_id', '=', id).orderBy('at').orderBy('id').execute())
      .map((a) => ({ action: a.action, actorId: a.actor_id, before: a.before_json ? JSON.parse(a.before_json) : null, after: a.after_json ? JSON.parse(a.after_json) : null }));
  const count = async () => Number((await env.ctx.db.selectFrom('announcements').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0);
  const home = async (client: Client, query = '', locale?: string) => {
    const res = await client.request('GET', `/api/announcements${query}`, undefined, locale ? { headers: { 'accept-language': locale } } : {});
    expect(res.statusCode, res.body).toBe(200);
    return res.json().items as { id: string; title: string; body: string; locale: string; pinned: boolean; publishedAt: number }[];
  };

  beforeAll(async () => {
    env = await makeEnv(dialect);
    const a = await signedIn(env, 'admin');
    const o = await signedIn(env, 'operator');
    admin = a.client;
    adminId = a.user.id;
    operator = o.client;
    operatorId = o.user.id;
  });
  afterAll(async () => {
    await env?.close();
  });

  describe('staff', () => {
    it('an operator writes a draft (texts trimmed, kept as plain text), edits it, publishes, archives and re-publishes it; each step is audited', async () => {
      const draft = await create(operator, { texts: { en: { title: `  ${EN.title}  `, body: `\n${EN.body}\n` }, 'zh-Hans': ZH } });
      expect(draft).toMatchObject({ status: 'draft', pinned: false, publishedAt: null, texts: { en: EN, 'zh-Hans': ZH } });
      expect(Object.keys(draft.texts)).toEqual(['en', 'zh-Hans']);
      expect(draft.createdAt).toBe(draft.updatedAt);
      expect((await auditsOf(draft.id))).toEqual([{ action: 'announcement.create', actorId: operatorId, before: null, after: { status: 'draft', pinned: false, texts: { en: EN, 'zh-Hans': ZH } } }]);

      // Reading it back: one, and in the list.
      const one = await operator.request('GET', `/api/admin/announcements/${draft.id}`);
      expect(one.statusCode, one.body).toBe(200);
      expect(one.json().announcement).toEqual(draft);

      // Edit: texts replace every language; markup stays text.
      const html = { title: '<b>Bold</b> & co', body: '<script>alert(1)</script>\nLine two' };
      await tick();
      const edited = await patch(operator, draft.id, { texts: { fr: FR, en: html }, pinned: true });
      expect(edited.statusCode, edited.body).toBe(200);
      expect(edited.json().announcement).toMatchObject({ status: 'draft', pinned: true, publishedAt: null, texts: { fr: FR, en: html } });
      expect(Object.keys(edited.json().announcement.texts)).toEqual(['fr', 'en']);
      expect(edited.json().announcement.updatedAt).toBeGreaterThan(draft.updatedAt);

      // The same values again change nothing and write no audit entry.
      expect((await patch(operator, draft.id, { pinned: true, status: 'draft' })).statusCode).toBe(200);
      expect((await auditsOf(draft.id)).map((a) => a.action)).toEqual(['announcement.create', 'announcement.update']);

      // draft → published sets published_at.
      const before = Date.now();
      const published = await patch(operator, draft.id, { status: 'published' });
      expect(published.statusCode, published.body).toBe(200);
      const publishedAt = published.json().announcement.publishedAt as number;
      expect(publishedAt).toBeGreaterThanOrEqual(before);
      expect(published.json().announcement.status).toBe('published');

      // Refused moves change nothing.
      expect(errorCode(await patch(operator, draft.id, { status: 'draft' }))).toBe('INVALID_STATE_TRANSITION');
      expect(errorCode(await operator.request('DELETE', `/api/admin/announcements/${draft.id}`))).toBe('INVALID_STATE_TRANSITION');

      // Published texts can still be corrected.
      expect((await patch(operator, draft.id, { texts: { en: EN } })).json().announcement).toMatchObject({ status: 'published', publishedAt, texts: { en: EN } });

      // published → archived keeps published_at; archived → draft is refused; archived → published publishes it again, as new.
      const archived = await patch(admin, draft.id, { status: 'archived' });
      expect(archived.json().announcement).toMatchObject({ status: 'archived', publishedAt });
      expect(errorCode(await patch(admin, draft.id, { status: 'draft' }))).toBe('INVALID_STATE_TRANSITION');
      expect(errorCode(await admin.request('DELETE', `/api/admin/announcements/${draft.id}`))).toBe('INVALID_STATE_TRANSITION');
      await tick();
      const again = await patch(admin, draft.id, { status: 'published' });
      expect(again.json().announcement.status).toBe('published');
      expect(again.json().announcement.publishedAt).toBeGreaterThan(publishedAt);

      const audits = await auditsOf(draft.id);
      expect(audits.map((a) => [a.action, a.actorId])).toEqual([
        ['announcement.create', operatorId],
        ['announcement.update', operatorId],
        ['announcement.publish', operatorId],
        ['announcement.update', operatorId],
        ['announcement.archive', adminId],
        ['announcement.publish', adminId],
      ]);
      expect(audits[1]).toMatchObject({ before: { status: 'draft', pinned: false, texts: { en: EN, 'zh-Hans': ZH } }, after: { status: 'draft', pinned: true, texts: { fr: FR, en: html } } });
      expect(audits[4]).toMatchObject({ before: { status: 'published' }, after: { status: 'archived' } });
      expect(audits[5]).toMatchObject({ before: { status: 'archived' }, after: { status: 'published' } });
    });

    it('creates published at once; draft → archived is refused; only drafts are deleted (audited)', async () => {
      const before = Date.now();
      const live = await create(admin, { texts: { es: ES }, status: 'published', pinned: true });
      expect(live).toMatchObject({ status: 'published', pinned: true, texts: { es: ES } });
      expect(live.publishedAt).toBeGreaterThanOrEqual(before);
      expect((await auditsOf(live.id))[0]).toMatchObject({ action: 'announcement.create', actorId: adminId, after: { status: 'published', pinned: true } });

      const draft = await create(admin, { texts: { en: EN } });
      expect(errorCode(await patch(admin, draft.id, { status: 'archived' }))).toBe('INVALID_STATE_TRANSITION');
      expect((await admin.request('GET', `/api/admin/announcements/${draft.id}`)).json().announcement.status).toBe('draft');
      const deleted = await operator.request('DELETE', `/api/admin/announcements/${draft.id}`);
      expect(deleted.statusCode, deleted.body).toBe(200);
      expect(deleted.json()).toEqual({ ok: true });
      expect(errorCode(await admin.request('GET', `/api/admin/announcements/${draft.id}`))).toBe('NOT_FOUND');
      expect(errorCode(await operator.request('DELETE', `/api/admin/announcements/${draft.id}`))).toBe('NOT_FOUND');
      expect((await auditsOf(draft.id)).map((a) => a.action)).toEqual(['announcement.create', 'announcement.delete']);
      expect((await auditsOf(draft.id))[1]).toMatchObject({ actorId: operatorId, before: { status: 'draft', texts: { en: EN } }, after: null });
    });

    it('publishing one draft from many places at once publishes it once', async () => {
      const { id } = await create(operator, { texts: { en: EN } });
      const results = await Promise.all(Array.from({ length: 10 }, (_, i) => patch(i % 2 ? admin : operator, id, { status: 'published' })));
      // A request that read the draft after another committed finds nothing to do (200); one that raced it is told (409).
      for (const r of results) expect([200, 409], r.body).toContain(r.statusCode);
      for (const r of results.filter((x) => x.statusCode === 409)) expect(errorCode(r)).toBe('INVALID_STATE_TRANSITION');
      expect((await auditsOf(id)).map((a) => a.action)).toEqual(['announcement.create', 'announcement.publish']);
      const publishedAt = new Set(results.filter((r) => r.statusCode === 200).map((r) => r.json().announcement.publishedAt));
      expect(publishedAt.size).toBe(1);
    });

    it('lists newest first, filters by status and pages with a cursor', async () => {
      const made = [];
      for (let i = 0; i < 3; i++) made.push(await create(operator, { texts: { en: { title: `Page test ${i}`, body: 'Body' } } }));
      const all = (await operator.request('GET', '/api/admin/announcements?limit=100')).json();
      expect(all.nextCursor).toBeNull();
      const created = all.items.map((a: { createdAt: number }) => a.createdAt);
      expect(created).toEqual([...created].sort((x: number, y: number) => y - x));
      expect(all.items.slice(0, 3).map((a: { id: string }) => a.id)).toEqual(made.map((m) => m.id).reverse());

      const first = (await operator.request('GET', '/api/admin/announcements?limit=2')).json();
      expect(first.items).toHaveLength(2);
      expect(first.nextCursor).toEqual(expect.any(String));
      const second = (await operator.request('GET', `/api/admin/announcements?limit=2&cursor=${first.nextCursor}`)).json();
      expect(second.items[0].id).toBe(all.items[2].id);

      for (const status of ['draft', 'published', 'archived'] as const) {
        const items = (await operator.request('GET', `/api/admin/announcements?status=${status}&limit=100`)).json().items as { status: string }[];
        expect(new Set(items.map((a) => a.status)), status).toEqual(new Set(items.length ? [status] : []));
        expect(items.length).toBe(all.items.filter((a: { status: string }) => a.status === status).length);
      }
      expect(errorCode(await operator.request('GET', '/api/admin/announcements?status=gone'))).toBe('VALIDATION_FAILED');
      expect(errorCode(await operator.request('GET', '/api/admin/announcements?cursor=bm9wZQ'))).toBe('VALIDATION_FAILED');
    });
  });

  describe('permissions and bad input', () => {
    it('promoters cannot use the staff calls; anonymous callers none at all', async () => {
      const id = (await create(operator, { texts: { en: EN } })).id;
      const { client: promoter } = await signedIn(env, 'promoter');
      const anonymous = new Client(env.app);
      const before = await count();
      const calls: [Client, 'GET' | 'POST' | 'PATCH' | 'DELETE', string, unknown?][] = [
        [promoter, 'GET', '/api/admin/announcements'],
        [promoter, 'GET', `/api/admin/announcements/${id}`],
        [promoter, 'POST', '/api/admin/announcements', { texts: { en: EN } }],
        [promoter, 'PATCH', `/api/admin/announcements/${id}`, { status: 'published' }],
        [promoter, 'DELETE', `/api/admin/announcements/${id}`],
      ];
      for (const [client, method, url, body] of calls) expect(errorCode(await client.request(method, url, body)), `${method} ${url}`).toBe('FORBIDDEN');
      for (const [, method, url, body] of calls) expect(errorCode(await anonymous.request(method, url, body)), `${method} ${url}`).toBe('UNAUTHENTICATED');
      expect(errorCode(await anonymous.request('GET', '/api/announcements'))).toBe('UNAUTHENTICATED');
      // Permissions are checked before the body: a promoter's bad body is still FORBIDDEN.
      expect(errorCode(await promoter.request('POST', '/api/admin/announcements', { texts: {} }))).toBe('FORBIDDEN');
      expect(await count()).toBe(before);
      expect((await admin.request('GET', `/api/admin/announcements/${id}`)).json().announcement.status).toBe('draft');
      // Every signed-in role reads Home's list.
      for (const client of [promoter, operator, admin]) expect((await client.request('GET', '/api/announcements')).statusCode).toBe(200);
    });

    it('refuses bad bodies with field codes and stores nothing', async () => {
      const before = await count();
      const fieldsOf = async (body: unknown, method: 'POST' | 'PATCH' = 'POST', url = '/api/admin/announcements') => {
        const res = await operator.request(method, url, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json().error.code).toBe('VALIDATION_FAILED');
        return res.json().error.fields as Record<string, string>;
      };
      expect(await fieldsOf({})).toEqual({ texts: 'required' });
      expect(await fieldsOf({ texts: {} })).toEqual({ texts: 'required' });
      expect(await fieldsOf({ texts: { de: EN } })).toMatchObject({ 'texts.de': 'unknown_field' });
      expect(await fieldsOf({ texts: { en: { title: 'x'.repeat(81), body: 'ok' } } })).toEqual({ 'texts.en.title': 'too_long' });
      expect(await fieldsOf({ texts: { en: { title: '   ', body: 'ok' } } })).toEqual({ 'texts.en.title': 'too_short' });
      expect(await fieldsOf({ texts: { fr: { title: 'ok', body: 'y'.repeat(2001) } } })).toEqual({ 'texts.fr.body': 'too_long' });
      expect(await fieldsOf({ texts: { en: { title: 'ok' } } })).toEqual({ 'texts.en.body': 'required' });
      expect(await fieldsOf({ texts: { en: { ...EN, html: true } } })).toEqual({ 'texts.en.html': 'unknown_field' });
      expect(await fieldsOf({ texts: { en: EN }, status: 'archived' })).toEqual({ status: 'invalid' });
      // A value of the wrong type is invalid, not missing.
      expect(await fieldsOf({ texts: { en: EN }, pinned: 'yes' })).toEqual({ pinned: 'invalid' });
      expect(await fieldsOf({ texts: { en: EN }, author: 'me' })).toEqual({ author: 'unknown_field' });
      // The limits are exact: 80 and 2000 characters pass.
      const longest = await create(operator, { texts: { en: { title: 't'.repeat(80), body: 'b'.repeat(2000) } } });
      expect(longest.texts.en!.title).toHaveLength(80);

      const id = longest.id;
      expect(await fieldsOf({ texts: {} }, 'PATCH', `/api/admin/announcements/${id}`)).toEqual({ texts: 'required' });
      expect(await fieldsOf({ status: 'gone' }, 'PATCH', `/api/admin/announcements/${id}`)).toEqual({ status: 'invalid' });
      expect(await fieldsOf({ texts: { xx: EN } }, 'PATCH', `/api/admin/announcements/${id}`)).toMatchObject({ 'texts.xx': 'unknown_field' });
      expect((await operator.request('GET', `/api/admin/announcements/${id}`)).json().announcement.texts).toEqual(longest.texts);

      for (const [method, body] of [['GET', undefined], ['PATCH', { pinned: true }], ['DELETE', undefined]] as const) {
        expect(errorCode(await operator.request(method, '/api/admin/announcements/01NOPE00000000000000000000', body)), method).toBe('NOT_FOUND');
      }
      expect(await count()).toBe(before + 1);
    });
  });

  it('documents every call in the OpenAPI document', async () => {
    const doc = (await new Client(env.app).request('GET', '/api/openapi.json')).json();
    expect(Object.keys(doc.paths['/api/announcements'])).toEqual(['get']);
    expect(Object.keys(doc.paths['/api/admin/announcements']).sort()).toEqual(['get', 'post']);
    expect(Object.keys(doc.paths['/api/admin/announcements/{id}']).sort()).toEqual(['delete', 'get', 'patch']);
  });

  describe('what promoters see', () => {
    it('published only, pinned first then newest, at most 5 unless asked, in their language', async () => {
      // This suite shares one database: start from no published announcements.
      await env.ctx.db.updateTable('announcements').set({ status: 'archived' }).where('status', '=', 'published').execute();
      const { client: promoter } = await signedIn(env, 'promoter', { locale: 'zh-CN' });
      expect(await home(promoter)).toEqual([]);

      const oldest = await create(operator, { texts: { en: { title: 'Oldest', body: 'A' } }, status: 'published' });
      await tick();
      const pinned = await create(operator, { texts: { en: { title: 'Pinned', body: 'B' } }, status: 'published', pinned: true });
      await tick();
      await create(operator, { texts: { en: { title: 'Newer', body: 'C' } }, status: 'published' });
      await create(operator, { texts: { en: { title: 'Draft', body: 'D' } } });
      const gone = await create(operator, { texts: { en: { title: 'Archived', body: 'E' } }, status: 'published' });
      expect((await patch(operator, gone.id, { status: 'archived' })).statusCode).toBe(200);

      const items = await home(promoter);
      expect(items.map((a) => a.title)).toEqual(['Pinned', 'Newer', 'Oldest']);
      expect(items[0]).toEqual({ id: pinned.id, title: 'Pinned', body: 'B', locale: 'en', pinned: true, publishedAt: pinned.publishedAt });
      expect(items[1]!.pinned).toBe(false);

      // Re-publishing brings an archived one back as the newest; pinning moves one to the top.
      await tick();
      await patch(operator, gone.id, { status: 'published' });
      expect((await home(promoter)).map((a) => a.title)).toEqual(['Pinned', 'Archived', 'Newer', 'Oldest']);
      await patch(operator, oldest.id, { pinned: true });
      expect((await home(promoter)).map((a) => a.title)).toEqual(['Pinned', 'Oldest', 'Archived', 'Newer']);
      await patch(operator, pinned.id, { pinned: false });
      expect((await home(promoter)).map((a) => a.title)).toEqual(['Oldest', 'Archived', 'Newer', 'Pinned']);

      // At most 5 by default; `limit` 1–20.
      for (let i = 0; i < 4; i++) {
        await tick();
        await create(operator, { texts: { en: { title: `Extra ${i}`, body: 'F' } }, status: 'published' });
      }
      expect(await home(promoter)).toHaveLength(5);
      expect((await home(promoter, '?limit=2')).map((a) => a.title)).toEqual(['Oldest', 'Extra 3']);
      expect(await home(promoter, '?limit=20')).toHaveLength(8);
      for (const bad of ['0', '21', 'x', '2.5']) expect(errorCode(await promoter.request('GET', `/api/announcements?limit=${bad}`)), bad).toBe('VALIDATION_FAILED');
      expect(errorCode(await promoter.request('GET', '/api/announcements?status=draft'))).toBe('VALIDATION_FAILED');
    });

    it('shows the reader’s language, else English, else the first one written', async () => {
      await env.ctx.db.updateTable('announcements').set({ status: 'archived' }).where('status', '=', 'published').execute();
      const { client: promoter } = await signedIn(env, 'promoter');
      const noEnglish = await create(operator, { texts: { fr: FR, es: ES }, status: 'published' });
      await tick();
      const withEnglish = await create(operator, { texts: { 'zh-Hans': ZH, en: EN }, status: 'published' });
      const shown = async (locale: string) => Object.fromEntries((await home(promoter, '', locale)).map((a) => [a.id, [a.locale, a.title, a.body]]));

      expect(await shown('zh-CN')).toEqual({ [withEnglish.id]: ['zh-Hans', ZH.title, ZH.body], [noEnglish.id]: ['fr', FR.title, FR.body] });
      expect(await shown('es-MX,es;q=0.9')).toEqual({ [withEnglish.id]: ['en', EN.title, EN.body], [noEnglish.id]: ['es', ES.title, ES.body] });
      expect(await shown('fr')).toEqual({ [withEnglish.id]: ['en', EN.title, EN.body], [noEnglish.id]: ['fr', FR.title, FR.body] });
      // zh-TW asks for Traditional Chinese, which neither has: English, else the first written (French).
      expect(await shown('zh-TW')).toEqual({ [withEnglish.id]: ['en', EN.title, EN.body], [noEnglish.id]: ['fr', FR.title, FR.body] });
      expect(await shown('de')).toEqual({ [withEnglish.id]: ['en', EN.title, EN.body], [noEnglish.id]: ['fr', FR.title, FR.body] });
      // Newest first.
      expect((await home(promoter, '', 'en')).map((a) => a.id)).toEqual([withEnglish.id, noEnglish.id]);
    });
  });
});
