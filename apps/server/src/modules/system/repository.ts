/** The readiness probe's query. */
import type { Db } from '../../db/types';

/** A trivial round trip (`select 1`): throws when the database does not answer. */
export async function pingDatabase(db: Db): Promise<void> {
  await db.selectNoFrom((eb) => eb.lit(1).as('one')).execute();
}
