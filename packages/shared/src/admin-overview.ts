/** The operator's overview (issue 14, `GET api/admin/overview`) and the admin's view of the settings. */
import { z } from 'zod';
import { DayParamSchema, SettingsSchema, StatsPeriodSchema } from './schemas';

export const OVERVIEW_RANGES = ['today', '7d', '30d', 'month'] as const;
const OverviewRangeSchema = z.enum(OVERVIEW_RANGES);
export type OverviewRange = z.infer<typeof OverviewRangeSchema>;

/** `range` (default 7d), or `from` and `to` (calendar days, both included, at most 366 days) instead. */
export const OverviewQuerySchema = z.strictObject({
  range: OverviewRangeSchema.optional(),
  from: DayParamSchema.optional(),
  to: DayParamSchema.optional(),
});
export type OverviewQuery = z.infer<typeof OverviewQuerySchema>;

const int = z.number().int();
/** The program's figures over a period. Money in minor units. */
const OverviewFiguresSchema = z.object({
  /** People's visits (bots and link previews are not counted). */
  clicks: int,
  uniqueClicks: int,
  leads: int,
  sales: int,
  saleAmount: int,
  refundAmount: int,
  /** Commission of the period's conversions by its status now (reversed: the part taken back). */
  commission: z.object({ pending: int, approved: int, rejected: int, reversed: int }),
  /** Withdrawals paid in the period (net, what reached the promoters). */
  paidOut: int,
  /** Promoters who registered in the period (any status: approved, waiting or since suspended). */
  newPromoters: int,
});
export type OverviewFigures = z.infer<typeof OverviewFiguresSchema>;

const OverviewTrendPointSchema = z.object({
  day: z.string(),
  clicks: int,
  uniqueClicks: int,
  leads: int,
  sales: int,
  saleAmount: int,
  /** Pending plus approved commission. */
  commission: int,
});
const OverviewTopItemSchema = z.object({
  id: z.string(),
  /** Campaign name in the reader's language, or the promoter's display name. */
  name: z.string(),
  /** The promoter's account (e-mail or phone); null for a campaign. */
  account: z.string().nullable(),
  clicks: int,
  sales: int,
  saleAmount: int,
  commission: int,
});
export type OverviewTopItem = z.infer<typeof OverviewTopItemSchema>;

/** What waits for staff, each linking to its list. */
const WorkQueueSchema = z.object({
  /** Promoters waiting for approval (registration mode "approval"). */
  registrations: int,
  /** Enrollments waiting for a decision (campaigns that join by approval). */
  enrollments: int,
  /** Pending commissions of campaigns approved by hand (the others are approved when their hold ends). */
  commissions: int,
  /** Withdrawals requested, to approve or reject. */
  withdrawalsToApprove: int,
  /** Withdrawals approved, to pay. */
  withdrawalsToPay: int,
});
export type WorkQueue = z.infer<typeof WorkQueueSchema>;

export const AdminOverviewSchema = z.object({
  currency: z.string(),
  timeZone: z.string(),
  range: z.enum([...OVERVIEW_RANGES, 'custom']),
  period: StatsPeriodSchema,
  previousPeriod: StatsPeriodSchema,
  current: OverviewFiguresSchema,
  previous: OverviewFiguresSchema,
  /** What the program owes its promoters now: available plus withdrawing (requested and approved). */
  liability: z.object({ available: int, withdrawing: int, total: int }),
  /** Every day of the period, zeros included. */
  trend: z.array(OverviewTrendPointSchema),
  /** By sale amount in the period, at most 5. */
  topCampaigns: z.array(OverviewTopItemSchema),
  /** By sale amount in the period, at most 10. */
  topPromoters: z.array(OverviewTopItemSchema),
  workQueue: WorkQueueSchema,
  generatedAt: int,
});
export type AdminOverview = z.infer<typeof AdminOverviewSchema>;

/** `GET/PATCH api/admin/settings`: the settings and what the form needs to know about them. */
export const AdminSettingsSchema = SettingsSchema.extend({
  /** Money has moved (a ledger journal or a conversion exists): the currency can no longer change. */
  currencyLocked: z.boolean(),
  /** TIME_ZONE: the zone used while none is chosen. */
  defaultTimeZone: z.string(),
});
export type AdminSettings = z.infer<typeof AdminSettingsSchema>;
