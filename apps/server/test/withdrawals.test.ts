import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { promoterAccount } from '../src/domain/ledger';
import { checkLedger, postJournal, walletOf } from '../src/platform/ledger';
import { Client, DIALECTS, errorCode, makeEnv, seal, signedIn, type TestEnv } from './helpers';

const BANK = '6222 0212 3456 7890';
const BANK_NORMALIZED = '6222021234567890';

describe.each(DIALECTS)('payout accounts, withdrawals and notifications on %s', (dialect) => {
  let env: TestEnv;
  let admin: Client;
  let operator: Client;

  /**
   * Credits a promoter's available balance with an adjustment — its row and its balanced journal, as
   * ledger:check wants them (how money arrives is the conversions suite's business; the adjustments
   * suite tests the call itself, notification and audit included).
   */
  async function credit(userId: string, amount: number) {
    await env.ctx.db.transaction().execute(async (trx) => {
      const at = Date.now();
      const id = `test-adj-${at}-${Math.random().toString(36).slice(2)}`;
      const journalId = await postJournal(trx, {
        kind: 'adjustment', refType: 'adjustment', refId: id, promoterId: userId,
        entries: [{ account: promoterAccount(userId, 'available'), amount }, { account: 'platform:adjustments', amount: -amount }],
        at,
      });
      await trx.insertInto('adjustments').values({ id, promoter_id: userId, amount, currency: 'CNY', reason: 'test', allow_negative: 1, idempotency_key: null, request_hash: '', journal_id: journalId, created_by: 'test', created_at: at }).execute();
    });
  }

  async function addAccount(client: Client, body: Partial<{ method: string; holderName: string; number: string; isDefault: boolean }> = {}) {
    return client.request('POST', '/api/payout-accounts', {
      method: body.method ?? 'bank',
      holderName: body.holderName ?? 'Li Lei',
      accountNumber: await client.seal(body.number ?? BANK),
      ...(body.isDefault === undefined ? {} : { isDefault: body.isDefault }),
    });
  }

  /** A promoter with a default payout account and `balance` available. */
  async function funded(balance: number) {
    const p = await signedIn(env, 'promoter');
    const account = await addAccount(p.client, { number: `62220212${Math.floor(Math.random() * 1e8).toString().padStart(8, '0')}` });
    expect(account.statusCode, account.body).toBe(201);
    if (balance) await credit(p.user.id, balance);
    return { ...p, accountId: account.json().payoutAccount.id as string };
  }

  let keySeq = 0;
  const withdraw = (client: Client, body: Record<string, unknown>, key: string | null = `k-${Date.now()}-${keySeq++}`) =>
    client.request('POST', '/api/withdrawals', body, key ? { headers: { 'idempotency-key': key } } : {});
  const wallet = async (client: Client) => (await client.request('GET', '/api/wallet')).json();
  const setSettings = async (patch: Record<string, unknown>) => {
    const res = await admin.request('PATCH', '/api/admin/settings', patch);
    expect(res.statusCode, res.body).toBe(200);
  };
  const ledgerOk = async () => expect(await checkLedger(env.ctx.db)).toEqual([]);
  const countWithdrawals = async (userId: string) => Number((await env.ctx.db.selectFrom('withdrawals').select((eb) => eb.fn.countAll<number>().as('n')).where('promoter_id', '=', userId).executeTakeFirst())?.n ?? 0);

  beforeAll(async () => {
    env = await makeEnv(dialect);
    admin = (await signedIn(env, 'admin')).client;
    operator = (await signedIn(env, 'operator')).client;
  });
  afterAll(async () => {
    await env?.close();
  });

  describe('payout accounts', () => {
    it('stores the number sealed and encrypted, shows only the last four, keeps one default', async () => {
      const { client, user } = await signedIn(env, 'promoter');
      const first = await addAccount(client);
      expect(first.statusCode, first.body).toBe(201);
      expect(first.json().payoutAccount).toMatchObject({ method: 'bank', holderName: 'Li Lei', last4: '7890', isDefault: true, inUse: false });
      expect(first.body).not.toContain(BANK_NORMALIZED);
      const row = await env.ctx.db.selectFrom('payout_accounts').selectAll().where('id', '=', first.json().payoutAccount.id).executeTakeFirstOrThrow();
      expect(row.number_sealed).not.toContain('7890');
      expect(row.number_digest).toMatch(/^[0-9a-f]{64}$/);

      const second = await addAccount(client, { method: 'paypal', number: 'Li.Lei@Example.com', isDefault: true });
      expect(second.json().payoutAccount).toMatchObject({ method: 'paypal', last4: 'l***@example.com', isDefault: true });
      let list = (await client.request('GET', '/api/payout-accounts')).json().items;
      expect(list.map((a: { isDefault: boolean }) => a.isDefault)).toEqual([true, false]);
      expect(JSON.stringify(list)).not.toContain(BANK_NORMALIZED);

      expect((await client.request('PATCH', `/api/payout-accounts/${first.json().payoutAccount.id}`, { isDefault: true })).json().payoutAccount.isDefault).toBe(true);
      list = (await client.request('GET', '/api/payout-accounts')).json().items;
      expect(list.filter((a: { isDefault: boolean }) => a.isDefault).map((a: { id: string }) => a.id)).toEqual([first.json().payoutAccount.id]);

      // Deleting the default makes the newest remaining one the default.
      expect((await client.request('DELETE', `/api/payout-accounts/${first.json().payoutAccount.id}`)).statusCode).toBe(200);
      list = (await client.request('GET', '/api/payout-accounts')).json().items;
      expect(list).toHaveLength(1);
      expect(list[0]).toMatchObject({ id: second.json().payoutAccount.id, isDefault: true });
      const audits = await env.ctx.db.selectFrom('audit_entries').select('action').where('actor_id', '=', user.id).execute();
      expect(audits.map((a) => a.action)).toEqual(expect.arrayContaining(['payout_account.add', 'payout_account.delete']));
    });

    it('rejects bad input and changes nothing; other promoters cannot see or touch the account', async () => {
      const { client, user } = await signedIn(env, 'promoter');
      const bad = await addAccount(client, { number: '12-ab' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error).toMatchObject({ code: 'VALIDATION_FAILED', fields: { accountNumber: 'invalid' } });
      expect(errorCode(await addAccount(client, { method: 'paypal', number: '6222021234567890' }))).toBe('VALIDATION_FAILED');
      expect((await client.request('POST', '/api/payout-accounts', { method: 'bank', holderName: '  ', accountNumber: await client.seal(BANK) })).json().error.fields).toEqual({ holderName: 'required' });
      expect(errorCode(await client.request('POST', '/api/payout-accounts', { method: 'bank', holderName: 'Li', accountNumber: BANK }))).toBe('VALIDATION_FAILED');
      // A stale seal (older than 5 minutes) is refused.
      const stale = seal(await client.publicKey(), BANK, Date.now() - 6 * 60_000);
      expect(errorCode(await client.request('POST', '/api/payout-accounts', { method: 'bank', holderName: 'Li', accountNumber: stale }))).toBe('REPLAY_DETECTED');
      expect(await env.ctx.db.selectFrom('payout_accounts').select('id').where('promoter_id', '=', user.id).execute()).toEqual([]);

      const mine = (await addAccount(client)).json().payoutAccount.id;
      // The same number twice for one promoter is refused.
      expect((await addAccount(client, { number: BANK.replace(/ /g, '') })).json().error).toMatchObject({ code: 'VALIDATION_FAILED', fields: { accountNumber: 'taken' } });
      const other = (await signedIn(env, 'promoter')).client;
      expect((await other.request('GET', '/api/payout-accounts')).json().items).toEqual([]);
      expect(errorCode(await other.request('DELETE', `/api/payout-accounts/${mine}`))).toBe('NOT_FOUND');
      expect(errorCode(await other.request('PATCH', `/api/payout-accounts/${mine}`, { isDefault: true }))).toBe('NOT_FOUND');
      expect(errorCode(await new Client(env.app).request('GET', '/api/payout-accounts'))).toBe('UNAUTHENTICATED');
    });
  });

  describe('requesting a withdrawal', () => {
    it('shows the terms, moves available → withdrawing with the fee, and replays an idempotency key', async () => {
      await setSettings({ withdrawalFeeBps: 100, withdrawalFeeFixed: 50, withdrawalsPerDay: 3 });
      const p = await funded(100_000);
      const terms = (await p.client.request('GET', '/api/withdrawals/terms')).json();
      expect(terms).toEqual({ currency: 'CNY', available: 100_000, min: 1_000, max: 5_000_000, perDay: 3, usedToday: 0, feeBps: 100, feeFixed: 50 });

      const res = await withdraw(p.client, { amount: 30_000 }, 'first-try');
      expect(res.statusCode, res.body).toBe(201);
      const w = res.json().withdrawal;
      // 1% of 300.00 = 3.00, plus 0.50 fixed.
      expect(w).toMatchObject({ amount: 30_000, fee: 350, net: 29_650, status: 'requested', currency: 'CNY', account: { method: 'bank', holderName: 'Li Lei' } });
      expect(await wallet(p.client)).toMatchObject({ available: 70_000, withdrawing: 30_000, paidOut: 0 });

      const again = await withdraw(p.client, { amount: 30_000 }, 'first-try');
      expect(again.statusCode).toBe(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.json().withdrawal.id).toBe(w.id);
      expect(errorCode(await withdraw(p.client, { amount: 20_000 }, 'first-try'))).toBe('IDEMPOTENCY_CONFLICT');
      expect(await countWithdrawals(p.user.id)).toBe(1);
      expect(await wallet(p.client)).toMatchObject({ available: 70_000, withdrawing: 30_000 });
      expect((await p.client.request('GET', '/api/withdrawals/terms')).json().usedToday).toBe(1);
      await setSettings({ withdrawalFeeBps: 0, withdrawalFeeFixed: 0 });
      await ledgerOk();
    });

    it('refuses every bad request with its code and changes nothing', async () => {
      await setSettings({ withdrawalsPerDay: 2 });
      const p = await funded(60_000);
      const before = await walletOf(env.ctx.db, p.user.id);
      const cases: [Record<string, unknown>, string][] = [
        [{ amount: 999 }, 'WITHDRAWAL_BELOW_MINIMUM'],
        [{ amount: 5_000_001 }, 'WITHDRAWAL_ABOVE_MAXIMUM'],
        [{ amount: 60_001 }, 'INSUFFICIENT_BALANCE'],
        [{ amount: -5 }, 'VALIDATION_FAILED'],
        [{ amount: 12.5 }, 'VALIDATION_FAILED'],
        [{ amount: '100' }, 'VALIDATION_FAILED'],
        [{ amount: 1_000, payoutAccountId: 'nope' }, 'PAYOUT_ACCOUNT_REQUIRED'],
        [{ amount: 1_000, extra: 1 }, 'VALIDATION_FAILED'],
      ];
      for (const [body, code] of cases) expect(errorCode(await withdraw(p.client, body)), JSON.stringify(body)).toBe(code);
      // Another promoter's account is not theirs to use.
      const other = await funded(0);
      expect(errorCode(await withdraw(p.client, { amount: 1_000, payoutAccountId: other.accountId }))).toBe('PAYOUT_ACCOUNT_REQUIRED');
      expect(await countWithdrawals(p.user.id)).toBe(0);
      expect(await walletOf(env.ctx.db, p.user.id)).toEqual(before);

      // The day's count.
      expect((await withdraw(p.client, { amount: 1_000 })).statusCode).toBe(201);
      expect((await withdraw(p.client, { amount: 1_000 })).statusCode).toBe(201);
      expect(errorCode(await withdraw(p.client, { amount: 1_000 }))).toBe('WITHDRAWAL_DAILY_LIMIT');
      expect(await countWithdrawals(p.user.id)).toBe(2);

      // No payout account at all.
      const bare = await signedIn(env, 'promoter');
      await credit(bare.user.id, 5_000);
      expect((await withdraw(bare.client, { amount: 1_000 })).json().error).toMatchObject({ code: 'PAYOUT_ACCOUNT_REQUIRED', fields: { payoutAccountId: 'required' } });

      // A negative balance (a refund after payout) blocks withdrawals.
      const neg = await funded(0);
      await credit(neg.user.id, -2_000);
      expect(errorCode(await withdraw(neg.client, { amount: 1_000 }))).toBe('NEGATIVE_BALANCE');
      expect(await countWithdrawals(neg.user.id)).toBe(0);
      await setSettings({ withdrawalsPerDay: 3 });
      await ledgerOk();
    });

    it('50 requests at once against a balance that covers 10: exactly 10 succeed, the balance never goes below zero', async () => {
      await setSettings({ withdrawalsPerDay: 100 });
      const p = await funded(10_000);
      const results = await Promise.all(Array.from({ length: 50 }, () => withdraw(p.client, { amount: 1_000 })));
      const codes = results.map((r) => (r.statusCode === 201 ? 'ok' : errorCode(r)));
      expect(codes.filter((c) => c === 'ok')).toHaveLength(10);
      expect(new Set(codes.filter((c) => c !== 'ok'))).toEqual(new Set(['INSUFFICIENT_BALANCE']));
      expect(await wallet(p.client)).toMatchObject({ available: 0, withdrawing: 10_000 });
      expect(await countWithdrawals(p.user.id)).toBe(10);

      // With the day's limit the binding constraint: 3 succeed, the rest are told why.
      await setSettings({ withdrawalsPerDay: 3 });
      const q = await funded(10_000);
      const limited = await Promise.all(Array.from({ length: 50 }, () => withdraw(q.client, { amount: 1_000 })));
      const limitedCodes = limited.map((r) => (r.statusCode === 201 ? 'ok' : errorCode(r)));
      expect(limitedCodes.filter((c) => c === 'ok')).toHaveLength(3);
      for (const c of limitedCodes.filter((x) => x !== 'ok')) expect(['INSUFFICIENT_BALANCE', 'WITHDRAWAL_DAILY_LIMIT']).toContain(c);
      expect(await wallet(q.client)).toMatchObject({ available: 7_000, withdrawing: 3_000 });
      await ledgerOk();
    });

    it('the same idempotency key 20 times at once makes one withdrawal', async () => {
      const p = await funded(50_000);
      const results = await Promise.all(Array.from({ length: 20 }, () => withdraw(p.client, { amount: 2_000 }, 'storm-key')));
      expect(results.map((r) => r.statusCode)).toEqual(Array(20).fill(201));
      expect(new Set(results.map((r) => r.json().withdrawal.id)).size).toBe(1);
      expect(await countWithdrawals(p.user.id)).toBe(1);
      expect(await wallet(p.client)).toMatchObject({ available: 48_000, withdrawing: 2_000 });
      await ledgerOk();
    });
  });

  describe('processing', () => {
    it('approve → pay: the money moves to paid out; every step has its event, journal, notification and audit entry', async () => {
      await setSettings({ withdrawalFeeBps: 0, withdrawalFeeFixed: 200 });
      const p = await funded(20_000);
      const id = (await withdraw(p.client, { amount: 10_000 })).json().withdrawal.id;
      // A promoter cannot process; operators can.
      expect(errorCode(await p.client.request('POST', `/api/admin/withdrawals/${id}/approve`))).toBe('FORBIDDEN');
      expect(errorCode(await operator.request('POST', `/api/admin/withdrawals/${id}/pay`, { reference: 'X' }))).toBe('INVALID_STATE_TRANSITION');
      const approved = await operator.request('POST', `/api/admin/withdrawals/${id}/approve`);
      expect(approved.statusCode, approved.body).toBe(200);
      expect(approved.json().withdrawal).toMatchObject({ status: 'approved', promoterId: p.user.id, sharedAccount: false });
      expect(await wallet(p.client)).toMatchObject({ available: 10_000, withdrawing: 10_000 });
      expect(errorCode(await p.client.request('POST', `/api/withdrawals/${id}/cancel`))).toBe('INVALID_STATE_TRANSITION');
      expect(errorCode(await operator.request('POST', `/api/admin/withdrawals/${id}/reject`, { reason: 'late' }))).toBe('INVALID_STATE_TRANSITION');
      expect((await operator.request('POST', `/api/admin/withdrawals/${id}/pay`, {})).json().error).toMatchObject({ code: 'VALIDATION_FAILED', fields: { reference: 'required' } });

      const paid = await operator.request('POST', `/api/admin/withdrawals/${id}/pay`, { reference: 'BANK-20261122-001' });
      expect(paid.json().withdrawal).toMatchObject({ status: 'paid', payoutReference: 'BANK-20261122-001', fee: 200, net: 9_800 });
      expect(await wallet(p.client)).toMatchObject({ available: 10_000, withdrawing: 0, paidOut: 9_800 });
      for (const action of ['approve', 'pay', 'fail', 'reject']) {
        expect(errorCode(await operator.request('POST', `/api/admin/withdrawals/${id}/${action}`, action === 'pay' ? { reference: 'again' } : action === 'approve' ? undefined : { reason: 'again' })), action).toBe('INVALID_STATE_TRANSITION');
      }

      const detail = (await p.client.request('GET', `/api/withdrawals/${id}`)).json();
      expect(detail.events.map((e: { status: string }) => e.status)).toEqual(['requested', 'approved', 'paid']);
      expect(detail.events[2].reference).toBe('BANK-20261122-001');
      const journals = await env.ctx.db.selectFrom('ledger_journals').select('kind').where('ref_id', '=', id).orderBy('at').orderBy('id').execute();
      expect(journals.map((j) => j.kind)).toEqual(['withdrawal_requested', 'withdrawal_approved', 'withdrawal_paid']);
      const audits = await env.ctx.db.selectFrom('audit_entries').select('action').where('entity_id', '=', id).execute();
      expect(audits.map((a) => a.action).sort()).toEqual(['withdrawal.approved', 'withdrawal.paid', 'withdrawal.requested']);
      const notes = (await p.client.request('GET', '/api/notifications')).json();
      expect(notes.items.map((n: { type: string }) => n.type)).toEqual(['withdrawal.paid', 'withdrawal.approved', 'withdrawal.requested']);
      expect(notes.items[0].params).toMatchObject({ withdrawalId: id, amount: 10_000, net: 9_800, reference: 'BANK-20261122-001' });
      expect(notes.unread).toBe(3);
      // The ledger list names the steps; the fee went to the platform.
      const ledger = (await p.client.request('GET', '/api/ledger')).json().items;
      expect(ledger.filter((l: { refId: string }) => l.refId === id).map((l: { kind: string; account: string; amount: number }) => `${l.kind}:${l.account}:${l.amount}`)).toEqual(expect.arrayContaining([
        'withdrawal_paid:paid_out:9800', 'withdrawal_paid:payable:-10000', 'withdrawal_approved:payable:10000', 'withdrawal_requested:available:-10000',
      ]));
      await setSettings({ withdrawalFeeFixed: 0 });
      await ledgerOk();
    });

    it('fail, reject and cancel return the money; reasons are required; nobody sees another’s withdrawal', async () => {
      const p = await funded(30_000);
      const a = (await withdraw(p.client, { amount: 10_000 })).json().withdrawal.id;
      const b = (await withdraw(p.client, { amount: 10_000 })).json().withdrawal.id;
      const c = (await withdraw(p.client, { amount: 10_000 })).json().withdrawal.id;
      expect(await wallet(p.client)).toMatchObject({ available: 0, withdrawing: 30_000 });

      await operator.request('POST', `/api/admin/withdrawals/${a}/approve`);
      expect(errorCode(await operator.request('POST', `/api/admin/withdrawals/${a}/fail`, {}))).toBe('VALIDATION_FAILED');
      expect((await operator.request('POST', `/api/admin/withdrawals/${a}/fail`, { reason: 'Account closed' })).json().withdrawal).toMatchObject({ status: 'failed', reason: 'Account closed' });
      expect(errorCode(await operator.request('POST', `/api/admin/withdrawals/${b}/reject`, {}))).toBe('VALIDATION_FAILED');
      expect((await operator.request('POST', `/api/admin/withdrawals/${b}/reject`, { reason: 'Check your holder name' })).json().withdrawal.status).toBe('rejected');

      const stranger = await signedIn(env, 'promoter');
      expect(errorCode(await stranger.client.request('GET', `/api/withdrawals/${c}`))).toBe('NOT_FOUND');
      expect(errorCode(await stranger.client.request('POST', `/api/withdrawals/${c}/cancel`))).toBe('NOT_FOUND');
      expect((await stranger.client.request('GET', '/api/withdrawals')).json().items).toEqual([]);
      expect((await p.client.request('POST', `/api/withdrawals/${c}/cancel`)).json().withdrawal.status).toBe('cancelled');
      expect(errorCode(await p.client.request('POST', `/api/withdrawals/${c}/cancel`))).toBe('INVALID_STATE_TRANSITION');
      expect(errorCode(await operator.request('POST', `/api/admin/withdrawals/${c}/approve`))).toBe('INVALID_STATE_TRANSITION');

      expect(await wallet(p.client)).toMatchObject({ available: 30_000, withdrawing: 0, paidOut: 0 });
      const mine = (await p.client.request('GET', '/api/withdrawals')).json().items;
      expect(mine.map((w: { status: string }) => w.status)).toEqual(['cancelled', 'rejected', 'failed']);
      expect((await p.client.request('GET', '/api/withdrawals?status=failed')).json().items.map((w: { id: string }) => w.id)).toEqual([a]);
      const types = (await p.client.request('GET', '/api/notifications?limit=3')).json().items.map((n: { type: string }) => n.type);
      expect(types).toEqual(['withdrawal.cancelled', 'withdrawal.rejected', 'withdrawal.failed']);
      await ledgerOk();
    });

    it('a payout account cannot be deleted while a withdrawal in progress uses it', async () => {
      const p = await funded(10_000);
      const id = (await withdraw(p.client, { amount: 5_000 })).json().withdrawal.id;
      expect((await p.client.request('GET', '/api/payout-accounts')).json().items[0].inUse).toBe(true);
      expect(errorCode(await p.client.request('DELETE', `/api/payout-accounts/${p.accountId}`))).toBe('PAYOUT_ACCOUNT_IN_USE');
      await operator.request('POST', `/api/admin/withdrawals/${id}/approve`);
      expect(errorCode(await p.client.request('DELETE', `/api/payout-accounts/${p.accountId}`))).toBe('PAYOUT_ACCOUNT_IN_USE');
      await operator.request('POST', `/api/admin/withdrawals/${id}/pay`, { reference: 'R1' });
      expect((await p.client.request('DELETE', `/api/payout-accounts/${p.accountId}`)).statusCode).toBe(200);
      // The withdrawal keeps its snapshot.
      expect((await p.client.request('GET', `/api/withdrawals/${id}`)).json().withdrawal.account).toMatchObject({ method: 'bank', holderName: 'Li Lei' });
    });

    it('operators see only the last four; the bank export has the numbers, only for staff, and is audited; shared numbers are flagged', async () => {
      const one = await signedIn(env, 'promoter');
      const two = await signedIn(env, 'promoter');
      const shared = '6212 2600 0000 4242';
      await addAccount(one.client, { number: shared });
      await addAccount(two.client, { number: shared.replace(/ /g, '-') });
      await credit(one.user.id, 8_000);
      const id = (await withdraw(one.client, { amount: 8_000 })).json().withdrawal.id;
      await operator.request('POST', `/api/admin/withdrawals/${id}/approve`);

      const list = await operator.request('GET', `/api/admin/withdrawals?status=approved&q=${encodeURIComponent(one.user.account)}`);
      expect(list.json().items).toHaveLength(1);
      expect(list.json().items[0]).toMatchObject({ id, sharedAccount: true, account: { last4: '4242' } });
      const detail = await operator.request('GET', `/api/admin/withdrawals/${id}`);
      expect(detail.json().events.map((e: { status: string }) => e.status)).toEqual(['requested', 'approved']);
      for (const body of [list.body, detail.body]) expect(body).not.toContain('6212260000004242');

      expect(errorCode(await one.client.request('GET', '/api/admin/withdrawals/export.csv'))).toBe('FORBIDDEN');
      expect(errorCode(await one.client.request('GET', '/api/admin/withdrawals'))).toBe('FORBIDDEN');
      const csv = await operator.request('GET', '/api/admin/withdrawals/export.csv');
      expect(csv.statusCode).toBe(200);
      expect(csv.headers['content-type']).toContain('text/csv');
      expect(csv.body.startsWith('\uFEFFwithdrawal_id,')).toBe(true);
      // Identifiers open as text (as a number, a 16-digit account loses its last digit); amounts stay numbers.
      const line = csv.body.split('\r\n').find((l) => l.startsWith(`"=""${id}""",`))!;
      expect(line).toContain(',"=""6212260000004242""",');
      expect(line).toContain(`,"=""${one.user.account}""",`);
      expect(line).toContain(',80.00,0.00,80.00,CNY');
      // Only approved ones are in the batch.
      expect(csv.body).not.toMatch(/,requested,/);
      const exported = await env.ctx.db.selectFrom('audit_entries').selectAll().where('action', '=', 'withdrawal.export').orderBy('at', 'desc').executeTakeFirstOrThrow();
      expect(JSON.parse(exported.after_json!).ids).toContain(id);
      await ledgerOk();
    });

    it('flags a number another promoter has withdrawn to even after they deleted that account; a number of one’s own is not flagged', async () => {
      const one = await signedIn(env, 'promoter');
      const two = await signedIn(env, 'promoter');
      const number = `62126300${Math.floor(Math.random() * 1e8).toString().padStart(8, '0')}`;
      const twoAccount = (await addAccount(two.client, { number })).json().payoutAccount.id;
      await credit(two.user.id, 8_000);
      const twoWithdrawal = (await withdraw(two.client, { amount: 8_000 })).json().withdrawal.id;
      expect((await two.client.request('POST', `/api/withdrawals/${twoWithdrawal}/cancel`)).statusCode).toBe(200);
      expect((await two.client.request('DELETE', `/api/payout-accounts/${twoAccount}`)).statusCode).toBe(200);
      // Only two's withdrawal still holds the number: the flag comes from the withdrawals, not the accounts.
      expect(await env.ctx.db.selectFrom('payout_accounts').select('id').where('promoter_id', '=', two.user.id).execute()).toEqual([]);
      await addAccount(one.client, { number });
      await credit(one.user.id, 8_000);
      const id = (await withdraw(one.client, { amount: 8_000 })).json().withdrawal.id;
      expect((await operator.request('GET', `/api/admin/withdrawals/${id}`)).json().withdrawal).toMatchObject({ id, sharedAccount: true });

      const alone = await funded(8_000);
      const own = (await withdraw(alone.client, { amount: 8_000 })).json().withdrawal.id;
      expect((await operator.request('GET', `/api/admin/withdrawals/${own}`)).json().withdrawal).toMatchObject({ id: own, sharedAccount: false });
      await ledgerOk();
    });
  });

  describe('notifications', () => {
    it('an inbox per user: unread count, mark one and all read; others’ are unknown', async () => {
      const p = await funded(5_000);
      await withdraw(p.client, { amount: 1_000 });
      await withdraw(p.client, { amount: 1_000 });
      expect((await p.client.request('GET', '/api/notifications/unread-count')).json()).toEqual({ unread: 2 });
      const items = (await p.client.request('GET', '/api/notifications?limit=1')).json();
      expect(items.items).toHaveLength(1);
      expect(items.nextCursor).not.toBeNull();
      const next = (await p.client.request('GET', `/api/notifications?limit=1&cursor=${items.nextCursor}`)).json();
      expect(next.items[0].id).not.toBe(items.items[0].id);

      const other = await signedIn(env, 'promoter');
      expect(errorCode(await other.client.request('POST', `/api/notifications/${items.items[0].id}/read`))).toBe('NOT_FOUND');
      expect((await other.client.request('GET', '/api/notifications')).json().items).toEqual([]);

      await p.client.request('POST', `/api/notifications/${items.items[0].id}/read`);
      expect((await p.client.request('GET', '/api/notifications/unread-count')).json()).toEqual({ unread: 1 });
      expect((await p.client.request('GET', '/api/notifications?unread=true')).json().items.map((n: { id: string }) => n.id)).toEqual([next.items[0].id]);
      await p.client.request('POST', '/api/notifications/read-all');
      expect((await p.client.request('GET', '/api/notifications/unread-count')).json()).toEqual({ unread: 0 });
      expect(errorCode(await new Client(env.app).request('GET', '/api/notifications'))).toBe('UNAUTHENTICATED');
    });

    it('read in any order, the count stays right; the badge counts up to 100', async () => {
      const { client, user } = await signedIn(env, 'promoter');
      const { notify } = await import('../src/platform/notifications');
      const exec = env.ctx.db;
      for (let i = 0; i < 3; i++) await notify(exec, [{ userId: user.id, type: 'withdrawal.requested', params: { withdrawalId: `w${i}`, amount: i, net: i } }], Date.now() + i);
      const count = async () => (await client.request('GET', '/api/notifications/unread-count')).json().unread;
      const [newest, middle, oldest] = (await client.request('GET', '/api/notifications')).json().items.map((n: { id: string }) => n.id);
      await client.request('POST', `/api/notifications/${newest}/read`);
      expect(await count()).toBe(2);
      await client.request('POST', `/api/notifications/${oldest}/read`);
      expect(await count()).toBe(1);
      expect((await client.request('GET', '/api/notifications?unread=true')).json().items.map((n: { id: string }) => n.id)).toEqual([middle]);
      await client.request('POST', `/api/notifications/${middle}/read`);
      expect(await count()).toBe(0);
      await notify(exec, [{ userId: user.id, type: 'withdrawal.paid', params: { withdrawalId: 'w9', amount: 1, net: 1 } }], Date.now() + 10);
      expect(await count()).toBe(1);
      await notify(exec, Array.from({ length: 120 }, (_, i) => ({ userId: user.id, type: 'commission.created' as const, params: { commissionId: `c${i}`, amount: 1, level: 1, kind: 'sale' } })), Date.now() + 20);
      expect(await count()).toBe(100);
      await client.request('POST', '/api/notifications/read-all');
      expect(await count()).toBe(0);
      expect((await client.request('GET', '/api/notifications?unread=true')).json().items).toEqual([]);
    });

    it('admins set the withdrawal limits; the minimum cannot exceed the maximum', async () => {
      expect(errorCode(await admin.request('PATCH', '/api/admin/settings', { withdrawalMin: 9_000_000 }))).toBe('VALIDATION_FAILED');
      expect(errorCode(await admin.request('PATCH', '/api/admin/settings', { withdrawalFeeBps: 10_001 }))).toBe('VALIDATION_FAILED');
      expect(errorCode(await operator.request('PATCH', '/api/admin/settings', { withdrawalMin: 500 }))).toBe('FORBIDDEN');
      expect((await operator.request('GET', '/api/admin/settings')).json()).toMatchObject({ withdrawalMin: 1_000, withdrawalMax: 5_000_000 });
    });
  });
});
