/**
 * `npm run ledger:check`: verifies every ledger invariant on the configured database (the same
 * DATABASE_URL / DATA_DIR as the server) and exits non-zero on any breach.
 */
import { createContext } from './bootstrap';
import { loadConfig } from './config';
import { reportLedger } from './ledger-report';
import { runCommand } from './cli';

async function main() {
  // It reads (or rebuilds) everything at once: no statement timeout, however large the database.
  const { ctx, handle } = await createContext({ ...loadConfig(), statementTimeoutMs: 0 });
  try {
    return (await reportLedger(ctx)) ? 0 : 1;
  } finally {
    await handle.close();
  }
}

runCommand(main);
