/**
 * The unit of work (db/unit-of-work.ts) on both databases: a group commit answers nobody before
 * its commit; an item's catalogue error fails it alone; any other error in an item rolls the batch
 * back and sends it round again without that item; a failing flush sends the batch round again,
 * then item by item, so only the item that cannot be written fails.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/types';
import { UnitOfWork, type Collector, type CollectorKind, type Preloader } from '../src/db/unit-of-work';
import { AppError } from '../src/platform/errors';
import { DIALECTS, makeEnv, type TestEnv } from './helpers';

class ProbeRows implements Collector {
  ids: string[] = [];
  merge(other: ProbeRows) {
    this.ids.push(...other.ids);
  }
  async flush(q: Db) {
    for (const id of this.ids) await sql`insert into uow_probe (id) values (${id})`.execute(q);
  }
}
const PROBE: CollectorKind<ProbeRows> = { order: 1, create: () => new ProbeRows() };

describe.each(DIALECTS)('the unit of work on %s', (dialect) => {
  let env: TestEnv;
  let uow: UnitOfWork;
  const stored = async () => (await sql<{ id: string }>`select id from uow_probe order by id`.execute(env.ctx.db)).rows.map((r) => r.id);
  const clear = () => sql`delete from uow_probe`.execute(env.ctx.db);

  beforeAll(async () => {
    env = await makeEnv(dialect);
    await sql`create table uow_probe (id varchar(40) primary key)`.execute(env.ctx.db);
    uow = new UnitOfWork(env.ctx.db, env.ctx.dialect, { isItemError: (e) => e instanceof AppError, readsFirst: dialect === 'postgres' }); // as bootstrap.ts makes it
  });
  afterAll(async () => {
    await env?.close();
  });

  const add = (id: string) => uow.run(async (tx) => {
    tx.collect(PROBE).ids.push(id);
    return id;
  }, { batchable: true });

  it('writes the items submitted together in one transaction and answers each after the commit', async () => {
    await clear();
    const before = { ...uow.stats };
    const answered: string[] = [];
    const all = Array.from({ length: 30 }, (_, i) => add(`a${String(i).padStart(2, '0')}`).then(async (id) => {
      // Answered only once the row is visible to any other reader.
      const seen = (await sql<{ n: number }>`select count(*) as n from uow_probe where id = ${id}`.execute(env.ctx.db)).rows[0]!;
      expect(Number(seen.n)).toBe(1);
      answered.push(id);
    }));
    await Promise.all(all);
    expect(answered).toHaveLength(30);
    expect(uow.stats.batches - before.batches).toBe(1);
    expect(uow.stats.items - before.items).toBe(30);
    expect(await stored()).toHaveLength(30);
  });

  it('reading first, the next batch reads ahead while the one before it writes, and decides only after its commit', async () => {
    await clear();
    const events: string[] = [];
    let flushing: () => void = () => {};
    const inFlush = new Promise<void>((resolve) => (flushing = resolve));
    class SlowRows extends ProbeRows {
      override async flush(q: Db) {
        events.push(`flush ${this.ids.join()}`);
        flushing();
        await new Promise((resolve) => setTimeout(resolve, 100));
        await super.flush(q);
        events.push(`flushed ${this.ids.join()}`);
      }
    }
    const SLOW: CollectorKind<SlowRows> = { order: 1, create: () => new SlowRows() };
    const loader: Preloader<string> = {
      async load(q, inputs) {
        // A read-only handle: a select, no raw statement.
        const n = await q.selectNoFrom(sql<number>`(select count(*) from uow_probe)`.as('n')).executeTakeFirstOrThrow();
        events.push(`read ahead ${inputs.join()} (${Number(n.n)} stored)`);
        return () => {};
      },
    };
    const reading = new UnitOfWork(env.ctx.db, env.ctx.dialect, { readsFirst: true });
    const put = (id: string) => reading.run(async (tx) => {
      events.push(`work ${id}`);
      tx.collect(SLOW).ids.push(id);
      return id;
    }, { batchable: true, preload: { loader, input: id } });
    const first = put('r1');
    await inFlush;
    const second = put('r2');
    expect(await Promise.all([first, second])).toEqual(['r1', 'r2']);
    expect(events).toEqual(dialect === 'postgres' ? [
      'read ahead r1 (0 stored)', 'work r1', 'flush r1',
      // Read on another connection while r1 was being written (not yet there), decided once it was.
      'read ahead r2 (0 stored)', 'flushed r1', 'work r2', 'flush r2', 'flushed r2',
    ] : [
      // SQLite's one connection: the read waits for r1's transaction to end.
      'read ahead r1 (0 stored)', 'work r1', 'flush r1', 'flushed r1',
      'read ahead r2 (1 stored)', 'work r2', 'flush r2', 'flushed r2',
    ]);
    expect(await stored()).toEqual(['r1', 'r2']);
  });

  /** A unit of work reading first whose writes take 100 ms and log when they start and end. */
  function slowWriter() {
    const events: string[] = [];
    const started = new Map<string, () => void>();
    const flushStarted = (id: string) => new Promise<void>((resolve) => started.set(id, resolve));
    class SlowRows extends ProbeRows {
      override async flush(q: Db) {
        events.push(`flush ${this.ids.join()}`);
        for (const id of this.ids) started.get(id)?.();
        await new Promise((resolve) => setTimeout(resolve, 100));
        await super.flush(q);
        events.push(`flushed ${this.ids.join()}`);
      }
    }
    const SLOW: CollectorKind<SlowRows> = { order: 1, create: () => new SlowRows() };
    const found: string[] = [];
    const loader: Preloader<string> = {
      async load(_q, inputs) {
        return () => void found.push(inputs.join());
      },
    };
    const uow = new UnitOfWork(env.ctx.db, env.ctx.dialect, { readsFirst: true });
    const put = (id: string) => uow.run(async (tx) => {
      tx.collect(SLOW).ids.push(id);
      return id;
    }, { batchable: true, preload: { loader, input: id } });
    return { uow, events, found, put, flushStarted };
  }

  it('reading first, what arrives during a write is read ahead at once and written in the next commit, every read-ahead applied', async () => {
    await clear();
    const { uow, events, found, put, flushStarted } = slowWriter();
    const before = { ...uow.stats };
    const first = put('m1');
    await flushStarted('m1');
    // Two read-aheads while m1 is written (one for m2, then one for m3 and m4): one batch after it.
    const m2 = put('m2');
    await new Promise((resolve) => setTimeout(resolve, 20));
    const rest = [put('m3'), put('m4')];
    expect(await Promise.all([first, m2, ...rest])).toEqual(['m1', 'm2', 'm3', 'm4']);
    expect(uow.stats.batches - before.batches).toBe(2);
    expect(events).toEqual(['flush m1', 'flushed m1', 'flush m2,m3,m4', 'flushed m2,m3,m4']);
    expect(found).toEqual(['m1', 'm2', 'm3,m4']);
  });

  it('an item’s catalogue error fails it alone: nothing of it is written, the batch is not sent round again', async () => {
    await clear();
    const before = { ...uow.stats };
    const results = await Promise.allSettled([
      add('b1'),
      uow.run(async (tx) => {
        tx.collect(PROBE).ids.push('b-bad');
        throw new AppError('VALIDATION_FAILED', { amount: 'invalid' });
      }, { batchable: true }),
      add('b2'),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await stored()).toEqual(['b1', 'b2']);
    expect(uow.stats.retried).toBe(before.retried);
  });

  it('a failed statement in an item rolls the batch back; the batch goes round again without it', async () => {
    await clear();
    const before = { ...uow.stats };
    const results = await Promise.allSettled([
      add('c1'),
      uow.run(async (tx) => {
        tx.collect(PROBE).ids.push('c-bad');
        // On PostgreSQL a failed statement poisons the transaction: the others must not share it.
        await tx.q.selectNoFrom(sql<number>`(select no_such_column from uow_probe)`.as('x')).execute();
      }, { batchable: true }),
      add('c2'),
      add('c3'),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect(await stored()).toEqual(['c1', 'c2', 'c3']);
    expect(uow.stats.retried).toBeGreaterThan(before.retried);
  });

  it('a flush that fails sends the batch round again, then item by item: only the item that cannot be written fails', async () => {
    await clear();
    await sql`insert into uow_probe (id) values ('d-taken')`.execute(env.ctx.db);
    const results = await Promise.allSettled([add('d1'), add('d-taken'), add('d2'), add('d3')]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect(await stored()).toEqual(['d-taken', 'd1', 'd2', 'd3']);
  });

  it('work that is not batchable runs in its own transaction, its collectors flushed before the commit; an error changes nothing', async () => {
    await clear();
    expect(await uow.run(async (tx) => {
      tx.collect(PROBE).ids.push('e1');
      await sql`insert into uow_probe (id) values ('e0')`.execute(tx.q);
      return 'done';
    })).toBe('done');
    await expect(uow.run(async (tx) => {
      tx.collect(PROBE).ids.push('e2');
      await sql`insert into uow_probe (id) values ('e3')`.execute(tx.q);
      throw new AppError('NOT_FOUND');
    })).rejects.toThrow();
    expect(await stored()).toEqual(['e0', 'e1']);
  });
});
