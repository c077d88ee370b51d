/** Installation settings, stored as JSON values by key; defaults where nothing is stored. */
import type { Settings } from '@pa/shared';
import type { Db } from '../db/types';

export const DEFAULT_SETTINGS: Settings = {
  registrationMode: 'open',
  currency: 'CNY',
  withdrawalMin: 1_000,
  withdrawalMax: 5_000_000,
  withdrawalsPerDay: 3,
  withdrawalFeeBps: 0,
  withdrawalFeeFixed: 0,
  leaderboardEnabled: true,
};

export async function readSettings(db: Db): Promise<Settings> {
  const rows = await db.selectFrom('settings').select(['key', 'value']).execute();
  const stored: Record<string, unknown> = {};
  for (const row of rows) stored[row.key] = JSON.parse(row.value);
  return { ...DEFAULT_SETTINGS, ...(stored as Partial<Settings>) };
}

export async function writeSettings(db: Db, patch: Partial<Settings>, now = Date.now()) {
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    await db
      .insertInto('settings')
      .values({ key, value: JSON.stringify(value), updated_at: now })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify(value), updated_at: now }))
      .execute();
  }
}
