/**
 * Promoter groups and the application form (issue 31, items 1 and 8), on both databases: groups
 * CRUD with names unique regardless of case, the default group undeletable, deleting a group moves
 * its promoters to the default (also under concurrent registrations through its link), single and
 * bulk moves (all or none), the list's group filter and the export's column, invite links that
 * name a group (and invite-only mode), and the application form: questions per locale, answers
 * checked on the server with field codes, stored with the question as asked, shown in the
 * registrations queue and on the promoter's page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, DIALECTS, errorCode, makeEnv, signedIn, type TestEnv } from './helpers';

type Json = Record<string, unknown>;
interface GroupView { id: string; name: string; description: string; isDefault: boolean; inviteCode: string | null; promoterCount: number; questionCount: number }

describe.each(DIALECTS)('promoter groups and the application form on %s', (dialect) => {
  let env: TestEnv;
  let admin: Client;
  let operator: Client;
  const tag = Math.random().toString(36).slice(2, 7);
  let seq = 0;

  /** Registers through the register call as the page would, with the group's code and answers. */
  async function register(extra: { groupCode?: string; answers?: Record<string, string>; inviteCode?: string } = {}, locale = 'en') {
    const client = new Client(env.app, { locale });
    const account = `p${seq++}-${tag}@example.com`;
    const res = await client.request('POST', '/api/auth/register', { account, displayName: `Person ${seq}`, password: await client.seal('Passw0rd-test'), ...extra });
    return { res, client, account, id: res.statusCode === 201 ? (res.json().user.id as string) : '' };
  }
  const groupOf = async (userId: string) => (await env.ctx.db.selectFrom('users').select('group_id').where('id', '=', userId).executeTakeFirstOrThrow()).group_id;
  const listGroups = async () => (await admin.request('GET', '/api/admin/groups')).json().items as GroupView[];
  async function createGroup(name: string, description?: string): Promise<GroupView> {
    const res = await admin.request('POST', '/api/admin/groups', { name, ...(description !== undefined ? { description } : {}) });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().group as GroupView;
  }
  const setMode = async (registrationMode: string) => expect((await admin.request('PATCH', '/api/admin/settings', { registrationMode })).statusCode).toBe(200);

  beforeAll(async () => {
    env = await makeEnv(dialect);
    admin = (await signedIn(env, 'admin')).client;
    operator = (await signedIn(env, 'operator')).client;
  });
  afterAll(async () => {
    await env?.close();
  });

  describe('groups', () => {
    it('lists the default group first with its promoter count; new promoters join it', async () => {
      const before = (await listGroups()).find((g) => g.isDefault)!;
      expect(before).toMatchObject({ id: 'default', name: 'Default', isDefault: true, inviteCode: null });
      const p = await register();
      expect(p.res.statusCode, p.res.body).toBe(201);
      expect(await groupOf(p.id)).toBe('default');
      const after = await listGroups();
      expect(after[0]!.id).toBe('default');
      expect(after[0]!.promoterCount).toBe(before.promoterCount + 1);
      // Operators read the groups (the promoters table filters by them) but change nothing.
      expect((await operator.request('GET', '/api/admin/groups')).statusCode).toBe(200);
      expect((await operator.request('POST', '/api/admin/groups', { name: 'Nope' })).statusCode).toBe(403);
      expect((await new Client(env.app).request('GET', '/api/admin/groups')).statusCode).toBe(401);
    });

    it('creates, renames and re-describes; names are unique regardless of case and width', async () => {
      const gold = await createGroup(`Gold ${tag}`, 'Our best shops');
      expect(gold).toMatchObject({ name: `Gold ${tag}`, description: 'Our best shops', isDefault: false, promoterCount: 0, questionCount: 0 });
      expect(gold.inviteCode).toMatch(/^[0-9A-HJKMNP-TV-Z]{12}$/);
      for (const name of [`gold ${tag}`, ` GOLD ${tag} `, `ＧＯＬＤ ${tag}`]) {
        const res = await admin.request('POST', '/api/admin/groups', { name });
        expect(res.statusCode, name).toBe(409);
        expect(res.json().error).toMatchObject({ code: 'GROUP_NAME_TAKEN', fields: { name: 'taken' } });
      }
      const silver = await createGroup(`Silver ${tag}`);
      expect((await admin.request('PATCH', `/api/admin/groups/${silver.id}`, { name: `GOLD ${tag}` })).json().error.code).toBe('GROUP_NAME_TAKEN');
      // A group may change the case of its own name.
      const renamed = await admin.request('PATCH', `/api/admin/groups/${gold.id}`, { name: `GOLD ${tag}`, description: '' });
      expect(renamed.statusCode, renamed.body).toBe(200);
      expect(renamed.json().group).toMatchObject({ name: `GOLD ${tag}`, description: '' });
      // Bad input: empty, control characters, too long, unknown fields, unknown ids.
      expect((await admin.request('POST', '/api/admin/groups', { name: '   ' })).json().error.fields).toEqual({ name: 'required' });
      expect((await admin.request('POST', '/api/admin/groups', { name: 'a\nb' })).json().error.fields).toEqual({ name: 'control_characters' });
      expect((await admin.request('POST', '/api/admin/groups', { name: 'x'.repeat(61) })).json().error.fields).toEqual({ name: 'too_long' });
      expect((await admin.request('POST', '/api/admin/groups', { name: 'Fine', isDefault: true })).json().error.fields).toEqual({ isDefault: 'unknown_field' });
      expect((await admin.request('PATCH', '/api/admin/groups/nope', { name: 'X' })).statusCode).toBe(404);
      // The default group may be renamed; its link is the plain one and cannot be renewed.
      expect((await admin.request('PATCH', '/api/admin/groups/default', { description: 'Everyone else' })).json().group).toMatchObject({ name: 'Default', description: 'Everyone else', isDefault: true });
      expect(errorCode(await admin.request('POST', '/api/admin/groups/default/invite-code'))).toBe('DEFAULT_GROUP');
    });

    it('two creations of one name at once: one group, the other GROUP_NAME_TAKEN', async () => {
      const name = `Twin ${tag}`;
      const results = await Promise.all([admin.request('POST', '/api/admin/groups', { name }), admin.request('POST', '/api/admin/groups', { name: name.toUpperCase() })]);
      expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409]);
      expect((await listGroups()).filter((g) => g.name.toLowerCase() === name.toLowerCase())).toHaveLength(1);
    });

    it('the default group cannot be deleted; deleting another moves its promoters to the default in one step', async () => {
      const res = await admin.request('DELETE', '/api/admin/groups/default');
      expect(res.statusCode).toBe(409);
      expect(res.json().error.code).toBe('DEFAULT_GROUP');

      const doomed = await createGroup(`Doomed ${tag}`);
      const members = [await register({ groupCode: doomed.inviteCode! }), await register({ groupCode: doomed.inviteCode! })];
      for (const m of members) expect(await groupOf(m.id)).toBe(doomed.id);
      expect((await admin.request('PUT', `/api/admin/groups/${doomed.id}/questions`, { questions: [{ kind: 'shortText', labels: { en: 'Why?' } }] })).statusCode).toBe(200);
      const deleted = await admin.request('DELETE', `/api/admin/groups/${doomed.id}`);
      expect(deleted.statusCode, deleted.body).toBe(200);
      expect(deleted.json()).toEqual({ ok: true, movedPromoters: 2 });
      for (const m of members) expect(await groupOf(m.id)).toBe('default');
      expect(await env.ctx.db.selectFrom('application_questions').select('id').where('group_id', '=', doomed.id).execute()).toEqual([]);
      expect((await listGroups()).some((g) => g.id === doomed.id)).toBe(false);
      expect((await admin.request('DELETE', `/api/admin/groups/${doomed.id}`)).statusCode).toBe(404);
      // Its link no longer registers anyone.
      const late = await register({ groupCode: doomed.inviteCode! });
      expect(late.res.json().error).toMatchObject({ code: 'INVITE_CODE_INVALID', fields: { groupCode: 'invalid' } });
    });

    it('registrations through a group’s link while it is deleted all end up in a group that exists', async () => {
      const group = await createGroup(`Racing ${tag}`);
      const early = [await register({ groupCode: group.inviteCode! }), await register({ groupCode: group.inviteCode! })];
      // More come in while it is deleted, some a little later than others.
      const joins = Array.from({ length: 8 }, (_, i) => new Promise((resolve) => setTimeout(resolve, i * 10)).then(() => register({ groupCode: group.inviteCode! })));
      const deletion = new Promise((resolve) => setTimeout(resolve, 25)).then(() => admin.request('DELETE', `/api/admin/groups/${group.id}`));
      const [results, deleted] = await Promise.all([Promise.all(joins), deletion]);
      expect(deleted.statusCode, deleted.body).toBe(200);
      const joined = [...early, ...results.filter((r) => r.res.statusCode === 201)];
      for (const r of results) if (r.res.statusCode !== 201) expect(errorCode(r.res)).toBe('INVITE_CODE_INVALID');
      for (const r of joined) expect(await groupOf(r.id)).toBe('default');
      expect(deleted.json().movedPromoters).toBeGreaterThanOrEqual(early.length);
      expect(deleted.json().movedPromoters).toBeLessThanOrEqual(joined.length);
      expect(await env.ctx.db.selectFrom('users').select('id').where('group_id', '=', group.id).execute()).toEqual([]);
    });
  });

  describe('moving promoters', () => {
    it('moves one promoter, then many at once (all or none); staff and unknown ids are refused', async () => {
      const team = await createGroup(`Team ${tag}`);
      const [a, b, c] = [await register(), await register(), await register()];
      const one = await admin.request('PATCH', `/api/admin/promoters/${a.id}`, { groupId: team.id });
      expect(one.statusCode, one.body).toBe(200);
      expect(one.json().group).toEqual({ id: team.id, name: team.name });
      expect((await admin.request('GET', `/api/admin/promoters/${a.id}`)).json().group).toEqual({ id: team.id, name: team.name });

      const many = await admin.request('POST', '/api/admin/promoters/group', { promoterIds: [a.id, b.id, c.id], groupId: team.id });
      expect(many.statusCode, many.body).toBe(200);
      expect(many.json()).toEqual({ moved: 2, unchanged: 1, groupId: team.id });
      for (const p of [a, b, c]) expect(await groupOf(p.id)).toBe(team.id);
      const entries = await env.ctx.db.selectFrom('audit_entries').select(['entity_id', 'before_json', 'after_json']).where('action', '=', 'promoter.group').where('entity_id', 'in', [a.id, b.id, c.id]).execute();
      expect(entries).toHaveLength(3);
      expect(entries.filter((e) => e.entity_id === b.id).map((e) => [JSON.parse(e.before_json!), JSON.parse(e.after_json!)])).toEqual([[{ groupId: 'default' }, { groupId: team.id }]]);

      // A staff member's id among them: nobody moves.
      const staffId = (await signedIn(env, 'operator')).user.id;
      const refused = await admin.request('POST', '/api/admin/promoters/group', { promoterIds: [a.id, staffId], groupId: 'default' });
      expect(refused.json().error).toMatchObject({ code: 'VALIDATION_FAILED', fields: { 'promoterIds.1': 'not_found' } });
      expect(await groupOf(a.id)).toBe(team.id);
      expect((await admin.request('POST', '/api/admin/promoters/group', { promoterIds: [a.id], groupId: 'nope' })).json().error.fields).toEqual({ groupId: 'not_found' });
      expect((await admin.request('PATCH', `/api/admin/promoters/${staffId}`, { groupId: 'default' })).statusCode).toBe(404);
      expect((await admin.request('POST', '/api/admin/promoters/group', { promoterIds: [], groupId: 'default' })).json().error.fields).toEqual({ promoterIds: 'too_short' });
      expect((await operator.request('POST', '/api/admin/promoters/group', { promoterIds: [a.id], groupId: 'default' })).statusCode).toBe(403);
    });

    it('the promoters list filters by group and shows it; the export has a group column', async () => {
      const blue = await createGroup(`Blue ${tag}`);
      const member = await register({ groupCode: blue.inviteCode! });
      const other = await register();
      const list = (await operator.request('GET', `/api/admin/promoters?groupId=${blue.id}`)).json();
      expect(list.items.map((i: Json) => i.id)).toEqual([member.id]);
      expect(list.items[0].group).toEqual({ id: blue.id, name: blue.name });
      const all = (await operator.request('GET', '/api/admin/promoters?limit=100')).json().items as { id: string; group: { id: string } }[];
      expect(all.find((i) => i.id === other.id)!.group).toEqual({ id: 'default', name: 'Default' });
      const csv = await operator.request('GET', `/api/admin/promoters/export?groupId=${blue.id}`);
      expect(csv.statusCode).toBe(200);
      const [header, row] = csv.body.replace(/^\uFEFF/, '').split('\r\n');
      const columns = header!.split(',');
      expect(columns).toContain('group');
      expect(row!.split(',')[columns.indexOf('group')]).toBe(blue.name);
    });
  });

  describe('invite links that name a group', () => {
    it('joins the group the link names; a renewed link ends the old one; a promoter’s invite still sets the inviter', async () => {
      const partners = await createGroup(`Partners ${tag}`);
      const inviter = await register();
      const joined = await register({ groupCode: partners.inviteCode!.toLowerCase(), inviteCode: inviter.res.json().user.inviteCode });
      expect(joined.res.statusCode, joined.res.body).toBe(201);
      expect(await groupOf(joined.id)).toBe(partners.id);
      expect(joined.res.json().user.inviterName).toBe(inviter.res.json().user.displayName);
      const audit = await env.ctx.db.selectFrom('audit_entries').select('after_json').where('action', '=', 'user.register').where('entity_id', '=', joined.id).executeTakeFirstOrThrow();
      expect(JSON.parse(audit.after_json!)).toMatchObject({ groupId: partners.id, parentId: inviter.id });

      const renewed = (await admin.request('POST', `/api/admin/groups/${partners.id}/invite-code`)).json().group as GroupView;
      expect(renewed.inviteCode).not.toBe(partners.inviteCode);
      expect((await register({ groupCode: partners.inviteCode! })).res.json().error.fields).toEqual({ groupCode: 'invalid' });
      expect((await register({ groupCode: renewed.inviteCode! })).res.statusCode).toBe(201);
      expect((await register({ groupCode: 'short' })).res.json().error.fields).toEqual({ groupCode: 'invalid' });
    });

    it('in invite-only mode a group’s link is an invitation; the plain link is not', async () => {
      const vip = await createGroup(`VIP ${tag}`);
      await setMode('invite-only');
      try {
        expect((await register()).res.json().error).toMatchObject({ code: 'INVITE_CODE_INVALID', fields: { inviteCode: 'required' } });
        const via = await register({ groupCode: vip.inviteCode! });
        expect(via.res.statusCode, via.res.body).toBe(201);
        expect(await groupOf(via.id)).toBe(vip.id);
      } finally {
        await setMode('open');
      }
    });
  });

  describe('the application form', () => {
    let group: GroupView;
    let ids: { site: string; story: string; channel: string; age: string; shop: string };
    let options: { wechat: string; douyin: string };

    beforeAll(async () => {
      group = await createGroup(`Applicants ${tag}`);
      const own = await admin.request('PUT', '/api/admin/application-form', {
        questions: [
          { kind: 'url', required: true, labels: { en: 'Your website', 'zh-Hans': '你的网站' } },
          { kind: 'longText', required: false, labels: { en: 'How will you promote us?' } },
          { kind: 'choice', required: true, labels: { en: 'Main channel', fr: 'Canal principal' }, options: [{ labels: { en: 'WeChat', 'zh-Hans': '微信' } }, { labels: { en: 'Douyin' } }] },
          { kind: 'shortText', required: false, labels: { en: 'Age of your audience', fr: '' } },
        ],
      });
      expect(own.statusCode, own.body).toBe(200);
      const qs = own.json().questions as { id: string; options: { id: string }[] }[];
      const grouped = await admin.request('PUT', `/api/admin/groups/${group.id}/questions`, { questions: [{ kind: 'shortText', required: true, labels: { en: 'Shop name' } }] });
      expect(grouped.statusCode, grouped.body).toBe(200);
      ids = { site: qs[0]!.id, story: qs[1]!.id, channel: qs[2]!.id, age: qs[3]!.id, shop: grouped.json().questions[0].id };
      options = { wechat: qs[2]!.options[0]!.id, douyin: qs[2]!.options[1]!.id };
      // An emptied language is not kept.
      expect(own.json().questions[3].labels).toEqual({ en: 'Age of your audience' });
      expect((await listGroups()).find((g) => g.id === group.id)!.questionCount).toBe(1);
    });

    it('asks the registration’s questions only in approval mode, the group’s through its link, in the reader’s language', async () => {
      const ask = async (query: string, locale: string) => {
        const res = await new Client(env.app, { locale }).request('GET', `/api/auth/application-form${query}`);
        expect(res.statusCode, res.body).toBe(200);
        return res.json().questions as { id: string; kind: string; required: boolean; label: string; options: { id: string; label: string }[]; maxLength: number }[];
      };
      expect(await ask('', 'en')).toEqual([]);
      expect((await ask(`?group=${group.inviteCode}`, 'en')).map((q) => q.label)).toEqual(['Shop name']);
      await setMode('approval');
      try {
        const zh = await ask(`?group=${group.inviteCode}`, 'zh-Hans');
        expect(zh.map((q) => q.label)).toEqual(['你的网站', 'How will you promote us?', 'Main channel', 'Age of your audience', 'Shop name']);
        expect(zh[2]!.options).toEqual([{ id: options.wechat, label: '微信' }, { id: options.douyin, label: 'Douyin' }]);
        expect(zh.map((q) => q.maxLength)).toEqual([500, 2000, 64, 200, 200]);
        expect((await ask('', 'fr')).map((q) => q.label)).toEqual(['Your website', 'How will you promote us?', 'Canal principal', 'Age of your audience']);
        expect((await new Client(env.app).request('GET', '/api/auth/application-form?group=ZZZZZZZZZZZZ')).statusCode).toBe(404);
        expect((await new Client(env.app).request('GET', '/api/auth/application-form?group=bad')).json().error.fields).toEqual({ 'querystring.group': 'invalid' });
      } finally {
        await setMode('open');
      }
    });

    it('refuses answers that break the rules, naming each field, and registers nobody', async () => {
      await setMode('approval');
      try {
        const cases: [Record<string, string>, Record<string, string>][] = [
          [{}, { [`answers.${ids.site}`]: 'required', [`answers.${ids.channel}`]: 'required', [`answers.${ids.shop}`]: 'required' }],
          [{ [ids.site]: 'not a site', [ids.channel]: options.wechat, [ids.shop]: 'Tea' }, { [`answers.${ids.site}`]: 'invalid' }],
          [{ [ids.site]: 'javascript:alert(1)', [ids.channel]: options.wechat, [ids.shop]: 'Tea' }, { [`answers.${ids.site}`]: 'invalid' }],
          [{ [ids.site]: 'shop.example.com', [ids.channel]: 'another', [ids.shop]: 'Tea' }, { [`answers.${ids.channel}`]: 'invalid' }],
          [{ [ids.site]: 'shop.example.com', [ids.channel]: options.wechat, [ids.shop]: 'x'.repeat(201) }, { [`answers.${ids.shop}`]: 'too_long' }],
          [{ [ids.site]: 'shop.example.com', [ids.channel]: options.wechat, [ids.shop]: 'Tea\u202Eshop' }, { [`answers.${ids.shop}`]: 'control_characters' }],
          [{ [ids.site]: 'shop.example.com', [ids.channel]: options.wechat, [ids.shop]: 'Tea', [ids.story]: 'y'.repeat(2001) }, { [`answers.${ids.story}`]: 'too_long' }],
          [{ [ids.site]: 'shop.example.com', [ids.channel]: options.wechat, [ids.shop]: 'Tea', stranger: 'hi' }, { 'answers.stranger': 'unknown_field' }],
        ];
        const users = async () => Number((await env.ctx.db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
        const before = await users();
        for (const [answers, fields] of cases) {
          const { res } = await register({ groupCode: group.inviteCode!, answers });
          expect(res.statusCode, JSON.stringify(answers).slice(0, 80)).toBe(400);
          expect(res.json().error).toEqual({ code: 'VALIDATION_FAILED', message: expect.any(String), fields });
        }
        expect(await users()).toBe(before);
      } finally {
        await setMode('open');
      }
    });

    it('stores the answers with the question as asked, and shows them in the queue and on the promoter’s page', async () => {
      await setMode('approval');
      let applicant: Awaited<ReturnType<typeof register>>;
      try {
        applicant = await register({
          groupCode: group.inviteCode!,
          answers: { [ids.site]: ' shop.example.com/tea ', [ids.story]: 'Line one\r\nLine two', [ids.channel]: options.wechat, [ids.age]: '', [ids.shop]: 'Tea House' },
        }, 'zh-Hans');
        expect(applicant.res.statusCode, applicant.res.body).toBe(201);
        expect(applicant.res.json().user.status).toBe('pending');
      } finally {
        await setMode('open');
      }
      expect(await groupOf(applicant.id)).toBe(group.id);
      const expected = [
        { questionId: ids.site, source: 'registration', kind: 'url', question: 'Your website', answer: 'https://shop.example.com/tea' },
        { questionId: ids.story, source: 'registration', kind: 'longText', question: 'How will you promote us?', answer: 'Line one\nLine two' },
        { questionId: ids.channel, source: 'registration', kind: 'choice', question: 'Main channel', answer: 'WeChat' },
        { questionId: ids.shop, source: 'group', kind: 'shortText', question: 'Shop name', answer: 'Tea House' },
      ];
      const queue = (await operator.request('GET', '/api/admin/users?status=pending&limit=100')).json().items as Json[];
      const row = queue.find((u) => u.id === applicant.id)!;
      expect(row.application).toEqual(expected);
      expect(row.group).toEqual({ id: group.id, name: group.name });
      expect((await operator.request('GET', `/api/admin/promoters/${applicant.id}`)).json().application).toEqual(expected);
      // In the reader's language where the question was written in it.
      const zhDetail = await new Client(env.app, { locale: 'zh-Hans' });
      zhDetail.cookies = operator.cookies;
      const zh = (await zhDetail.request('GET', `/api/admin/promoters/${applicant.id}`)).json().application as { question: string; answer: string }[];
      expect(zh.map((a) => [a.question, a.answer])).toEqual([['你的网站', 'https://shop.example.com/tea'], ['How will you promote us?', 'Line one\nLine two'], ['Main channel', '微信'], ['Shop name', 'Tea House']]);

      // The form changes later: the answers stay as they were asked.
      const current = (await admin.request('GET', '/api/admin/application-form')).json().questions as Json[];
      const edited = current.filter((q) => q.id !== ids.channel).map((q) => (q.id === ids.site ? { ...q, labels: { en: 'Website (new wording)' } } : q));
      expect((await admin.request('PUT', '/api/admin/application-form', { questions: edited })).statusCode).toBe(200);
      expect((await operator.request('GET', `/api/admin/promoters/${applicant.id}`)).json().application).toEqual(expected);
      // Staff and promoters without answers show none.
      const plain = await register();
      expect((await operator.request('GET', `/api/admin/promoters/${plain.id}`)).json().application).toEqual([]);
    });

    it('checks the forms admins save: options only for choices, ids of this form only, limits', async () => {
      const put = (body: unknown) => admin.request('PUT', `/api/admin/groups/${group.id}/questions`, body);
      const fieldsOf = async (body: unknown) => (await put(body)).json().error?.fields;
      expect(await fieldsOf({ questions: [{ kind: 'choice', labels: { en: 'Pick' }, options: [{ labels: { en: 'Only' } }] }] })).toEqual({ 'questions.0.options': 'too_short' });
      expect(await fieldsOf({ questions: [{ kind: 'url', labels: { en: 'Site' }, options: [{ labels: { en: 'A' } }, { labels: { en: 'B' } }] }] })).toEqual({ 'questions.0.options': 'not_allowed' });
      expect(await fieldsOf({ questions: [{ kind: 'shortText', labels: { en: '' } }] })).toEqual({ 'questions.0.labels': 'required' });
      expect(await fieldsOf({ questions: [{ kind: 'shortText', labels: { xx: 'Hi' } }] })).toMatchObject({ 'questions.0.labels.xx': expect.any(String) });
      expect(await fieldsOf({ questions: [{ kind: 'essay', labels: { en: 'Hi' } }] })).toEqual({ 'questions.0.kind': 'invalid' });
      expect(await fieldsOf({ questions: [{ id: ids.site, kind: 'shortText', labels: { en: 'Stolen id' } }] })).toEqual({ 'questions.0.id': 'not_found' });
      expect(await fieldsOf({ questions: Array.from({ length: 21 }, () => ({ kind: 'shortText', labels: { en: 'Q' } })) })).toEqual({ questions: 'too_long' });
      expect((await put({ questions: [] })).json()).toEqual({ questions: [] });
      expect((await admin.request('PUT', '/api/admin/groups/nope/questions', { questions: [] })).statusCode).toBe(404);
      expect(errorCode(await admin.request('PUT', '/api/admin/groups/default/questions', { questions: [] }))).toBe('DEFAULT_GROUP');
      expect((await operator.request('PUT', '/api/admin/application-form', { questions: [] })).statusCode).toBe(403);
      expect((await operator.request('GET', '/api/admin/application-form')).statusCode).toBe(200);
    });
  });
});
