/**
 * Staff and roles (issue 14, item 6) and the one-time password link's page (item 5): the calls
 * `api/admin/staff` and `api/auth/reset-password`.
 */
import { z } from 'zod';
import { AccountSchema, DisplayNameSchema, SealedSchema, UserStatusSchema } from './schemas';

/** Staff roles: promoters are not staff and are never listed or changed here. */
const StaffRoleSchema = z.enum(['operator', 'admin']);
export type StaffRole = z.infer<typeof StaffRoleSchema>;
export const STAFF_ROLES = StaffRoleSchema.options;

/** The statuses an admin may set on a staff member. */
const StaffStatusSchema = z.enum(['active', 'suspended']);
export type StaffStatus = z.infer<typeof StaffStatusSchema>;

const StaffMemberSchema = z.object({
  id: z.string(),
  account: z.string(),
  displayName: z.string(),
  role: StaffRoleSchema,
  status: UserStatusSchema,
  createdAt: z.number().int(),
  /** When they last signed in (their newest session), null when never. */
  lastSignInAt: z.number().int().nullable(),
  /** False until they have set a password through their invite link. */
  passwordSet: z.boolean(),
});
export type StaffMember = z.infer<typeof StaffMemberSchema>;
export const StaffListSchema = z.object({ items: z.array(StaffMemberSchema) });
export type StaffList = z.infer<typeof StaffListSchema>;
export const StaffEnvelopeSchema = z.object({ user: StaffMemberSchema });
export type StaffEnvelope = z.infer<typeof StaffEnvelopeSchema>;

export const StaffCreateBodySchema = z.strictObject({
  account: AccountSchema,
  displayName: DisplayNameSchema,
  role: StaffRoleSchema,
});
export type StaffCreateBody = z.input<typeof StaffCreateBodySchema>;

/** A one-time set-password link, shown once: 30 minutes, single use. */
export const StaffInviteSchema = z.object({
  user: StaffMemberSchema,
  inviteUrl: z.string(),
  expiresAt: z.number().int(),
  /** The address the same link was also e-mailed to (mail on, an e-mail account), else null. */
  mailedTo: z.string().nullable(),
});
export type StaffInvite = z.infer<typeof StaffInviteSchema>;

export const StaffPatchBodySchema = z
  .strictObject({
    role: StaffRoleSchema.optional(),
    status: StaffStatusSchema.optional(),
  })
  .refine((body) => body.role !== undefined || body.status !== undefined, { params: { fieldCode: 'required' } });
export type StaffPatchBody = z.input<typeof StaffPatchBodySchema>;

/** `POST api/auth/reset-password`: the token from the link and the new password, sealed. */
export const ResetPasswordBodySchema = z.strictObject({
  token: z.string().min(1).max(256),
  password: SealedSchema,
});
export type ResetPasswordBody = z.input<typeof ResetPasswordBodySchema>;
/** The account whose password was set, so the page can fill in the sign-in form. */
export const ResetPasswordResultSchema = z.object({ ok: z.literal(true), account: z.string() });
export type ResetPasswordResult = z.infer<typeof ResetPasswordResultSchema>;
