/**
 * Type tests of the one write path (db/unit-of-work.ts), checked by `npm run typecheck` (tsc takes
 * apps/server/test; vitest runs only *.test.ts, and nothing here is ever called). Each
 * `@ts-expect-error` marks a line that must not compile: were batchable work's `tx.q` a full query
 * builder again, the line would compile, the directive would be unused, and tsc would fail.
 */
import { sql } from 'kysely';
import { writeRows } from '../src/db/hot';
import type { Db } from '../src/db/types';
import type { BatchTx, Tx, UnitOfWork } from '../src/db/unit-of-work';
import { postJournal } from '../src/platform/ledger';

export function batchableWorkCannotWriteThroughItsHandle(uow: UnitOfWork) {
  return uow.run(async (tx) => {
    // @ts-expect-error batchable work's tx.q has no insertInto: writes go through collectors
    await tx.q.insertInto('notifications').values({ id: 'n', user_id: 'u', type: 'account_approved', params_json: '{}', read_at: null, created_at: 0 }).execute();
    // @ts-expect-error nor updateTable
    await tx.q.updateTable('ledger_balances').set({ balance: -1 }).execute();
    // @ts-expect-error nor deleteFrom
    await tx.q.deleteFrom('clicks').execute();
    // @ts-expect-error nor a query with a data-modifying `with`
    await tx.q.with('x', (db) => db.selectFrom('users').select('id')).deleteFrom('users').execute();
    // @ts-expect-error nor raw SQL (no executor to run it on)
    await sql`delete from clicks`.execute(tx.q);
    // @ts-expect-error nor a write helper that takes the full builder
    await writeRows(tx.q, 'notifications', []);
    // @ts-expect-error nor the ledger's direct write: journals go through the JOURNALS collector
    await postJournal(tx.q, { kind: 'adjustment', refType: 'adjustment', refId: 'a', promoterId: null, entries: [], at: 0 });
    // Reads compile.
    return tx.q.selectFrom('users').select('id').execute();
  }, { batchable: true });
}

export function batchableWorkIsNotGivenATransaction(uow: UnitOfWork, write: (tx: Tx) => Promise<void>, read: (tx: BatchTx) => Promise<void>) {
  // @ts-expect-error work typed for a transaction cannot be run as batchable work
  void uow.run(write, { batchable: true });
  // Read-only work runs either way; work that is not batchable gets the transaction.
  void uow.run(read, { batchable: true });
  void uow.run(read);
  return uow.run(async (tx) => {
    const q: Db = tx.q;
    await q.updateTable('ledger_balances').set({ updated_at: 0 }).where('account', '=', 'none').execute();
  });
}
