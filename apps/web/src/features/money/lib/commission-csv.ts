/**
 * The console's commissions export: what the list shows plus the order it came from (the
 * conversion's `externalId`, so a row can be matched with the shop's order), snake_case column
 * names like every export (lib/csv-export.ts `toCsv`).
 */
import type { TFunction } from 'i18next';
import { csvAmount, csvId } from '@pa/shared/csv';
import { csvTime, type CsvColumn } from '@/lib/csv-export';
import type { AdminCommission } from '../api/commission-review';

export function commissionCsvColumns(t: TFunction, currency: string): CsvColumn<AdminCommission>[] {
  return [
    { header: 'occurred_at', value: (c) => csvTime(c.occurredAt) },
    { header: 'promoter_name', value: (c) => c.promoterName },
    { header: 'promoter_account', value: (c) => csvId(c.promoterAccount) },
    { header: 'campaign', value: (c) => c.campaignName },
    { header: 'kind', value: (c) => t(`moneyAdmin.kind.${c.kind}`) },
    { header: 'external_id', value: (c) => csvId(c.externalId) },
    { header: 'level', value: (c) => c.level },
    { header: 'base', value: (c) => csvAmount(c.base, currency) },
    { header: 'rate', value: (c) => (c.rateBps === null ? '' : `${(c.rateBps / 100).toFixed(2)}%`) },
    { header: 'amount', value: (c) => csvAmount(c.amount, currency) },
    { header: 'reversed_amount', value: (c) => csvAmount(c.reversedAmount, currency) },
    { header: 'currency', value: () => currency },
    { header: 'status', value: (c) => t(`commissions.status.${c.status}`) },
    { header: 'available_at', value: (c) => csvTime(c.availableAt).slice(0, 10) },
    { header: 'reason', value: (c) => c.reason },
    { header: 'id', value: (c) => csvId(c.id) },
  ];
}
