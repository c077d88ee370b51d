/** The settings' queries: the stored values live in platform/settings.ts; here what their rules need. */
import type { Db } from '../../db/types';

/**
 * Whether money has moved: any ledger journal (a commission, withdrawal or adjustment) or any
 * conversion received, attributed or not — its amount is stored in the currency's minor units, so
 * the currency is fixed from then on. Two single-row reads.
 */
export async function moneyHasMoved(db: Db): Promise<boolean> {
  if (await db.selectFrom('ledger_journals').select('id').limit(1).executeTakeFirst()) return true;
  return !!(await db.selectFrom('conversions').select('id').limit(1).executeTakeFirst());
}
