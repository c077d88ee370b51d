import type { Kysely, Migration } from 'kysely';

/**
 * Drops `clicks_link_at_idx`: since the per-day rollups (005) nothing reads clicks by link and
 * time — link figures come from `daily_stats`, attribution reads a click by its id (the primary
 * key), the rebuild walks clicks by id — and every tracked redirect paid for it with one more
 * index insert. `down` puts it back.
 */
export function clickIndex(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.dropIndex('clicks_link_at_idx').ifExists().execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.createIndex('clicks_link_at_idx').ifNotExists().on('clicks').columns(['link_id', 'at']).execute();
    },
  };
}
