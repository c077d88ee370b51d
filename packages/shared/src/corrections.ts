/**
 * Operators' look-ups and corrections (issue 31, item 7; docs/rewards.md "Corrections"): the
 * conversions search and detail, assigning a conversion to a promoter, reversing a commission, and
 * customer bindings found, ended and moved. Every correction carries the reason staff give, which
 * goes to the audit log and, where the promoter is concerned, to them.
 */
import { z } from 'zod';
import { CONVERSION_REASONS, CommissionSchema, ConversionKindSchema, ConversionSchema, ConversionStatusSchema, DayParamSchema, PageQuerySchema } from './schemas';

const IdSchema = z.string().trim().min(1).max(64);
/** What staff say a correction is for: kept in the audit log, shown to the promoter it concerns. */
const ReasonSchema = z.string().trim().min(1).max(500);

/** `GET api/admin/conversions`: `q` an order's (or lead's) id, exactly as the shop sent it; `from`/`to` days (occurred) in the installation's zone, both included. */
export const AdminConversionQuerySchema = PageQuerySchema.extend({
  q: z.string().trim().min(1).max(128).optional(),
  campaignId: IdSchema.optional(),
  promoterId: IdSchema.optional(),
  kind: ConversionKindSchema.optional(),
  status: ConversionStatusSchema.optional(),
  reason: z.enum(CONVERSION_REASONS).optional(),
  from: DayParamSchema.optional(),
  to: DayParamSchema.optional(),
});
export type AdminConversionQuery = z.input<typeof AdminConversionQuerySchema>;

/** A sale's line as stored: what was sent, the rule that decided it and what refunds named of it. */
const ConversionLineSchema = z.object({
  sku: z.string(),
  category: z.string().nullable(),
  quantity: z.number().int(),
  amount: z.number().int(),
  ruleId: z.string().nullable(),
  commission: z.number().int(),
  refunded: z.number().int(),
  reversed: z.number().int(),
});

/** `GET api/admin/conversions/:id`: the conversion, what the business sent with it, its commissions, its refunds and its explanation in the reader's language. */
export const AdminConversionDetailSchema = z.object({
  conversion: ConversionSchema.extend({ promoterName: z.string().nullable(), campaignName: z.string() }),
  sent: z.object({
    clickId: z.string().nullable(),
    couponCode: z.string().nullable(),
    linkCode: z.string().nullable(),
    customerExternalId: z.string().nullable(),
    /** The customer's e-mail digest was sent (never shown). */
    customerEmail: z.boolean(),
    items: z.array(ConversionLineSchema).nullable(),
    country: z.string().nullable(),
    metadata: z.record(z.string(), z.string()).nullable(),
    newCustomer: z.boolean().nullable(),
  }),
  commissions: z.array(CommissionSchema.extend({ promoterName: z.string(), assignment: z.number().int() })),
  refunds: z.array(z.object({ id: z.string(), externalId: z.string(), amount: z.number().int(), occurredAt: z.number().int() })),
  explanation: z.array(z.object({ step: z.string(), outcome: z.string(), detail: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])), text: z.string() })),
  currency: z.string(),
});
export type AdminConversionDetail = z.infer<typeof AdminConversionDetailSchema>;

/** `POST api/admin/conversions/:id/assign`. */
export const ConversionAssignSchema = z.strictObject({ promoterId: IdSchema, reason: ReasonSchema });
export type ConversionAssign = z.input<typeof ConversionAssignSchema>;
/** What an assignment did: the conversion as it now stands, the commissions it reversed and those it made. */
export const ConversionAssignResultSchema = z.object({
  conversion: ConversionSchema,
  reversed: z.array(z.string()),
  commissions: z.array(CommissionSchema),
});
export type ConversionAssignResult = z.infer<typeof ConversionAssignResultSchema>;

/** `POST api/admin/commissions/:id/reverse`: a clawback, with the reason the promoter is told. */
export const CommissionReverseSchema = z.strictObject({ reason: ReasonSchema });
export type CommissionReverse = z.input<typeof CommissionReverseSchema>;
export const CommissionReverseResultSchema = z.object({ commission: CommissionSchema, reversed: z.number().int() });
export type CommissionReverseResult = z.infer<typeof CommissionReverseResultSchema>;

// ——— Customer bindings (recurring and lifetime campaigns, docs/integrations.md) ———

export const BindingQuerySchema = PageQuerySchema.extend({
  /** The customer's id as the shop (or Stripe) sends it, exactly. */
  customer: z.string().trim().min(1).max(128).optional(),
  campaignId: IdSchema.optional(),
  promoterId: IdSchema.optional(),
  /** Only bindings that have not been ended. */
  active: z.enum(['true', 'false']).transform((v) => v === 'true').optional(),
});
export type BindingQuery = z.input<typeof BindingQuerySchema>;

export const BindingSchema = z.object({
  id: z.string(),
  campaignId: z.string(),
  campaignName: z.string(),
  customerExternalId: z.string(),
  promoterId: z.string(),
  promoterName: z.string().nullable(),
  linkId: z.string().nullable(),
  /** The conversion that first bound the customer (a moved binding keeps it). */
  conversionId: z.string(),
  startedAt: z.number().int(),
  /** null: for the customer's lifetime. */
  months: z.number().int().nullable(),
  endedAt: z.number().int().nullable(),
});
export type Binding = z.infer<typeof BindingSchema>;
export const BindingListSchema = z.object({ items: z.array(BindingSchema), nextCursor: z.string().nullable() });
export type BindingList = z.infer<typeof BindingListSchema>;
export const BindingEnvelopeSchema = z.object({ binding: BindingSchema });
export type BindingEnvelope = z.infer<typeof BindingEnvelopeSchema>;

export const BindingEndSchema = z.strictObject({ reason: ReasonSchema });
export type BindingEnd = z.input<typeof BindingEndSchema>;
export const BindingMoveSchema = z.strictObject({ promoterId: IdSchema, reason: ReasonSchema });
export type BindingMove = z.input<typeof BindingMoveSchema>;
