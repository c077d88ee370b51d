/**
 * Clicks are answered at once and written later: buffered in memory and written in batches, each
 * batch one transaction with its per-day rollups and the 24-hour uniqueness state. Flushed every
 * 100 ms (at most 250 ms is promised), when 1,000 are waiting, and on shutdown. A batch that fails
 * to write is put back and retried.
 */
import type { Db } from '../db/types';
import { dayKey } from './time';

export interface PendingClick {
  id: string;
  linkId: string;
  campaignId: string;
  promoterId: string;
  at: number;
  visitorHash: string;
  bot: boolean;
  device: string;
  referrerHost: string | null;
  attributed: boolean;
}

const UNIQUE_WINDOW_MS = 24 * 3600_000;
const CHUNK = 200;

export class ClickBuffer {
  private queue: PendingClick[] = [];
  private running: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | null = null;
  /** Clicks written so far by this instance (for benchmarks and health). */
  written = 0;

  constructor(
    private readonly db: Db,
    private readonly options: { timeZone: string; intervalMs?: number; maxBatch?: number; log?: { error(obj: unknown, msg: string): void } },
  ) {}

  start() {
    this.timer ??= setInterval(() => void this.flush(), this.options.intervalMs ?? 100);
    this.timer.unref();
  }

  push(click: PendingClick) {
    this.queue.push(click);
    if (this.queue.length >= (this.options.maxBatch ?? 1000)) void this.flush();
  }

  get pending() {
    return this.queue.length;
  }

  /** Writes everything queued so far; concurrent calls are serialized. */
  flush(): Promise<void> {
    this.running = this.running.then(async () => {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, this.options.maxBatch ?? 1000);
        try {
          await this.write(batch);
          this.written += batch.length;
        } catch (error) {
          this.queue.unshift(...batch);
          this.options.log?.error({ err: error }, 'click batch failed; will retry');
          return;
        }
      }
    });
    return this.running;
  }

  async close() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.flush();
    if (this.queue.length > 0) await this.flush(); // one retry after a failed write
  }

  private async write(batch: PendingClick[]) {
    await this.db.transaction().execute(async (trx) => {
      // 24-hour uniqueness per visitor and link, from the last click that counted as unique.
      const humans = batch.filter((c) => !c.bot);
      const seen = new Map<string, number>();
      const linkIds = new Set(humans.map((c) => c.linkId));
      const hashes = [...new Set(humans.map((c) => c.visitorHash))];
      for (let i = 0; i < hashes.length; i += CHUNK) {
        const rows = await trx
          .selectFrom('visitor_seen')
          .select(['link_id', 'visitor_hash', 'unique_at'])
          .where('visitor_hash', 'in', hashes.slice(i, i + CHUNK))
          .execute();
        for (const r of rows) if (linkIds.has(r.link_id)) seen.set(`${r.link_id}|${r.visitor_hash}`, r.unique_at);
      }
      const changed = new Map<string, { link_id: string; visitor_hash: string; unique_at: number }>();
      const rows = batch.map((c) => {
        let unique = false;
        if (!c.bot) {
          const key = `${c.linkId}|${c.visitorHash}`;
          const last = seen.get(key);
          if (last === undefined || c.at - last >= UNIQUE_WINDOW_MS) {
            unique = true;
            seen.set(key, c.at);
            changed.set(key, { link_id: c.linkId, visitor_hash: c.visitorHash, unique_at: c.at });
          }
        }
        return {
          id: c.id,
          link_id: c.linkId,
          campaign_id: c.campaignId,
          promoter_id: c.promoterId,
          at: c.at,
          visitor_hash: c.visitorHash,
          is_unique: unique ? 1 : 0,
          is_bot: c.bot ? 1 : 0,
          device: c.device,
          referrer_host: c.referrerHost,
          attributed: c.attributed ? 1 : 0,
        };
      });
      for (let i = 0; i < rows.length; i += CHUNK) await trx.insertInto('clicks').values(rows.slice(i, i + CHUNK)).execute();
      const seenRows = [...changed.values()];
      for (let i = 0; i < seenRows.length; i += CHUNK) {
        await trx
          .insertInto('visitor_seen')
          .values(seenRows.slice(i, i + CHUNK))
          .onConflict((oc) => oc.columns(['link_id', 'visitor_hash']).doUpdateSet((eb) => ({ unique_at: eb.ref('excluded.unique_at') })))
          .execute();
      }
      // Per-day rollups, in the installation's time zone.
      const daily = new Map<string, { link_id: string; day: string; clicks: number; unique_clicks: number; bot_clicks: number }>();
      for (const r of rows) {
        const day = dayKey(r.at, this.options.timeZone);
        const key = `${r.link_id}|${day}`;
        const d = daily.get(key) ?? { link_id: r.link_id, day, clicks: 0, unique_clicks: 0, bot_clicks: 0 };
        d.clicks += 1;
        d.unique_clicks += r.is_unique;
        d.bot_clicks += r.is_bot;
        daily.set(key, d);
      }
      const dailyRows = [...daily.values()];
      for (let i = 0; i < dailyRows.length; i += CHUNK) {
        await trx
          .insertInto('link_daily_stats')
          .values(dailyRows.slice(i, i + CHUNK))
          .onConflict((oc) =>
            oc.columns(['link_id', 'day']).doUpdateSet((eb) => ({
              clicks: eb('link_daily_stats.clicks', '+', eb.ref('excluded.clicks')),
              unique_clicks: eb('link_daily_stats.unique_clicks', '+', eb.ref('excluded.unique_clicks')),
              bot_clicks: eb('link_daily_stats.bot_clicks', '+', eb.ref('excluded.bot_clicks')),
            })),
          )
          .execute();
      }
    });
  }
}
