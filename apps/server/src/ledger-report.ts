/**
 * The ledger check as the commands report it (`npm run ledger:check`, and `npm run restore` on
 * the database it put in place): every invariant of platform/ledger.ts, a line on success, each
 * breach on stderr, and the admins told of breaches in the app too (and by mail when on), once
 * per set of breaches. True when the ledger is sound.
 */
import type { AppContext } from './context';
import { tellLedgerBreaches } from './modules/staff-alerts/service';
import { checkLedger } from './platform/ledger';

export async function reportLedger(ctx: AppContext): Promise<boolean> {
  const breaches = await checkLedger(ctx.db);
  const journals = await ctx.db.selectFrom('ledger_journals').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  if (breaches.length === 0) {
    process.stdout.write(`ledger ok: ${Number(journals?.n ?? 0)} journals balanced, stored balances equal the entries, every commission matches its journals\n`);
    return true;
  }
  console.error(`ledger check FAILED: ${breaches.length} breach(es)`);
  await tellLedgerBreaches(ctx, breaches);
  for (const b of breaches) console.error(`  ${b.kind} ${b.ref}: ${b.detail}`);
  return false;
}
