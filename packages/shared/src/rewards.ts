/**
 * Reward rules (issue 31): what a lead or each line of a sale earns, by the promoter's group and by
 * conditions on the conversion. The contract of `GET/PUT api/admin/campaigns/:id/rewards` and the
 * line items, country and metadata of `POST api/v1/conversions` (docs/rewards.md).
 */
import { z } from 'zod';
import { MAX_AMOUNT } from './rules';

export const REWARD_EVENTS = ['lead', 'sale'] as const;
export type RewardEvent = (typeof REWARD_EVENTS)[number];
export const CONDITION_OPS = ['eq', 'in', 'notIn', 'gte', 'lte'] as const;
export type ConditionOp = (typeof CONDITION_OPS)[number];
/** The fields a condition may test; `metadata.<key>` tests one key of the conversion's metadata. */
export const CONDITION_FIELDS = ['sku', 'category', 'country', 'newCustomer', 'amount'] as const;
export const REWARD_RULES_MAX = 50;
export const CONDITIONS_MAX = 10;
export const ITEMS_MAX = 100;
export const METADATA_KEYS_MAX = 20;
const KEY_RE = /^[A-Za-z0-9_.:-]{1,40}$/;

const fieldSchema = z.string().refine((f) => (CONDITION_FIELDS as readonly string[]).includes(f) || (f.startsWith('metadata.') && KEY_RE.test(f.slice(9))), { params: { fieldCode: 'invalid' } });
const scalar = z.union([z.string().trim().min(1).max(100), z.number().int().min(0).max(MAX_AMOUNT), z.boolean()]);

export const RewardConditionSchema = z
  .strictObject({ field: fieldSchema, op: z.enum(CONDITION_OPS), value: z.union([scalar, z.array(z.string().trim().min(1).max(100)).min(1).max(100)]) })
  .superRefine((c, ctx) => {
    const bad = (message: string) => ctx.addIssue({ code: 'custom', path: ['value'], message, params: { fieldCode: 'invalid' } });
    const list = Array.isArray(c.value);
    if ((c.op === 'in' || c.op === 'notIn') !== list) return bad(list ? 'a list is for in and notIn' : 'in and notIn take a list');
    if (c.op === 'gte' || c.op === 'lte') {
      if (c.field !== 'amount' || typeof c.value !== 'number') bad('gte and lte compare the amount with a number of minor units');
      return;
    }
    if (c.field === 'newCustomer' && (c.op !== 'eq' || typeof c.value !== 'boolean')) return bad('newCustomer is tested with eq true or false');
    if (c.field === 'amount' && typeof c.value !== 'number') return bad('the amount is a number of minor units');
    if (c.field === 'country' && (Array.isArray(c.value) ? c.value : [c.value]).some((v) => typeof v !== 'string' || !/^[A-Z]{2}$/.test(v))) bad('a country is an ISO 3166-1 alpha-2 code in capitals');
  });
export type RewardCondition = z.infer<typeof RewardConditionSchema>;

export const RewardSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('percent'), bps: z.number().int().min(0).max(10_000) }),
  z.strictObject({ type: z.literal('fixed'), amount: z.number().int().min(0).max(100_000_000) }),
]);
export type Reward = z.infer<typeof RewardSchema>;

export const RewardRuleSchema = z.strictObject({
  /** Kept across edits (caps count per rule); the server gives a new rule one. */
  id: z.string().trim().regex(/^[A-Za-z0-9_-]{1,40}$/).optional(),
  event: z.enum(REWARD_EVENTS),
  /** Empty: every group. */
  groupIds: z.array(z.string().trim().min(1).max(64)).max(50).default([]),
  conditions: z.array(RewardConditionSchema).max(CONDITIONS_MAX).default([]),
  reward: RewardSchema,
  label: z.string().trim().max(80).nullable().optional(),
  /** The most a promoter may earn by this rule in a calendar month (minor units); null: no cap. */
  capPerPromoterPerMonth: z.number().int().min(0).max(MAX_AMOUNT).nullable().optional(),
});
export type RewardRuleInput = z.input<typeof RewardRuleSchema>;

/** A rule as stored and answered: every field present. */
export interface RewardRule {
  id: string;
  event: RewardEvent;
  groupIds: string[];
  conditions: RewardCondition[];
  reward: Reward;
  label: string | null;
  capPerPromoterPerMonth: number | null;
}

export const RewardsPutSchema = z.strictObject({
  rules: z.array(RewardRuleSchema).max(REWARD_RULES_MAX),
  /** The most the campaign pays in commissions in a calendar month (minor units); null: no budget. */
  budgetPerMonth: z.number().int().min(0).max(MAX_AMOUNT).nullable().optional(),
});

const StoredRuleSchema = z.object({
  id: z.string(),
  event: z.enum(REWARD_EVENTS),
  groupIds: z.array(z.string()),
  conditions: z.array(z.object({ field: z.string(), op: z.enum(CONDITION_OPS), value: z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]) })),
  reward: z.union([z.object({ type: z.literal('percent'), bps: z.number().int() }), z.object({ type: z.literal('fixed'), amount: z.number().int() })]),
  label: z.string().nullable(),
  capPerPromoterPerMonth: z.number().int().nullable(),
});
export const RewardsSchema = z.object({ rules: z.array(StoredRuleSchema), budgetPerMonth: z.number().int().nullable() });
export type Rewards = z.infer<typeof RewardsSchema>;

/**
 * A line of a sale (`items` of `POST api/v1/conversions`): `amount` is the line's total in minor
 * units. A refund names lines the same way: which sku, and how much of that line is refunded.
 */
export const ConversionItemSchema = z.strictObject({
  sku: z.string().trim().min(1).max(100),
  category: z.string().trim().min(1).max(100).optional(),
  quantity: z.number().int().min(1).max(1_000_000).default(1),
  amount: z.number().int().min(0).max(MAX_AMOUNT),
});
export const CountrySchema = z.string().trim().toUpperCase().regex(/^[A-Z]{2}$/);
export const MetadataSchema = z.record(z.string().regex(KEY_RE), z.string().max(500)).refine((m) => Object.keys(m).length <= METADATA_KEYS_MAX, { params: { fieldCode: 'too_long' } });

/**
 * What the rules editor reads of `GET api/admin/groups` (issue 31 item 1, built beside this): each
 * group's id and name, to limit a rule to groups by name.
 */
export interface RewardGroupOption {
  id: string;
  name: string;
}
export interface RewardGroupOptions {
  items: RewardGroupOption[];
}

/** `GET api/admin/conversions/:id/explanation`, `GET api/commissions/:id/explanation`: how it was decided, in the reader's language. */
export const ExplanationSchema = z.object({
  steps: z.array(z.object({ step: z.string(), outcome: z.string(), detail: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])), text: z.string() })),
});
export type Explanation = z.infer<typeof ExplanationSchema>;
