/**
 * The read-ahead of the group commit (db/group-commit.ts): reads a batch's items need, made once
 * for many items. With `readsFirst` (PostgreSQL) they run on the pool while the batch before is
 * being written; otherwise inside the batch's transaction.
 */
import type { BatchTx } from './collectors';
import type { ReadOnlyDb } from './types';

/**
 * Reads a batch's items need, made once for many items (an `in (…)` query instead of one query per
 * item — what a PostgreSQL round trip costs is worth saving). `load` reads; what it returns puts
 * what it found into a batch's `tx.shared`, where the items look first. Reading first (PostgreSQL),
 * the reads of items that arrive while a batch is written are made at once, and the batch they end
 * up in gets what several such reads found, each put in with its own `apply`.
 */
export interface Preloader<I> {
  load(q: ReadOnlyDb, inputs: I[]): Promise<(tx: BatchTx) => void>;
}

/** An item of a batch as the read-ahead sees it. */
export interface ReadAheadItem {
  preload?: { loader: Preloader<unknown>; input: unknown };
  /** Reading first: what its read ahead found, to put into its batch (absent: read in the batch). */
  loaded?: (tx: BatchTx) => void;
}

/** The items that name a loader, by loader. */
export function groupByLoader<P extends ReadAheadItem>(items: P[]): Map<Preloader<unknown>, P[]> {
  const groups = new Map<Preloader<unknown>, P[]>();
  for (const p of items) {
    if (!p.preload) continue;
    const group = groups.get(p.preload.loader);
    if (group) group.push(p);
    else groups.set(p.preload.loader, [p]);
  }
  return groups;
}

/**
 * Reading first: reads ahead for `items` on the pool (each loader once, for all its items, the
 * loaders at once) and leaves on each what it found. A loader that fails leaves its items to be
 * read in their batch, where a failure is handled as any other.
 */
export async function readAheadOnPool(db: ReadOnlyDb, items: ReadAheadItem[], log?: { warn(obj: unknown, msg: string): void }): Promise<void> {
  await Promise.all([...groupByLoader(items)].map(async ([loader, group]) => {
    try {
      const apply = await loader.load(db, group.map((p) => p.preload!.input));
      for (const p of group) p.loaded = apply;
    } catch (error) {
      log?.warn({ err: error, items: group.length }, 'read-ahead failed; reading in the batch');
    }
  }));
}

/**
 * Puts a batch's read-ahead into its shared state: with `useLoaded`, what the items' read-aheads
 * found (each once); the others (every item when a batch goes round again) are read for here,
 * through `q`.
 */
export async function applyReadAhead(q: ReadOnlyDb, tx: BatchTx, batch: ReadAheadItem[], useLoaded: boolean): Promise<void> {
  if (useLoaded) {
    const applied = new Set<(tx: BatchTx) => void>();
    for (const p of batch) {
      if (p.loaded && !applied.has(p.loaded)) {
        applied.add(p.loaded);
        p.loaded(tx);
      }
    }
  }
  const unread = useLoaded ? batch.filter((p) => !p.loaded) : batch;
  for (const [loader, group] of groupByLoader(unread)) (await loader.load(q, group.map((p) => p.preload!.input)))(tx);
}
