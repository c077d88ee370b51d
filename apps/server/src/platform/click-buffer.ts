/**
 * Clicks join the unit of work's group commit (db/unit-of-work.ts): the redirect awaits `push`,
 * which resolves once the batch holding its click has committed — the 302 is an acknowledgement, so
 * its click is stored. Under load many redirects share one transaction: the click rows, the 24-hour
 * uniqueness state per visitor and link (`visitor_seen`) and the per-day rollups, written together.
 */
import type { InsertQueryBuilder, InsertResult } from 'kysely';
import { writeRows } from '../db/hot';
import type { Database, Db } from '../db/types';
import { COLLECTOR_ORDER, type Collector, type CollectorKind, type UnitOfWork } from '../db/unit-of-work';
import { applyRollups, clickDelta, Rollups, type RollupDelta } from './rollups';
import { dayKey } from './time';

interface PendingClick {
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
const setSeen = (insert: InsertQueryBuilder<Database, 'visitor_seen', InsertResult>) =>
  insert.onConflict((oc) => oc.columns(['link_id', 'visitor_hash']).doUpdateSet((eb) => ({ unique_at: eb.ref('excluded.unique_at') })));

export class ClickBuffer {
  /** Clicks accepted, written and not written (their redirect went out untracked) so far by this instance (the shutdown log and /metrics). */
  accepted = 0;
  written = 0;
  failed = 0;
  private readonly kind: CollectorKind<ClickRows>;

  constructor(
    private readonly uow: UnitOfWork,
    /** The day boundaries' zone, read at each write (an admin setting). */
    timeZone: string | (() => string),
  ) {
    const zone = typeof timeZone === 'function' ? timeZone : () => timeZone;
    // Flushed first in its transaction: a batch's clicks are in before anything that reads them.
    this.kind = { order: COLLECTOR_ORDER.clicks, create: () => new ClickRows(zone) };
  }

  /** Resolves once the click is stored (its group commit has committed). */
  async push(click: PendingClick): Promise<void> {
    this.accepted++;
    try {
      await this.uow.run((tx) => {
        tx.collect(this.kind).rows.push(click);
      }, { batchable: true });
    } catch (error) {
      if (!alreadyStored(error)) {
        this.failed++;
        throw error;
      }
    }
    this.written++;
  }

  /** Resolves once every click pushed so far is written (or has failed); also what shutdown awaits. */
  flush(): Promise<void> {
    return this.uow.idle();
  }
}

/**
 * A click's id is new (random), so only this click's own earlier commit can have stored it: a
 * commit whose answer was lost with its PostgreSQL connection, after which the unit of work wrote
 * the batch again, and then this click alone, which the key refused. It is stored (once: the
 * refused transactions wrote nothing, its rollups included).
 */
function alreadyStored(error: unknown): boolean {
  const { code, constraint } = (error ?? {}) as { code?: unknown; constraint?: unknown };
  return code === '23505' && constraint === 'clicks_pkey';
}

/** The clicks of a unit of work: rows, uniqueness and rollups decided and written at its flush. */
class ClickRows implements Collector {
  readonly rows: PendingClick[] = [];
  constructor(private readonly zone: () => string) {}

  merge(other: ClickRows) {
    this.rows.push(...other.rows);
  }

  async flush(q: Db) {
    if (this.rows.length === 0) return;
    // People's visitors per link (keys nested, not joined into strings: this runs for every click).
    const visitors = new Map<string, Set<string>>();
    const hashes = new Set<string>();
    for (const c of this.rows) {
      if (c.bot) continue;
      let set = visitors.get(c.linkId);
      if (!set) visitors.set(c.linkId, (set = new Set()));
      set.add(c.visitorHash);
      hashes.add(c.visitorHash);
    }
    const linkIds = [...visitors.keys()];
    const hashList = [...hashes];
    /** link → visitor → their last unique visit, as stored; then as this batch moves it. */
    const seen = new Map<string, Map<string, number>>();
    // Both columns of the key are constrained, so the lookup walks the (link, visitor) key, not the table.
    for (let l = 0; l < linkIds.length; l += CHUNK) {
      for (let i = 0; i < hashList.length; i += CHUNK) {
        const found = await q.selectFrom('visitor_seen').select(['link_id', 'visitor_hash', 'unique_at']).where('link_id', 'in', linkIds.slice(l, l + CHUNK)).where('visitor_hash', 'in', hashList.slice(i, i + CHUNK)).execute();
        for (const r of found) {
          if (!visitors.get(r.link_id)?.has(r.visitor_hash)) continue;
          let byVisitor = seen.get(r.link_id);
          if (!byVisitor) seen.set(r.link_id, (byVisitor = new Map()));
          byVisitor.set(r.visitor_hash, Number(r.unique_at));
        }
      }
    }
    const { rows, seenRows, rollups } = this.shape(seen);
    await writeRows(q, 'clicks', rows, { chunk: CHUNK });
    // Sorted: two instances upserting the same visitors take the rows in the same order.
    seenRows.sort((a, b) => (a.link_id < b.link_id ? -1 : a.link_id > b.link_id ? 1 : a.visitor_hash < b.visitor_hash ? -1 : 1));
    await writeRows(q, 'visitor_seen', seenRows, { chunk: CHUNK, shape: setSeen });
    await applyRollups(q, rollups);
  }

  /**
   * Rows to write: uniqueness decided in click order (`seen` is updated as it goes), rollups per
   * promoter, day, campaign and link — the clicks counted per link and day first, then added once.
   */
  private shape(seen: Map<string, Map<string, number>>) {
    const seenRows: { link_id: string; visitor_hash: string; unique_at: number }[] = [];
    const changed = new Map<string, Map<string, (typeof seenRows)[number]>>();
    const zone = this.zone();
    const counts = new Map<string, ClickCount>();
    let firstDay: string | null = null;
    const rows = this.rows.map((c) => {
      let unique = false;
      if (!c.bot) {
        let byVisitor = seen.get(c.linkId);
        if (!byVisitor) seen.set(c.linkId, (byVisitor = new Map()));
        const last = byVisitor.get(c.visitorHash);
        if (last === undefined || c.at - last >= UNIQUE_WINDOW_MS) {
          unique = true;
          byVisitor.set(c.visitorHash, c.at);
          let mine = changed.get(c.linkId);
          if (!mine) changed.set(c.linkId, (mine = new Map()));
          const row = mine.get(c.visitorHash);
          if (row) row.unique_at = c.at;
          else {
            const fresh = { link_id: c.linkId, visitor_hash: c.visitorHash, unique_at: c.at };
            mine.set(c.visitorHash, fresh);
            seenRows.push(fresh);
          }
        }
      }
      const day = dayKey(c.at, zone);
      firstDay ??= day;
      // A batch's clicks nearly always share a day: then the link alone is the key.
      const key = day === firstDay ? c.linkId : `${c.linkId}|${day}`;
      let count = counts.get(key);
      if (!count) counts.set(key, (count = { promoterId: c.promoterId, campaignId: c.campaignId, linkId: c.linkId, day, bots: 0, unique: 0, repeat: 0 }));
      if (c.bot) count.bots++;
      else if (unique) count.unique++;
      else count.repeat++;
      return {
        id: c.id, link_id: c.linkId, campaign_id: c.campaignId, promoter_id: c.promoterId, at: c.at, visitor_hash: c.visitorHash,
        is_unique: unique ? 1 : 0, is_bot: c.bot ? 1 : 0, device: c.device, referrer_host: c.referrerHost, attributed: c.attributed ? 1 : 0,
      };
    });
    const rollups = new Rollups();
    for (const n of counts.values()) {
      for (const [times, click] of [[n.bots, BOT], [n.unique, UNIQUE], [n.repeat, REPEAT]] as const) {
        if (times > 0) rollups.addFigures(n.promoterId, n.day, n.campaignId, n.linkId, scaled(clickDelta(click), times));
      }
    }
    return { rows, seenRows, rollups };
  }
}

interface ClickCount {
  promoterId: string;
  campaignId: string;
  linkId: string;
  day: string;
  bots: number;
  unique: number;
  repeat: number;
}

const BOT = { is_unique: 0, is_bot: 1 };
const UNIQUE = { is_unique: 1, is_bot: 0 };
const REPEAT = { is_unique: 0, is_bot: 0 };

/** `times` clicks' worth of one click's delta. */
function scaled(delta: RollupDelta, times: number): RollupDelta {
  const out: RollupDelta = {};
  for (const c in delta) out[c as keyof RollupDelta] = delta[c as keyof RollupDelta]! * times;
  return out;
}
