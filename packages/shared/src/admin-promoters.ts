/**
 * The operator console's promoters (issue 14): search, the promoter's page and its tabs, manual
 * adjustments and staff-made password reset links. Money in minor units.
 */
import { z } from 'zod';
import { ApplicationAnswerSchema, GroupRefSchema, LocaleSchema, PageQuerySchema, PayoutMethodSchema, UserStatusSchema, WithdrawalSchema, CommissionStatusSchema, LedgerLineSchema } from './schemas';
import { MAX_AMOUNT } from './rules';

/** Columns the list sorts by on the server; `dir` says which way (newest first by default). */
export const PROMOTER_SORTS = ['createdAt', 'name', 'available'] as const;
export type PromoterSort = (typeof PROMOTER_SORTS)[number];

const promoterFilters = {
  /** Name or account (contains), or an exact invite code, link code or coupon code. */
  q: z.string().trim().max(100).optional(),
  status: UserStatusSchema.optional(),
  /** Enrolled in this campaign (any enrollment status). */
  campaignId: z.string().min(1).max(64).optional(),
  /** In this group (issue 31). */
  groupId: z.string().min(1).max(64).optional(),
  sort: z.enum(PROMOTER_SORTS).default('createdAt'),
  dir: z.enum(['asc', 'desc']).default('desc'),
};
export const AdminPromoterQuerySchema = PageQuerySchema.extend(promoterFilters);
/** The export takes the list's filters and order, without the page. */
export const AdminPromoterExportQuerySchema = z.strictObject(promoterFilters);

const PersonRefSchema = z.object({ id: z.string(), displayName: z.string(), account: z.string() });

const AdminPromoterRowSchema = z.object({
  id: z.string(),
  displayName: z.string(),
  account: z.string(),
  status: UserStatusSchema,
  inviteCode: z.string(),
  createdAt: z.number().int(),
  inviter: PersonRefSchema.nullable(),
  group: GroupRefSchema,
  available: z.number().int(),
  pending: z.number().int(),
});
export type AdminPromoterRow = z.infer<typeof AdminPromoterRowSchema>;
export const AdminPromoterListSchema = z.object({ items: z.array(AdminPromoterRowSchema), nextCursor: z.string().nullable(), currency: z.string() });
export type AdminPromoterList = z.infer<typeof AdminPromoterListSchema>;

const PROMOTER_ACTIONS = ['approve', 'reject', 'suspend', 'reactivate'] as const;
export type PromoterAction = (typeof PROMOTER_ACTIONS)[number];

export const AdminPromoterDetailSchema = z.object({
  promoter: z.object({
    id: z.string(),
    displayName: z.string(),
    account: z.string(),
    status: UserStatusSchema,
    locale: LocaleSchema,
    inviteCode: z.string(),
    leaderboardOptOut: z.boolean(),
    createdAt: z.number().int(),
  }),
  /** The status moves that apply now (`POST api/admin/users/:id/:action`). */
  actions: z.array(z.enum(PROMOTER_ACTIONS)),
  inviter: PersonRefSchema.nullable(),
  /** The promoter's group (issue 31); `PATCH api/admin/promoters/:id { groupId }` moves them. */
  group: GroupRefSchema,
  /** Their answers to the application form, in the order asked (empty when none were asked). */
  application: z.array(ApplicationAnswerSchema),
  /** Direct members (people who registered with this promoter's invite code). */
  teamSize: z.number().int(),
  currency: z.string(),
  /** `withdrawing` includes approved withdrawals being paid. */
  wallet: z.object({ pending: z.number().int(), available: z.number().int(), withdrawing: z.number().int(), paidOut: z.number().int() }),
});
export type AdminPromoterDetail = z.infer<typeof AdminPromoterDetailSchema>;

const page = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item), nextCursor: z.string().nullable() });

export const AdminPromoterLedgerSchema = page(LedgerLineSchema);
export type AdminPromoterLedger = z.infer<typeof AdminPromoterLedgerSchema>;
const AdminPromoterCommissionSchema = z.object({
  id: z.string(),
  campaignId: z.string(),
  campaignName: z.string(),
  level: z.number().int(),
  kind: z.enum(['lead', 'sale', 'bounty']),
  amount: z.number().int(),
  reversedAmount: z.number().int(),
  status: CommissionStatusSchema,
  createdAt: z.number().int(),
  availableAt: z.number().int(),
});
export type AdminPromoterCommission = z.infer<typeof AdminPromoterCommissionSchema>;
export const AdminPromoterCommissionListSchema = page(AdminPromoterCommissionSchema);
export type AdminPromoterCommissionList = z.infer<typeof AdminPromoterCommissionListSchema>;
export const AdminPromoterWithdrawalListSchema = page(WithdrawalSchema);
export type AdminPromoterWithdrawalList = z.infer<typeof AdminPromoterWithdrawalListSchema>;
const AdminPromoterLinkSchema = z.object({
  id: z.string(),
  code: z.string(),
  campaignId: z.string(),
  campaignName: z.string(),
  label: z.string().nullable(),
  channel: z.string().nullable(),
  status: z.enum(['active', 'disabled']),
  isDefault: z.boolean(),
  createdAt: z.number().int(),
});
export type AdminPromoterLink = z.infer<typeof AdminPromoterLinkSchema>;
export const AdminPromoterLinkListSchema = page(AdminPromoterLinkSchema);
export type AdminPromoterLinkList = z.infer<typeof AdminPromoterLinkListSchema>;
/** Method, holder and the last four characters only: never the number, sealed or not. */
const AdminPromoterPayoutAccountSchema = z.object({ id: z.string(), method: PayoutMethodSchema, holderName: z.string(), last4: z.string(), isDefault: z.boolean(), createdAt: z.number().int() });
export type AdminPromoterPayoutAccount = z.infer<typeof AdminPromoterPayoutAccountSchema>;
export const AdminPromoterPayoutAccountListSchema = page(AdminPromoterPayoutAccountSchema);
export type AdminPromoterPayoutAccountList = z.infer<typeof AdminPromoterPayoutAccountListSchema>;
/** Signed-in devices (sessions neither revoked nor expired); never a token or its digest. */
const AdminPromoterSessionSchema = z.object({ id: z.string(), device: z.string(), createdAt: z.number().int(), lastSeenAt: z.number().int(), expiresAt: z.number().int() });
export type AdminPromoterSession = z.infer<typeof AdminPromoterSessionSchema>;
export const AdminPromoterSessionListSchema = page(AdminPromoterSessionSchema);
export type AdminPromoterSessionList = z.infer<typeof AdminPromoterSessionListSchema>;

export const ADJUSTMENT_REASON_MAX = 200;
/** Signed minor units: positive credits the promoter's available balance, negative debits it. */
export const AdjustmentCreateSchema = z.strictObject({
  amount: z.number().int().min(-MAX_AMOUNT).max(MAX_AMOUNT).refine((v) => v !== 0, { params: { fieldCode: 'invalid' } }),
  reason: z.string().trim().min(1).max(ADJUSTMENT_REASON_MAX),
  /** A debit may take the available balance below zero only when this is true. */
  allowNegative: z.boolean().optional(),
});
export type AdjustmentCreate = z.input<typeof AdjustmentCreateSchema>;
/** `Idempotency-Key` is required: a retried adjustment must never move money twice. */
export const AdjustmentHeadersSchema = z.looseObject({ 'idempotency-key': z.string().trim().min(1).max(100) });
const AdjustmentSchema = z.object({
  id: z.string(),
  promoterId: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  reason: z.string(),
  allowNegative: z.boolean(),
  journalId: z.string(),
  createdBy: z.string(),
  createdAt: z.number().int(),
});
export type Adjustment = z.infer<typeof AdjustmentSchema>;
/** 201 the first time; 200 with the same adjustment for a repeated key and body. `available` is the balance after it. */
export const AdjustmentResultSchema = z.object({ adjustment: AdjustmentSchema, available: z.number().int() });
export type AdjustmentResult = z.infer<typeof AdjustmentResultSchema>;

/** A one-time link (30 minutes, single use) for the promoter to set a new password; shown once. */
/** `mailedTo`: the address the same link was also e-mailed to (mail on, an e-mail account), else null. */
export const PasswordResetLinkSchema = z.object({ url: z.string(), expiresAt: z.number().int(), mailedTo: z.string().nullable() });
export type PasswordResetLink = z.infer<typeof PasswordResetLinkSchema>;
