/**
 * E-mail (issue 16): what a person can turn on or off in Me, the console's view of the mail
 * settings and of the messages sent, and self-service "forgot password".
 */
import { z } from 'zod';
import { ACCOUNT_MAX, accountKind, normalizeAccount } from './rules';
import { PageQuerySchema } from './schemas';

/**
 * Categories a person turns on or off (all on by default). Promoters: `account` (registration
 * approved or rejected), `commissions` (the daily digest of approved commissions), `withdrawals`
 * (paid, failed or rejected). Staff: `work_queue` (the daily summary), and one per staff
 * notification (issue 28): `registrations` and `enrollments` awaiting approval,
 * `withdrawal_requests`; admins also `system` (a webhook endpoint disabled), `mail_failing` and
 * `ledger` (a ledger check found a breach). Invitations and password links are always sent: they
 * are what the person asked for.
 */
const MAIL_CATEGORIES = ['account', 'commissions', 'withdrawals', 'work_queue', 'registrations', 'enrollments', 'withdrawal_requests', 'system', 'mail_failing', 'ledger'] as const;
const MailCategorySchema = z.enum(MAIL_CATEGORIES);
export type MailCategory = z.infer<typeof MailCategorySchema>;
export const PROMOTER_MAIL_CATEGORIES: readonly MailCategory[] = ['account', 'commissions', 'withdrawals'];
/** An operator's: the work queue. */
export const OPERATOR_MAIL_CATEGORIES: readonly MailCategory[] = ['work_queue', 'registrations', 'enrollments', 'withdrawal_requests'];
/** An admin's: the work queue and the system's alerts (the pages they open are admins'). */
export const STAFF_MAIL_CATEGORIES: readonly MailCategory[] = [...OPERATOR_MAIL_CATEGORIES, 'system', 'mail_failing', 'ledger'];

/** `GET api/me/mail-preferences`: the person's categories; `mailEnabled` false when the installation sends no e-mail. */
export const MailPreferencesSchema = z.object({
  mailEnabled: z.boolean(),
  /** The person's account is an e-mail address (a phone number gets no mail). */
  hasAddress: z.boolean(),
  items: z.array(z.object({ category: MailCategorySchema, enabled: z.boolean() })),
});
export type MailPreferences = z.infer<typeof MailPreferencesSchema>;
/** `PATCH api/me/mail-preferences`. */
export const MailPreferencePatchSchema = z.strictObject({ category: MailCategorySchema, enabled: z.boolean() });
export type MailPreferencePatch = z.input<typeof MailPreferencePatchSchema>;

/** `GET api/admin/mail`: whether e-mail is on, where it goes through (never the password), and the outbox's counts. */
export const MailSettingsSchema = z.object({
  enabled: z.boolean(),
  /** host:port of SMTP_URL, without credentials; null when off. */
  server: z.string().nullable(),
  from: z.string().nullable(),
  publicUrl: z.string().nullable(),
  counts: z.object({ pending: z.number().int(), sent: z.number().int(), failed: z.number().int() }),
});
export type MailSettings = z.infer<typeof MailSettingsSchema>;

export const MAIL_TEMPLATES = [
  'test', 'staff_invite', 'password_reset', 'forgot_password', 'registration_approved', 'registration_rejected',
  'commission_digest', 'withdrawal_paid', 'withdrawal_failed', 'withdrawal_rejected', 'work_queue_summary', 'webhook_disabled',
  'staff_registration', 'staff_enrollment', 'staff_withdrawal', 'mail_failing', 'ledger_breach',
  'verify_email',
] as const;
const MailTemplateSchema = z.enum(MAIL_TEMPLATES);
export type MailTemplate = z.infer<typeof MailTemplateSchema>;

const MailMessageSchema = z.object({
  id: z.string(),
  to: z.string(),
  template: MailTemplateSchema,
  subject: z.string(),
  status: z.enum(['pending', 'sent', 'failed']),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  nextAttemptAt: z.number().int().nullable(),
  createdAt: z.number().int(),
  sentAt: z.number().int().nullable(),
});
export type MailMessage = z.infer<typeof MailMessageSchema>;
export const MailMessageListSchema = z.object({ items: z.array(MailMessageSchema), nextCursor: z.string().nullable() });
export const MailMessageQuerySchema = PageQuerySchema;
export const MailMessageEnvelopeSchema = z.object({ message: MailMessageSchema });
export type MailMessageEnvelope = z.infer<typeof MailMessageEnvelopeSchema>;

/** `POST api/admin/mail/test`: a test message to `to`, else to the staff member's own address. */
export const MailTestBodySchema = z.strictObject({
  to: z.string().max(ACCOUNT_MAX + 16).transform(normalizeAccount)
    .refine((v) => accountKind(v) === 'email', { message: 'invalid', params: { fieldCode: 'invalid' } }).optional(),
});
export type MailTestBody = z.input<typeof MailTestBodySchema>;

/** `POST api/auth/forgot-password`: always 202, whether or not the account exists. */
export const ForgotPasswordBodySchema = z.strictObject({
  account: z.string().min(1).max(ACCOUNT_MAX + 16).transform(normalizeAccount),
});
export type ForgotPasswordBody = z.input<typeof ForgotPasswordBodySchema>;
export const AcceptedSchema = z.object({ ok: z.literal(true) });
