/**
 * Installation settings (admin). Rules beyond each field's own: the withdrawal minimum is not above
 * the maximum; the currency changes only while no money has moved (amounts already stored are in
 * the old currency's minor units: 409 would hide which field, so it is VALIDATION_FAILED with
 * `currency: conflict`); a new time zone moves every per-day figure to its new day, so the rollups
 * are rebuilt in the same call (docs/api.md).
 */
import type { Settings } from '@pa/shared';
import type { AppContext } from '../../context';
import { audit } from '../../platform/audit';
import { AppError } from '../../platform/errors';
import { rebuildRollups } from '../../platform/rollups-rebuild';
import { readSettings, rememberZone, writeSettings } from '../../platform/settings';
import { moneyHasMoved } from './repository';

interface SettingsView extends Settings {
  /** The currency can no longer change: money has moved. */
  currencyLocked: boolean;
  /** TIME_ZONE: the time zone when none was chosen. */
  defaultTimeZone: string;
}

export async function settingsView(ctx: AppContext): Promise<SettingsView> {
  const [settings, locked] = await Promise.all([readSettings(ctx.db, ctx.config.timeZone), moneyHasMoved(ctx.db)]);
  return { ...settings, currencyLocked: locked, defaultTimeZone: ctx.config.timeZone };
}

/** The IANA name as Intl spells it (asia/shanghai → Asia/Shanghai). */
const canonicalZone = (zone: string) => new Intl.DateTimeFormat('en', { timeZone: zone }).resolvedOptions().timeZone;

export async function updateSettings(ctx: AppContext, actor: { userId: string; ip: string }, patch: Partial<Settings>): Promise<SettingsView> {
  const change: Partial<Settings> = { ...patch, ...(patch.timeZone ? { timeZone: canonicalZone(patch.timeZone) } : {}) };
  const zoneChanged = await ctx.uow.run(async ({ q: trx }) => {
    const before = await readSettings(trx, ctx.config.timeZone);
    const after = { ...before, ...change };
    if (after.withdrawalMin > after.withdrawalMax) throw new AppError('VALIDATION_FAILED', { withdrawalMax: 'invalid' });
    if (after.currency !== before.currency && (await moneyHasMoved(trx))) throw new AppError('VALIDATION_FAILED', { currency: 'conflict' });
    await writeSettings(trx, change);
    await audit(trx, { actorId: actor.userId, action: 'settings.update', entity: 'settings', before, after: change, ip: actor.ip });
    return after.timeZone !== before.timeZone ? after.timeZone : null;
  });
  if (zoneChanged) {
    rememberZone(ctx.db, zoneChanged);
    // Buffered clicks go in first (by the new zone), then every figure is recomputed by it.
    await ctx.clicks.flush();
    await rebuildRollups(ctx.db, ctx.dialect, zoneChanged, { apply: true });
  }
  return settingsView(ctx);
}
