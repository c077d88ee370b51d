/**
 * Stored conversions and commissions as the API shows them (the shared contract): the conversions
 * API's answers, the console's and the promoter's lists, and webhook events' `data`.
 */
import type { Commission, Conversion } from '@pa/shared';
import { maskName } from '@pa/shared/rules';
import { pickLocalized } from '../../platform/localized';
import type { CommissionRow, ConversionRow } from './repository';

/** The columns the conversion's answer shows (issue 31's line items and explanation are read on their own). */
type ConversionColumns = Omit<ConversionRow, 'items_json' | 'country' | 'metadata_json' | 'new_customer' | 'explanation_json'>;

export const toConversion = (r: ConversionColumns): Conversion => ({
  id: r.id,
  campaignId: r.campaign_id,
  kind: r.kind,
  externalId: r.external_id,
  amount: Number(r.amount),
  refundedAmount: Number(r.refunded_amount),
  refundOf: r.refund_of,
  customerExternalId: r.customer_external_id,
  clickId: r.click_id,
  couponCode: r.coupon_code,
  linkCode: r.link_code,
  promoterId: r.promoter_id,
  linkId: r.link_id,
  attributedBy: r.attributed_by,
  status: r.status,
  // Written only from CONVERSION_REASONS (commissions/service.ts).
  reason: r.reason as Conversion['reason'],
  occurredAt: Number(r.occurred_at),
  receivedAt: Number(r.received_at),
});

/** A commission row with what it is shown with (repository.ts `commissionViews`). */
export type CommissionView = CommissionRow & { names_json: string; link_code: string | null; source_name?: string | null };

export const toCommission = (r: CommissionView, locale: string): Commission => ({
  id: r.id,
  conversionId: r.conversion_id,
  campaignId: r.campaign_id,
  campaignName: pickLocalized(r.names_json, locale),
  promoterId: r.promoter_id,
  linkId: r.link_id,
  linkCode: r.link_code,
  sourceName: r.source_name ? maskName(r.source_name) : null,
  level: r.level,
  kind: r.kind,
  rule: r.rule,
  base: Number(r.base),
  rateBps: r.rate_bps,
  amount: Number(r.amount),
  reversedAmount: Number(r.reversed_amount),
  status: r.status,
  occurredAt: Number(r.occurred_at),
  availableAt: Number(r.available_at),
  createdAt: Number(r.created_at),
  decidedAt: r.decided_at === null ? null : Number(r.decided_at),
  reason: r.reason,
  recurring: r.binding_month === null ? null : { month: r.binding_month, of: r.binding_months },
});

