/** zod schemas for every request and response: the contract the server and the web app share. */
import { z } from 'zod';
import { ERROR_CODES } from './errors';
import { LOCALES } from './locales';
import { checkAccount, checkDisplayName, checkInviteCode, normalizeAccount, normalizeInviteCode, ACCOUNT_MAX } from './rules';
import type { FieldCode } from './errors';

/** Turns a rule function into a zod refinement that reports the rule's field code. */
function rule(check: (v: string) => FieldCode | null) {
  return (value: string, ctx: z.RefinementCtx) => {
    const code = check(value);
    if (code) ctx.addIssue({ code: 'custom', message: code, params: { fieldCode: code } });
  };
}

export const ErrorBodySchema = z.object({
  error: z.object({
    code: z.enum(ERROR_CODES as [string, ...string[]]),
    message: z.string(),
    fields: z.record(z.string(), z.string()).optional(),
  }),
});

export const LocaleSchema = z.enum(LOCALES);
export const RoleSchema = z.enum(['promoter', 'operator', 'admin']);
export type Role = z.infer<typeof RoleSchema>;
export const UserStatusSchema = z.enum(['pending', 'active', 'rejected', 'suspended']);
export type UserStatus = z.infer<typeof UserStatusSchema>;
export const RegistrationModeSchema = z.enum(['open', 'approval', 'invite-only']);
export type RegistrationMode = z.infer<typeof RegistrationModeSchema>;

export const SealedSchema = z.strictObject({
  keyId: z.string().min(1).max(64),
  ciphertext: z.string().min(1).max(2048).regex(/^[A-Za-z0-9+/]+=*$/),
});
export type Sealed = z.infer<typeof SealedSchema>;

export const PublicKeySchema = z.object({
  keyId: z.string(),
  algorithm: z.literal('RSA-OAEP-256'),
  spki: z.string(),
});
export type PublicKey = z.infer<typeof PublicKeySchema>;

export const AccountSchema = z.string().max(ACCOUNT_MAX + 16).superRefine(rule(checkAccount)).transform(normalizeAccount);
export const DisplayNameSchema = z.string().max(200).superRefine(rule(checkDisplayName)).transform((v) => v.trim());
export const InviteCodeSchema = z.string().max(32).superRefine(rule(checkInviteCode)).transform(normalizeInviteCode);

export const UserSchema = z.object({
  id: z.string(),
  account: z.string(),
  displayName: z.string(),
  role: RoleSchema,
  status: UserStatusSchema,
  locale: LocaleSchema,
  inviteCode: z.string(),
  inviterName: z.string().nullable(),
  createdAt: z.number().int(),
});
export type User = z.infer<typeof UserSchema>;
export const UserEnvelopeSchema = z.object({ user: UserSchema });

export const RegisterBodySchema = z.strictObject({
  account: AccountSchema,
  displayName: DisplayNameSchema,
  password: SealedSchema,
  inviteCode: InviteCodeSchema.optional(),
  locale: LocaleSchema.optional(),
});
export type RegisterBody = z.input<typeof RegisterBodySchema>;

export const LoginBodySchema = z.strictObject({
  account: z.string().min(1).max(ACCOUNT_MAX + 16).transform(normalizeAccount),
  password: SealedSchema,
});
export type LoginBody = z.input<typeof LoginBodySchema>;

export const MePatchSchema = z.strictObject({
  displayName: DisplayNameSchema.optional(),
  locale: LocaleSchema.optional(),
});
export type MePatch = z.input<typeof MePatchSchema>;

export const ChangePasswordBodySchema = z.strictObject({ current: SealedSchema, next: SealedSchema });
export type ChangePasswordBody = z.input<typeof ChangePasswordBodySchema>;

export const SessionInfoSchema = z.object({
  id: z.string(),
  device: z.string(),
  createdAt: z.number().int(),
  lastSeenAt: z.number().int(),
  current: z.boolean(),
});
export type SessionInfo = z.infer<typeof SessionInfoSchema>;
export const SessionListSchema = z.object({ items: z.array(SessionInfoSchema) });

export const IdParamsSchema = z.strictObject({ id: z.string().min(1).max(64) });
export const OkSchema = z.object({ ok: z.literal(true) });
export const RevokedSchema = z.object({ revoked: z.number().int() });

export const HealthSchema = z.object({ status: z.literal('ok'), version: z.string() });
export const ReadySchema = z.object({ status: z.literal('ready'), database: z.literal('ok') });

export const SettingsSchema = z.object({ registrationMode: RegistrationModeSchema });
export type Settings = z.infer<typeof SettingsSchema>;
export const SettingsPatchSchema = z.strictObject({ registrationMode: RegistrationModeSchema.optional() });

export const PageQuerySchema = z.strictObject({
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

export const AdminUserQuerySchema = PageQuerySchema.extend({
  status: UserStatusSchema.optional(),
  role: RoleSchema.optional(),
  q: z.string().max(100).optional(),
});

export const AdminUserSchema = UserSchema.extend({ inviterId: z.string().nullable() });
export const AdminUserListSchema = z.object({ items: z.array(AdminUserSchema), nextCursor: z.string().nullable() });
export type AdminUserList = z.infer<typeof AdminUserListSchema>;

export const UserActionParamsSchema = z.strictObject({
  id: z.string().min(1).max(64),
  action: z.enum(['approve', 'reject', 'suspend', 'reactivate']),
});

/** The OpenAPI document (its shape is OpenAPI's own; only the version is checked here). */
export const OpenApiDocumentSchema = z.looseObject({ openapi: z.string(), paths: z.record(z.string(), z.unknown()) });

export const WebManifestSchema = z.object({
  name: z.string(),
  short_name: z.string(),
  lang: z.string(),
  start_url: z.string(),
  scope: z.string(),
  display: z.literal('standalone'),
  background_color: z.string(),
  theme_color: z.string(),
  icons: z.array(z.object({ src: z.string(), sizes: z.string(), type: z.string(), purpose: z.string().optional() })),
});
