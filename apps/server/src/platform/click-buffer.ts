/**
 * Clicks are answered at once and written later: buffered in memory and written in batches, each
 * batch one transaction with its per-day rollups (platform/rollups.ts) and the 24-hour uniqueness state. Flushed every
 * 100 ms (at most 250 ms is promised), when 1,000 are waiting, and on shutdown. A batch that fails
 * to write is put back and retried.
 */
import type SqliteDatabase from 'better-sqlite3';
import type { Db } from '../db/types';
import { applyRollups, clickDelta, Rollups } from './rollups';
import { kyselyExec, sqliteExec } from './sql-exec';
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

type SqliteHandle = SqliteDatabase.Database;
const UNIQUE_WINDOW_MS = 24 * 3600_000;
const CHUNK = 200;

export class ClickBuffer {
  private queue: PendingClick[] = [];
  private running: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | null = null;
  /** Clicks accepted and written so far by this instance (the shutdown log reports both). */
  accepted = 0;
  written = 0;

  constructor(
    private readonly db: Db,
    private readonly options: { /** The day boundaries' zone, read at each flush (an admin setting). */ timeZone: string | (() => string); intervalMs?: number; maxBatch?: number; sqlite?: SqliteHandle; log?: { error(obj: unknown, msg: string): void } },
  ) {}

  start() {
    this.timer ??= setInterval(() => void this.flush(), this.options.intervalMs ?? 100);
    this.timer.unref();
  }

  push(click: PendingClick) {
    this.accepted++;
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
    const sqlite = this.options.sqlite;
    if (sqlite) {
      // Hold Kysely's single SQLite connection so no Kysely transaction is open meanwhile, then
      // write with prepared statements in one transaction (far cheaper per row).
      await this.db.connection().execute(async () => {
        sqlite.exec('begin');
        try {
          await this.writeSqlite(sqlite, batch);
          sqlite.exec('commit');
        } catch (error) {
          if (sqlite.inTransaction) sqlite.exec('rollback');
          throw error;
        }
      });
      return;
    }
    await this.db.transaction().execute(async (trx) => {
      const humans = batch.filter((c) => !c.bot);
      const linkIds = new Set(humans.map((c) => c.linkId));
      const hashes = [...new Set(humans.map((c) => c.visitorHash))];
      const seen = new Map<string, number>();
      for (let i = 0; i < hashes.length; i += CHUNK) {
        const found = await trx.selectFrom('visitor_seen').select(['link_id', 'visitor_hash', 'unique_at']).where('visitor_hash', 'in', hashes.slice(i, i + CHUNK)).execute();
        for (const r of found) if (linkIds.has(r.link_id)) seen.set(`${r.link_id}|${r.visitor_hash}`, r.unique_at);
      }
      const { rows, seenRows, rollups } = this.shape(batch, (key) => seen.get(key));
      for (let i = 0; i < rows.length; i += CHUNK) await trx.insertInto('clicks').values(rows.slice(i, i + CHUNK)).execute();
      for (let i = 0; i < seenRows.length; i += CHUNK) {
        await trx
          .insertInto('visitor_seen')
          .values(seenRows.slice(i, i + CHUNK))
          .onConflict((oc) => oc.columns(['link_id', 'visitor_hash']).doUpdateSet((eb) => ({ unique_at: eb.ref('excluded.unique_at') })))
          .execute();
      }
      await applyRollups(kyselyExec(trx, 'postgres'), rollups);
    });
  }

  private statements: ReturnType<ClickBuffer['prepare']> | null = null;

  private prepare(sqlite: SqliteHandle) {
    return {
      seen: sqlite.prepare('select unique_at from visitor_seen where link_id = ? and visitor_hash = ?').pluck(),
      click: sqlite.prepare('insert into clicks (id, link_id, campaign_id, promoter_id, at, visitor_hash, is_unique, is_bot, device, referrer_host, attributed) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)'),
      upsertSeen: sqlite.prepare('insert into visitor_seen (link_id, visitor_hash, unique_at) values (?, ?, ?) on conflict (link_id, visitor_hash) do update set unique_at = excluded.unique_at'),
    };
  }

  /** Inside the caller's transaction, on the raw connection (prepared statements). */
  private async writeSqlite(sqlite: SqliteHandle, batch: PendingClick[]) {
    const st = (this.statements ??= this.prepare(sqlite));
    const { rows, seenRows, rollups } = this.shape(batch, (key) => {
      const [linkId, hash] = key.split('|');
      return st.seen.get(linkId, hash) as number | undefined;
    });
    for (const r of rows) st.click.run(r.id, r.link_id, r.campaign_id, r.promoter_id, r.at, r.visitor_hash, r.is_unique, r.is_bot, r.device, r.referrer_host, r.attributed);
    for (const r of seenRows) st.upsertSeen.run(r.link_id, r.visitor_hash, r.unique_at);
    await applyRollups(sqliteExec(sqlite), rollups);
  }

  /** Rows to write for a batch: uniqueness decided in click order, rollups per promoter, day, campaign and link. */
  private shape(batch: PendingClick[], lookup: (key: string) => number | undefined) {
    const seen = new Map<string, number | undefined>();
    const changed = new Map<string, { link_id: string; visitor_hash: string; unique_at: number }>();
    const rows = batch.map((c) => {
      let unique = false;
      if (!c.bot) {
        const key = `${c.linkId}|${c.visitorHash}`;
        const last = seen.has(key) ? seen.get(key) : lookup(key);
        if (last === undefined || c.at - last >= UNIQUE_WINDOW_MS) {
          unique = true;
          seen.set(key, c.at);
          changed.set(key, { link_id: c.linkId, visitor_hash: c.visitorHash, unique_at: c.at });
        } else {
          seen.set(key, last);
        }
      }
      return {
        id: c.id, link_id: c.linkId, campaign_id: c.campaignId, promoter_id: c.promoterId, at: c.at, visitor_hash: c.visitorHash,
        is_unique: unique ? 1 : 0, is_bot: c.bot ? 1 : 0, device: c.device, referrer_host: c.referrerHost, attributed: c.attributed ? 1 : 0,
      };
    });
    const rollups = new Rollups();
    const zone = typeof this.options.timeZone === 'function' ? this.options.timeZone() : this.options.timeZone;
    for (const r of rows) rollups.add(r.promoter_id, dayKey(r.at, zone), r.campaign_id, r.link_id, clickDelta(r));
    return { rows, seenRows: [...changed.values()], rollups };
  }
}
