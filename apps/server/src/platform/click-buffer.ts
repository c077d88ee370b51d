/**
 * Clicks join the unit of work's group commit (db/unit-of-work.ts): the redirect awaits `push`,
 * which resolves once the batch holding its click has committed — the 302 is an acknowledgement, so
 * its click is stored. Under load many redirects share one transaction: the click rows, the 24-hour
 * uniqueness state per visitor and link (`visitor_seen`) and the per-day rollups, written together.
 */
import type { InsertQueryBuilder, InsertResult } from 'kysely';
import { writeRows } from '../db/hot';
import type { Database, Db } from '../db/types';
import type { Collector, CollectorKind, UnitOfWork } from '../db/unit-of-work';
import { applyRollups, clickDelta, Rollups } from './rollups';
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
const setSeen = (insert: InsertQueryBuilder<Database, 'visitor_seen', InsertResult>) =>
  insert.onConflict((oc) => oc.columns(['link_id', 'visitor_hash']).doUpdateSet((eb) => ({ unique_at: eb.ref('excluded.unique_at') })));

export class ClickBuffer {
  /** Clicks accepted and written so far by this instance (the shutdown log reports both). */
  accepted = 0;
  written = 0;
  private readonly kind: CollectorKind<ClickRows>;

  constructor(
    private readonly uow: UnitOfWork,
    /** The day boundaries' zone, read at each write (an admin setting). */
    timeZone: string | (() => string),
  ) {
    const zone = typeof timeZone === 'function' ? timeZone : () => timeZone;
    // Flushed first in its transaction: a batch's clicks are in before anything that reads them.
    this.kind = { order: 5, create: () => new ClickRows(zone) };
  }

  /** Resolves once the click is stored (its group commit has committed). */
  async push(click: PendingClick): Promise<void> {
    this.accepted++;
    await this.uow.run(async (tx) => {
      tx.collect(this.kind).rows.push(click);
    }, { batchable: true });
    this.written++;
  }

  /** Resolves once every click pushed so far is written (or has failed); also what shutdown awaits. */
  flush(): Promise<void> {
    return this.uow.idle();
  }
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
    const humans = this.rows.filter((c) => !c.bot);
    const linkIds = [...new Set(humans.map((c) => c.linkId))];
    const hashes = [...new Set(humans.map((c) => c.visitorHash))];
    const wanted = new Set(humans.map((c) => `${c.linkId}|${c.visitorHash}`));
    const seen = new Map<string, number>();
    // Both columns of the key are constrained, so the lookup walks the (link, visitor) key, not the table.
    for (let l = 0; l < linkIds.length; l += CHUNK) {
      for (let i = 0; i < hashes.length; i += CHUNK) {
        const found = await q.selectFrom('visitor_seen').select(['link_id', 'visitor_hash', 'unique_at']).where('link_id', 'in', linkIds.slice(l, l + CHUNK)).where('visitor_hash', 'in', hashes.slice(i, i + CHUNK)).execute();
        for (const r of found) if (wanted.has(`${r.link_id}|${r.visitor_hash}`)) seen.set(`${r.link_id}|${r.visitor_hash}`, Number(r.unique_at));
      }
    }
    const { rows, seenRows, rollups } = this.shape((key) => seen.get(key));
    await writeRows(q, 'clicks', rows, { chunk: CHUNK });
    // Sorted: two instances upserting the same visitors take the rows in the same order.
    seenRows.sort((a, b) => (a.link_id < b.link_id ? -1 : a.link_id > b.link_id ? 1 : a.visitor_hash < b.visitor_hash ? -1 : 1));
    await writeRows(q, 'visitor_seen', seenRows, { chunk: CHUNK, shape: setSeen });
    await applyRollups(q, rollups);
  }

  /** Rows to write: uniqueness decided in click order, rollups per promoter, day, campaign and link. */
  private shape(lookup: (key: string) => number | undefined) {
    const seen = new Map<string, number | undefined>();
    const changed = new Map<string, { link_id: string; visitor_hash: string; unique_at: number }>();
    const rows = this.rows.map((c) => {
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
    const zone = this.zone();
    for (const r of rows) rollups.add(r.promoter_id, dayKey(r.at, zone), r.campaign_id, r.link_id, clickDelta(r));
    return { rows, seenRows: [...changed.values()], rollups };
  }
}
