/**
 * The audit log (issue 14, item 7), on both databases:
 * - every staff action, driven through HTTP as the console drives it, writes exactly one entry with
 *   its actor, action, entity, before/after, the client's address and the time — and a refused or
 *   repeated call writes none; self-service actions of promoters are recorded the same way;
 * - `GET api/admin/audit` (admins only): each filter, cursor pages that neither skip nor repeat,
 *   every bad input refused with VALIDATION_FAILED and nothing written; the CSV export with the
 *   same filters;
 * - entries are append-only: the database refuses an UPDATE and a DELETE, and no code under
 *   apps/server/src tries one;
 * - docs/api.md's "Audit log" table lists exactly AUDIT_ACTIONS, every action the source writes is
 *   in it, and every action in it is written by this very run.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS } from '@pa/shared';
import { dispatchDue } from '../src/modules/webhooks/service';
import { audit } from '../src/platform/audit';
import { Mailer } from '../src/platform/mail/outbox';
import { campaignBody, Client, createUser, DIALECTS, errorCode, makeEnv, makePng, signedIn, uniqueAccount, type TestEnv } from './helpers';

const here = path.dirname(fileURLToPath(import.meta.url));
const SRC = path.resolve(here, '../src');
const DOCS = path.resolve(here, '../../../docs/api.md');

const ADMIN_IP = '198.51.100.10';
const OPERATOR_IP = '198.51.100.20';
const PROMOTER_IP = '203.0.113.30';
const BANK = '6222 0212 3456 7890';
const ZONE = 'Asia/Shanghai'; // UTC+8 all year: days start at 16:00 UTC the day before.

type Json = Record<string, unknown>;
interface Row { id: string; actor_id: string | null; action: string; entity: string; entity_id: string | null; before_json: string | null; after_json: string | null; at: number; ip: string | null }

/** Every .ts file under a directory. */
function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sourceFiles(p) : e.name.endsWith('.ts') ? [p] : [];
  });
}

/** The actions of docs/api.md's "Audit log" table (first column, in backquotes). */
function documentedActions(): string[] {
  const text = fs.readFileSync(DOCS, 'utf8');
  const start = text.indexOf('\n## Audit log');
  expect(start, 'docs/api.md has a "## Audit log" section').toBeGreaterThan(0);
  const end = text.indexOf('\n## ', start + 5);
  const section = text.slice(start, end === -1 ? undefined : end);
  return [...section.matchAll(/^\| `([a-z_]+\.[a-z_]+)` \|/gm)].map((m) => m[1]!);
}

/** The balanced-parenthesis text of each `audit(` call in a source file. */
function auditCalls(text: string): string[] {
  const calls: string[] = [];
  for (const m of text.matchAll(/\bawait audit\(/g)) {
    let depth = 0;
    for (let i = m.index + m[0].length - 1; i < text.length; i++) {
      if (text[i] === '(') depth++;
      else if (text[i] === ')' && --depth === 0) {
        calls.push(text.slice(m.index, i + 1));
        break;
      }
    }
  }
  return calls;
}

/**
 * The actions the source can write: string literals in the `action` of each audit() call, and in
 * the constants that expression names (followed through the file); templates (`user.${action}`)
 * as their area prefix.
 */
function actionsInSource(): { literals: Set<string>; prefixes: Set<string>; calls: number } {
  const literals = new Set<string>();
  const prefixes = new Set<string>();
  let calls = 0;
  for (const file of sourceFiles(SRC)) {
    if (file.endsWith(path.join('platform', 'audit.ts'))) continue;
    const text = fs.readFileSync(file, 'utf8');
    for (const call of auditCalls(text)) {
      calls++;
      const m = /\baction(?:\s*:\s*([^,}]+))?\s*[,}]/.exec(call);
      expect(m, `an action in ${path.relative(SRC, file)}: ${call.slice(0, 120)}`).not.toBeNull();
      const seen = new Set<string>();
      const follow = (expression: string) => {
        for (const lit of expression.matchAll(/'([a-z_]+\.[a-z_]+)'/g)) literals.add(lit[1]!);
        for (const tpl of expression.matchAll(/`([a-z_]+)\.\$\{/g)) prefixes.add(tpl[1]!);
        for (const ident of expression.matchAll(/\b([A-Za-z_]\w*)\b/g)) {
          const name = ident[1]!;
          if (seen.has(name)) continue;
          seen.add(name);
          const def = new RegExp(`\\bconst ${name}\\b[^=]*=([^;]+);`).exec(text);
          if (def) follow(def[1]!);
        }
      };
      follow(m![1] ?? 'action');
    }
  }
  return { literals, prefixes, calls };
}

/** A CSV document as rows of unquoted fields (quotes undoubled); the BOM stripped. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = text.charCodeAt(0) === 0xfeff ? 1 : 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      }
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    }
    else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  return rows;
}
/** An identifier cell (`="…"`) as the text a spreadsheet shows. */
const idCell = (cell: string) => (cell.startsWith('="') && cell.endsWith('"') ? cell.slice(2, -1).replace(/""/g, '"') : cell);

describe.each(DIALECTS)('the audit log on %s', (dialect) => {
  let env: TestEnv;
  let admin: Client;
  let adminId: string;
  let operator: Client;
  let operatorId: string;
  let apiSecret: string;
  let seq = 0;
  const clients: Client[] = [];

  const rowsOf = () => env.ctx.db.selectFrom('audit_entries').select(['id', 'actor_id', 'action', 'entity', 'entity_id', 'before_json', 'after_json', 'at', 'ip']).orderBy('at').orderBy('id').execute() as Promise<Row[]>;
  const count = async () => Number((await env.ctx.db.selectFrom('audit_entries').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

  /** `actorId` a user id (or a matcher); `entityId`, `before`, `after`: checked exactly when given (`null`: must be empty). */
  interface Expected { actorId: unknown; action: string; entity: string; entityId?: string | null; before?: unknown; after?: unknown; ip: string }
  /**
   * Runs one call and checks it wrote exactly one entry, as expected, timed within the call; the
   * entry is also read back through the API with its actor. Returns the response and the entry.
   */
  async function oneEntry<R extends { statusCode: number; body: string }>(call: () => Promise<R>, expected: Expected): Promise<{ res: R; entry: Row }> {
    const known = new Set((await rowsOf()).map((r) => r.id));
    const t0 = Date.now();
    const res = await call();
    const t1 = Date.now();
    expect(res.statusCode, `${expected.action}: ${res.body.slice(0, 300)}`).toBeLessThan(300);
    const fresh = (await rowsOf()).filter((r) => !known.has(r.id));
    expect(fresh.map((r) => r.action), `${expected.action} writes one entry`).toEqual([expected.action]);
    const entry = fresh[0]!;
    expect(entry, expected.action).toMatchObject({ actor_id: expected.actorId, action: expected.action, entity: expected.entity, ip: expected.ip });
    if (expected.entityId !== undefined) expect(entry.entity_id, expected.action).toBe(expected.entityId);
    if (expected.before !== undefined) expect(entry.before_json === null ? null : JSON.parse(entry.before_json), `${expected.action} before`).toEqual(expected.before);
    if (expected.after !== undefined) expect(entry.after_json === null ? null : JSON.parse(entry.after_json), `${expected.action} after`).toEqual(expected.after);
    expect(Number(entry.at)).toBeGreaterThanOrEqual(t0);
    expect(Number(entry.at)).toBeLessThanOrEqual(t1);
    // The same entry through the API, with who did it.
    const listed = (await admin.request('GET', `/api/admin/audit?action=${expected.action}&limit=100`)).json().items as Json[];
    const item = listed.find((i) => i.id === entry.id);
    expect(item, `${expected.action} listed`).toBeDefined();
    expect(item).toMatchObject({ action: expected.action, entityType: expected.entity, entityId: entry.entity_id, ip: expected.ip, at: Number(entry.at) });
    expect((item!.actor as Json).id).toEqual(expected.actorId);
    return { res, entry };
  }

  /** A call that must write nothing (refused, repeated or changing nothing). */
  async function noEntry<R extends { statusCode: number; body: string }>(call: () => Promise<R>, status?: number): Promise<R> {
    const before = await count();
    const res = await call();
    if (status !== undefined) expect(res.statusCode, res.body).toBe(status);
    expect(await count(), `no entry for ${res.statusCode} ${res.body.slice(0, 120)}`).toBe(before);
    return res;
  }

  const v1 = (body: Json) => env.app.inject({ method: 'POST', url: '/api/v1/conversions', headers: { authorization: `Bearer ${apiSecret}`, 'content-type': 'application/json' }, payload: JSON.stringify(body) });

  async function promoter(ip = PROMOTER_IP) {
    const signed = await signedIn(env, 'promoter', { ip });
    clients.push(signed.client);
    return signed;
  }

  beforeAll(async () => {
    env = await makeEnv(dialect, { timeZone: ZONE });
    const a = await signedIn(env, 'admin', { ip: ADMIN_IP });
    admin = a.client;
    adminId = a.user.id;
    const o = await signedIn(env, 'operator', { ip: OPERATOR_IP });
    operator = o.client;
    operatorId = o.user.id;
    clients.push(admin, operator);
    apiSecret = (await admin.request('POST', '/api/admin/api-keys', { name: 'Shop', scopes: ['conversions:write'] })).json().secret;
  });
  afterAll(async () => {
    await env?.close();
  });

  describe('one entry per staff action', () => {
    it('staff sign-ins and sign-outs, with the session and the device; a promoter’s sign-in is not recorded', async () => {
      const staff = await createUser(env.ctx, 'operator');
      const client = new Client(env.app, { ip: '192.0.2.77' });
      const { entry } = await oneEntry(() => client.login(staff.account, staff.password), { actorId: staff.id, action: 'session.sign_in', entity: 'session', ip: '192.0.2.77' });
      const session = await env.ctx.db.selectFrom('sessions').select(['id', 'user_id']).where('id', '=', entry.entity_id!).executeTakeFirstOrThrow();
      expect(session.user_id).toBe(staff.id);
      expect(JSON.parse(entry.after_json!)).toEqual({ device: expect.any(String) });
      await oneEntry(() => client.request('POST', '/api/auth/logout'), { actorId: staff.id, action: 'session.sign_out', entity: 'session', entityId: session.id, ip: '192.0.2.77' });
      // A failed staff sign-in and a promoter's sign-in write nothing.
      await noEntry(() => new Client(env.app).login(staff.account, 'Wrong-passw0rd'), 401);
      const p = await createUser(env.ctx, 'promoter');
      await noEntry(() => new Client(env.app).login(p.account, p.password), 200);
    });

    it('settings, API keys and key rotation (admin)', async () => {
      const before = (await admin.request('GET', '/api/admin/settings')).json();
      const patch = { withdrawalsPerDay: 10, withdrawalMin: 1_000, leaderboardEnabled: !before.leaderboardEnabled };
      const { entry } = await oneEntry(() => admin.request('PATCH', '/api/admin/settings', patch), { actorId: adminId, action: 'settings.update', entity: 'settings', entityId: null, after: patch, ip: ADMIN_IP });
      expect(JSON.parse(entry.before_json!)).toMatchObject({ withdrawalsPerDay: before.withdrawalsPerDay, withdrawalMin: before.withdrawalMin, leaderboardEnabled: before.leaderboardEnabled });
      // Refused input writes nothing.
      await noEntry(() => admin.request('PATCH', '/api/admin/settings', { withdrawalMin: 9_000_000, withdrawalMax: 1 }), 400);
      await noEntry(() => operator.request('PATCH', '/api/admin/settings', { withdrawalsPerDay: 3 }), 403);

      const created = await oneEntry(() => admin.request('POST', '/api/admin/api-keys', { name: 'Audited', scopes: ['conversions:read'] }), { actorId: adminId, action: 'api_key.create', entity: 'api_key', ip: ADMIN_IP });
      const key = created.res.json();
      expect(created.entry.entity_id).toBe(key.id);
      expect(JSON.parse(created.entry.after_json!)).toEqual({ name: 'Audited', prefix: key.secret.slice(0, 10), scopes: ['conversions:read'], requireSignature: false });
      expect(created.entry.after_json).not.toContain(key.secret);
      await oneEntry(() => admin.request('POST', `/api/admin/api-keys/${key.id}/revoke`), { actorId: adminId, action: 'api_key.revoke', entity: 'api_key', entityId: key.id, before: { revokedAt: null }, after: { revokedAt: expect.any(Number) }, ip: ADMIN_IP });
      await noEntry(() => admin.request('POST', `/api/admin/api-keys/${key.id}/revoke`), 409);

      const hook = await oneEntry(() => admin.request('POST', '/api/admin/webhooks', { url: 'https://hooks.example.com/in', events: ['withdrawal.paid'] }), { actorId: adminId, action: 'webhook.create', entity: 'webhook', ip: ADMIN_IP });
      const endpoint = hook.res.json().endpoint;
      expect(JSON.parse(hook.entry.after_json!)).toEqual({ url: 'https://hooks.example.com/in', events: ['withdrawal.paid'], description: null });
      expect(hook.entry.after_json).not.toContain(hook.res.json().secret);
      await oneEntry(() => admin.request('POST', `/api/admin/webhooks/${endpoint.id}/test`), { actorId: adminId, action: 'webhook.test', entity: 'webhook', entityId: endpoint.id, ip: ADMIN_IP });
      await oneEntry(() => admin.request('PATCH', `/api/admin/webhooks/${endpoint.id}`, { events: ['withdrawal.paid', 'withdrawal.failed'] }), {
        actorId: adminId, action: 'webhook.update', entity: 'webhook', entityId: endpoint.id, ip: ADMIN_IP,
        before: { url: 'https://hooks.example.com/in', events: ['withdrawal.paid'], description: null, status: 'enabled' },
        after: { url: 'https://hooks.example.com/in', events: ['withdrawal.paid', 'withdrawal.failed'], description: null, status: 'enabled' },
      });
      const rotatedHook = await oneEntry(() => admin.request('POST', `/api/admin/webhooks/${endpoint.id}/rotate-secret`), { actorId: adminId, action: 'webhook.rotate_secret', entity: 'webhook', entityId: endpoint.id, ip: ADMIN_IP });
      expect(rotatedHook.entry.after_json).not.toContain(rotatedHook.res.json().secret);
      // The test delivery cannot reach hooks.example.com here; it fails at once without retries, then is retried by hand.
      await dispatchDue(env.ctx, { warn: () => {} }, { retryDelaysMs: [] });
      const delivery = (await admin.request('GET', `/api/admin/webhooks/${endpoint.id}/deliveries`)).json().items[0];
      await oneEntry(() => admin.request('POST', `/api/admin/webhooks/deliveries/${delivery.id}/retry`), { actorId: adminId, action: 'webhook.retry', entity: 'webhook', entityId: endpoint.id, before: { delivery: delivery.id, status: 'failed' }, after: { status: 'pending' }, ip: ADMIN_IP });
      await oneEntry(() => admin.request('DELETE', `/api/admin/webhooks/${endpoint.id}`), { actorId: adminId, action: 'webhook.delete', entity: 'webhook', entityId: endpoint.id, before: { url: 'https://hooks.example.com/in', events: ['withdrawal.paid', 'withdrawal.failed'] }, ip: ADMIN_IP });
      await noEntry(() => operator.request('POST', '/api/admin/webhooks', { url: 'https://hooks.example.com/in', events: ['withdrawal.paid'] }), 403);

      const rotated = await oneEntry(() => admin.request('POST', '/api/admin/keys/rotate'), { actorId: adminId, action: 'crypto.rotate_key', entity: 'rsa_key', ip: ADMIN_IP });
      expect(rotated.entry.entity_id).toBe(rotated.res.json().keyId);
      // Every client seals with the new key from now on.
      for (const c of clients) c.key = null;
    });

    it('registrations and accounts: approve, reject, suspend, reactivate (operators for promoters)', async () => {
      const pending1 = await createUser(env.ctx, 'promoter', 'Passw0rd-test', 'pending');
      const pending2 = await createUser(env.ctx, 'promoter', 'Passw0rd-test', 'pending');
      await oneEntry(() => operator.request('POST', `/api/admin/users/${pending1.id}/approve`), { actorId: operatorId, action: 'user.approve', entity: 'user', entityId: pending1.id, before: { status: 'pending' }, after: { status: 'active' }, ip: OPERATOR_IP });
      await oneEntry(() => operator.request('POST', `/api/admin/users/${pending2.id}/reject`), { actorId: operatorId, action: 'user.reject', entity: 'user', entityId: pending2.id, before: { status: 'pending' }, after: { status: 'rejected' }, ip: OPERATOR_IP });
      await oneEntry(() => operator.request('POST', `/api/admin/users/${pending1.id}/suspend`), { actorId: operatorId, action: 'user.suspend', entity: 'user', entityId: pending1.id, before: { status: 'active' }, after: { status: 'suspended' }, ip: OPERATOR_IP });
      await oneEntry(() => admin.request('POST', `/api/admin/users/${pending1.id}/reactivate`), { actorId: adminId, action: 'user.reactivate', entity: 'user', entityId: pending1.id, before: { status: 'suspended' }, after: { status: 'active' }, ip: ADMIN_IP });
      // A move from the wrong status, and an operator acting on staff, write nothing.
      await noEntry(() => operator.request('POST', `/api/admin/users/${pending1.id}/approve`), 409);
      await noEntry(() => operator.request('POST', `/api/admin/users/${adminId}/suspend`), 403);
    });

    it('promoter groups, moves between them and the application form (admin)', async () => {
      const created = await oneEntry(() => admin.request('POST', '/api/admin/groups', { name: 'Audited group', description: 'Tea shops' }), { actorId: adminId, action: 'group.create', entity: 'group', before: null, after: { name: 'Audited group', description: 'Tea shops' }, ip: ADMIN_IP });
      const group = created.res.json().group as { id: string; inviteCode: string };
      expect(created.entry.entity_id).toBe(group.id);
      await oneEntry(() => admin.request('PATCH', `/api/admin/groups/${group.id}`, { name: 'Audited group 2' }), { actorId: adminId, action: 'group.update', entity: 'group', entityId: group.id, before: { name: 'Audited group', description: 'Tea shops' }, after: { name: 'Audited group 2' }, ip: ADMIN_IP });
      // Nothing to change, a taken name and an operator write nothing.
      await noEntry(() => admin.request('PATCH', `/api/admin/groups/${group.id}`, { name: 'Audited group 2' }), 200);
      await noEntry(() => admin.request('POST', '/api/admin/groups', { name: 'AUDITED GROUP 2' }), 409);
      await noEntry(() => operator.request('POST', '/api/admin/groups', { name: 'By an operator' }), 403);
      const renewed = await oneEntry(() => admin.request('POST', `/api/admin/groups/${group.id}/invite-code`), { actorId: adminId, action: 'group.invite_code', entity: 'group', entityId: group.id, before: { inviteCode: group.inviteCode }, ip: ADMIN_IP });
      expect(JSON.parse(renewed.entry.after_json!)).toEqual({ inviteCode: renewed.res.json().group.inviteCode });
      const form = { questions: [{ kind: 'shortText', required: true, labels: { en: 'Your shop?' } }] };
      const saved = await oneEntry(() => admin.request('PUT', `/api/admin/groups/${group.id}/questions`, form), { actorId: adminId, action: 'application_form.update', entity: 'group', entityId: group.id, before: { questions: [] }, ip: ADMIN_IP });
      expect(JSON.parse(saved.entry.after_json!).questions).toMatchObject([{ kind: 'shortText', required: true, labels: { en: 'Your shop?' }, options: [] }]);
      const own = await oneEntry(() => admin.request('PUT', '/api/admin/application-form', form), { actorId: adminId, action: 'application_form.update', entity: 'settings', entityId: null, before: { questions: [] }, ip: ADMIN_IP });
      // The same form again (its ids kept) changes nothing.
      await noEntry(() => admin.request('PUT', '/api/admin/application-form', { questions: own.res.json().questions }), 200);
      const p = await createUser(env.ctx, 'promoter');
      await oneEntry(() => admin.request('PATCH', `/api/admin/promoters/${p.id}`, { groupId: group.id }), { actorId: adminId, action: 'promoter.group', entity: 'user', entityId: p.id, before: { groupId: 'default' }, after: { groupId: group.id }, ip: ADMIN_IP });
      await noEntry(() => admin.request('POST', '/api/admin/promoters/group', { promoterIds: [p.id], groupId: group.id }), 200);
      await noEntry(() => operator.request('PATCH', `/api/admin/promoters/${p.id}`, { groupId: 'default' }), 403);
      await noEntry(() => admin.request('DELETE', '/api/admin/groups/default'), 409);
      await oneEntry(() => admin.request('DELETE', `/api/admin/groups/${group.id}`), { actorId: adminId, action: 'group.delete', entity: 'group', entityId: group.id, before: { name: 'Audited group 2', description: 'Tea shops' }, after: { movedPromoters: 1 }, ip: ADMIN_IP });
      await admin.request('PUT', '/api/admin/application-form', { questions: [] });
    });

    it('campaigns: create, edit, each status move, images (admin)', async () => {
      const created = await oneEntry(() => admin.request('POST', '/api/admin/campaigns', campaignBody({ names: { en: 'Audited campaign' } })), { actorId: adminId, action: 'campaign.create', entity: 'campaign', ip: ADMIN_IP });
      const id = created.res.json().campaign.id as string;
      expect(created.entry.entity_id).toBe(id);
      expect(JSON.parse(created.entry.after_json!)).toMatchObject({ leadReward: 200, saleReward: 1000 });
      const stripe = await oneEntry(() => admin.request('PUT', `/api/admin/integrations/stripe/${id}`, { signingSecret: 'whsec_auditedSecret123' }), { actorId: adminId, action: 'integration.stripe_secret', entity: 'campaign', entityId: id, after: { stripe: 'set' }, ip: ADMIN_IP });
      expect(JSON.stringify(stripe.entry)).not.toContain('auditedSecret123');
      await noEntry(() => operator.request('PUT', `/api/admin/integrations/stripe/${id}`, { signingSecret: 'whsec_auditedSecret123' }), 403);
      const updated = await oneEntry(() => admin.request('PATCH', `/api/admin/campaigns/${id}`, { leadReward: 300 }), { actorId: adminId, action: 'campaign.update', entity: 'campaign', entityId: id, after: { leadReward: 300 }, ip: ADMIN_IP });
      expect(JSON.parse(updated.entry.before_json!)).toMatchObject({ status: 'draft', leadReward: 200 });
      await oneEntry(() => admin.request('PATCH', `/api/admin/campaigns/${id}`, { status: 'active' }), { actorId: adminId, action: 'campaign.activate', entity: 'campaign', entityId: id, before: { status: 'draft' }, after: { status: 'active' }, ip: ADMIN_IP });
      await oneEntry(() => admin.request('PATCH', `/api/admin/campaigns/${id}`, { status: 'paused' }), { actorId: adminId, action: 'campaign.pause', entity: 'campaign', entityId: id, before: { status: 'active' }, after: { status: 'paused' }, ip: ADMIN_IP });
      const image = await oneEntry(() => admin.upload(`/api/admin/campaigns/${id}/images?kind=poster`, makePng(300, 400), 'image/png'), { actorId: adminId, action: 'campaign.image_add', entity: 'campaign', entityId: id, ip: ADMIN_IP });
      const imageId = image.res.json().id as string;
      expect(JSON.parse(image.entry.after_json!)).toMatchObject({ imageId, kind: 'poster', width: 300, height: 400 });
      await oneEntry(() => admin.request('DELETE', `/api/admin/campaigns/${id}/images/${imageId}`), { actorId: adminId, action: 'campaign.image_remove', entity: 'campaign', entityId: id, before: { imageId }, after: null, ip: ADMIN_IP });
      const rules = [{ id: 'sale', event: 'sale', groupIds: [], conditions: [], reward: { type: 'percent', bps: 1200 }, label: null, capPerPromoterPerMonth: null }];
      await oneEntry(() => admin.request('PUT', `/api/admin/campaigns/${id}/rewards`, { rules }), { actorId: adminId, action: 'campaign.rewards', entity: 'campaign', entityId: id, after: { rules, budgetPerMonth: null }, ip: ADMIN_IP });
      await noEntry(() => operator.request('PUT', `/api/admin/campaigns/${id}/rewards`, { rules }), 403);
      await oneEntry(() => admin.request('PATCH', `/api/admin/campaigns/${id}`, { status: 'ended' }), { actorId: adminId, action: 'campaign.end', entity: 'campaign', entityId: id, before: { status: 'paused' }, after: { status: 'ended' }, ip: ADMIN_IP });
      await noEntry(() => admin.request('PATCH', `/api/admin/campaigns/${id}`, { status: 'active' }), 409);
      await noEntry(() => operator.request('PATCH', `/api/admin/campaigns/${id}`, { leadReward: 1 }), 403);
      // The log names the campaign in the reader's language; an entry without an id has no name.
      const entries = (await admin.request('GET', `/api/admin/audit?entityType=campaign&entityId=${id}`)).json().items as Json[];
      expect(entries.length).toBeGreaterThan(5);
      expect(new Set(entries.map((e) => e.entityName))).toEqual(new Set(['Audited campaign']));
    });

    it('enrollments: approve, reject, coupon (operators)', async () => {
      const c = (await admin.request('POST', '/api/admin/campaigns', campaignBody({ names: { en: 'By approval' }, joinMode: 'approval' }))).json().campaign;
      await admin.request('PATCH', `/api/admin/campaigns/${c.id}`, { status: 'active' });
      const a = await promoter();
      const b = await promoter();
      const ea = (await a.client.request('POST', `/api/campaigns/${c.id}/join`)).json().enrollment;
      const eb = (await b.client.request('POST', `/api/campaigns/${c.id}/join`)).json().enrollment;
      expect([ea.status, eb.status]).toEqual(['pending', 'pending']);
      await oneEntry(() => operator.request('POST', `/api/admin/enrollments/${ea.id}/approve`), { actorId: operatorId, action: 'enrollment.approve', entity: 'enrollment', entityId: ea.id, before: { status: 'pending' }, after: { status: 'approved' }, ip: OPERATOR_IP });
      await oneEntry(() => operator.request('POST', `/api/admin/enrollments/${eb.id}/reject`), { actorId: operatorId, action: 'enrollment.reject', entity: 'enrollment', entityId: eb.id, before: { status: 'pending' }, after: { status: 'rejected' }, ip: OPERATOR_IP });
      await noEntry(() => operator.request('POST', `/api/admin/enrollments/${eb.id}/approve`), 409);
      const code = `AUD${(seq++).toString().padStart(3, '0')}`;
      await oneEntry(() => operator.request('PATCH', `/api/admin/enrollments/${ea.id}`, { couponCode: code }), { actorId: operatorId, action: 'enrollment.coupon', entity: 'enrollment', entityId: ea.id, before: { couponCode: null }, after: { couponCode: code }, ip: OPERATOR_IP });
    });

    it('commissions: approve, reject with its reason, bulk (one entry per commission changed)', async () => {
      const c = (await admin.request('POST', '/api/admin/campaigns', campaignBody({ names: { en: 'Sales' }, holdDays: 30 }))).json().campaign;
      await admin.request('PATCH', `/api/admin/campaigns/${c.id}`, { status: 'active' });
      const p = await promoter();
      await p.client.request('POST', `/api/campaigns/${c.id}/join`);
      const link = ((await p.client.request('GET', '/api/links')).json().items as { code: string; campaignId: string }[]).find((l) => l.campaignId === c.id)!;
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await noEntry(() => v1({ campaignId: c.id, kind: 'sale', externalId: `audit-${dialect}-${i}`, amount: 10_000, linkCode: link.code }), 201);
        ids.push((res.json().commissions as { id: string; status: string }[])[0]!.id);
      }
      await oneEntry(() => operator.request('POST', `/api/admin/commissions/${ids[0]}/approve`), { actorId: operatorId, action: 'commission.approve', entity: 'commission', entityId: ids[0], before: { status: 'pending' }, after: { status: 'approved', reason: null }, ip: OPERATOR_IP });
      await oneEntry(() => operator.request('POST', `/api/admin/commissions/${ids[1]}/reject`, { reason: 'Order cancelled' }), { actorId: operatorId, action: 'commission.reject', entity: 'commission', entityId: ids[1], before: { status: 'pending' }, after: { status: 'rejected', reason: 'Order cancelled' }, ip: OPERATOR_IP });
      await noEntry(() => operator.request('POST', `/api/admin/commissions/${ids[0]}/approve`), 409);
      await noEntry(() => operator.request('POST', `/api/admin/commissions/${ids[2]}/reject`, {}), 400);
      // Bulk: one entry for each commission it changed, none for the one it skipped.
      const known = new Set((await rowsOf()).map((r) => r.id));
      const bulk = await operator.request('POST', '/api/admin/commissions/bulk', { ids: [ids[2], ids[3], ids[0]], action: 'approve' });
      expect(bulk.json()).toEqual({ changed: [ids[2], ids[3]], skipped: [ids[0]] });
      const fresh = (await rowsOf()).filter((r) => !known.has(r.id));
      expect(fresh.map((r) => [r.action, r.entity_id, r.actor_id, r.ip])).toEqual([
        ['commission.approve', ids[2], operatorId, OPERATOR_IP],
        ['commission.approve', ids[3], operatorId, OPERATOR_IP],
      ]);
    });

    it('bounties: made and changed (admin), proof approved and rejected (operators)', async () => {
      const c = (await admin.request('POST', '/api/admin/campaigns', campaignBody({ names: { en: 'Bounties' }, holdDays: 30 }))).json().campaign;
      await admin.request('PATCH', `/api/admin/campaigns/${c.id}`, { status: 'active' });
      const created = await oneEntry(() => admin.request('POST', `/api/admin/campaigns/${c.id}/bounties`, { kind: 'submission', names: { en: 'Post a review' }, reward: 2_000 }), { actorId: adminId, action: 'bounty.create', entity: 'bounty', ip: ADMIN_IP });
      const bountyId = created.res.json().bounty.id as string;
      expect(JSON.parse(created.entry.after_json!)).toMatchObject({ id: bountyId, campaignId: c.id, kind: 'submission', reward: 2_000 });
      await noEntry(() => operator.request('POST', `/api/admin/campaigns/${c.id}/bounties`, { kind: 'submission', names: { en: 'x' }, reward: 1 }), 403);
      const updated = await oneEntry(() => admin.request('PATCH', `/api/admin/bounties/${bountyId}`, { reward: 2_500 }), { actorId: adminId, action: 'bounty.update', entity: 'bounty', entityId: bountyId, ip: ADMIN_IP });
      expect([JSON.parse(updated.entry.before_json!).reward, JSON.parse(updated.entry.after_json!).reward]).toEqual([2_000, 2_500]);
      const p = await promoter();
      const q = await promoter();
      for (const x of [p, q]) await x.client.request('POST', `/api/campaigns/${c.id}/join`);
      const sp = (await noEntry(() => p.client.request('POST', `/api/bounties/${bountyId}/submissions`, { text: 'Done' }), 201)).json().submission.id as string;
      const sq = (await noEntry(() => q.client.request('POST', `/api/bounties/${bountyId}/submissions`, { text: 'Done too' }), 201)).json().submission.id as string;
      const approved = await oneEntry(() => operator.request('POST', `/api/admin/bounty-submissions/${sp}/approve`), { actorId: operatorId, action: 'bounty_submission.approve', entity: 'bounty_submission', entityId: sp, before: { status: 'pending' }, ip: OPERATOR_IP });
      expect(JSON.parse(approved.entry.after_json!)).toMatchObject({ status: 'approved', amount: 2_500 });
      await noEntry(() => operator.request('POST', `/api/admin/bounty-submissions/${sp}/approve`), 409);
      await oneEntry(() => operator.request('POST', `/api/admin/bounty-submissions/${sq}/reject`, { reason: 'No link' }), { actorId: operatorId, action: 'bounty_submission.reject', entity: 'bounty_submission', entityId: sq, before: { status: 'pending' }, after: { status: 'rejected', reason: 'No link' }, ip: OPERATOR_IP });
    });

    it('rewards and corrections: the rules, a conversion assigned, a commission reversed, a binding moved and ended — each with its reason', async () => {
      const c = (await admin.request('POST', '/api/admin/campaigns', campaignBody({ names: { en: 'Corrections' }, holdDays: 30, customerBinding: 12 }))).json().campaign;
      await admin.request('PATCH', `/api/admin/campaigns/${c.id}`, { status: 'active' });
      const rules = [{ id: 'lead', event: 'lead', groupIds: [], conditions: [], reward: { type: 'fixed', amount: 200 }, label: null, capPerPromoterPerMonth: null }, { id: 'sale', event: 'sale', groupIds: [], conditions: [], reward: { type: 'percent', bps: 1200 }, label: null, capPerPromoterPerMonth: null }];
      const put = await oneEntry(() => admin.request('PUT', `/api/admin/campaigns/${c.id}/rewards`, { rules }), { actorId: adminId, action: 'campaign.rewards', entity: 'campaign', entityId: c.id, after: { rules, budgetPerMonth: null }, ip: ADMIN_IP });
      expect(JSON.parse(put.entry.before_json!).rules.map((r: Json) => r.id)).toEqual(['lead', 'sale']);
      await noEntry(() => operator.request('PUT', `/api/admin/campaigns/${c.id}/rewards`, { rules }), 403);
      const p = await promoter();
      const q = await promoter();
      for (const x of [p, q]) await x.client.request('POST', `/api/campaigns/${c.id}/join`);
      const link = ((await p.client.request('GET', '/api/links')).json().items as { code: string; campaignId: string }[]).find((l) => l.campaignId === c.id)!;
      const lone = (await noEntry(() => v1({ campaignId: c.id, kind: 'sale', externalId: `audit-fix-${dialect}`, amount: 10_000 }), 201)).json().conversion;
      const assigned = await oneEntry(() => operator.request('POST', `/api/admin/conversions/${lone.id}/assign`, { promoterId: p.user.id, reason: 'Phone order' }), { actorId: operatorId, action: 'conversion.assign', entity: 'conversion', entityId: lone.id, before: { promoterId: null, status: 'unattributed', reason: 'no_match', attributedBy: null }, ip: OPERATOR_IP });
      const made = assigned.res.json().commissions[0].id as string;
      expect(JSON.parse(assigned.entry.after_json!)).toEqual({ promoterId: p.user.id, status: 'attributed', reason: 'Phone order', reversed: [], commissions: [{ id: made, level: 1, amount: 1_200 }] });
      await noEntry(() => operator.request('POST', `/api/admin/conversions/${lone.id}/assign`, { promoterId: p.user.id, reason: 'Again' }), 409);
      await oneEntry(() => admin.request('POST', `/api/admin/commissions/${made}/reverse`, { reason: 'Returned unopened' }), { actorId: adminId, action: 'commission.reverse', entity: 'commission', entityId: made, before: { status: 'pending', amount: 1_200, reversedAmount: 0 }, after: { status: 'reversed', reversed: 1_200, reason: 'Returned unopened' }, ip: ADMIN_IP });
      await noEntry(() => admin.request('POST', `/api/admin/commissions/${made}/reverse`, { reason: 'Twice' }), 409);
      await noEntry(() => v1({ campaignId: c.id, kind: 'sale', externalId: `audit-bind-${dialect}`, amount: 10_000, linkCode: link.code, customerExternalId: `cust-${dialect}` }), 201);
      const binding = ((await operator.request('GET', `/api/admin/bindings?customer=cust-${dialect}`)).json().items as { id: string }[])[0]!;
      const moved = await oneEntry(() => operator.request('POST', `/api/admin/bindings/${binding.id}/move`, { promoterId: q.user.id, reason: 'Customer’s request' }), { actorId: operatorId, action: 'binding.move', entity: 'binding', entityId: binding.id, ip: OPERATOR_IP });
      const next = moved.res.json().binding;
      expect(JSON.parse(moved.entry.before_json!)).toMatchObject({ promoterId: p.user.id, customer: `cust-${dialect}`, campaignId: c.id, months: 12, endedAt: null });
      expect(JSON.parse(moved.entry.after_json!)).toEqual({ id: next.id, promoterId: q.user.id, startedAt: next.startedAt, months: 12, reason: 'Customer’s request' });
      await oneEntry(() => operator.request('POST', `/api/admin/bindings/${next.id}/end`, { reason: 'Subscription ended' }), { actorId: operatorId, action: 'binding.end', entity: 'binding', entityId: next.id, after: { endedAt: expect.any(Number), reason: 'Subscription ended' }, ip: OPERATOR_IP });
      await noEntry(() => operator.request('POST', `/api/admin/bindings/${next.id}/end`, { reason: 'Twice' }), 409);
    });

    it('promoters: an adjustment (once per key), a password link, its use, the export', async () => {
      const p = await promoter();
      const key = `audit-adj-${seq++}`;
      const adjust = () => admin.request('POST', `/api/admin/promoters/${p.user.id}/adjustments`, { amount: 50_000, reason: 'Launch bonus' }, { headers: { 'idempotency-key': key } });
      const { res } = await oneEntry(adjust, { actorId: adminId, action: 'promoter.adjust', entity: 'user', entityId: p.user.id, before: { available: 0 }, ip: ADMIN_IP });
      const adjustment = res.json().adjustment;
      const entry = (await rowsOf()).find((r) => r.action === 'promoter.adjust' && r.entity_id === p.user.id)!;
      expect(JSON.parse(entry.after_json!)).toEqual({ available: 50_000, adjustmentId: adjustment.id, amount: 50_000, reason: 'Launch bonus', allowNegative: false });
      await noEntry(adjust, 200); // the same key again: replayed, nothing new

      const link = await oneEntry(() => operator.request('POST', `/api/admin/promoters/${p.user.id}/password-reset`), { actorId: operatorId, action: 'user.password_reset_link', entity: 'user', entityId: p.user.id, ip: OPERATOR_IP });
      const { url, expiresAt } = link.res.json();
      expect(JSON.parse(link.entry.after_json!)).toEqual({ expiresAt });
      expect(link.entry.after_json).not.toContain(new URL(url.replace('/#/', '/')).searchParams.get('token'));
      const token = decodeURIComponent(new URL(url.replace('/#/', '/')).searchParams.get('token')!);
      const visitor = new Client(env.app, { ip: '203.0.113.99' });
      await oneEntry(async () => visitor.request('POST', '/api/auth/reset-password', { token, password: await visitor.seal('Brand-new-passw0rd') }), { actorId: p.user.id, action: 'user.password_reset', entity: 'user', entityId: p.user.id, ip: '203.0.113.99' });
      p.user.password = 'Brand-new-passw0rd';
      await p.client.login(p.user.account, p.user.password);

      const exported = await oneEntry(() => operator.request('GET', `/api/admin/promoters/export?q=${encodeURIComponent(p.user.account)}`), { actorId: operatorId, action: 'promoter.export', entity: 'promoter', entityId: null, ip: OPERATOR_IP });
      expect(JSON.parse(exported.entry.after_json!)).toEqual({ filters: expect.objectContaining({ q: p.user.account }), count: 1 });

      // The withdrawals below are this promoter's.
      funded = p;
    });

    let funded: Awaited<ReturnType<typeof promoter>>;

    it('payout accounts and withdrawals: requested, approved, exported, paid, failed, rejected, cancelled', async () => {
      const p = funded;
      const account = await oneEntry(async () => p.client.request('POST', '/api/payout-accounts', { method: 'bank', holderName: 'Li Lei', accountNumber: await p.client.seal(BANK) }), { actorId: p.user.id, action: 'payout_account.add', entity: 'payout_account', after: { method: 'bank', last4: '7890', isDefault: true }, ip: PROMOTER_IP });
      expect(account.entry.after_json).not.toContain('62220212');
      const withdraw = (amount: number) => oneEntry(() => p.client.request('POST', '/api/withdrawals', { amount }, { headers: { 'idempotency-key': `w-${seq++}` } }), { actorId: p.user.id, action: 'withdrawal.requested', entity: 'withdrawal', ip: PROMOTER_IP });
      const w1 = (await withdraw(2_000)).res.json().withdrawal.id as string;
      const w2 = (await withdraw(3_000)).res.json().withdrawal.id as string;
      const w3 = (await withdraw(4_000)).res.json().withdrawal.id as string;
      const w4 = (await withdraw(5_000)).res.json().withdrawal.id as string;
      const step = (client: Client, actorId: string, ip: string, id: string, action: string, status: string, from: string, body?: Json, extra: Json = {}) =>
        oneEntry(() => client.request('POST', `/api/admin/withdrawals/${id}/${action}`, body), { actorId, action: `withdrawal.${status}`, entity: 'withdrawal', entityId: id, before: { status: from }, after: { status, amount: expect.any(Number), ...extra }, ip });
      await step(operator, operatorId, OPERATOR_IP, w1, 'approve', 'approved', 'requested');
      await step(admin, adminId, ADMIN_IP, w2, 'approve', 'approved', 'requested');
      const exported = await oneEntry(() => operator.request('GET', '/api/admin/withdrawals/export.csv'), { actorId: operatorId, action: 'withdrawal.export', entity: 'withdrawal', entityId: null, ip: OPERATOR_IP });
      const after = JSON.parse(exported.entry.after_json!);
      expect({ ...after, ids: [...after.ids].sort() }).toEqual({ status: 'approved', count: 2, ids: [w1, w2].sort() });
      await step(operator, operatorId, OPERATOR_IP, w1, 'pay', 'paid', 'approved', { reference: 'BANK-0001' }, { reference: 'BANK-0001' });
      await step(operator, operatorId, OPERATOR_IP, w2, 'fail', 'failed', 'approved', { reason: 'Account closed' }, { reason: 'Account closed' });
      await step(operator, operatorId, OPERATOR_IP, w3, 'reject', 'rejected', 'requested', { reason: 'Suspicious' }, { reason: 'Suspicious' });
      await noEntry(() => operator.request('POST', `/api/admin/withdrawals/${w3}/approve`), 409);
      await noEntry(() => operator.request('POST', `/api/admin/withdrawals/${w4}/pay`, { reference: 'X' }), 409);
      await oneEntry(() => p.client.request('POST', `/api/withdrawals/${w4}/cancel`), { actorId: p.user.id, action: 'withdrawal.cancelled', entity: 'withdrawal', entityId: w4, before: { status: 'requested' }, after: { status: 'cancelled', amount: 5_000 }, ip: PROMOTER_IP });
      const second = (await p.client.request('POST', '/api/payout-accounts', { method: 'bank', holderName: 'Li Lei', accountNumber: await p.client.seal('6222 0298 7654 3210') })).json().payoutAccount;
      await oneEntry(() => p.client.request('DELETE', `/api/payout-accounts/${second.id}`), { actorId: p.user.id, action: 'payout_account.delete', entity: 'payout_account', entityId: second.id, before: { method: 'bank', last4: '3210' }, ip: PROMOTER_IP });
    });

    it('announcements: create, edit, publish, archive, delete a draft (operators)', async () => {
      const created = await oneEntry(() => operator.request('POST', '/api/admin/announcements', { texts: { en: { title: 'Payout day', body: 'Payouts go out on Friday.' } } }), { actorId: operatorId, action: 'announcement.create', entity: 'announcement', before: null, ip: OPERATOR_IP });
      const id = created.res.json().announcement.id as string;
      expect(JSON.parse(created.entry.after_json!)).toMatchObject({ status: 'draft', pinned: false });
      const edit = await oneEntry(() => operator.request('PATCH', `/api/admin/announcements/${id}`, { pinned: true }), { actorId: operatorId, action: 'announcement.update', entity: 'announcement', entityId: id, ip: OPERATOR_IP });
      expect([JSON.parse(edit.entry.before_json!).pinned, JSON.parse(edit.entry.after_json!).pinned]).toEqual([false, true]);
      await noEntry(() => operator.request('PATCH', `/api/admin/announcements/${id}`, { pinned: true }), 200);
      await oneEntry(() => operator.request('PATCH', `/api/admin/announcements/${id}`, { status: 'published' }), { actorId: operatorId, action: 'announcement.publish', entity: 'announcement', entityId: id, ip: OPERATOR_IP });
      await oneEntry(() => admin.request('PATCH', `/api/admin/announcements/${id}`, { status: 'archived' }), { actorId: adminId, action: 'announcement.archive', entity: 'announcement', entityId: id, ip: ADMIN_IP });
      await noEntry(() => operator.request('DELETE', `/api/admin/announcements/${id}`), 409);
      const draft = (await operator.request('POST', '/api/admin/announcements', { texts: { fr: { title: 'Brouillon', body: 'À relire.' } } })).json().announcement.id as string;
      await oneEntry(() => operator.request('DELETE', `/api/admin/announcements/${draft}`), { actorId: operatorId, action: 'announcement.delete', entity: 'announcement', entityId: draft, after: null, ip: OPERATOR_IP });
    });

    it('staff: create, a new invite link, a role change (admin)', async () => {
      const account = uniqueAccount('audited-staff');
      const created = await oneEntry(() => admin.request('POST', '/api/admin/staff', { account, displayName: 'Audited Staff', role: 'operator' }), { actorId: adminId, action: 'staff.create', entity: 'user', before: null, after: { account, displayName: 'Audited Staff', role: 'operator', status: 'active' }, ip: ADMIN_IP });
      const id = created.res.json().user.id as string;
      expect(created.entry.entity_id).toBe(id);
      expect(created.entry.after_json).not.toContain(new URL(created.res.json().inviteUrl.replace('/#/', '/')).searchParams.get('token'));
      const invite = await oneEntry(() => admin.request('POST', `/api/admin/staff/${id}/invite`), { actorId: adminId, action: 'staff.invite', entity: 'user', entityId: id, ip: ADMIN_IP });
      expect(JSON.parse(invite.entry.after_json!)).toEqual({ expiresAt: invite.res.json().expiresAt });
      await oneEntry(() => admin.request('PATCH', `/api/admin/staff/${id}`, { role: 'admin' }), { actorId: adminId, action: 'staff.update', entity: 'user', entityId: id, before: { role: 'operator', status: 'active' }, after: { role: 'admin', status: 'active' }, ip: ADMIN_IP });
      await noEntry(() => admin.request('PATCH', `/api/admin/staff/${id}`, { role: 'admin' }), 200);
      await noEntry(() => admin.request('POST', '/api/admin/staff', { account, displayName: 'Again', role: 'operator' }), 409);
      // The log names the person (as they are called now), beside the id.
      const entries = (await admin.request('GET', `/api/admin/audit?entityType=user&entityId=${id}`)).json().items as Json[];
      expect(entries.map((e) => e.entityName)).toEqual(['Audited Staff', 'Audited Staff', 'Audited Staff']);
    });

    it('a promoter’s own account: registration, profile, password, signing devices out', async () => {
      const visitor = new Client(env.app, { ip: '203.0.113.55' });
      clients.push(visitor);
      const account = uniqueAccount('self');
      const registered = await oneEntry(() => visitor.register({ account, password: 'Self-passw0rd' }), { actorId: expect.any(String), action: 'user.register', entity: 'user', before: null, after: { status: 'active', parentId: null }, ip: '203.0.113.55' });
      const userId = registered.res.json().user.id as string;
      expect([registered.entry.actor_id, registered.entry.entity_id]).toEqual([userId, userId]);
      const profile = await oneEntry(() => visitor.request('PATCH', '/api/me', { displayName: 'Renamed' }), { actorId: userId, action: 'user.profile_update', entity: 'user', entityId: userId, after: { displayName: 'Renamed' }, ip: '203.0.113.55' });
      expect(JSON.parse(profile.entry.before_json!)).toMatchObject({ displayName: 'Test Person' });
      await oneEntry(async () => visitor.request('POST', '/api/me/password', { current: await visitor.seal('Self-passw0rd'), next: await visitor.seal('Self-passw0rd-2') }), { actorId: userId, action: 'user.password_change', entity: 'user', entityId: userId, ip: '203.0.113.55' });
      const phone = new Client(env.app, { ip: '203.0.113.56' });
      expect((await phone.login(account, 'Self-passw0rd-2')).statusCode).toBe(200);
      const other = ((await visitor.request('GET', '/api/me/sessions')).json().items as { id: string; current: boolean }[]).find((s) => !s.current)!;
      await oneEntry(() => visitor.request('DELETE', `/api/me/sessions/${other.id}`), { actorId: userId, action: 'session.revoke', entity: 'session', entityId: other.id, ip: '203.0.113.55' });
      await oneEntry(() => visitor.request('POST', '/api/auth/logout-all'), { actorId: userId, action: 'session.revoke_all', entity: 'user', entityId: userId, after: { revoked: 1 }, ip: '203.0.113.55' });
    });

    it('a phone account adds an e-mail address: the request and the verification (issue 28)', async () => {
      // This suite runs without SMTP: a mailer that only writes to the outbox (nothing sends it).
      const original = env.ctx.mail;
      env.ctx.mail = new Mailer({ smtpUrl: 'smtp://127.0.0.1:9', from: 'Test <test@example.com>', publicUrl: 'https://promo.example.com/', appName: null }, env.ctx.master);
      try {
        const visitor = new Client(env.app, { ip: '203.0.113.57' });
        clients.push(visitor);
        const phone = `+8616${String(Date.now() % 1_000_000_000).padStart(9, '0')}`;
        const userId = (await visitor.register({ account: phone, password: 'Self-passw0rd' })).json().user.id as string;
        const email = `${uniqueAccount('verified')}`;
        await oneEntry(() => visitor.request('POST', '/api/me/email', { email }), { actorId: userId, action: 'user.email_requested', entity: 'user', entityId: userId, before: null, after: { email }, ip: '203.0.113.57' });
        const sealed = await env.ctx.db.selectFrom('mail_messages').select('body_sealed').where('recipient', '=', email).executeTakeFirstOrThrow();
        const token = decodeURIComponent(/verify-email\?token=([A-Za-z0-9_%-]+)/.exec(env.ctx.mail.open(sealed.body_sealed).text)![1]!);
        await oneEntry(() => new Client(env.app, { ip: '203.0.113.58' }).request('POST', '/api/auth/verify-email', { token }), { actorId: userId, action: 'user.email_verified', entity: 'user', entityId: userId, before: null, after: { email }, ip: '203.0.113.58' });
      } finally {
        env.ctx.mail = original;
      }
    });

    it('the audit log’s own export is recorded with its filters and row count', async () => {
      const expectedRows = (await env.ctx.db.selectFrom('audit_entries').select('id').where('action', 'like', 'withdrawal.%').execute()).length;
      const { entry } = await oneEntry(() => admin.request('GET', '/api/admin/audit/export?action=withdrawal.'), { actorId: adminId, action: 'audit.export', entity: 'audit', entityId: null, before: null, ip: ADMIN_IP });
      expect(JSON.parse(entry.after_json!)).toEqual({ filters: { action: 'withdrawal.' }, count: expectedRows });
    });

    it('every action of AUDIT_ACTIONS was written above (and nothing else)', async () => {
      // campaign.end by the scheduler (no actor) is in campaign-schedule.test.ts; by hand it is above.
      const written = new Set((await rowsOf()).map((r) => r.action));
      expect([...written].sort()).toEqual([...AUDIT_ACTIONS].sort());
    });
  });

  describe('the log: admins only, filters, pages, bad input, export', () => {
    // Entries of 2020 in the installation's zone, written by the one writer with chosen times.
    const T = Date.parse('2020-03-01T15:59:59.000Z'); // 23:59:59 on 1 March in Shanghai
    let promoterId: string;
    let planted: { id: string; at: number; actor: string | null; action: string; entity: string; entityId: string }[] = [];

    beforeAll(async () => {
      promoterId = (await createUser(env.ctx, 'promoter')).id;
      const plan: [number, string | null, string, string, string][] = [];
      // 1 March: 3 entries (two at the same instant); 2 March (from 16:00 UTC on 1 March): 40; 3 March: 2.
      plan.push([T - 1000, adminId, 'withdrawal.paid', 'withdrawal', 'w-1'], [T, adminId, 'withdrawal.approved', 'withdrawal', 'w-1'], [T, operatorId, 'user.approve', 'user', promoterId]);
      for (let i = 0; i < 40; i++) plan.push([T + 1000 + Math.floor(i / 3) * 1000, i % 4 === 0 ? null : i % 2 ? operatorId : adminId, i % 5 === 0 ? 'campaign.end' : i % 2 ? 'withdrawal.paid' : 'user.suspend', i % 5 === 0 ? 'campaign' : i % 2 ? 'withdrawal' : 'user', `e-${i % 7}`]);
      plan.push([Date.parse('2020-03-03T04:00:00Z'), adminId, 'settings.update', 'settings', 's'], [Date.parse('2020-03-03T15:59:59.999Z'), adminId, 'settings.update', 'settings', 's']);
      for (const [at, actor, action, entity, entityId] of plan) {
        await audit(env.ctx.db, { actorId: actor, action: action as never, entity, entityId, before: { n: 1 }, after: { n: 2, note: 'a "quoted", text' }, ip: actor ? '192.0.2.1' : null }, at);
      }
      const rows = await env.ctx.db.selectFrom('audit_entries').select(['id', 'at', 'actor_id', 'action', 'entity', 'entity_id']).where('at', '<', Date.parse('2021-01-01')).orderBy('at', 'desc').orderBy('id', 'desc').execute();
      planted = rows.map((r) => ({ id: r.id, at: Number(r.at), actor: r.actor_id, action: r.action, entity: r.entity, entityId: r.entity_id! }));
      expect(planted).toHaveLength(45);
    });

    const ids = (items: Json[]) => items.map((i) => i.id);
    const list = async (query: string) => {
      const res = await admin.request('GET', `/api/admin/audit?${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { items: Json[]; nextCursor: string | null };
    };
    const all = async (query: string, limit: number) => {
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page: { items: Json[]; nextCursor: string | null } = await list(`${query}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
        expect(page.items.length).toBeLessThanOrEqual(limit);
        seen.push(...(ids(page.items) as string[]));
        cursor = page.nextCursor;
        pages++;
      } while (cursor && pages < 100);
      return { seen, pages };
    };
    const days = 'from=2020-03-01&to=2020-03-03';

    it('is for admins: operators, promoters and strangers are refused and shown nothing', async () => {
      const p = (await signedIn(env, 'promoter')).client;
      for (const url of ['/api/admin/audit', '/api/admin/audit/export']) {
        for (const [client, status] of [[operator, 403], [p, 403], [new Client(env.app), 401]] as const) {
          const res = await noEntry(() => client.request('GET', url));
          expect(res.statusCode).toBe(status);
          expect(Object.keys(res.json())).toEqual(['error']);
        }
      }
    });

    it('pages newest first with cursors that neither skip nor repeat, ties included', async () => {
      for (const limit of [1, 7, 45, 100]) {
        const { seen, pages } = await all(days, limit);
        expect(seen, `limit ${limit}`).toEqual(planted.map((p) => p.id));
        expect(pages).toBe(Math.max(1, Math.ceil(45 / limit)));
      }
      const first = await list(`${days}&limit=3`);
      expect(first.items[0]).toMatchObject({ action: 'settings.update', before: { n: 1 }, after: { n: 2, note: 'a "quoted", text' }, ip: '192.0.2.1', actor: { id: adminId, role: 'admin', account: expect.any(String), displayName: expect.any(String) } });
      const system = (await list(`${days}&actor=system&limit=1`)).items[0]!;
      expect(system).toMatchObject({ actor: null, ip: null });
    });

    it('filters by actor (or the system), action (or an area), entity type and id, and calendar days in the installation’s zone', async () => {
      const expectIds = async (query: string, keep: (p: (typeof planted)[number]) => boolean) => {
        const { seen } = await all(`${days}&${query}`, 8);
        const want = planted.filter(keep).map((p) => p.id);
        expect(want.length, query).toBeGreaterThan(0);
        expect(seen, query).toEqual(want);
      };
      await expectIds(`actor=${operatorId}`, (p) => p.actor === operatorId);
      await expectIds('actor=system', (p) => p.actor === null);
      await expectIds('action=withdrawal.paid', (p) => p.action === 'withdrawal.paid');
      await expectIds('action=withdrawal.', (p) => p.action.startsWith('withdrawal.'));
      await expectIds('action=user.', (p) => p.action.startsWith('user.'));
      await expectIds('entityType=campaign', (p) => p.entity === 'campaign');
      await expectIds('entityType=withdrawal&entityId=e-1', (p) => p.entity === 'withdrawal' && p.entityId === 'e-1');
      await expectIds(`entityId=${promoterId}`, (p) => p.entityId === promoterId);
      await expectIds(`actor=${adminId}&action=user.suspend&entityId=e-2`, (p) => p.actor === adminId && p.action === 'user.suspend' && p.entityId === 'e-2');
      // Days: 1 March ends at 16:00 UTC; the 3rd includes its last millisecond.
      expect((await all('from=2020-03-01&to=2020-03-01', 50)).seen).toEqual(planted.filter((p) => p.at < T + 1).map((p) => p.id));
      expect((await all('from=2020-03-02&to=2020-03-02', 50)).seen).toHaveLength(40);
      expect((await all('from=2020-03-03&to=2020-03-03', 50)).seen).toHaveLength(2);
      expect((await all('from=2020-03-02', 100)).seen.filter((id) => planted.some((p) => p.id === id))).toHaveLength(42);
      expect((await all('to=2020-02-29', 50)).seen).toEqual([]);
      // A filter that matches nothing is an empty page, not an error.
      expect(await list(`${days}&actor=01J0000000000000000000000Z`)).toEqual({ items: [], nextCursor: null });
      expect(await list(`${days}&action=api_key.revoke`)).toEqual({ items: [], nextCursor: null });
    });

    it('refuses every bad input with VALIDATION_FAILED and writes nothing', async () => {
      const cursor = (s: string) => Buffer.from(s).toString('base64url');
      const bad: [string, string?][] = [
        ['cursor=not-a-cursor', 'querystring.cursor'],
        [`cursor=${cursor('abc:def')}`, 'querystring.cursor'],
        [`cursor=${cursor('123')}`, 'querystring.cursor'],
        [`cursor=${cursor(`${'9'.repeat(40)}:x`)}`, 'querystring.cursor'],
        [`cursor=${cursor(`${2 ** 53}:x`)}`, 'querystring.cursor'],
        [`cursor=${cursor('1583078399000:a\u0000b')}`, 'querystring.cursor'],
        [`cursor=${Buffer.concat([Buffer.from('1583078399000:'), Buffer.from([0xc3, 0x28])]).toString('base64url')}`, 'querystring.cursor'],
        [`cursor=${cursor('1583078399000:a:b')}`, 'querystring.cursor'],
        [`cursor=${'x'.repeat(201)}`, 'cursor'],
        ['from=2020-03-03&to=2020-03-01', 'querystring.from'],
        ['from=2020-02-30'],
        ['to=2020-13-01'],
        ['from=2020-3-1'],
        ['from=yesterday'],
        ['from=2020-03-01T00:00:00Z'],
        ['to=99999-01-01'],
        ['limit=0'],
        ['limit=101'],
        ['limit=ten'],
        ['unknown=1', 'unknown'],
        ['sort=at', 'sort'],
        ['action=Withdrawal.paid'],
        ['action=withdrawal'],
        ['action=withdrawal.paid;drop'],
        ['entityType=User'],
        [`actor=${'a'.repeat(65)}`],
        ['actor='],
        ['actor=%00'],
        ['entityId=e-1%00'],
        ['action=user.%00'],
        ['from=2020-03-01%00'],
      ];
      for (const url of ['/api/admin/audit', '/api/admin/audit/export']) {
        for (const [query, field] of bad) {
          if (url.endsWith('export') && /^(cursor|limit)=/.test(query)) continue;
          const res = await noEntry(() => admin.request('GET', `${url}?${query}`));
          expect(res.statusCode, `${url}?${query}: ${res.body}`).toBe(400);
          expect(errorCode(res), query).toBe('VALIDATION_FAILED');
          if (field) expect(Object.keys(res.json().error.fields ?? {}).join(), query).toContain(field);
        }
      }
      // The export takes no page: a cursor or limit there is an unknown parameter.
      for (const query of ['limit=5', 'cursor=abc']) {
        const res = await noEntry(() => admin.request('GET', `/api/admin/audit/export?${query}`));
        expect(errorCode(res), query).toBe('VALIDATION_FAILED');
      }
    });

    it('exports what is filtered as CSV: BOM, CRLF, the catalogue’s snake_case headers, each action’s name in the reader’s language, before and after, the address', async () => {
      const res = await admin.request('GET', `/api/admin/audit/export?${days}&action=withdrawal.`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/csv; charset=utf-8/);
      expect(res.headers['content-disposition']).toMatch(/^attachment; filename="audit-\d{4}-\d{2}-\d{2}\.csv"$/);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body.charCodeAt(0)).toBe(0xfeff);
      expect(res.body.endsWith('\r\n')).toBe(true);
      const [header, ...rows] = parseCsv(res.body);
      expect(header).toEqual(['at', 'actor', 'actor_account', 'actor_role', 'action', 'action_name', 'entity_type', 'entity_id', 'before', 'after', 'ip', 'entry_id']);
      const want = planted.filter((p) => p.action.startsWith('withdrawal.'));
      expect(rows.map((r) => idCell(r[11]!))).toEqual(want.map((p) => p.id));
      const first = rows[0]!;
      const plantedFirst = want[0]!;
      expect(first[0]).toBe(new Date(plantedFirst.at).toISOString());
      expect(first[4]).toBe(plantedFirst.action);
      // The action's name beside its code, in the language of the request (English here).
      expect(rows.map((r) => [r[4], r[5]])).toEqual(want.map((p) => [p.action, { 'withdrawal.paid': 'Withdrawal paid', 'withdrawal.approved': 'Withdrawal approved' }[p.action]]));
      expect(first[6]).toBe('withdrawal');
      expect(idCell(first[7]!)).toBe(plantedFirst.entityId);
      expect(JSON.parse(first[8]!)).toEqual({ n: 1 });
      expect(JSON.parse(first[9]!)).toEqual({ n: 2, note: 'a "quoted", text' });
      expect(idCell(first[10]!)).toBe('192.0.2.1');
      const byAdmin = rows.find((r) => r[3] === 'admin')!;
      const adminRow = await env.ctx.db.selectFrom('users').select(['account', 'display_name']).where('id', '=', adminId).executeTakeFirstOrThrow();
      expect([byAdmin[1], idCell(byAdmin[2]!)]).toEqual([adminRow.display_name, adminRow.account]);

      // In French: the same column names and codes, the actions named in French.
      const fr = new Client(env.app, { locale: 'fr-FR', ip: ADMIN_IP });
      fr.cookies = new Map(admin.cookies);
      const [frHeader, ...frRows] = parseCsv((await fr.request('GET', `/api/admin/audit/export?${days}&action=withdrawal.`)).body);
      expect(frHeader).toEqual(header);
      expect(frRows.map((r) => [r[4], r[5]])).toEqual(want.map((p) => [p.action, { 'withdrawal.paid': 'Retrait payé', 'withdrawal.approved': 'Retrait approuvé' }[p.action]]));

      // The system's entries, in Chinese: the same column names (one style for every export), the name of the system and the actions in the reader's language.
      const zh = new Client(env.app, { locale: 'zh-CN', ip: ADMIN_IP });
      zh.cookies = new Map(admin.cookies);
      const system = await zh.request('GET', `/api/admin/audit/export?${days}&actor=system`);
      const [zhHeader, ...systemRows] = parseCsv(system.body);
      expect(zhHeader).toEqual(header);
      expect(systemRows).toHaveLength(planted.filter((p) => p.actor === null).length);
      expect(systemRows.every((r) => r[1] === '系统' && r[2] === '' && r[3] === '' && r[10] === '')).toBe(true);
      expect(new Set(systemRows.map((r) => `${r[4]} ${r[5]}`))).toEqual(new Set(['campaign.end 结束活动', 'user.suspend 停用账号']));

      // Nothing matched: the header alone.
      const empty = await admin.request('GET', '/api/admin/audit/export?from=2019-01-01&to=2019-01-31');
      expect(parseCsv(empty.body)).toHaveLength(1);
    });
  });

  describe('append-only', () => {
    it('the database refuses to update or delete an entry', async () => {
      const [row] = await rowsOf();
      const attempts = [
        sql`update audit_entries set action = 'user.approve' where id = ${row!.id}`,
        sql`update audit_entries set ip = null`,
        sql`delete from audit_entries where id = ${row!.id}`,
        sql`delete from audit_entries`,
        // PostgreSQL's TRUNCATE skips row triggers: a statement trigger (migration 010) refuses it.
        ...(env.ctx.dialect === 'postgres' ? [sql`truncate audit_entries`] : []),
      ];
      for (const statement of attempts) {
        await expect(statement.execute(env.ctx.db), statement.compile(env.ctx.db).sql).rejects.toThrow(/append-only/);
      }
      // Inside a transaction too (a transaction cannot commit it).
      await expect(env.ctx.db.transaction().execute(async (trx) => {
        await sql`delete from audit_entries where id = ${row!.id}`.execute(trx);
      })).rejects.toThrow(/append-only/);
      expect((await rowsOf())[0]).toEqual(row);
    });

    it('no code under apps/server/src updates or deletes audit entries', () => {
      const forbidden = [
        /updateTable\(\s*['"`]audit_entries/,
        /deleteFrom\(\s*['"`]audit_entries/,
        /replaceInto\(\s*['"`]audit_entries/,
        /\bupdate\s+["`]?audit_entries\b/i,
        /\bdelete\s+from\s+["`]?audit_entries\b/i,
        /\btruncate\s+(table\s+)?["`]?audit_entries\b/i,
        /\b(replace|insert\s+or\s+replace)\s+into\s+["`]?audit_entries\b/i,
        /\bdrop\s+table\s+(if\s+exists\s+)?["`]?audit_entries\b/i,
      ];
      const files = sourceFiles(SRC);
      expect(files.length).toBeGreaterThan(50);
      const offenders: string[] = [];
      const mentions: string[] = [];
      for (const file of files) {
        const rel = path.relative(SRC, file);
        const text = fs.readFileSync(file, 'utf8');
        if (text.includes('audit_entries')) mentions.push(rel);
        // Migrations create the table, its triggers and indexes (and their downs drop them): not a code path of the running server.
        if (rel.startsWith(`db${path.sep}migrations`)) continue;
        for (const pattern of forbidden) if (pattern.test(text)) offenders.push(`${rel}: ${pattern}`);
      }
      expect(offenders).toEqual([]);
      // The table is touched in three places only: the one writer (inserts), the log's reads, and the database type.
      expect(mentions.filter((m) => !m.startsWith(`db${path.sep}migrations`)).sort()).toEqual([path.join('db', 'types.ts'), path.join('modules', 'audit', 'repository.ts'), path.join('platform', 'audit.ts')].sort());
      const writer = fs.readFileSync(path.join(SRC, 'platform', 'audit.ts'), 'utf8');
      expect(writer).not.toMatch(/onConflict|updateTable|deleteFrom/);
      const reader = fs.readFileSync(path.join(SRC, 'modules', 'audit', 'repository.ts'), 'utf8');
      expect(reader).not.toMatch(/insertInto|updateTable|deleteFrom|\bsql\.raw\b/);
    });
  });

  describe('docs/api.md', () => {
    it('lists exactly AUDIT_ACTIONS, and every action the source writes', () => {
      const documented = documentedActions();
      expect(new Set(documented).size, 'each action once').toBe(documented.length);
      expect([...documented].sort()).toEqual([...AUDIT_ACTIONS].sort());

      const { literals, prefixes, calls } = actionsInSource();
      expect(calls, 'audit() calls found in the source').toBeGreaterThan(30);
      const missing = [...literals].filter((a) => !documented.includes(a));
      expect(missing, 'written by the source, missing from the docs').toEqual([]);
      for (const prefix of prefixes) expect(documented.some((a) => a.startsWith(`${prefix}.`)), `docs rows for ${prefix}.*`).toBe(true);
      // And back: each documented action is written somewhere, as a literal or through a template of its area.
      const unwritten = documented.filter((a) => !literals.has(a) && !prefixes.has(a.split('.')[0]!));
      expect(unwritten, 'documented but never written').toEqual([]);
    });
  });
});
