import { sql, type Kysely, type Migration } from 'kysely';

/**
 * `clicks` in the per-day rollups becomes people's visits only (issue 13): until now the click
 * writer added every visit to it, bots and chat apps' link-preview fetches included, and kept the
 * bots' share in `bot_clicks` as well. Taking that share out gives what the click writer and the
 * rebuild now sum (platform/rollups.ts `clickDelta`). Its own SQL, the same on both databases:
 * migrations do not call application code, whose rules may change again later.
 * `down` puts the bots back.
 */
export function humanClicks(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await sql`update daily_stats set clicks = clicks - bot_clicks where bot_clicks <> 0`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      await sql`update daily_stats set clicks = clicks + bot_clicks where bot_clicks <> 0`.execute(db);
    },
  };
}
