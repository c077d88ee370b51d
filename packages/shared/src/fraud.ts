/**
 * Fraud rules, holds and the risk queue (issue 32; docs/fraud.md): the rules' settings an admin
 * changes, the risk cases they open and the staff's decisions on them. Each rule has an action —
 * `off`, `flag` (a case, nothing else), `hold` (a case, and the money it concerns waits for staff)
 * or `reject` (refused, or the commission rejected with the rule as its reason) — and parameters
 * checked per rule here, so the console's form runs the server's own checks.
 */
import { z } from 'zod';
import { PageQuerySchema } from './schemas';
import { MAX_AMOUNT } from './rules';

export const FRAUD_RULES = [
  'self_referral', 'disposable_email', 'paid_ads', 'banned_referrer', 'duplicate_payout_account',
  'registration_burst', 'click_flood', 'refund_rate', 'large_sale',
] as const;
export type FraudRule = (typeof FRAUD_RULES)[number];
export const FraudRuleSchema = z.enum(FRAUD_RULES);

export const FRAUD_ACTIONS = ['off', 'flag', 'hold', 'reject'] as const;
export type FraudAction = (typeof FRAUD_ACTIONS)[number];
export const FraudActionSchema = z.enum(FRAUD_ACTIONS);

/** A referrer host as an admin lists it: a DNS name, lower case, no scheme, port or path. */
const HostSchema = z.string().trim().toLowerCase().min(1).max(253).regex(/^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,62}$/);

const EmptyParams = z.strictObject({});
/** Each rule's parameters (strict: an unknown key is refused, not ignored). */
export const FRAUD_RULE_PARAMS = {
  self_referral: EmptyParams,
  disposable_email: EmptyParams,
  /** `allowed`: paid-ad clicks are welcome (the installation's default for campaigns). */
  paid_ads: z.strictObject({ allowed: z.boolean() }),
  banned_referrer: z.strictObject({ hosts: z.array(HostSchema).max(200) }),
  duplicate_payout_account: EmptyParams,
  /** More than `perDay` registrations from one network address or device in a day. */
  registration_burst: z.strictObject({ perDay: z.number().int().min(1).max(10_000) }),
  /** More than `perHour` clicks of one link by one visitor in an hour. */
  click_flood: z.strictObject({ perHour: z.number().int().min(1).max(100_000) }),
  /** Refunded share of sale amount over 30 days above `percent`, once the promoter has `minSales` sales. */
  refund_rate: z.strictObject({ percent: z.number().int().min(1).max(100), minSales: z.number().int().min(1).max(100_000) }),
  /** A sale whose amount is above `amount` (minor units of the installation's currency). */
  large_sale: z.strictObject({ amount: z.number().int().min(0).max(MAX_AMOUNT) }),
} as const satisfies Record<FraudRule, z.ZodType>;
export type FraudRuleParams = { [R in FraudRule]: z.output<(typeof FRAUD_RULE_PARAMS)[R]> };

/**
 * The settings of an installation that never changed them (docs/fraud.md says why each): only
 * self-referral refuses (what the engine always did); the rest record cases for staff to judge.
 */
export const FRAUD_RULE_DEFAULTS: { [R in FraudRule]: { action: FraudAction; params: FraudRuleParams[R] } } = {
  self_referral: { action: 'reject', params: {} },
  disposable_email: { action: 'flag', params: {} },
  paid_ads: { action: 'flag', params: { allowed: true } },
  banned_referrer: { action: 'flag', params: { hosts: [] } },
  duplicate_payout_account: { action: 'flag', params: {} },
  registration_burst: { action: 'flag', params: { perDay: 5 } },
  click_flood: { action: 'flag', params: { perHour: 30 } },
  refund_rate: { action: 'flag', params: { percent: 30, minSales: 10 } },
  large_sale: { action: 'flag', params: { amount: 100_000 } },
};

export const FraudRuleSettingSchema = z.object({ rule: FraudRuleSchema, action: FraudActionSchema, params: z.record(z.string(), z.unknown()) });
export type FraudRuleSetting = z.infer<typeof FraudRuleSettingSchema>;
/** `GET api/admin/fraud/rules`: every rule, in FRAUD_RULES' order. */
export const FraudRuleListSchema = z.object({ rules: z.array(FraudRuleSettingSchema) });

/**
 * `PATCH api/admin/fraud/rules`: one rule's action, and its parameters (all of them, checked by the
 * rule's own schema: a wrong one is `fields.params: invalid`); without `params` they stay as they are.
 */
export const FraudRulePatchSchema = z.strictObject({
  rule: FraudRuleSchema,
  action: FraudActionSchema,
  params: z.record(z.string(), z.unknown()).optional(),
});
export type FraudRulePatch = z.input<typeof FraudRulePatchSchema>;
export const FraudRuleEnvelopeSchema = z.object({ rule: FraudRuleSettingSchema });

export const RISK_CASE_STATUSES = ['open', 'dismissed', 'rejected'] as const;
export const RiskCaseStatusSchema = z.enum(RISK_CASE_STATUSES);

/**
 * What a case holds as evidence, each item with when it was found. Never a raw network address or
 * e-mail address: a domain, an id of ours, amounts.
 */
export const RiskEvidenceSchema = z.discriminatedUnion('kind', [
  /** A registration on a throwaway address: its domain only. */
  z.object({ kind: z.literal('email_domain'), domain: z.string(), at: z.number().int() }),
  /** More registrations from one network address in a day than allowed: a short prefix of the address's keyed hash (never the address), the count, the others' ids. */
  z.object({ kind: z.literal('registration_burst'), addressKey: z.string(), count: z.number().int(), perDay: z.number().int(), others: z.array(z.string()), at: z.number().int() }),
  /** A payout account whose number another promoter's account has too: its shown form (last four, or masked), the others' ids. */
  z.object({ kind: z.literal('payout_account'), method: z.string(), shown: z.string(), sharedWith: z.array(z.string()), at: z.number().int() }),
  /** A sale above the threshold: the conversion, its amount, the threshold and the commissions it made. */
  z.object({
    kind: z.literal('sale'), conversionId: z.string(), externalId: z.string(), amount: z.number().int(), threshold: z.number().int(),
    commissionIds: z.array(z.string()), commission: z.number().int(), action: FraudActionSchema, at: z.number().int(),
  }),
]);
export type RiskEvidence = z.infer<typeof RiskEvidenceSchema>;

const IdSchema = z.string().trim().min(1).max(64);
/** `GET api/admin/risk`: newest opened first. */
export const RiskQuerySchema = PageQuerySchema.extend({
  status: RiskCaseStatusSchema.optional(),
  rule: FraudRuleSchema.optional(),
  promoterId: IdSchema.optional(),
});
export type RiskQuery = z.input<typeof RiskQuerySchema>;

export const RiskCaseSchema = z.object({
  id: z.string(),
  promoterId: z.string(),
  promoterName: z.string(),
  rule: FraudRuleSchema,
  status: RiskCaseStatusSchema,
  /** Oldest first; the latest 50 items. */
  evidence: z.array(RiskEvidenceSchema),
  /** The commissions the case concerns, in minor units (what a decision moves). */
  atStake: z.number().int(),
  openedAt: z.number().int(),
  decidedAt: z.number().int().nullable(),
});
export type RiskCase = z.infer<typeof RiskCaseSchema>;
export const RiskCaseListSchema = z.object({ items: z.array(RiskCaseSchema), nextCursor: z.string().nullable() });
export const RiskCaseEnvelopeSchema = z.object({ case: RiskCaseSchema });
/** `POST api/admin/risk/:id/{dismiss,reject}`: an optional note for the audit log. */
export const RiskDecisionSchema = z.strictObject({ note: z.string().trim().max(500).optional() });
