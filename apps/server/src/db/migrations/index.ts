import type { Migration, MigrationProvider } from 'kysely';
import type { Db, Dialect } from '../types';
import { foundation } from './001-foundation';
import { campaignsLinksClicks } from './002-campaigns-links-clicks';
import { money } from './003-money';
import { withdrawals } from './004-withdrawals';
import { stats } from './005-stats';
import { clickIndex } from './006-click-index';
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
        '005-stats': stats(dialect, async (db) => void (await rebuildRollups(db as unknown as Db, dialect, timeZone, { apply: true }))),
        '006-click-index': clickIndex(),
      };
    },
  };
}
