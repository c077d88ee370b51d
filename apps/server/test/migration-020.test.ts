/**
 * Migration 020 (issue 30, item 4): the database itself refuses what breaks a money row's own
 * invariant — a ledger balance that may not go negative driven below zero, a negative amount, an
 * unknown status or kind, a withdrawal whose fee and net do not make its amount — whatever writes it
 * (raw SQL here, past every service). A promoter's available balance and the platform accounts may
 * go negative. On a database holding the demo data the migration goes down and up again with every
 * row, index and foreign key kept. On both databases.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mayGoNegative, promoterAccount } from '../src/domain/ledger';
import { applyBalanceDeltas, checkLedger } from '../src/platform/ledger';
import { seedDemo } from '../src/seed-demo';
import { DIALECTS, makeEnv, migrateTo, type TestEnv } from './helpers';

/** The database's refusal of a CHECK constraint, by name (PostgreSQL names it; SQLite too, as `CHECK constraint failed: name`). */
const refusedBy = (name: string) => new RegExp(`(check constraint|constraint failed).*${name}|${name}.*check`, 'i');

describe.each(DIALECTS)('migration 020 (money checks) on %s', (dialect) => {
  let env: TestEnv;
  const run = (query: string) => sql.raw(query).execute(env.ctx.db);

  beforeAll(async () => {
    env = await makeEnv(dialect);
    await seedDemo(env.ctx);
  }, 180_000);
  afterAll(() => env?.close());

  it('refuses a balance driven below zero by the database itself, in every bucket that may not go negative', async () => {
    const p = 'p-check';
    for (const bucket of ['pending', 'withdrawing', 'payable', 'paid_out'] as const) {
      const account = promoterAccount(p, bucket);
      expect(mayGoNegative(account)).toBe(false);
      await run(`insert into ledger_balances (account, balance, updated_at) values ('${account}', 100, 0)`);
      await expect(run(`update ledger_balances set balance = balance - 101 where account = '${account}'`)).rejects.toThrow(refusedBy('ledger_balances_non_negative'));
      // Down to zero is allowed.
      await run(`update ledger_balances set balance = balance - 100 where account = '${account}'`);
    }
    const stored = await env.ctx.db.selectFrom('ledger_balances').select(['account', 'balance']).where('account', 'like', `promoter:${p}:%`).execute();
    expect(stored.map((r) => Number(r.balance))).toEqual([0, 0, 0, 0]);
    // The ledger's own write path is refused as well: a delta that would take pending below zero.
    await expect(env.ctx.db.transaction().execute((q) => applyBalanceDeltas(q, new Map([[promoterAccount(p, 'pending'), -1]]), Date.now()))).rejects.toThrow(refusedBy('ledger_balances_non_negative'));
  });

  it('lets a promoter’s available balance and the platform accounts go negative', async () => {
    const available = promoterAccount('p-owes', 'available');
    expect(mayGoNegative(available)).toBe(true);
    await run(`insert into ledger_balances (account, balance, updated_at) values ('${available}', -500, 0)`);
    await run(`update ledger_balances set balance = balance - 1 where account = 'platform:commissions'`);
    await run(`update ledger_balances set balance = balance + 1 where account = 'platform:commissions'`);
    await run(`delete from ledger_balances where account = '${available}'`);
    expect(await checkLedger(env.ctx.db)).toEqual([]);
  });

  it('refuses negative amounts, unknown statuses and kinds, and a withdrawal whose fee and net do not make its amount', async () => {
    const conversion = await env.ctx.db.selectFrom('conversions').select('id').where('kind', '=', 'sale').executeTakeFirstOrThrow();
    const commission = await env.ctx.db.selectFrom('commissions').select('id').executeTakeFirstOrThrow();
    const withdrawal = await env.ctx.db.selectFrom('withdrawals').select('id').executeTakeFirstOrThrow();
    const refused: [string, string][] = [
      [`update conversions set amount = -1 where id = '${conversion.id}'`, 'conversions_amounts'],
      [`update conversions set refunded_amount = amount + 1 where id = '${conversion.id}'`, 'conversions_amounts'],
      [`update conversions set kind = 'click' where id = '${conversion.id}'`, 'conversions_kind'],
      [`update conversions set status = 'lost' where id = '${conversion.id}'`, 'conversions_status'],
      [`update commissions set amount = -1 where id = '${commission.id}'`, 'commissions_amounts'],
      [`update commissions set reversed_amount = amount + 1 where id = '${commission.id}'`, 'commissions_amounts'],
      [`update commissions set level = 3 where id = '${commission.id}'`, 'commissions_level'],
      [`update commissions set status = 'paid' where id = '${commission.id}'`, 'commissions_status'],
      [`update withdrawals set fee = fee + 1 where id = '${withdrawal.id}'`, 'withdrawals_amounts'],
      [`update withdrawals set amount = -1, fee = 0, net = -1 where id = '${withdrawal.id}'`, 'withdrawals_amounts'],
      [`update withdrawals set status = 'lost' where id = '${withdrawal.id}'`, 'withdrawals_status'],
    ];
    for (const [query, constraint] of refused) await expect(run(query), query).rejects.toThrow(refusedBy(constraint));
    // A change within the rules still goes through.
    await run(`update commissions set reason = reason where id = '${commission.id}'`);
    expect(await checkLedger(env.ctx.db)).toEqual([]);
  });

  it('goes down and up again on the demo data, keeping every row, index and foreign key', async () => {
    const tables = ['ledger_balances', 'conversions', 'commissions', 'withdrawals', 'withdrawal_events', 'ledger_entries'] as const;
    const counts = async () => Object.fromEntries(await Promise.all(tables.map(async (t) => [t, Number((await env.ctx.db.selectFrom(t).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n)])));
    const indexes = async () => dialect === 'sqlite'
      ? (await sql<{ name: string; tbl_name: string }>`select name, tbl_name from sqlite_master where type = 'index' order by name`.execute(env.ctx.db)).rows
      : (await sql<{ name: string; tbl_name: string }>`select indexname as name, tablename as tbl_name from pg_indexes where schemaname = current_schema() order by indexname`.execute(env.ctx.db)).rows;
    const before = { counts: await counts(), indexes: await indexes() };
    expect(before.counts.conversions).toBeGreaterThan(10);
    // The later migrations first (their own tests check them), then 020 alone.
    await migrateTo(env.handle, '020-money-checks', env.config.timeZone);
    const withLater = { counts: await counts(), indexes: await indexes() };
    expect((await migrateTo(env.handle, '019-email-verification', env.config.timeZone)).map((r) => [r.migrationName, r.direction, r.status])).toEqual([['020-money-checks', 'Down', 'Success']]);
    // Without the constraints the same bad update goes through (and is put back).
    const commission = await env.ctx.db.selectFrom('commissions').select(['id', 'status']).executeTakeFirstOrThrow();
    await run(`update commissions set status = 'paid' where id = '${commission.id}'`);
    await run(`update commissions set status = '${commission.status}' where id = '${commission.id}'`);
    expect((await migrateTo(env.handle, '020-money-checks', env.config.timeZone)).map((r) => [r.migrationName, r.direction, r.status])).toEqual([['020-money-checks', 'Up', 'Success']]);
    expect(await counts()).toEqual(withLater.counts);
    expect(await indexes()).toEqual(withLater.indexes);
    if (dialect === 'sqlite') {
      expect((await sql`pragma foreign_key_check`.execute(env.ctx.db)).rows).toEqual([]);
      expect((await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(env.ctx.db)).rows[0]!.foreign_keys).toBe(1);
    }
    await expect(run(`update commissions set status = 'paid' where id = '${commission.id}'`)).rejects.toThrow(refusedBy('commissions_status'));
    expect(await checkLedger(env.ctx.db)).toEqual([]);
  });
});
