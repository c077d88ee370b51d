/**
 * Webhooks (issue 16): the event types, an endpoint as the console shows it, and its deliveries.
 * Bodies are signed per the Standard Webhooks specification (docs/webhooks.md).
 */
import { z } from 'zod';
import { PageQuerySchema } from './schemas';

export const WEBHOOK_EVENT_TYPES = [
  'conversion.created',
  'commission.created', 'commission.approved', 'commission.rejected', 'commission.reversed',
  'bounty.earned',
  'withdrawal.requested', 'withdrawal.approved', 'withdrawal.paid', 'withdrawal.failed', 'withdrawal.rejected', 'withdrawal.cancelled',
  'promoter.registered', 'promoter.approved', 'promoter.suspended',
  'enrollment.created', 'enrollment.approved', 'enrollment.rejected',
] as const;
const WebhookEventTypeSchema = z.enum(WEBHOOK_EVENT_TYPES);
export type WebhookEventType = z.infer<typeof WebhookEventTypeSchema>;
/** Sent by "send a test" only, whatever the endpoint subscribes to. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

export const WebhookEndpointCreateSchema = z.strictObject({
  url: z.string().trim().min(1).max(2000),
  events: z.array(WebhookEventTypeSchema).min(1).max(WEBHOOK_EVENT_TYPES.length),
  description: z.string().trim().max(200).optional(),
});
export type WebhookEndpointCreate = z.input<typeof WebhookEndpointCreateSchema>;
/** A change to an endpoint: its address, events or description; enabling it again, or disabling it. */
export const WebhookEndpointPatchSchema = z.strictObject({
  url: WebhookEndpointCreateSchema.shape.url.optional(),
  events: WebhookEndpointCreateSchema.shape.events.optional(),
  description: z.string().trim().max(200).nullable().optional(),
  status: z.enum(['enabled', 'disabled']).optional(),
});
export type WebhookEndpointPatch = z.input<typeof WebhookEndpointPatchSchema>;
/** How long the previous secret still signs after a rotation (both signatures are sent). */
export const WEBHOOK_PREVIOUS_SECRET_MS = 24 * 3_600_000;

const WebhookEndpointSchema = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string().nullable(),
  events: z.array(WebhookEventTypeSchema),
  status: z.enum(['enabled', 'disabled']),
  disabledReason: z.string().nullable(),
  /** Enabled, but no delivery has succeeded since this time (disabled after 5 days of it); null when not failing. */
  failingSince: z.number().int().nullable(),
  /** While failing: the latest failed attempt (its HTTP status, or null when there was no answer, and the error). */
  lastError: z.object({ at: z.number().int(), statusCode: z.number().int().nullable(), error: z.string().nullable() }).nullable(),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
});
export type WebhookEndpoint = z.infer<typeof WebhookEndpointSchema>;
export const WebhookEndpointCreatedSchema = z.object({ endpoint: WebhookEndpointSchema, secret: z.string() });
export const WebhookEndpointEnvelopeSchema = z.object({ endpoint: WebhookEndpointSchema });
export const WebhookDeliveryEnvelopeSchema = z.object({ delivery: z.object({ id: z.string(), status: z.enum(['pending', 'succeeded', 'failed']), nextAttemptAt: z.number().int().nullable() }) });
export const WebhookEndpointListSchema = z.object({ items: z.array(WebhookEndpointSchema) });
export type WebhookEndpointCreated = z.infer<typeof WebhookEndpointCreatedSchema>;
export type WebhookEndpointEnvelope = z.infer<typeof WebhookEndpointEnvelopeSchema>;
export type WebhookDeliveryEnvelope = z.infer<typeof WebhookDeliveryEnvelopeSchema>;
export type WebhookEndpointList = z.infer<typeof WebhookEndpointListSchema>;

const WebhookAttemptSchema = z.object({
  at: z.number().int(),
  statusCode: z.number().int().nullable(),
  durationMs: z.number().int(),
  error: z.string().nullable(),
});
const WebhookDeliverySchema = z.object({
  id: z.string(),
  eventId: z.string(),
  type: z.string(),
  status: z.enum(['pending', 'succeeded', 'failed']),
  attempts: z.array(WebhookAttemptSchema),
  nextAttemptAt: z.number().int().nullable(),
  createdAt: z.number().int(),
});
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;
export const WebhookDeliveryListSchema = z.object({ items: z.array(WebhookDeliverySchema), nextCursor: z.string().nullable() });
export const WebhookDeliveryQuerySchema = PageQuerySchema;
