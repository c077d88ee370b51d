/** Queries of the stats module that read more than the rollups' sums. */
import type { Db } from '../../db/types';

/**
 * Which of a promoter's first steps are done, ever: joined a campaign (a pending request counts),
 * has a link, has had a click from a person (`clicks` counts people only, bots are in
 * `bot_clicks`). Three existence checks on indexed promoter columns; the click check stops at the
 * first rollup row with one.
 */
export async function firstSteps(db: Db, promoterId: string): Promise<{ joined: boolean; linked: boolean; clicked: boolean }> {
  const [joined, linked, clicked] = await Promise.all([
    db.selectFrom('enrollments').select('id').where('promoter_id', '=', promoterId).where('status', '!=', 'rejected').limit(1).executeTakeFirst(),
    db.selectFrom('links').select('id').where('promoter_id', '=', promoterId).limit(1).executeTakeFirst(),
    db.selectFrom('daily_stats').select('day').where('promoter_id', '=', promoterId).where('clicks', '>', 0).limit(1).executeTakeFirst(),
  ]);
  return { joined: !!joined, linked: !!linked, clicked: !!clicked };
}
