/** Installation settings, stored as JSON values by key; defaults where nothing is stored. */
import type { Settings } from '@pa/shared';
import type { Db } from '../db/types';

const DEFAULT_SETTINGS: Omit<Settings, 'timeZone'> = {
  registrationMode: 'open',
  currency: 'CNY',
  withdrawalMin: 1_000,
  withdrawalMax: 5_000_000,
  withdrawalsPerDay: 3,
  withdrawalFeeBps: 0,
  withdrawalFeeFixed: 0,
  leaderboardEnabled: true,
};

/** `defaultZone`: the time zone when none is stored (the TIME_ZONE configuration). */
export async function readSettings(db: Db, defaultZone = 'UTC'): Promise<Settings> {
  const rows = await db.selectFrom('settings').select(['key', 'value']).execute();
  const stored: Record<string, unknown> = {};
  for (const row of rows) stored[row.key] = JSON.parse(row.value);
  return { ...DEFAULT_SETTINGS, timeZone: defaultZone, ...(stored as Partial<Settings>) };
}

/**
 * The installation's time zone for day boundaries: the `timeZone` setting, else TIME_ZONE. Read on
 * every write path (clicks, conversions, decisions), so it is kept in memory per database and read
 * again when 5 s old — in the background, the caller gets the one at hand — so a change on one
 * instance reaches the others within seconds. The instance that changes it knows at once.
 */
const ZONE_TTL_MS = 5_000;
interface ZoneEntry { zone: string | null; at: number; loading: Promise<void> | null }
const zones = new WeakMap<Db, ZoneEntry>();

async function loadZone(db: Db, entry: ZoneEntry) {
  const row = await db.selectFrom('settings').select('value').where('key', '=', 'timeZone').executeTakeFirst();
  entry.zone = row ? (JSON.parse(row.value) as string) : null;
  entry.at = Date.now();
}

export function zoneOf(ctx: { db: Db; config: { timeZone: string } }, now = Date.now()): string {
  let entry = zones.get(ctx.db);
  if (!entry) {
    entry = { zone: null, at: 0, loading: null };
    zones.set(ctx.db, entry);
  }
  if (now - entry.at > ZONE_TTL_MS && !entry.loading) {
    const e = entry;
    e.loading = loadZone(ctx.db, e).catch(() => undefined).finally(() => (e.loading = null));
  }
  return entry.zone ?? ctx.config.timeZone;
}

/** Reads the stored zone now (at start, so the first write already uses it). */
export async function primeZone(ctx: { db: Db; config: { timeZone: string } }): Promise<string> {
  const entry: ZoneEntry = zones.get(ctx.db) ?? { zone: null, at: 0, loading: null };
  zones.set(ctx.db, entry);
  await loadZone(ctx.db, entry);
  return entry.zone ?? ctx.config.timeZone;
}

/** After this instance changed it. */
export function rememberZone(db: Db, zone: string) {
  zones.set(db, { zone, at: Date.now(), loading: null });
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
