/**
 * `npm run stats:rebuild`: recomputes every rollup (per-day figures, leaderboard totals) from the
 * rows they count on the configured database (the same DATABASE_URL / DATA_DIR as the server),
 * reports each difference from the stored ones and sets the stored ones right. Exits 0 when there
 * was no difference, 1 when there were (and they were repaired), 2 on an error.
 * `--dry-run` reports without writing. Run it with the server stopped for an exact comparison:
 * figures written while it scans show up as differences.
 */
import { createContext } from './bootstrap';
import { loadConfig } from './config';
import { rebuildRollups } from './platform/rollups-rebuild';
import { zoneOf } from './platform/settings';
import { runCommand } from './cli';

async function main() {
  const dryRun = process.argv.includes('--dry-run');
  // It reads (or rebuilds) everything at once: no statement timeout, however large the database.
  const { ctx, handle } = await createContext({ ...loadConfig(), statementTimeoutMs: 0 });
  try {
    await ctx.clicks.flush();
    const started = Date.now();
    // The admin's time zone setting, else TIME_ZONE.
    const zone = zoneOf(ctx);
    const report = await rebuildRollups(ctx.db, ctx.dialect, zone, { apply: !dryRun });
    const s = report.scanned;
    process.stdout.write(`stats rebuild (${zone}): read ${s.clicks} clicks, ${s.conversions} attributed conversions, ${s.commissions} commissions → ${report.rows.daily} daily rows, ${report.rows.periods} period rows in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
    if (report.differenceCount === 0) {
      process.stdout.write('no differences: the stored rollups equal the rows\n');
      return 0;
    }
    console.error(`${report.differenceCount} difference(s)${report.applied ? ', repaired' : dryRun ? ' (dry run: nothing written)' : ''}:`);
    for (const d of report.differences) console.error(`  ${d.table} ${d.key} ${d.column}: stored ${d.stored}, computed ${d.computed}`);
    if (report.differenceCount > report.differences.length) console.error(`  … and ${report.differenceCount - report.differences.length} more`);
    return 1;
  } finally {
    await handle.close();
  }
}

runCommand(main);
