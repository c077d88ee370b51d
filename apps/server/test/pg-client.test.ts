/**
 * db/pg-client.ts against a real PostgreSQL server: marked writes wait for the next statement of
 * their transaction and travel as one; a transaction of writes alone is one statement without
 * `begin`; what waits is visible to the transaction's reads, fails the commit when it fails (and
 * then nothing of it is stored), and is dropped by a rollback; repeated statements are prepared
 * once per connection (the server's pg_prepared_statements says so). Counted on the wire: every
 * statement the driver sends is recorded by a hook on the real client.
 */
import { Kysely, PostgresDialect, sql, type InsertQueryBuilder, type InsertResult } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { writeRows } from '../src/db/hot';
import { randomBytes } from 'node:crypto';
import { openDatabase, type DatabaseHandle } from '../src/db/connection';
import { pipelinedPool } from '../src/db/pg-client';
import { isConnectionLoss, isDatabaseUnavailable, isUnwrittenUnavailable } from '../src/db/unavailable';
import { UnitOfWork, type Collector, type CollectorKind } from '../src/db/unit-of-work';
import type { Database } from '../src/db/types';
import { createSchema, DIALECTS, dropSchema, PG_URL } from './helpers';

describe.runIf(DIALECTS.includes('postgres'))('PostgreSQL connections (db/pg-client.ts)', () => {
  let schema = '';
  const sent: string[] = [];
  let pool: pg.Pool;
  let db: Kysely<Database>;

  const note = (id: string) => ({ id, user_id: 'u1', type: 'probe', params_json: '{}', read_at: null, created_at: 1 });
  const addTo = (insert: InsertQueryBuilder<Database, 'ledger_balances', InsertResult>) =>
    insert.onConflict((oc) => oc.column('account').doUpdateSet((eb) => ({ balance: eb('ledger_balances.balance', '+', eb.ref('excluded.balance')) })));
  const count = async (table: 'notifications' | 'ledger_balances') => Number((await sql<{ n: string }>`select count(*) as n from ${sql.table(table)}`.execute(db)).rows[0]!.n);

  beforeAll(async () => {
    schema = await createSchema();
    pool = new pg.Pool({ connectionString: PG_URL, max: 1, options: `-c search_path=${schema}` });
    pool.on('connect', (client) => {
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
        const first = args[0] as string | { text: string };
        sent.push(typeof first === 'string' ? first : first.text);
        return query(...args);
      };
    });
    db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: pipelinedPool(pool) }) });
    // Two tables of the app's schema are enough: the notifications and the balances (an upsert).
    await sql`create table notifications (id text primary key, user_id text not null, type text not null, params_json text not null, read_at bigint, created_at bigint not null)`.execute(db);
    await sql`create table ledger_balances (account text primary key, balance bigint not null, updated_at bigint not null)`.execute(db);
  });
  afterAll(async () => {
    await db?.destroy();
    if (schema) await dropSchema(schema);
  });
  beforeEach(async () => {
    await sql`delete from notifications`.execute(db);
    await sql`delete from ledger_balances`.execute(db);
    sent.length = 0;
  });

  it('sends a transaction of writes alone as one statement, without begin or commit', async () => {
    await db.transaction().execute(async (q) => {
      await writeRows(q, 'notifications', [note('a'), note('b')]);
      await writeRows(q, 'ledger_balances', [{ account: 'x', balance: 5, updated_at: 1 }], { shape: addTo });
      expect(sent).toEqual([]); // nothing has left yet
    });
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatch(/^with w0 as \(insert into "notifications".*\), w1 as \(insert into "ledger_balances".*\) select 1$/s);
    expect(await count('notifications')).toBe(2);
    expect(await count('ledger_balances')).toBe(1);
  });

  it('lets the transaction read what waits, sending begin and the writes before the read', async () => {
    const seen = await db.transaction().execute(async (q) => {
      await writeRows(q, 'notifications', [note('c')]);
      return (await sql<{ n: string }>`select count(*) as n from notifications`.execute(q)).rows[0]!.n;
    });
    expect(Number(seen)).toBe(1);
    expect(sent.map((s) => s.split(' ')[0])).toEqual(['begin', 'insert', 'select', 'commit']);
  });

  it('splits the writes where a table comes again (PostgreSQL updates a row once per statement), in one transaction', async () => {
    await db.transaction().execute(async (q) => {
      await writeRows(q, 'ledger_balances', [{ account: 'x', balance: 5, updated_at: 1 }], { shape: addTo });
      await writeRows(q, 'notifications', [note('d')]);
      await writeRows(q, 'ledger_balances', [{ account: 'x', balance: 7, updated_at: 2 }], { shape: addTo });
    });
    expect(sent.map((s) => s.split(' ')[0])).toEqual(['begin', 'with', 'insert', 'commit']);
    expect((await sql<{ balance: string }>`select balance from ledger_balances where account = 'x'`.execute(db)).rows[0]!.balance).toBe('12');
  });

  it('fails the commit when a waiting write fails, and stores none of the transaction', async () => {
    await writeRows(db, 'notifications', [note('e')]); // outside a transaction: sent at once
    expect(await count('notifications')).toBe(1);
    sent.length = 0;
    await expect(db.transaction().execute(async (q) => {
      await writeRows(q, 'ledger_balances', [{ account: 'y', balance: 1, updated_at: 1 }], { shape: addTo });
      await writeRows(q, 'notifications', [note('f'), note('e')]); // 'e' exists: the statement fails
    })).rejects.toThrow(/duplicate key/);
    expect(await count('ledger_balances')).toBe(0);
    expect(await count('notifications')).toBe(1);
    // The connection is usable afterwards (no transaction left open).
    await db.transaction().execute(async (q) => writeRows(q, 'notifications', [note('g')]));
    expect(await count('notifications')).toBe(2);
  });

  it('drops what waits when the transaction rolls back', async () => {
    await expect(db.transaction().execute(async (q) => {
      await writeRows(q, 'notifications', [note('h')]);
      throw new Error('changed my mind');
    })).rejects.toThrow('changed my mind');
    expect(sent).toEqual([]); // neither the write nor a rollback had anything to undo on the server
    expect(await count('notifications')).toBe(0);
  });

  it('prepares a repeated statement once on the connection', async () => {
    for (let i = 0; i < 4; i++) await db.transaction().execute(async (q) => writeRows(q, 'notifications', [note(`p${i}`)]));
    const prepared = await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements`.execute(db);
    const insert = prepared.rows.filter((r) => r.statement.startsWith('insert into "notifications"'));
    expect(insert).toHaveLength(1);
    expect(await count('notifications')).toBe(4);
  });
});

/**
 * A lost connection (issue 28): what a database restart, a failover or an idle cut-off does to the
 * app's connections, made with `pg_terminate_backend` on this suite's own connections only (picked
 * by an `application_name` of its own — other suites share the server). Before the fix each of these
 * ended the process: an `error` event nobody listened to.
 */
describe.runIf(DIALECTS.includes('postgres'))('PostgreSQL: a lost connection (db/pg-client.ts, db/unavailable.ts)', () => {
  const applicationName = `pa-lost-${randomBytes(4).toString('hex')}`;
  let schema = '';
  let handle: DatabaseHandle;
  let admin: pg.Client;
  const lost: Error[] = [];

  /** Ends this suite's connections (all, or the one of `pid`); resolves with how many it ended. */
  const terminate = async (pid?: number) => {
    const res = await admin.query<{ n: string }>(
      'select count(pg_terminate_backend(pid)) as n from pg_stat_activity where application_name = $1 and datname = current_database() and ($2::int is null or pid = $2)',
      [applicationName, pid ?? null],
    );
    return Number(res.rows[0]!.n);
  };
  const until = async (done: () => boolean) => {
    for (const end = Date.now() + 5000; !done() && Date.now() < end;) await new Promise((r) => setTimeout(r, 10));
    expect(done()).toBe(true);
  };
  const pidOf = async (q: Kysely<Database>) => (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(q)).rows[0]!.pid;

  beforeAll(async () => {
    schema = await createSchema();
    handle = await openDatabase({ databaseUrl: PG_URL, pgSchema: schema, pgPoolSize: 3, applicationName });
    handle.onConnectionError = (error) => lost.push(error);
    admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await sql`create table probes (id text primary key)`.execute(handle.db);
  });
  afterAll(async () => {
    await admin?.end();
    await handle?.close();
    if (schema) await dropSchema(schema);
  });
  beforeEach(() => {
    lost.length = 0;
  });

  it('idle connections ended by the server are reported, not thrown, and the next query gets a new one', async () => {
    // Three idle connections in the pool.
    await Promise.all([1, 2, 3].map(() => sql`select pg_sleep(0.05)`.execute(handle.db)));
    const before = await pidOf(handle.db);
    expect(await terminate()).toBe(3);
    await until(() => lost.length === 3);
    expect(lost.every((e) => isConnectionLoss(e))).toBe(true);
    const after = await pidOf(handle.db);
    expect(after).not.toBe(before);
  });

  it('a read on a connection lost while checked out is sent again on a new connection', async () => {
    const [first, second] = await handle.db.connection().execute(async (c) => {
      const pid = await pidOf(c);
      expect(await terminate(pid)).toBe(1);
      await until(() => lost.length > 0); // the client has seen its connection end
      return [pid, await pidOf(c)];
    });
    expect(second).not.toBe(first);
    expect(lost, 'reported once').toHaveLength(1);
  });

  it('a transaction cut before its commit wrote nothing, fails as unavailable and unwritten, and the unit of work runs it again', async () => {
    // Kysely alone: the error is the lost connection's (the rollback on a lost connection is not sent).
    const error = await handle.db.transaction().execute(async (q) => {
      await sql`insert into probes values ('cut')`.execute(q);
      await terminate(await pidOf(q));
      await sql`select pg_sleep(1)`.execute(q);
    }).catch((e: unknown) => e);
    expect(isDatabaseUnavailable(error), String(error)).toBe(true);
    expect(isUnwrittenUnavailable(error)).toBe(true);
    expect(await sql`select id from probes`.execute(handle.db).then((r) => r.rows)).toEqual([]);

    // The unit of work: the first run is cut after its insert, the second commits; stored once.
    const uow = new UnitOfWork(handle.db, 'postgres');
    let runs = 0;
    await uow.run(async (tx) => {
      runs++;
      await sql`insert into probes values ('again')`.execute(tx.q);
      if (runs === 1) await terminate(await pidOf(tx.q));
      await sql`select 1`.execute(tx.q);
    });
    expect(runs).toBe(2);
    expect(await sql<{ id: string }>`select id from probes`.execute(handle.db).then((r) => r.rows.map((x) => x.id))).toEqual(['again']);
  });

  it('a group commit cut by a lost connection goes round again on a new one', async () => {
    const uow = new UnitOfWork(handle.db, 'postgres', { readsFirst: true });
    let flushes = 0;
    /** Inserts its ids; the first flush then ends its own connection before the commit. */
    class Probes implements Collector {
      readonly ids: string[] = [];
      merge(other: Probes) {
        this.ids.push(...other.ids);
      }
      async flush(q: Kysely<Database>) {
        flushes++;
        for (const id of this.ids) await sql`insert into probes values (${id})`.execute(q);
        if (flushes === 1) await terminate(await pidOf(q));
      }
    }
    const probe: CollectorKind<Probes> = { order: 1, create: () => new Probes() };
    await Promise.all(['b1', 'b2', 'b3'].map((id) => uow.run((tx) => void tx.collect(probe).ids.push(id), { batchable: true })));
    expect(flushes).toBe(2);
    expect(await sql<{ id: string }>`select id from probes where id like 'b%' order by id`.execute(handle.db).then((r) => r.rows.map((x) => x.id))).toEqual(['b1', 'b2', 'b3']);
    expect(lost, 'the lost connection reported').toHaveLength(1);
  });

  it('a write outside a transaction whose answer was lost is unavailable but not known unwritten (never run again)', async () => {
    const error = await handle.db.connection().execute(async (c) => {
      const pid = await pidOf(c);
      return sql`with t as (select pg_terminate_backend(${pid})) insert into probes select 'lone' from t`.execute(c).catch((e: unknown) => e);
    });
    expect(isDatabaseUnavailable(error), String(error)).toBe(true);
    expect(isUnwrittenUnavailable(error)).toBe(false);
  });

  it('tells a lost connection from other failures by its code or words', () => {
    for (const code of ['57P01', '57P03', '08006', 'ECONNREFUSED', 'ECONNRESET']) expect(isConnectionLoss(Object.assign(new Error('x'), { code })), code).toBe(true);
    expect(isConnectionLoss(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isConnectionLoss(new Error('timeout exceeded when trying to connect'))).toBe(true);
    for (const code of ['23505', '40001', '57014', '42P01']) expect(isConnectionLoss(Object.assign(new Error('x'), { code })), code).toBe(false);
    expect(isDatabaseUnavailable(new Error('duplicate key'))).toBe(false);
  });
});
