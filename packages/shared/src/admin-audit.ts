/**
 * The audit log (issue 14, item 7): every action the server can write an entry for, the log's
 * filters and its entries. `audit()` on the server is typed against AUDIT_ACTIONS, so an action
 * missing here does not compile, and a test holds docs/api.md's table to this list.
 */
import { z } from 'zod';
import { DayParamSchema, PageQuerySchema, RoleSchema } from './schemas';

export const AUDIT_ACTIONS = [
  // Accounts: self-service (promoters and staff alike) and staff decisions on promoters.
  'user.register', 'user.profile_update', 'user.password_change',
  'user.approve', 'user.reject', 'user.suspend', 'user.reactivate',
  'user.password_reset_link', 'user.password_reset',
  'user.email_requested', 'user.email_verified',
  // Sessions: staff sign-ins and sign-outs; anyone's device sign-outs.
  'session.sign_in', 'session.sign_out', 'session.revoke', 'session.revoke_all',
  // Staff and the installation.
  'staff.create', 'staff.invite', 'staff.update',
  'settings.update', 'crypto.rotate_key',
  'api_key.create', 'api_key.revoke',
  'webhook.create', 'webhook.update', 'webhook.rotate_secret', 'webhook.delete', 'webhook.test', 'webhook.retry',
  'integration.stripe_secret',
  // Programme content.
  'campaign.create', 'campaign.update', 'campaign.activate', 'campaign.pause', 'campaign.end', 'campaign.rewards', 'campaign.image_add', 'campaign.image_remove',
  'announcement.create', 'announcement.update', 'announcement.publish', 'announcement.archive', 'announcement.delete',
  'enrollment.approve', 'enrollment.reject', 'enrollment.coupon',
  // Promoter groups and the application form (issue 31).
  'group.create', 'group.update', 'group.delete', 'group.invite_code', 'promoter.group', 'application_form.update',
  // Money.
  'commission.approve', 'commission.reject', 'commission.reverse',
  // Corrections (issue 31): a conversion assigned to a promoter, a customer's binding ended or moved.
  'conversion.assign', 'binding.end', 'binding.move',
  // Bounties (issue 31 item 5): made and changed, and promoters' proof approved or rejected.
  'bounty.create', 'bounty.update', 'bounty_submission.approve', 'bounty_submission.reject',
  'promoter.adjust',
  'payout_account.add', 'payout_account.delete',
  'withdrawal.requested', 'withdrawal.approved', 'withdrawal.paid', 'withdrawal.failed', 'withdrawal.rejected', 'withdrawal.cancelled',
  // Exports (each one recorded with its filters and row count).
  'withdrawal.export', 'promoter.export', 'audit.export',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** The `entity` column: what kind of thing an entry is about. */
export const AUDIT_ENTITIES = ['user', 'session', 'settings', 'rsa_key', 'api_key', 'webhook', 'campaign', 'announcement', 'enrollment', 'commission', 'conversion', 'binding', 'payout_account', 'withdrawal', 'audit', 'group', 'bounty', 'bounty_submission'] as const;

/** `actor=system`: entries written by the server itself (the scheduler, the command line). */
export const AUDIT_SYSTEM_ACTOR = 'system';

const auditFilters = {
  /** A user id, or `system` for entries without a person. */
  actor: z.string().trim().min(1).max(64).optional(),
  /** One action (`withdrawal.paid`), or every action of an area when it ends with a dot (`withdrawal.`). */
  action: z.string().trim().max(64).regex(/^[a-z_]+\.(?:[a-z_]+)?$/).optional(),
  entityType: z.string().trim().max(40).regex(/^[a-z_]+$/).optional(),
  entityId: z.string().trim().min(1).max(64).optional(),
  /** Calendar days in the installation's time zone, both included. */
  from: DayParamSchema.optional(),
  to: DayParamSchema.optional(),
};
export const AuditQuerySchema = PageQuerySchema.extend(auditFilters);
export type AuditQuery = z.input<typeof AuditQuerySchema>;
/** The export takes the log's filters without the page. */
export const AuditExportQuerySchema = z.strictObject(auditFilters);

/** A JSON value as stored in an entry's before and after. */
const JsonValueSchema: z.ZodType<unknown> = z.unknown();

const AuditEntrySchema = z.object({
  id: z.string(),
  at: z.number().int(),
  /** null: the server itself (the scheduler, the command line). */
  actor: z.object({ id: z.string(), displayName: z.string(), account: z.string(), role: RoleSchema }).nullable(),
  action: z.string(),
  entityType: z.string(),
  entityId: z.string().nullable(),
  /** What the entity is called now (a person's display name, a campaign's name in the reader's language, an endpoint's description or address, a key's name); null when it has none or is gone. */
  entityName: z.string().nullable(),
  before: JsonValueSchema,
  after: JsonValueSchema,
  /** The client's address; null for the scheduler and the command line. */
  ip: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;
export const AuditListSchema = z.object({ items: z.array(AuditEntrySchema), nextCursor: z.string().nullable() });
export type AuditList = z.infer<typeof AuditListSchema>;
