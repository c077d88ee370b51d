import { sql, type Migration, type MigrationProvider } from 'kysely';
import type { Db, Dialect } from '../types';
import { foundation } from './001-foundation';
import { campaignsLinksClicks } from './002-campaigns-links-clicks';
import { money } from './003-money';
import { withdrawals } from './004-withdrawals';
import { stats } from './005-stats';
import { clickIndex } from './006-click-index';
import { humanClicks } from './007-human-clicks';
import { consoleTables } from './008-console';
import { overviewTables } from './009-overview';
import { auditTruncate } from './010-audit-truncate';
import { liabilityIndexes } from './011-liability-index';
import { rebuildRollups } from '../../platform/rollups-rebuild';

/** Every migration, listed explicitly and in order; each is given the dialect. */
export function migrationProvider(dialect: Dialect, timeZone: string): MigrationProvider {
  return {
    async getMigrations(): Promise<Record<string, Migration>> {
      return {
        '001-foundation': foundation(dialect),
        '002-campaigns-links-clicks': campaignsLinksClicks(dialect),
        '003-money': money(dialect),
        '004-withdrawals': withdrawals(dialect),
        '005-stats': stats(dialect, async (db) => {
          await rebuildRollups(db as unknown as Db, dialect, timeZone, { apply: true, overview: false });
          // The rebuild sums by today's rules, but 005 must leave the figures as they were counted
          // then (bots in `clicks` too): 007, which runs after it, takes the bots out.
          await sql`update daily_stats set clicks = clicks + bot_clicks where bot_clicks <> 0`.execute(db);
        }),
        '006-click-index': clickIndex(),
        '007-human-clicks': humanClicks(),
        '008-console': consoleTables(dialect),
        '009-overview': overviewTables(dialect),
        '010-audit-truncate': auditTruncate(dialect),
        '011-liability-index': liabilityIndexes(),
      };
    },
  };
}
