/**
 * `npm run ledger:check`: verifies every ledger invariant on the configured database (the same
 * DATABASE_URL / DATA_DIR as the server) and exits non-zero on any breach.
 */
import { createContext } from './bootstrap';
import { loadConfig } from './config';
import { tellLedgerBreaches } from './modules/staff-alerts/service';
import { checkLedger } from './platform/ledger';

async function main() {
  // It reads (or rebuilds) everything at once: no statement timeout, however large the database.
  const { ctx, handle } = await createContext({ ...loadConfig(), statementTimeoutMs: 0 });
  try {
    const breaches = await checkLedger(ctx.db);
    const journals = await ctx.db.selectFrom('ledger_journals').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
    if (breaches.length === 0) {
      process.stdout.write(`ledger ok: ${Number(journals?.n ?? 0)} journals balanced, stored balances equal the entries, every commission matches its journals\n`);
      return 0;
    }
    console.error(`ledger check FAILED: ${breaches.length} breach(es)`);
    // The admins are told in the app too (and by mail when on), once per set of breaches.
    await tellLedgerBreaches(ctx, breaches);
    for (const b of breaches) console.error(`  ${b.kind} ${b.ref}: ${b.detail}`);
    return 1;
  } finally {
    await handle.close();
  }
}

main().then((code) => process.exit(code), (error: unknown) => {
  console.error(error);
  process.exit(2);
});
