/**
 * Manual adjustments (issue 14, item 4): an admin credits or debits a promoter's available
 * balance with a reason, once per Idempotency-Key — one balanced journal against
 * platform:adjustments, the promoter's notification and ledger line, an audit entry with the
 * client's address. Debits below zero need allowNegative. Twenty identical requests at once make
 * one journal. Bad input changes nothing. `ledger:check` sees adjustments too. Both databases.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_AMOUNT } from '@pa/shared';
import { checkLedger } from '../src/platform/ledger';
import { Client, createUser, DIALECTS, errorCode, makeEnv, signedIn, type TestEnv } from './helpers';

describe.each(DIALECTS)('manual adjustments on %s', (dialect) => {
  let env: TestEnv;
  let admin: Client;
  let adminId: string;
  let operator: Client;
  let seq = 0;

  const adjust = (client: Client, promoterId: string, body: unknown, key: string | null = `adj-${Date.now()}-${seq++}`, ip?: string) =>
    client.request('POST', `/api/admin/promoters/${promoterId}/adjustments`, body, key === null ? {} : { headers: { 'idempotency-key': key, ...(ip ? { 'x-forwarded-for': ip } : {}) } });
  const count = async (table: 'adjustments' | 'ledger_journals' | 'notifications' | 'audit_entries', promoterId?: string) => {
    let q = env.ctx.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n'));
    if (promoterId && table === 'adjustments') q = q.where('promoter_id' as never, '=', promoterId as never);
    if (promoterId && table === 'ledger_journals') q = q.where('promoter_id' as never, '=', promoterId as never);
    if (promoterId && table === 'notifications') q = q.where('user_id' as never, '=', promoterId as never);
    return Number((await q.executeTakeFirstOrThrow()).n);
  };
  const state = async (promoterId: string) => ({
    adjustments: await count('adjustments', promoterId),
    journals: await count('ledger_journals', promoterId),
    notifications: await count('notifications', promoterId),
    audit: await count('audit_entries'),
    available: (await env.ctx.db.selectFrom('ledger_balances').select('balance').where('account', '=', `promoter:${promoterId}:available`).executeTakeFirst())?.balance ?? 0,
  });

  beforeAll(async () => {
    env = await makeEnv(dialect);
    const a = await signedIn(env, 'admin');
    admin = a.client;
    adminId = a.user.id;
    operator = (await signedIn(env, 'operator')).client;
  });
  afterAll(async () => {
    await env?.close();
  });

  it('credits the promoter: one journal, the ledger line with the reason, a notification, an audit entry with the address', async () => {
    const p = await signedIn(env, 'promoter');
    const res = await adjust(admin, p.user.id, { amount: 1234, reason: '  Goodwill for the late payout  ' }, 'credit-1');
    expect(res.statusCode, res.body).toBe(201);
    const { adjustment, available } = res.json();
    expect(adjustment).toEqual({
      id: expect.any(String), promoterId: p.user.id, amount: 1234, currency: 'CNY', reason: 'Goodwill for the late payout', allowNegative: false,
      journalId: expect.any(String), createdBy: adminId, createdAt: expect.any(Number),
    });
    expect(available).toBe(1234);
    expect((await p.client.request('GET', '/api/wallet')).json()).toMatchObject({ available: 1234 });

    // The promoter's ledger: one line in available, kind adjustment, the reason in the memo.
    const ledger = (await p.client.request('GET', '/api/ledger')).json().items;
    expect(ledger).toEqual([{ journalId: adjustment.journalId, kind: 'adjustment', refType: 'adjustment', refId: adjustment.id, account: 'available', amount: 1234, memo: { adjustmentId: adjustment.id, amount: 1234, reason: 'Goodwill for the late payout' }, at: adjustment.createdAt }]);
    const entries = await env.ctx.db.selectFrom('ledger_entries').select(['account', 'amount']).where('journal_id', '=', adjustment.journalId).orderBy('account').execute();
    expect(entries.map((e) => [e.account, Number(e.amount)])).toEqual([['platform:adjustments', -1234], [`promoter:${p.user.id}:available`, 1234]]);

    const notes = (await p.client.request('GET', '/api/notifications')).json().items;
    expect(notes).toEqual([expect.objectContaining({ type: 'adjustment', params: { adjustmentId: adjustment.id, amount: 1234, reason: 'Goodwill for the late payout' }, readAt: null })]);

    const entry = await env.ctx.db.selectFrom('audit_entries').select(['actor_id', 'entity', 'entity_id', 'ip', 'before_json', 'after_json']).where('action', '=', 'promoter.adjust').where('entity_id', '=', p.user.id).executeTakeFirstOrThrow();
    expect(entry).toMatchObject({ actor_id: adminId, entity: 'user', entity_id: p.user.id, ip: '127.0.0.1' });
    expect(JSON.parse(entry.before_json!)).toEqual({ available: 0 });
    expect(JSON.parse(entry.after_json!)).toEqual({ available: 1234, adjustmentId: adjustment.id, amount: 1234, reason: 'Goodwill for the late payout', allowNegative: false });
    expect(await checkLedger(env.ctx.db)).toEqual([]);
  });

  it('answers a repeated key with the first adjustment (200) and a reused key with another body with IDEMPOTENCY_CONFLICT', async () => {
    const p = await createUser(env.ctx, 'promoter');
    const first = await adjust(admin, p.id, { amount: 500, reason: 'Bonus' }, 'same-key');
    expect(first.statusCode).toBe(201);
    const before = await state(p.id);
    const again = await adjust(admin, p.id, { amount: 500, reason: 'Bonus' }, 'same-key');
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    for (const body of [{ amount: 501, reason: 'Bonus' }, { amount: 500, reason: 'Bonus!' }, { amount: 500, reason: 'Bonus', allowNegative: true }]) {
      const conflict = await adjust(admin, p.id, body, 'same-key');
      expect(conflict.statusCode).toBe(409);
      expect(errorCode(conflict)).toBe('IDEMPOTENCY_CONFLICT');
    }
    expect(await state(p.id)).toEqual(before);
    // The key belongs to the promoter: the same key for someone else is a new adjustment.
    const q = await createUser(env.ctx, 'promoter');
    expect((await adjust(admin, q.id, { amount: 500, reason: 'Bonus' }, 'same-key')).statusCode).toBe(201);
  });

  it('refuses a debit below zero unless allowNegative, then takes the balance below zero', async () => {
    const p = await createUser(env.ctx, 'promoter');
    expect((await adjust(admin, p.id, { amount: 1000, reason: 'Start' })).statusCode).toBe(201);
    const before = await state(p.id);
    const refused = await adjust(admin, p.id, { amount: -1001, reason: 'Chargeback' }, 'chargeback');
    expect(refused.statusCode).toBe(409);
    expect(errorCode(refused)).toBe('INSUFFICIENT_BALANCE');
    expect(await state(p.id)).toEqual(before);
    // A refusal stores nothing: its key is still free.
    const exact = await adjust(admin, p.id, { amount: -1000, reason: 'Chargeback' }, 'chargeback');
    expect(exact.statusCode).toBe(201);
    expect(exact.json().available).toBe(0);
    const negative = await adjust(admin, p.id, { amount: -250, reason: 'Chargeback fee', allowNegative: true });
    expect(negative.statusCode, negative.body).toBe(201);
    expect(negative.json()).toMatchObject({ available: -250, adjustment: { amount: -250, allowNegative: true } });
    const { client } = await (async () => {
      const c = new Client(env.app);
      const user = await env.ctx.db.selectFrom('users').select('account').where('id', '=', p.id).executeTakeFirstOrThrow();
      await c.login(user.account, p.password);
      return { client: c };
    })();
    expect((await client.request('GET', '/api/wallet')).json().available).toBe(-250);
    // A credit is never refused, whatever the balance.
    expect((await adjust(admin, p.id, { amount: 100, reason: 'Partial refund' })).json().available).toBe(-150);
    expect(await checkLedger(env.ctx.db)).toEqual([]);
  });

  it('moves the money once for twenty identical requests at once', async () => {
    const p = await createUser(env.ctx, 'promoter');
    expect((await adjust(admin, p.id, { amount: 300, reason: 'Seed' })).statusCode).toBe(201);
    const results = await Promise.all(Array.from({ length: 20 }, () => adjust(admin, p.id, { amount: -300, reason: 'Twenty at once' }, 'burst')));
    expect(results.map((r) => r.statusCode).sort()).toEqual([...Array(19).fill(200), 201]);
    expect(new Set(results.map((r) => r.json().adjustment.id)).size).toBe(1);
    const journals = await env.ctx.db.selectFrom('ledger_journals').select('id').where('promoter_id', '=', p.id).where('kind', '=', 'adjustment').execute();
    expect(journals).toHaveLength(2);
    expect((await state(p.id)).available).toBe(0);
    // Twenty different debits of the whole balance at once: exactly one goes through, the rest find nothing left.
    expect((await adjust(admin, p.id, { amount: 300, reason: 'Seed again' })).statusCode).toBe(201);
    const race = await Promise.all(Array.from({ length: 20 }, (_, i) => adjust(admin, p.id, { amount: -300, reason: `Race ${i}` }, `race-${i}`)));
    expect(race.filter((r) => r.statusCode === 201)).toHaveLength(1);
    expect(race.filter((r) => errorCode(r) === 'INSUFFICIENT_BALANCE')).toHaveLength(19);
    expect((await state(p.id)).available).toBe(0);
    expect(await checkLedger(env.ctx.db)).toEqual([]);
  });

  it('refuses every bad input with a catalogue code and changes nothing', async () => {
    const p = await createUser(env.ctx, 'promoter');
    expect((await adjust(admin, p.id, { amount: 100, reason: 'Start' })).statusCode).toBe(201);
    const before = await state(p.id);
    const cases: [unknown, Record<string, string>][] = [
      [{ amount: 0, reason: 'Zero' }, { amount: 'invalid' }],
      [{ amount: 12.5, reason: 'Half' }, { amount: 'invalid' }],
      [{ amount: '100', reason: 'Text' }, { amount: 'invalid' }],
      [{ amount: MAX_AMOUNT + 1, reason: 'Huge' }, { amount: 'too_large' }],
      [{ amount: -MAX_AMOUNT - 1, reason: 'Huge' }, { amount: 'too_small' }],
      [{ amount: 1e300, reason: 'Huger' }, { amount: 'too_large' }],
      [{ reason: 'No amount' }, { amount: 'required' }],
      [{ amount: 100 }, { reason: 'required' }],
      [{ amount: 100, reason: '   ' }, { reason: 'too_short' }],
      [{ amount: 100, reason: 'x'.repeat(201) }, { reason: 'too_long' }],
      [{ amount: 100, reason: 'a\u0000b' }, { reason: 'invalid' }],
      [{ amount: 100, reason: 'Flag', allowNegative: 'yes' }, { allowNegative: 'invalid' }],
      [{ amount: 100, reason: 'Extra', currency: 'USD' }, { currency: 'unknown_field' }],
    ];
    for (const [body, fields] of cases) {
      const res = await adjust(admin, p.id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error, JSON.stringify(body)).toMatchObject({ code: 'VALIDATION_FAILED', fields });
    }
    // The key is required, and bounded.
    const noKey = await adjust(admin, p.id, { amount: 100, reason: 'No key' }, null);
    expect(noKey.json().error).toMatchObject({ code: 'VALIDATION_FAILED', fields: { 'headers.idempotency-key': 'required' } });
    expect((await adjust(admin, p.id, { amount: 100, reason: 'Blank key' }, '   ')).json().error).toMatchObject({ code: 'VALIDATION_FAILED', fields: { 'headers.idempotency-key': 'too_short' } });
    expect((await adjust(admin, p.id, { amount: 100, reason: 'Long key' }, 'k'.repeat(101))).json().error).toMatchObject({ code: 'VALIDATION_FAILED', fields: { 'headers.idempotency-key': 'too_long' } });
    expect(errorCode(await admin.request('POST', `/api/admin/promoters/${p.id}/adjustments`, undefined, { headers: { 'idempotency-key': 'no-body' } }))).toBe('VALIDATION_FAILED');
    expect(await state(p.id)).toEqual(before);

    // Only promoters can be adjusted: unknown ids and staff are NOT_FOUND.
    const staffMember = await createUser(env.ctx, 'operator');
    for (const id of ['unknown-id', staffMember.id, adminId]) {
      const res = await adjust(admin, id, { amount: 100, reason: 'Who?' });
      expect(res.statusCode, id).toBe(404);
      expect(errorCode(res)).toBe('NOT_FOUND');
    }
    expect(await count('adjustments', staffMember.id)).toBe(0);
    expect(await env.ctx.db.selectFrom('ledger_balances').select('account').where('account', 'like', `promoter:${staffMember.id}:%`).execute()).toEqual([]);
  });

  it('is for admins only: operators, promoters, API keys and nobody are refused before the body is read', async () => {
    const p = await createUser(env.ctx, 'promoter');
    const promoter = (await signedIn(env, 'promoter')).client;
    const key = (await admin.request('POST', '/api/admin/api-keys', { name: 'Adjust', scopes: ['conversions:write'] })).json().secret as string;
    const before = await state(p.id);
    const good = { amount: 100, reason: 'Allowed?' };
    const bad = { amount: 0 };
    for (const body of [good, bad]) {
      const op = await adjust(operator, p.id, body);
      expect(op.statusCode).toBe(403);
      expect(op.json()).toEqual({ error: { code: 'FORBIDDEN', message: expect.any(String) } });
      expect(errorCode(await adjust(promoter, p.id, body))).toBe('FORBIDDEN');
      expect(errorCode(await adjust(new Client(env.app), p.id, body))).toBe('UNAUTHENTICATED');
    }
    const withKey = await env.app.inject({ method: 'POST', url: `/api/admin/promoters/${p.id}/adjustments`, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': 'k' }, payload: JSON.stringify(good) });
    expect([401, 403]).toContain(withKey.statusCode);
    expect(Object.keys(withKey.json())).toEqual(['error']);
    expect(await state(p.id)).toEqual(before);
  });

  it('ledger:check verifies adjustments: a journal without its row, a row without its journal, or a wrong amount is a breach', async () => {
    const p = await createUser(env.ctx, 'promoter');
    const made = (await adjust(admin, p.id, { amount: 700, reason: 'Checked' })).json().adjustment;
    expect(await checkLedger(env.ctx.db)).toEqual([]);
    expect(await checkLedger(env.ctx.db, { promoterIds: [p.id] })).toEqual([]);

    // The row says another amount than its journal moved.
    await env.ctx.db.updateTable('adjustments').set({ amount: 701 }).where('id', '=', made.id).execute();
    const wrong = await checkLedger(env.ctx.db, { promoterIds: [p.id] });
    expect(wrong.map((b) => [b.kind, b.ref])).toEqual([['adjustment_mismatch', made.id], ['adjustment_mismatch', 'platform:adjustments']]);
    // No row at all: its journal is for an unknown adjustment, and platform:adjustments holds money no adjustment explains.
    await env.ctx.db.deleteFrom('adjustments').where('id', '=', made.id).execute();
    const orphan = await checkLedger(env.ctx.db);
    expect(orphan.map((b) => [b.kind, b.ref])).toEqual([['adjustment_mismatch', made.id], ['adjustment_mismatch', 'platform:adjustments']]);
    // A row whose journal is missing.
    await env.ctx.db.insertInto('adjustments').values({ id: 'ghost', promoter_id: p.id, amount: 5, currency: 'CNY', reason: 'Ghost', allow_negative: 0, idempotency_key: 'ghost', request_hash: 'x', journal_id: 'no-such-journal', created_by: adminId, created_at: Date.now() }).execute();
    const ghost = await checkLedger(env.ctx.db, { promoterIds: [p.id] });
    expect(ghost.map((b) => b.ref)).toContain('ghost');
    // Put back as it was: the check is clean again.
    await env.ctx.db.deleteFrom('adjustments').where('id', '=', 'ghost').execute();
    await env.ctx.db.insertInto('adjustments').values({ id: made.id, promoter_id: p.id, amount: 700, currency: 'CNY', reason: 'Checked', allow_negative: 0, idempotency_key: 'restored', request_hash: 'x', journal_id: made.journalId, created_by: adminId, created_at: made.createdAt }).execute();
    expect(await checkLedger(env.ctx.db)).toEqual([]);

    // The journal's lines deleted: an empty journal, the adjustment without its movement, balances the entries no longer explain.
    const lines = await env.ctx.db.selectFrom('ledger_entries').selectAll().where('journal_id', '=', made.journalId).execute();
    expect(lines).toHaveLength(2);
    await env.ctx.db.deleteFrom('ledger_entries').where('journal_id', '=', made.journalId).execute();
    const gone = await checkLedger(env.ctx.db, { promoterIds: [p.id] });
    expect(gone.map((b) => [b.kind, b.ref])).toEqual(expect.arrayContaining([
      ['adjustment_mismatch', made.id],
      ['balance_mismatch', `promoter:${p.id}:available`],
    ]));
    expect((await checkLedger(env.ctx.db)).map((b) => [b.kind, b.ref])).toEqual(expect.arrayContaining([
      ['journal_unbalanced', made.journalId],
      ['adjustment_mismatch', made.id],
      ['balance_mismatch', 'platform:adjustments'],
    ]));
    // One line changed instead (the promoter's side says 7.01): unbalanced, and not the adjustment's amount.
    await env.ctx.db.insertInto('ledger_entries').values(lines).execute();
    expect(await checkLedger(env.ctx.db)).toEqual([]);
    const promoterLine = lines.find((l) => l.account === `promoter:${p.id}:available`)!;
    await env.ctx.db.updateTable('ledger_entries').set({ amount: 701 }).where('id', '=', promoterLine.id).execute();
    const tampered = await checkLedger(env.ctx.db, { promoterIds: [p.id] });
    expect(tampered.map((b) => [b.kind, b.ref])).toEqual(expect.arrayContaining([
      ['journal_unbalanced', made.journalId],
      ['adjustment_mismatch', made.id],
    ]));
    expect(tampered.find((b) => b.ref === made.id)!.detail).toContain(`promoter:${p.id}:available 701 (want 700)`);
    await env.ctx.db.updateTable('ledger_entries').set({ amount: 700 }).where('id', '=', promoterLine.id).execute();
    expect(await checkLedger(env.ctx.db)).toEqual([]);
  });
});
