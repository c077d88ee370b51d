/**
 * The scheduler, every minute and once at start: ends campaigns whose endsAt has come, then
 * approves commissions whose hold has ended (auto-approval campaigns). Every instance may run it:
 * each end and each approval is a conditional update in its own transaction, so it happens once.
 */
import type { AppContext } from '../../context';
import { endDueCampaigns } from '../campaigns/service';
import { ledgerCheck } from './reads';
import { approveDue } from './service';

const SCHEDULER_INTERVAL_MS = 60_000;
/** The scheduled ledger check's first run after start. */
const FIRST_LEDGER_CHECK_MS = 60_000;

type Log = { warn(obj: unknown, msg: string): void; info(obj: unknown, msg: string): void };

/** One pass of the scheduler (the timer's, and tests'): each task's failure is logged, never stops the other. */
export async function runScheduledWork(ctx: AppContext, log: Log, now = Date.now()) {
  try {
    const ended = await endDueCampaigns(ctx, now);
    if (ended > 0) log.info({ ended }, 'campaigns ended on schedule');
  } catch (error) {
    log.warn({ err: error }, 'campaign scheduler failed');
  }
  try {
    const approved = await approveDue(ctx, now);
    if (approved > 0) log.info({ approved }, 'commissions approved');
  } catch (error) {
    log.warn({ err: error }, 'commission scheduler failed');
  }
}

export function startCommissionScheduler(ctx: AppContext, log: Log) {
  let running: Promise<void> | null = null;
  const run = () => (running ??= runScheduledWork(ctx, log).finally(() => (running = null)));
  void run();
  const timer = setInterval(() => void run(), SCHEDULER_INTERVAL_MS);
  timer.unref();
  // Stopping waits for a run under way, so the database is not closed beneath it.
  return async () => {
    clearInterval(timer);
    await running;
  };
}

/**
 * The ledger check every `intervalMs` (LEDGER_CHECK_INTERVAL; 0: never), the first a minute after
 * start (so a process restarted more often than the interval still runs it): what it finds is on /metrics (`pa_ledger_check_breaches`) and told to the admins like
 * the console's check. On SQLite the check's one snapshot holds the database's one connection
 * while it reads (writes wait for it): choose an hour of little traffic's worth of interval.
 */
export function startLedgerChecks(ctx: AppContext, log: Log, intervalMs: number) {
  if (intervalMs <= 0) return async () => {};
  let running: Promise<void> | null = null;
  const run = () => {
    running ??= ledgerCheck(ctx)
      .then(({ breaches }) => {
        if (breaches.length > 0) log.warn({ breaches: breaches.length }, 'ledger check found breaches');
      }, (error: unknown) => log.warn({ err: error }, 'ledger check failed'))
      .finally(() => (running = null));
  };
  let timer = setTimeout(function next() {
    run();
    timer = setTimeout(next, intervalMs);
    timer.unref();
  }, Math.min(intervalMs, FIRST_LEDGER_CHECK_MS));
  timer.unref();
  return async () => {
    clearTimeout(timer);
    await running;
  };
}
