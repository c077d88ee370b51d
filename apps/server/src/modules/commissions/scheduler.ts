/**
 * Approves commissions whose hold has ended (auto-approval campaigns), every minute and once at
 * start. Every instance may run it: each approval is a conditional update in its own transaction.
 */
import type { AppContext } from '../../context';
import { approveDue } from './service';

export const SCHEDULER_INTERVAL_MS = 60_000;

export function startCommissionScheduler(ctx: AppContext, log: { warn(obj: unknown, msg: string): void; info(obj: unknown, msg: string): void }) {
  let running: Promise<void> | null = null;
  const run = () => (running ??= approve().finally(() => (running = null)));
  const approve = async () => {
    try {
      const approved = await approveDue(ctx);
      if (approved > 0) log.info({ approved }, 'commissions approved');
    } catch (error) {
      log.warn({ err: error }, 'commission scheduler failed');
    }
  };
  void run();
  const timer = setInterval(() => void run(), SCHEDULER_INTERVAL_MS);
  timer.unref();
  // Stopping waits for a run under way, so the database is not closed beneath it.
  return async () => {
    clearInterval(timer);
    await running;
  };
}
