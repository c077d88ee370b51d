/** zod schemas for every request and response: the contract the server and the web app share. */
import { z } from 'zod';
import { ERROR_CODES } from './errors';
import { LOCALES } from './locales';
import { ConversionItemSchema, CountrySchema, ITEMS_MAX, MetadataSchema } from './rewards';
import {
  checkAccount, checkChannel, checkDisplayName, checkEmail, checkGroupCode, checkHolderName, checkInviteCode, checkLinkCode, normalizeAccount, normalizeInviteCode, ACCOUNT_MAX, PAYOUT_METHODS, MAX_INSTANT, isCalendarDay,
  API_SCOPES, COMMISSION_BULK_MAX, STAFF_WITHDRAWAL_ACTIONS, WITHDRAWAL_REASON_MAX, WITHDRAWAL_REFERENCE_MAX, WITHDRAWAL_SETTING_MONEY_MAX, WITHDRAWAL_STATUSES, WITHDRAWALS_PER_DAY,
  type StaffWithdrawalAction, MAX_AMOUNT,
} from './rules';
import type { FieldCode } from './errors';
import { ANSWER_MAX, QUESTION_KINDS, QUESTIONS_MAX } from './application-form';

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
const RegistrationModeSchema = z.enum(['open', 'approval', 'invite-only']);
export type RegistrationMode = z.infer<typeof RegistrationModeSchema>;

export const SealedSchema = z.strictObject({
  keyId: z.string().min(1).max(64),
  ciphertext: z.string().min(1).max(2048).regex(/^[A-Za-z0-9+/]+=*$/),
});
export type Sealed = z.infer<typeof SealedSchema>;
/** A request body as the person typed it: its sealed fields `K` still in the clear (the client seals them just before sending). */
export type Unsealed<T, K extends keyof T> = Omit<T, K> & { [P in K]: string };

export const PublicKeySchema = z.object({
  keyId: z.string(),
  algorithm: z.literal('RSA-OAEP-256'),
  spki: z.string(),
});
export type PublicKey = z.infer<typeof PublicKeySchema>;

export const AccountSchema = z.string().max(ACCOUNT_MAX + 16).superRefine(rule(checkAccount)).transform(normalizeAccount);
export const DisplayNameSchema = z.string().max(200).superRefine(rule(checkDisplayName)).transform((v) => v.trim());
const InviteCodeSchema = z.string().max(32).superRefine(rule(checkInviteCode)).transform(normalizeInviteCode);
/** A group's invite code as it comes in a link (`?group=…`; issue 31): look-alike characters read as in invite codes. */
export const GroupCodeSchema = z.string().max(32).superRefine(rule(checkGroupCode)).transform(normalizeInviteCode);
/** A registration's answers to the application form: question id → answer (a choice: the option's id). */
export const AnswersBodySchema = z.record(z.string().min(1).max(64), z.string().max(ANSWER_MAX.longText + 100))
  .refine((v) => Object.keys(v).length <= 2 * QUESTIONS_MAX, { params: { fieldCode: 'too_large' } });

export const UserSchema = z.object({
  id: z.string(),
  account: z.string(),
  displayName: z.string(),
  role: RoleSchema,
  status: UserStatusSchema,
  locale: LocaleSchema,
  inviteCode: z.string(),
  inviterName: z.string().nullable(),
  /** The promoter chose not to appear on the leaderboard. */
  leaderboardOptOut: z.boolean(),
  createdAt: z.number().int(),
  /**
   * A phone account's verified e-mail address (issue 28), where its mail and password links go;
   * null until one is verified (and for e-mail accounts, whose account is their address).
   */
  email: z.string().nullable(),
});
export type User = z.infer<typeof UserSchema>;
export const UserEnvelopeSchema = z.object({ user: UserSchema });
export type UserEnvelope = z.infer<typeof UserEnvelopeSchema>;

export const RegisterBodySchema = z.strictObject({
  account: AccountSchema,
  displayName: DisplayNameSchema,
  password: SealedSchema,
  inviteCode: InviteCodeSchema.optional(),
  /** The group whose invite link the person came through (the default group without one). */
  groupCode: GroupCodeSchema.optional(),
  /** Answers to the questions `GET api/auth/application-form` asks (checked by application-form.ts's rules). */
  answers: AnswersBodySchema.optional(),
  locale: LocaleSchema.optional(),
});
export type RegisterBody = z.input<typeof RegisterBodySchema>;

/** `GET api/auth/invites/:code`: whose invite it is, for the register page ("Invited by S*****n"). */
export const InviteParamsSchema = z.strictObject({ code: InviteCodeSchema });
export const InviteLookupSchema = z.object({ /** Masked (maskName). */ inviterName: z.string() });
export type InviteLookup = z.infer<typeof InviteLookupSchema>;

export const LoginBodySchema = z.strictObject({
  account: z.string().min(1).max(ACCOUNT_MAX + 16).transform(normalizeAccount),
  password: SealedSchema,
});
export type LoginBody = z.input<typeof LoginBodySchema>;

export const MePatchSchema = z.strictObject({
  displayName: DisplayNameSchema.optional(),
  locale: LocaleSchema.optional(),
  leaderboardOptOut: z.boolean().optional(),
});
export type MePatch = z.input<typeof MePatchSchema>;

/** `POST api/me/email`: the address to verify (a link is mailed to it). */
export const EmailBodySchema = z.strictObject({ email: z.string().max(ACCOUNT_MAX + 16).superRefine(rule(checkEmail)).transform(normalizeAccount) });
export type EmailBody = z.input<typeof EmailBodySchema>;
export const EmailPendingSchema = z.object({ ok: z.literal(true), email: z.string(), expiresAt: z.number().int() });
export type EmailPending = z.infer<typeof EmailPendingSchema>;
/** `POST api/auth/verify-email`: the token from the mailed link. */
export const VerifyEmailBodySchema = z.strictObject({ token: z.string().min(1).max(256) });
export type VerifyEmailBody = z.input<typeof VerifyEmailBodySchema>;
export const VerifyEmailResultSchema = z.object({ ok: z.literal(true), email: z.string() });
export type VerifyEmailResult = z.infer<typeof VerifyEmailResultSchema>;

export const ChangePasswordBodySchema = z.strictObject({ current: SealedSchema, next: SealedSchema });
export type ChangePasswordBody = z.input<typeof ChangePasswordBodySchema>;

const SessionInfoSchema = z.object({
  id: z.string(),
  device: z.string(),
  createdAt: z.number().int(),
  lastSeenAt: z.number().int(),
  current: z.boolean(),
});
export type SessionInfo = z.infer<typeof SessionInfoSchema>;
export const SessionListSchema = z.object({ items: z.array(SessionInfoSchema) });
export type SessionList = z.infer<typeof SessionListSchema>;

export const IdParamsSchema = z.strictObject({ id: z.string().min(1).max(64) });
export const OkSchema = z.object({ ok: z.literal(true) });
export type Ok = z.infer<typeof OkSchema>;
export const RevokedSchema = z.object({ revoked: z.number().int() });
export type Revoked = z.infer<typeof RevokedSchema>;

export const HealthSchema = z.object({ status: z.literal('ok'), version: z.string() });
export const ReadySchema = z.object({ status: z.literal('ready'), database: z.literal('ok') });

const CurrencySchema = z.string().regex(/^[A-Z]{3}$/);
const MoneySettingSchema = z.number().int().min(0).max(WITHDRAWAL_SETTING_MONEY_MAX);
export const SettingsSchema = z.object({
  registrationMode: RegistrationModeSchema,
  currency: CurrencySchema,
  /** Withdrawals (PRODUCT.md §10): limits in minor units, the fee as basis points plus a fixed part. */
  withdrawalMin: MoneySettingSchema,
  withdrawalMax: MoneySettingSchema,
  withdrawalsPerDay: z.number().int().min(WITHDRAWALS_PER_DAY.min).max(WITHDRAWALS_PER_DAY.max),
  withdrawalFeeBps: z.number().int().min(0).max(10_000),
  withdrawalFeeFixed: MoneySettingSchema,
  /** Issue 6: admins can turn the promoters' leaderboard off. */
  leaderboardEnabled: z.boolean(),
  /** Issue 14: the IANA time zone of the per-day figures (TIME_ZONE when never set). */
  timeZone: z.string(),
});
export type Settings = z.infer<typeof SettingsSchema>;
/** An IANA time zone this runtime knows (Intl), e.g. Asia/Shanghai or UTC. */
function isTimeZone(value: string): boolean {
  if (value.length === 0 || value.length > 64 || !/^[A-Za-z0-9_+\-/]+$/.test(value)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}
/** An ISO 4217 code this runtime can format (Intl), e.g. CNY. */
const isCurrencyCode = (value: string): boolean => /^[A-Z]{3}$/.test(value) && Intl.supportedValuesOf('currency').includes(value);
export const SettingsPatchSchema = z.strictObject({
  registrationMode: RegistrationModeSchema.optional(),
  currency: CurrencySchema.refine(isCurrencyCode, { params: { fieldCode: 'invalid' } }).optional(),
  withdrawalMin: MoneySettingSchema.optional(),
  // A maximum of 0 would refuse every withdrawal as above the maximum (issue 28): at least 1 minor unit.
  withdrawalMax: MoneySettingSchema.min(1).optional(),
  withdrawalsPerDay: z.number().int().min(WITHDRAWALS_PER_DAY.min).max(WITHDRAWALS_PER_DAY.max).optional(),
  withdrawalFeeBps: z.number().int().min(0).max(10_000).optional(),
  withdrawalFeeFixed: MoneySettingSchema.optional(),
  leaderboardEnabled: z.boolean().optional(),
  timeZone: z.string().max(64).refine(isTimeZone, { params: { fieldCode: 'invalid' } }).optional(),
});
// (minimum ≤ maximum is checked by the server against the stored settings merged with the patch.)
export type SettingsPatch = z.input<typeof SettingsPatchSchema>;

/** A day parameter (`YYYY-MM-DD`, a real calendar day): the one rule for every date in a query. */
export const DayParamSchema = z.string().max(10).refine(isCalendarDay, { params: { fieldCode: 'invalid' } });
/** An instant in epoch milliseconds that a date can hold (1970 to the end of year 9999). */
const InstantSchema = z.number().int().min(0).max(MAX_INSTANT);

export const PageQuerySchema = z.strictObject({
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
/** Every cursor-paged answer: a page of items and the cursor of the next (null after the last). */
export type Page<Item> = { items: Item[]; nextCursor: string | null };

/** An answer as staff read it: the question as it was asked, in the reader's language where it was written in it. */
export const ApplicationAnswerSchema = z.object({
  questionId: z.string(),
  /** Which form asked it: the registration's, or the group's whose link was used. */
  source: z.enum(['registration', 'group']),
  kind: z.enum(QUESTION_KINDS),
  question: z.string(),
  /** The answer; for a choice, the option's text. */
  answer: z.string(),
});
export type ApplicationAnswer = z.infer<typeof ApplicationAnswerSchema>;
export const GroupRefSchema = z.object({ id: z.string(), name: z.string() });
export type GroupRef = z.infer<typeof GroupRefSchema>;

export const AdminUserQuerySchema = PageQuerySchema.extend({
  status: UserStatusSchema.optional(),
  role: RoleSchema.optional(),
  q: z.string().max(100).optional(),
});

const AdminUserSchema = UserSchema.extend({
  inviterId: z.string().nullable(),
  /** A promoter's group (null for staff). */
  group: GroupRefSchema.nullable(),
  /** A promoter's answers to the application form, in the order asked (empty when none were asked). */
  application: z.array(ApplicationAnswerSchema),
});
export const AdminUserListSchema = z.object({ items: z.array(AdminUserSchema), nextCursor: z.string().nullable() });
export type AdminUserList = z.infer<typeof AdminUserListSchema>;

export const UserActionParamsSchema = z.strictObject({
  id: z.string().min(1).max(64),
  action: z.enum(['approve', 'reject', 'suspend', 'reactivate']),
});
export type UserAction = z.infer<typeof UserActionParamsSchema>['action'];

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

// ——— Campaigns, enrollments, links (issue 3) ———

const localized = (max: number) => z.partialRecord(LocaleSchema, z.string().trim().max(max));
const HOST_RE = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;

const CampaignStatusSchema = z.enum(['draft', 'active', 'paused', 'ended']);
export type CampaignStatus = z.infer<typeof CampaignStatusSchema>;
const HttpsUrlSchema = z.string().trim().max(2000).refine((v) => {
  try {
    return new URL(v).protocol === 'https:';
  } catch {
    return false;
  }
}, { params: { fieldCode: 'invalid' } });
const TierSchema = z.strictObject({ minSales: z.number().int().min(1).max(1_000_000), bps: z.number().int().min(0).max(10_000) });

/**
 * The schedule as the API documents it (issue 28): `endsAt` is the first instant after the
 * campaign, so a chosen last day is included — the console sends the end of that day in the
 * installation's time zone (1 March 00:00 for "until 28 February").
 */
const START_TEXT = 'The first instant of the campaign (epoch ms), or null. The console sends the start of the chosen first day in the installation’s time zone.';
const END_TEXT = 'The first instant after the campaign (epoch ms, exclusive), or null: a conversion at or after it is outside the campaign. The console sends the end of the chosen last day in the installation’s time zone, so that day is included (“until 28 Feb” is stored as 1 March 00:00).';

const campaignFields = {
  names: localized(80).refine((v) => Object.values(v).some((s) => s && s.length > 0), { params: { fieldCode: 'required' } }),
  descriptions: localized(4000),
  landingUrl: HttpsUrlSchema,
  allowedHosts: z.array(z.string().trim().toLowerCase().regex(HOST_RE)).max(20),
  startsAt: InstantSchema.nullable().describe(START_TEXT),
  endsAt: InstantSchema.nullable().describe(END_TEXT),
  leadReward: z.number().int().min(0).max(100_000_000),
  saleRewardType: z.enum(['bps', 'fixed']),
  saleReward: z.number().int().min(0).max(100_000_000),
  tiers: z.array(TierSchema).max(10),
  overrideBps: z.number().int().min(0).max(10_000),
  attributionWindowDays: z.number().int().min(1).max(365),
  /** How long a customer stays with the promoter who brought them: 0 (the window only), 1–120 months, or 'lifetime'. */
  customerBinding: z.union([z.number().int().min(0).max(120), z.literal('lifetime')]),
  holdDays: z.number().int().min(0).max(90),
  approvalMode: z.enum(['auto', 'manual']),
  joinMode: z.enum(['open', 'approval']),
  shareTexts: localized(1000),
};

export const CampaignCreateSchema = z.strictObject({
  ...campaignFields,
  descriptions: campaignFields.descriptions.default({}),
  allowedHosts: campaignFields.allowedHosts.default([]),
  startsAt: campaignFields.startsAt.default(null),
  endsAt: campaignFields.endsAt.default(null),
  leadReward: campaignFields.leadReward.default(0),
  saleRewardType: campaignFields.saleRewardType.default('bps'),
  saleReward: campaignFields.saleReward.default(0),
  tiers: campaignFields.tiers.default([]),
  overrideBps: campaignFields.overrideBps.default(0),
  attributionWindowDays: campaignFields.attributionWindowDays.default(30),
  customerBinding: campaignFields.customerBinding.default(0),
  holdDays: campaignFields.holdDays.default(7),
  approvalMode: campaignFields.approvalMode.default('auto'),
  joinMode: campaignFields.joinMode.default('open'),
  shareTexts: campaignFields.shareTexts.default({}),
});
export type CampaignCreate = z.input<typeof CampaignCreateSchema>;

export const CampaignPatchSchema = z.strictObject({
  ...Object.fromEntries(Object.entries(campaignFields).map(([k, v]) => [k, v.optional()])) as { [K in keyof typeof campaignFields]: z.ZodOptional<(typeof campaignFields)[K]> },
  status: CampaignStatusSchema.optional(),
});
export type CampaignPatch = z.input<typeof CampaignPatchSchema>;

export const ImageSchema = z.object({ id: z.string(), url: z.string(), width: z.number().int(), height: z.number().int(), contentType: z.string() });
export type Image = z.infer<typeof ImageSchema>;

/** The terms both views show: schedule, rewards, windows, and the images. */
const campaignTerms = {
  id: z.string(),
  status: CampaignStatusSchema,
  landingUrl: z.string(),
  startsAt: z.number().nullable().describe(START_TEXT),
  endsAt: z.number().nullable().describe(END_TEXT),
  leadReward: z.number().int(),
  saleRewardType: z.enum(['bps', 'fixed']),
  saleReward: z.number().int(),
  tiers: z.array(TierSchema),
  overrideBps: z.number().int(),
  attributionWindowDays: z.number().int(),
  customerBinding: z.union([z.number().int(), z.literal('lifetime')]),
  holdDays: z.number().int(),
  joinMode: z.enum(['open', 'approval']),
  cover: ImageSchema.nullable(),
  posters: z.array(ImageSchema),
};

const AdminCampaignSchema = z.object({
  ...campaignTerms,
  names: z.record(z.string(), z.string()),
  descriptions: z.record(z.string(), z.string()),
  allowedHosts: z.array(z.string()),
  approvalMode: z.enum(['auto', 'manual']),
  shareTexts: z.record(z.string(), z.string()),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
});
export type AdminCampaign = z.infer<typeof AdminCampaignSchema>;
export const AdminCampaignEnvelopeSchema = z.object({ campaign: AdminCampaignSchema });
export type AdminCampaignEnvelope = z.infer<typeof AdminCampaignEnvelopeSchema>;
export const AdminCampaignListSchema = z.object({ items: z.array(AdminCampaignSchema), nextCursor: z.string().nullable() });
export type AdminCampaignList = z.infer<typeof AdminCampaignListSchema>;
/** `POST api/admin/campaigns/:id/images?kind=`: a cover or a poster template. */
const ImageKindSchema = z.enum(['cover', 'poster']);
export type ImageKind = z.infer<typeof ImageKindSchema>;
export const ImageUploadQuerySchema = z.strictObject({ kind: ImageKindSchema });

export const EnrollmentStatusSchema = z.enum(['pending', 'approved', 'rejected']);
export type EnrollmentStatus = z.infer<typeof EnrollmentStatusSchema>;
export const EnrollmentSchema = z.object({ id: z.string(), campaignId: z.string(), status: EnrollmentStatusSchema, createdAt: z.number().int(), couponCode: z.string().nullable() });
/** `POST api/campaigns/:id/join`: 201 when it enrolled, 200 when already enrolled. */
export const EnrollmentEnvelopeSchema = z.object({ enrollment: EnrollmentSchema });
export type EnrollmentEnvelope = z.infer<typeof EnrollmentEnvelopeSchema>;
/** Operators give an enrolled promoter a coupon code (shoppers type it at checkout; it attributes before any click). */
export const EnrollmentPatchSchema = z.strictObject({
  couponCode: z.string().trim().regex(/^[A-Za-z0-9_-]{3,32}$/).transform((v) => v.toUpperCase()).nullable(),
});
export type EnrollmentPatch = z.input<typeof EnrollmentPatchSchema>;

const CampaignSchema = z.object({
  ...campaignTerms,
  name: z.string(),
  description: z.string(),
  shareText: z.string(),
  enrollment: EnrollmentSchema.nullable(),
  currency: z.string(),
});
export type Campaign = z.infer<typeof CampaignSchema>;
export const CampaignListSchema = z.object({ items: z.array(CampaignSchema), nextCursor: z.string().nullable() });
export type CampaignList = z.infer<typeof CampaignListSchema>;
export const CampaignEnvelopeSchema = z.object({ campaign: CampaignSchema });
export type CampaignEnvelope = z.infer<typeof CampaignEnvelopeSchema>;
export const CampaignQuerySchema = PageQuerySchema.extend({ q: z.string().trim().max(100).optional(), joined: z.enum(['true', 'false']).optional() });

const AdminEnrollmentSchema = EnrollmentSchema.extend({ promoterId: z.string(), promoterName: z.string(), promoterAccount: z.string(), campaignName: z.string() });
export type AdminEnrollment = z.infer<typeof AdminEnrollmentSchema>;
export const AdminEnrollmentListSchema = z.object({ items: z.array(AdminEnrollmentSchema), nextCursor: z.string().nullable() });
export type AdminEnrollmentList = z.infer<typeof AdminEnrollmentListSchema>;
export const EnrollmentActionParamsSchema = z.strictObject({ id: z.string().min(1).max(64), action: z.enum(['approve', 'reject']) });
export type EnrollmentAction = z.infer<typeof EnrollmentActionParamsSchema>['action'];

const LinkCodeSchema = z.string().max(64).superRefine(rule(checkLinkCode)).transform((v) => v.trim());
export const LinkCreateSchema = z.strictObject({
  campaignId: z.string().min(1).max(64),
  code: LinkCodeSchema.optional(),
  label: z.string().trim().max(40).optional(),
  channel: z.string().max(64).superRefine(rule(checkChannel)).transform((v) => v.trim()).optional(),
  path: z.string().trim().max(2000).optional(),
});
export type LinkCreate = z.input<typeof LinkCreateSchema>;
export const LinkPatchSchema = z.strictObject({
  label: z.string().trim().max(40).nullable().optional(),
  channel: z.string().max(64).superRefine(rule(checkChannel)).transform((v) => v.trim()).nullable().optional(),
  status: z.enum(['active', 'disabled']).optional(),
});
export type LinkPatch = z.input<typeof LinkPatchSchema>;
const LinkSchema = z.object({
  id: z.string(),
  code: z.string(),
  campaignId: z.string(),
  campaignName: z.string(),
  label: z.string().nullable(),
  channel: z.string().nullable(),
  destination: z.string().nullable(),
  status: z.enum(['active', 'disabled']),
  isDefault: z.boolean(),
  /** People's visits; `botClicks`: bots' and chat apps' link-preview fetches, not counted in clicks. */
  clicks: z.number().int(),
  uniqueClicks: z.number().int(),
  botClicks: z.number().int(),
  createdAt: z.number().int(),
});
export type Link = z.infer<typeof LinkSchema>;
export const LinkEnvelopeSchema = z.object({ link: LinkSchema });
export type LinkEnvelope = z.infer<typeof LinkEnvelopeSchema>;
export const LinkListSchema = z.object({ items: z.array(LinkSchema), nextCursor: z.string().nullable() });
export type LinkList = z.infer<typeof LinkListSchema>;
export const LinkQuerySchema = PageQuerySchema.extend({ campaignId: z.string().max(64).optional() });
export const LinkStatsQuerySchema = z.strictObject({
  from: DayParamSchema.optional(),
  to: DayParamSchema.optional(),
});
export const LinkStatsSchema = z.object({
  from: z.string(),
  to: z.string(),
  days: z.array(z.object({ day: z.string(), clicks: z.number().int(), uniqueClicks: z.number().int(), botClicks: z.number().int() })),
  totals: z.object({ clicks: z.number().int(), uniqueClicks: z.number().int(), botClicks: z.number().int() }),
});
export type LinkStats = z.infer<typeof LinkStatsSchema>;

// ——— Money: API keys, conversions, commissions, wallet, ledger ———

const AmountSchema = z.number().int().min(0).max(MAX_AMOUNT);
export const ApiScopeSchema = z.enum(API_SCOPES);

export const ApiKeyCreateSchema = z.strictObject({
  name: z.string().trim().min(1).max(60),
  scopes: z.array(ApiScopeSchema).min(1).max(API_SCOPES.length),
  requireSignature: z.boolean().default(false),
});
export type ApiKeyCreate = z.input<typeof ApiKeyCreateSchema>;
const ApiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  scopes: z.array(ApiScopeSchema),
  requireSignature: z.boolean(),
  createdAt: z.number().int(),
  lastUsedAt: z.number().int().nullable(),
  revokedAt: z.number().int().nullable(),
});
export type ApiKey = z.infer<typeof ApiKeySchema>;
/** The only answer that carries the secret. */
export const ApiKeyCreatedSchema = z.object({ id: z.string(), secret: z.string(), apiKey: ApiKeySchema });
export type ApiKeyCreated = z.infer<typeof ApiKeyCreatedSchema>;
export const ApiKeyListSchema = z.object({ items: z.array(ApiKeySchema) });
export type ApiKeyList = z.infer<typeof ApiKeyListSchema>;
/** A campaign's Stripe signing secret (`whsec_…`, from the Stripe dashboard's webhook endpoint). */
export const StripeSecretSchema = z.strictObject({ signingSecret: z.string().trim().regex(/^whsec_[A-Za-z0-9+/=_-]{8,200}$/) });
export type StripeSecret = z.input<typeof StripeSecretSchema>;
const StripeEventOutcomeSchema = z.enum(['recorded', 'ignored', 'rejected']);
/** A Stripe event as received and what came of it (`detail`: why it was ignored or rejected). */
const StripeEventSchema = z.object({
  eventId: z.string(),
  type: z.string(),
  outcome: StripeEventOutcomeSchema,
  detail: z.string().nullable(),
  conversionId: z.string().nullable(),
  receivedAt: z.number().int(),
});
export type StripeEvent = z.infer<typeof StripeEventSchema>;
/** A campaign's Stripe receiver: whether a secret is set (never the secret), and the latest events. */
export const StripeStatusSchema = z.object({ campaignId: z.string(), configured: z.boolean(), updatedAt: z.number().int().nullable(), events: z.array(StripeEventSchema) });
export type StripeStatus = z.infer<typeof StripeStatusSchema>;
/** The receiver's answer to Stripe. */
export const StripeReceiptSchema = z.object({ received: z.literal(true), replayed: z.boolean(), event: StripeEventSchema });
export const CampaignIdParamsSchema = z.strictObject({ campaignId: z.string().min(1).max(64) });

/** The landing-page snippet as the console shows it (`<base>/pa.js?v=<version>`). */
export const SnippetInfoSchema = z.object({ version: z.string(), bytes: z.number().int(), gzipBytes: z.number().int() });
export type SnippetInfo = z.infer<typeof SnippetInfoSchema>;

export const ConversionKindSchema = z.enum(['lead', 'sale', 'refund']);
export const ConversionCreateSchema = z
  .strictObject({
    campaignId: z.string().trim().min(1).max(64),
    kind: ConversionKindSchema,
    externalId: z.string().trim().min(1).max(128),
    amount: AmountSchema.optional(),
    clickId: z.string().trim().max(64).optional(),
    couponCode: z.string().trim().max(64).optional(),
    linkCode: z.string().trim().max(64).optional(),
    customerExternalId: z.string().trim().max(128).optional(),
    customerEmailSha256: z.string().trim().regex(/^[0-9a-fA-F]{64}$/).transform((v) => v.toLowerCase()).optional(),
    refundOf: z.string().trim().min(1).max(128).optional(),
    occurredAt: InstantSchema.optional(),
    /** A sale's lines (their amounts sum to `amount`), or a refund's (which lines, how much of each). */
    items: z.array(ConversionItemSchema).min(1).max(ITEMS_MAX).optional(),
    /** The customer's country, ISO 3166-1 alpha-2. */
    country: CountrySchema.optional(),
    metadata: MetadataSchema.optional(),
    /** Whether the customer is new to the business (the shop knows best); else whether the campaign has seen them before. */
    newCustomer: z.boolean().optional(),
  })
  .superRefine((v, ctx) => {
    if (v.items) {
      const sum = v.items.reduce((s, i) => s + i.amount, 0);
      if (v.kind === 'lead') ctx.addIssue({ code: 'custom', path: ['items'], message: 'not allowed', params: { fieldCode: 'not_allowed' } });
      else if (v.kind === 'sale' && v.amount !== undefined && sum !== v.amount) ctx.addIssue({ code: 'custom', path: ['items'], message: 'the lines must add up to the amount', params: { fieldCode: 'mismatch' } });
      else if (v.kind === 'refund' && v.amount !== undefined && sum !== v.amount) ctx.addIssue({ code: 'custom', path: ['items'], message: 'the lines must add up to the amount', params: { fieldCode: 'mismatch' } });
      if (v.kind === 'refund' && v.items.some((i) => i.amount === 0)) ctx.addIssue({ code: 'custom', path: ['items'], message: 'a refunded line has an amount', params: { fieldCode: 'invalid' } });
      const skus = v.items.map((i) => i.sku);
      if (new Set(skus).size !== skus.length) ctx.addIssue({ code: 'custom', path: ['items'], message: 'one line per sku', params: { fieldCode: 'invalid' } });
    }
    if ((v.kind === 'sale' || v.kind === 'refund') && (v.amount === undefined || v.amount <= 0)) {
      ctx.addIssue({ code: 'custom', path: ['amount'], message: 'required', params: { fieldCode: v.amount === undefined ? 'required' : 'invalid' } });
    }
    if (v.kind === 'refund' && !v.refundOf) ctx.addIssue({ code: 'custom', path: ['refundOf'], message: 'required', params: { fieldCode: 'required' } });
    if (v.kind !== 'refund' && v.refundOf) ctx.addIssue({ code: 'custom', path: ['refundOf'], message: 'not allowed', params: { fieldCode: 'not_allowed' } });
  });

export const ConversionStatusSchema = z.enum(['attributed', 'unattributed', 'rejected']);
export type ConversionStatus = z.infer<typeof ConversionStatusSchema>;
/** Why a conversion earns nothing: unattributed (no match, outside the campaign's schedule) or rejected. */
export const CONVERSION_REASONS = ['no_match', 'campaign_not_started', 'campaign_ended', 'self_referral', 'promoter_inactive', 'not_enrolled', 'capped'] as const;
const ConversionReasonSchema = z.enum(CONVERSION_REASONS);
export type ConversionReason = z.infer<typeof ConversionReasonSchema>;
export const CommissionStatusSchema = z.enum(['pending', 'approved', 'rejected', 'reversed']);
export type CommissionStatus = z.infer<typeof CommissionStatusSchema>;

export const ConversionSchema = z.object({
  id: z.string(),
  campaignId: z.string(),
  kind: ConversionKindSchema,
  externalId: z.string(),
  amount: z.number().int(),
  refundedAmount: z.number().int(),
  refundOf: z.string().nullable(),
  customerExternalId: z.string().nullable(),
  clickId: z.string().nullable(),
  couponCode: z.string().nullable(),
  linkCode: z.string().nullable(),
  promoterId: z.string().nullable(),
  linkId: z.string().nullable(),
  /** `staff`: assigned by an operator (POST api/admin/conversions/:id/assign). */
  attributedBy: z.enum(['coupon', 'click', 'customer', 'link', 'staff']).nullable(),
  status: ConversionStatusSchema,
  reason: ConversionReasonSchema.nullable(),
  occurredAt: z.number().int(),
  receivedAt: z.number().int(),
});
export type Conversion = z.infer<typeof ConversionSchema>;

export const CommissionSchema = z.object({
  id: z.string(),
  /** null for a bounty's reward (kind `bounty`, docs/bounties.md). */
  conversionId: z.string().nullable(),
  campaignId: z.string(),
  campaignName: z.string(),
  promoterId: z.string(),
  linkId: z.string().nullable(),
  linkCode: z.string().nullable(),
  /** Level 2: the team member whose sale earned it, masked. */
  sourceName: z.string().nullable(),
  level: z.number().int(),
  kind: z.enum(['lead', 'sale', 'bounty']),
  rule: z.string(),
  base: z.number().int(),
  rateBps: z.number().int().nullable(),
  amount: z.number().int(),
  reversedAmount: z.number().int(),
  status: CommissionStatusSchema,
  occurredAt: z.number().int(),
  availableAt: z.number().int(),
  createdAt: z.number().int(),
  decidedAt: z.number().int().nullable(),
  reason: z.string().nullable(),
  /** Earned through a customer binding (a recurring or lifetime campaign): month `month` of `of` (null: lifetime). */
  recurring: z.object({ month: z.number().int(), of: z.number().int().nullable() }).nullable(),
});
export type Commission = z.infer<typeof CommissionSchema>;
export const ConversionResultSchema = z.object({ conversion: ConversionSchema, commissions: z.array(CommissionSchema) });
export type ConversionResult = z.infer<typeof ConversionResultSchema>;

const CommissionEventSchema = z.object({ status: z.string(), amount: z.number().int(), reason: z.string().nullable(), at: z.number().int() });
export const CommissionDetailSchema = z.object({
  commission: CommissionSchema,
  /** null for a bounty's reward (no conversion earned it). */
  conversion: z.object({ kind: ConversionKindSchema, externalId: z.string(), amount: z.number().int(), refundedAmount: z.number().int(), attributedBy: z.string().nullable(), occurredAt: z.number().int() }).nullable(),
  events: z.array(CommissionEventSchema),
  currency: z.string(),
});
export type CommissionDetail = z.infer<typeof CommissionDetailSchema>;
export const CommissionListSchema = z.object({ items: z.array(CommissionSchema), nextCursor: z.string().nullable() });
export type CommissionList = z.infer<typeof CommissionListSchema>;
export const CommissionQuerySchema = PageQuerySchema.extend({
  status: CommissionStatusSchema.optional(),
  campaignId: z.string().max(64).optional(),
  from: DayParamSchema.optional(),
  to: DayParamSchema.optional(),
});
export type CommissionQuery = z.input<typeof CommissionQuerySchema>;

export const WalletSchema = z.object({ currency: z.string(), available: z.number().int(), pending: z.number().int(), withdrawing: z.number().int(), paidOut: z.number().int() });
export type Wallet = z.infer<typeof WalletSchema>;

export const LedgerLineSchema = z.object({
  journalId: z.string(),
  kind: z.string(),
  refType: z.string(),
  refId: z.string(),
  account: z.enum(['pending', 'available', 'withdrawing', 'payable', 'paid_out']),
  amount: z.number().int(),
  memo: z.record(z.string(), z.union([z.string(), z.number(), z.null()])),
  at: z.number().int(),
});
export type LedgerLine = z.infer<typeof LedgerLineSchema>;
export const LedgerListSchema = z.object({ items: z.array(LedgerLineSchema), nextCursor: z.string().nullable() });
export type LedgerList = z.infer<typeof LedgerListSchema>;

const AdminConversionSchema = ConversionSchema.extend({ promoterName: z.string().nullable(), campaignName: z.string() });
export type AdminConversion = z.infer<typeof AdminConversionSchema>;
export const AdminConversionListSchema = z.object({ items: z.array(AdminConversionSchema), nextCursor: z.string().nullable() });
export type AdminConversionList = z.infer<typeof AdminConversionListSchema>;
/** `externalId`: the shop's order (or lead) id of the commission's conversion. */
const AdminCommissionSchema = CommissionSchema.extend({ promoterName: z.string(), promoterAccount: z.string(), /** The order's id; null for a bounty's reward. */ externalId: z.string().nullable() });
export type AdminCommission = z.infer<typeof AdminCommissionSchema>;
export const AdminCommissionListSchema = z.object({ items: z.array(AdminCommissionSchema), nextCursor: z.string().nullable() });
export type AdminCommissionList = z.infer<typeof AdminCommissionListSchema>;
export const CommissionDecisionSchema = z.strictObject({ reason: z.string().trim().min(1).max(500).optional() });
export type CommissionDecision = z.input<typeof CommissionDecisionSchema>;
export const CommissionBulkSchema = z.strictObject({
  ids: z.array(z.string().min(1).max(64)).min(1).max(COMMISSION_BULK_MAX),
  action: z.enum(['approve', 'reject']),
  reason: z.string().trim().min(1).max(500).optional(),
});
export type CommissionBulk = z.input<typeof CommissionBulkSchema>;
export type CommissionAction = CommissionBulk['action'];
/** `POST api/admin/commissions/bulk`: the ids decided, and those left as they were (no longer pending). */
export const CommissionBulkResultSchema = z.object({ changed: z.array(z.string()), skipped: z.array(z.string()) });
export type CommissionBulkResult = z.infer<typeof CommissionBulkResultSchema>;
export const LedgerCheckSchema = z.object({ ok: z.boolean(), breaches: z.array(z.object({ kind: z.string(), ref: z.string(), detail: z.string() })) });
export type LedgerCheck = z.infer<typeof LedgerCheckSchema>;

// ——— Payout accounts, withdrawals, notifications ———

export const PayoutMethodSchema = z.enum(PAYOUT_METHODS);
export const PayoutAccountCreateSchema = z.strictObject({
  method: PayoutMethodSchema,
  holderName: z.string().max(200).superRefine(rule(checkHolderName)).transform((v) => v.trim()),
  accountNumber: SealedSchema,
  isDefault: z.boolean().optional(),
});
export type PayoutAccountCreate = z.input<typeof PayoutAccountCreateSchema>;
const PayoutAccountSchema = z.object({
  id: z.string(),
  method: PayoutMethodSchema,
  holderName: z.string(),
  last4: z.string(),
  isDefault: z.boolean(),
  /** A withdrawal that is requested or approved uses it (it cannot be deleted until that ends). */
  inUse: z.boolean(),
  createdAt: z.number().int(),
});
export type PayoutAccount = z.infer<typeof PayoutAccountSchema>;
export const PayoutAccountEnvelopeSchema = z.object({ payoutAccount: PayoutAccountSchema });
export type PayoutAccountEnvelope = z.infer<typeof PayoutAccountEnvelopeSchema>;
export const PayoutAccountListSchema = z.object({ items: z.array(PayoutAccountSchema) });
export type PayoutAccountList = z.infer<typeof PayoutAccountListSchema>;
/** `PATCH api/payout-accounts/:id`: the one change there is, making it the default. */
export const PayoutAccountPatchSchema = z.strictObject({ isDefault: z.literal(true) });
export type PayoutAccountPatch = z.input<typeof PayoutAccountPatchSchema>;

export const WithdrawalStatusSchema = z.enum(WITHDRAWAL_STATUSES);
export type WithdrawalStatus = z.infer<typeof WithdrawalStatusSchema>;
export const WithdrawalCreateSchema = z.strictObject({
  amount: z.number().int().min(1).max(MAX_AMOUNT),
  payoutAccountId: z.string().min(1).max(64).optional(),
});
export type WithdrawalCreate = z.input<typeof WithdrawalCreateSchema>;
export const WithdrawalEventSchema = z.object({ status: WithdrawalStatusSchema, reason: z.string().nullable(), reference: z.string().nullable(), at: z.number().int() });
export type WithdrawalEvent = z.infer<typeof WithdrawalEventSchema>;
export const WithdrawalSchema = z.object({
  id: z.string(),
  amount: z.number().int(),
  fee: z.number().int(),
  net: z.number().int(),
  currency: z.string(),
  status: WithdrawalStatusSchema,
  /** The payout account as it was when requested (it may have been deleted since). */
  account: z.object({ method: PayoutMethodSchema, holderName: z.string(), last4: z.string() }),
  requestedAt: z.number().int(),
  decidedAt: z.number().int().nullable(),
  paidAt: z.number().int().nullable(),
  payoutReference: z.string().nullable(),
  reason: z.string().nullable(),
});
export type Withdrawal = z.infer<typeof WithdrawalSchema>;
export const WithdrawalEnvelopeSchema = z.object({ withdrawal: WithdrawalSchema });
export type WithdrawalEnvelope = z.infer<typeof WithdrawalEnvelopeSchema>;
export const WithdrawalDetailSchema = z.object({ withdrawal: WithdrawalSchema, events: z.array(WithdrawalEventSchema) });
export type WithdrawalDetail = z.infer<typeof WithdrawalDetailSchema>;
export const WithdrawalListSchema = z.object({ items: z.array(WithdrawalSchema), nextCursor: z.string().nullable() });
export type WithdrawalList = z.infer<typeof WithdrawalListSchema>;
export const WithdrawalQuerySchema = PageQuerySchema.extend({ status: WithdrawalStatusSchema.optional() });
/** What the withdrawal form needs before the promoter types: balance, limits, fee, today's count. */
export const WithdrawalTermsSchema = z.object({
  currency: z.string(),
  available: z.number().int(),
  min: z.number().int(),
  max: z.number().int(),
  perDay: z.number().int(),
  usedToday: z.number().int(),
  feeBps: z.number().int(),
  feeFixed: z.number().int(),
});
export type WithdrawalTermsView = z.infer<typeof WithdrawalTermsSchema>;

const AdminWithdrawalSchema = WithdrawalSchema.extend({
  promoterId: z.string(),
  promoterName: z.string(),
  promoterAccount: z.string(),
  /** The same account number is registered by another promoter (compared by keyed digest). */
  sharedAccount: z.boolean(),
});
export type AdminWithdrawal = z.infer<typeof AdminWithdrawalSchema>;
export const AdminWithdrawalListSchema = z.object({ items: z.array(AdminWithdrawalSchema), nextCursor: z.string().nullable() });
export type AdminWithdrawalList = z.infer<typeof AdminWithdrawalListSchema>;
export const AdminWithdrawalQuerySchema = PageQuerySchema.extend({ status: WithdrawalStatusSchema.optional(), q: z.string().trim().max(100).optional() });
/** The operators' steps of WITHDRAWAL_TRANSITIONS (the promoter's `cancel` has its own route). */
export const WithdrawalActionParamsSchema = z.strictObject({ id: z.string().min(1).max(64), action: z.enum(STAFF_WITHDRAWAL_ACTIONS as [StaffWithdrawalAction, ...StaffWithdrawalAction[]]) });
export const WithdrawalActionBodySchema = z.strictObject({
  reference: z.string().trim().min(1).max(WITHDRAWAL_REFERENCE_MAX).optional(),
  reason: z.string().trim().min(1).max(WITHDRAWAL_REASON_MAX).optional(),
});
export type WithdrawalActionBody = z.input<typeof WithdrawalActionBodySchema>;
export const AdminWithdrawalEnvelopeSchema = z.object({ withdrawal: AdminWithdrawalSchema });
export type AdminWithdrawalEnvelope = z.infer<typeof AdminWithdrawalEnvelopeSchema>;
/** `GET api/admin/withdrawals/:id`: the operator's view of one withdrawal with its timeline. */
export const AdminWithdrawalDetailSchema = z.object({ withdrawal: AdminWithdrawalSchema, events: z.array(WithdrawalEventSchema) });
export type AdminWithdrawalDetail = z.infer<typeof AdminWithdrawalDetailSchema>;

export const NOTIFICATION_TYPES = [
  'enrollment.approved', 'enrollment.rejected',
  'commission.created', 'commission.approved', 'commission.rejected', 'commission.reversed',
  'withdrawal.requested', 'withdrawal.approved', 'withdrawal.paid', 'withdrawal.failed', 'withdrawal.rejected', 'withdrawal.cancelled',
  /** A bounty earned (params: bountyId, commissionId, amount, name per locale as `bounty`, campaignId); a bounty submission rejected (bountyId, submissionId, reason, bounty). */
  'bounty.earned', 'bounty.submission_rejected',
  /** An admin credited or debited the promoter's available balance (params: amount, reason). */
  'adjustment',
  /**
   * Staff's (issue 28). Awaiting review, to every active operator and admin, one unread at a time
   * per type (params: `count` waiting when written; a withdrawal also `withdrawalId`, `amount`):
   */
  'staff.registration', 'staff.enrollment', 'staff.withdrawal',
  /** To every active admin: an endpoint disabled (`endpointId`, `url`, `reason` gone | failing), once per disable; */
  'staff.webhook_disabled',
  /** mail failing (`error`), once per failing spell; a ledger check breach (`count`), once per set of breaches. */
  'staff.mail_failing', 'staff.ledger_breach',
] as const;
const NotificationTypeSchema = z.enum(NOTIFICATION_TYPES);
export type NotificationType = z.infer<typeof NotificationTypeSchema>;
const NotificationSchema = z.object({
  id: z.string(),
  type: NotificationTypeSchema,
  /** Parameters for the message: amounts in minor units, `campaign` as names per locale, ids to link to. */
  params: z.record(z.string(), z.unknown()),
  readAt: z.number().int().nullable(),
  createdAt: z.number().int(),
});
export type Notification = z.infer<typeof NotificationSchema>;
export const NotificationListSchema = z.object({ items: z.array(NotificationSchema), nextCursor: z.string().nullable(), unread: z.number().int(), currency: z.string() });
export type NotificationList = z.infer<typeof NotificationListSchema>;
export const NotificationQuerySchema = PageQuerySchema.extend({ unread: z.enum(['true', 'false']).optional() });
export const UnreadCountSchema = z.object({ unread: z.number().int() });
export type UnreadCount = z.infer<typeof UnreadCountSchema>;

// ——— Statistics, team, leaderboard, announcements (issue 6) ———

const STATS_RANGES = ['today', 'yesterday', '7d', '30d', 'month', 'custom'] as const;
const StatsRangeSchema = z.enum(STATS_RANGES);
export type StatsRange = z.infer<typeof StatsRangeSchema>;
/** Figures a time series can show. Money in minor units; `conversionRate` a fraction; `epc` minor units per click. */
const STATS_METRICS = ['clicks', 'uniqueClicks', 'leads', 'sales', 'saleAmount', 'earnings', 'conversionRate', 'epc'] as const;
const StatsMetricSchema = z.enum(STATS_METRICS);
export type StatsMetric = z.infer<typeof StatsMetricSchema>;
const STATS_BREAKDOWNS = ['campaign', 'link', 'channel'] as const;
export const MAX_STATS_RANGE_DAYS = 366;
/** `range` (default 7d) or `from`/`to` (ISO dates, both included; `custom` needs both). */
export const StatsRangeQuerySchema = z.strictObject({
  range: StatsRangeSchema.optional(),
  from: DayParamSchema.optional(),
  to: DayParamSchema.optional(),
});
export type StatsRangeQuery = z.infer<typeof StatsRangeQuerySchema>;
export const StatsTimeseriesQuerySchema = z.strictObject({ ...StatsRangeQuerySchema.shape, metric: StatsMetricSchema.default('earnings') });
export const StatsBreakdownQuerySchema = z.strictObject({ ...StatsRangeQuerySchema.shape, by: z.enum(STATS_BREAKDOWNS), limit: z.coerce.number().int().min(1).max(100).default(20) });

const StatsFiguresSchema = z.object({
  clicks: z.number().int(),
  uniqueClicks: z.number().int(),
  leads: z.number().int(),
  sales: z.number().int(),
  saleAmount: z.number().int(),
  refundAmount: z.number().int(),
  commission: z.object({ pending: z.number().int(), approved: z.number().int(), rejected: z.number().int(), reversed: z.number().int() }),
  /** pending + approved commission: what the promoter is earning. */
  earnings: z.number().int(),
  /** (leads + sales) / unique clicks; 0 without clicks. */
  conversionRate: z.number(),
  /** earnings / clicks in minor units, rounded to a whole minor unit; 0 without clicks. */
  epc: z.number().int(),
});
export type StatsFigures = z.infer<typeof StatsFiguresSchema>;
export const StatsPeriodSchema = z.object({ from: z.string(), to: z.string(), days: z.number().int() });
export const StatsSummarySchema = z.object({
  currency: z.string(),
  range: StatsRangeSchema,
  period: StatsPeriodSchema,
  previousPeriod: StatsPeriodSchema,
  current: StatsFiguresSchema,
  previous: StatsFiguresSchema,
});
export const StatsTimeseriesSchema = z.object({
  currency: z.string(),
  metric: StatsMetricSchema,
  period: StatsPeriodSchema,
  points: z.array(z.object({ day: z.string(), value: z.number() })),
});
const StatsBreakdownItemSchema = z.object({
  /** campaign id, link id, or the channel tag ('' for links without one). */
  key: z.string(),
  /** Campaign name in the reader's language; for links also the code and label. */
  name: z.string().nullable(),
  code: z.string().nullable(),
  label: z.string().nullable(),
  figures: StatsFiguresSchema,
});
export const StatsBreakdownSchema = z.object({ currency: z.string(), by: z.enum(STATS_BREAKDOWNS), period: StatsPeriodSchema, items: z.array(StatsBreakdownItemSchema) });
/** Everything Home shows, in one call: balances, the range's figures and the previous period's, a daily series and top links. */
export const StatsOverviewSchema = z.object({
  currency: z.string(),
  wallet: z.object({ available: z.number().int(), pending: z.number().int(), withdrawing: z.number().int(), paidOut: z.number().int() }),
  range: StatsRangeSchema,
  period: StatsPeriodSchema,
  previousPeriod: StatsPeriodSchema,
  current: StatsFiguresSchema,
  previous: StatsFiguresSchema,
  series: z.array(z.object({ day: z.string(), clicks: z.number().int(), uniqueClicks: z.number().int(), leads: z.number().int(), sales: z.number().int(), earnings: z.number().int() })),
  topLinks: z.array(StatsBreakdownItemSchema),
  /** A new promoter's first steps, ever (not only in the range): Home shows them until the first click. */
  firstSteps: z.object({ joined: z.boolean(), linked: z.boolean(), clicked: z.boolean() }),
  generatedAt: z.number().int(),
});
export type StatsOverview = z.infer<typeof StatsOverviewSchema>;

export const TeamQuerySchema = PageQuerySchema;
const TeamMemberSchema = z.object({
  id: z.string(),
  /** The direct member's display name in full (the viewer invited them); the second level is only counted. */
  name: z.string(),
  joinedAt: z.number().int(),
  /** A lead, sale or click in the last 30 days, and an active account. */
  active: z.boolean(),
  /** Override the viewer earned from this member (pending + approved), all time and this month. */
  overrideTotal: z.number().int(),
  overrideThisMonth: z.number().int(),
});
export type TeamMember = z.infer<typeof TeamMemberSchema>;
export const TeamSchema = z.object({
  currency: z.string(),
  inviteCode: z.string(),
  counts: z.object({ direct: z.number().int(), active: z.number().int(), secondLevel: z.number().int() }),
  /** This month: the direct members' attributed leads and sales and sale amount; the viewer's override earnings. */
  thisMonth: z.object({ leads: z.number().int(), sales: z.number().int(), saleAmount: z.number().int(), override: z.number().int() }),
  overrideTotal: z.number().int(),
  members: z.array(TeamMemberSchema),
  nextCursor: z.string().nullable(),
});
export type Team = z.infer<typeof TeamSchema>;

const LEADERBOARD_PERIODS = ['week', 'month'] as const;
const LEADERBOARD_METRICS = ['earnings', 'conversions'] as const;
export const LeaderboardQuerySchema = z.strictObject({ period: z.enum(LEADERBOARD_PERIODS).default('week'), by: z.enum(LEADERBOARD_METRICS).default('earnings') });
const LeaderboardEntrySchema = z.object({ rank: z.number().int(), name: z.string(), value: z.number().int(), me: z.boolean() });
export const LeaderboardSchema = z.object({
  /** false when an admin turned the leaderboard off: no entries. */
  enabled: z.boolean(),
  currency: z.string(),
  period: z.enum(LEADERBOARD_PERIODS),
  by: z.enum(LEADERBOARD_METRICS),
  from: z.string(),
  to: z.string(),
  /** When the ranking was computed (it is kept for up to a minute). */
  updatedAt: z.number().int(),
  entries: z.array(LeaderboardEntrySchema),
  /** The viewer: rank null when not ranked (nothing yet this period, or opted out). */
  me: z.object({ rank: z.number().int().nullable(), value: z.number().int(), optedOut: z.boolean() }),
});
export type Leaderboard = z.infer<typeof LeaderboardSchema>;

export const ANNOUNCEMENT_TITLE_MAX = 80;
export const ANNOUNCEMENT_BODY_MAX = 2000;
/** One language's text: trimmed plain text (shown as text, never as HTML). */
export const AnnouncementTextSchema = z.strictObject({
  title: z.string().trim().min(1).max(ANNOUNCEMENT_TITLE_MAX),
  body: z.string().trim().min(1).max(ANNOUNCEMENT_BODY_MAX),
});
/** `{ locale: { title, body } }`, at least one language; the order given is kept ("the first one written"). */
const AnnouncementTextsSchema = z
  .partialRecord(LocaleSchema, AnnouncementTextSchema)
  .refine((t) => Object.keys(t).length > 0, { message: 'required', params: { fieldCode: 'required' } });
const ANNOUNCEMENT_STATUSES = ['draft', 'published', 'archived'] as const;
const AnnouncementStatusSchema = z.enum(ANNOUNCEMENT_STATUSES);
export type AnnouncementStatus = z.infer<typeof AnnouncementStatusSchema>;
/** What a promoter sees: the text in their language, else English, else the first one written; `locale` says which. */
const AnnouncementSchema = z.object({ id: z.string(), title: z.string(), body: z.string(), locale: LocaleSchema, pinned: z.boolean(), publishedAt: z.number().int() });
export type Announcement = z.infer<typeof AnnouncementSchema>;
export const AnnouncementListSchema = z.object({ items: z.array(AnnouncementSchema) });
export type AnnouncementList = z.infer<typeof AnnouncementListSchema>;
/** GET api/announcements: pinned first, then newest published first. */
export const AnnouncementQuerySchema = z.strictObject({ limit: z.coerce.number().int().min(1).max(20).default(5) });
const AdminAnnouncementSchema = z.object({
  id: z.string(),
  texts: z.record(z.string(), z.object({ title: z.string(), body: z.string() })),
  status: AnnouncementStatusSchema,
  pinned: z.boolean(),
  publishedAt: z.number().int().nullable(),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
});
export type AdminAnnouncement = z.infer<typeof AdminAnnouncementSchema>;
export const AdminAnnouncementListSchema = z.object({ items: z.array(AdminAnnouncementSchema), nextCursor: z.string().nullable() });
export type AdminAnnouncementList = z.infer<typeof AdminAnnouncementListSchema>;
export const AdminAnnouncementEnvelopeSchema = z.object({ announcement: AdminAnnouncementSchema });
export type AdminAnnouncementEnvelope = z.infer<typeof AdminAnnouncementEnvelopeSchema>;
/** GET api/admin/announcements: newest first, optionally one status. */
export const AdminAnnouncementQuerySchema = PageQuerySchema.extend({ status: AnnouncementStatusSchema.optional() });
export const AnnouncementCreateSchema = z.strictObject({
  texts: AnnouncementTextsSchema,
  pinned: z.boolean().optional(),
  status: z.enum(['draft', 'published']).optional(),
});
export type AnnouncementCreate = z.input<typeof AnnouncementCreateSchema>;
/**
 * `texts` replaces every text (a language left out is removed). Status moves: draft → published,
 * published → archived, archived → published (published again, as new); anything else is INVALID_STATE_TRANSITION.
 */
export const AnnouncementPatchSchema = z.strictObject({
  texts: AnnouncementTextsSchema.optional(),
  pinned: z.boolean().optional(),
  status: AnnouncementStatusSchema.optional(),
});
export type AnnouncementPatch = z.input<typeof AnnouncementPatchSchema>;
