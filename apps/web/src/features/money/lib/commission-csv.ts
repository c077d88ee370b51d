/**
 * The console's commissions export: what the list shows plus the order it came from (the
 * conversion's `externalId`, so a row can be matched with the shop's order), under the catalogue's
 * column names for it (`commissions` in packages/shared/src/texts/csv-columns.ts).
 */
import type { TFunction } from 'i18next';
import { csvAmount, csvId } from '@pa/shared/csv';
import { csvTime, type CsvColumns } from '@/lib/csv-export';
import type { AdminCommission } from '../api/commission-review';

export function commissionCsvColumns(t: TFunction, currency: string): CsvColumns<AdminCommission> {
  return {
    csv: 'commissions',
    columns: {
      occurred_at: (c) => csvTime(c.occurredAt),
      promoter_name: (c) => c.promoterName,
      promoter_account: (c) => csvId(c.promoterAccount),
      campaign: (c) => c.campaignName,
      kind: (c) => t(`conversions.kind.${c.kind}`),
      external_id: (c) => csvId(c.externalId),
      level: (c) => c.level,
      base: (c) => csvAmount(c.base, currency),
      rate: (c) => (c.rateBps === null ? '' : `${(c.rateBps / 100).toFixed(2)}%`),
      amount: (c) => csvAmount(c.amount, currency),
      reversed_amount: (c) => csvAmount(c.reversedAmount, currency),
      currency: () => currency,
      status: (c) => t(`commissions.status.${c.status}`),
      available_at: (c) => csvTime(c.availableAt).slice(0, 10),
      reason: (c) => c.reason,
      id: (c) => csvId(c.id),
    },
  };
}
