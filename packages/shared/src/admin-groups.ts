/**
 * Promoter groups and the application form (issue 31, items 1 and 8): the groups admins keep,
 * moving promoters between them, a group's invite link, and the questions asked at registration
 * with the answers staff read.
 */
import { z } from 'zod';
import type { FieldCode } from './errors';
import { GroupCodeSchema, LocaleSchema } from './schemas';
import { checkLine } from './rules';
import {
  OPTION_LABEL_MAX, QUESTION_KINDS, QUESTION_LABEL_MAX, QUESTION_OPTIONS_MAX, QUESTION_OPTIONS_MIN, QUESTIONS_MAX,
} from './application-form';

function rule(check: (v: string) => FieldCode | null) {
  return (value: string, ctx: z.RefinementCtx) => {
    const code = check(value);
    if (code) ctx.addIssue({ code: 'custom', message: code, params: { fieldCode: code } });
  };
}

/** The one group that cannot be deleted: new promoters join it unless their invite link names another. */
export const DEFAULT_GROUP_ID = 'default';
/**
 * The name migration 021 gave the default group. While an admin has not renamed it, readers see
 * the default group's name in their own language (the console's `groupsAdmin.defaultName`, the
 * explanation's `group.default`), not this English word.
 */
export const DEFAULT_GROUP_SEED_NAME = 'Default';
export const isSeededDefaultGroup = (g: { id: string; name: string }) => g.id === DEFAULT_GROUP_ID && g.name === DEFAULT_GROUP_SEED_NAME;
export const GROUP_NAME_MAX = 60;
export const GROUP_DESCRIPTION_MAX = 300;
/** Promoters moved by one bulk call. */
export const GROUP_MOVE_MAX = 500;

const IdSchema = z.string().min(1).max(64);
const GroupNameSchema = z.string().max(GROUP_NAME_MAX + 40).superRefine(rule((v) => checkLine(v, GROUP_NAME_MAX))).transform((v) => v.trim());
const GroupDescriptionSchema = z.string().max(GROUP_DESCRIPTION_MAX + 40).superRefine(rule((v) => checkLine(v, GROUP_DESCRIPTION_MAX, false))).transform((v) => v.trim());

/** `POST api/admin/groups`; names are unique regardless of case. */
export const GroupCreateSchema = z.strictObject({ name: GroupNameSchema, description: GroupDescriptionSchema.optional() });
export type GroupCreate = z.input<typeof GroupCreateSchema>;
/** `PATCH api/admin/groups/:id`. */
export const GroupPatchSchema = z.strictObject({ name: GroupNameSchema.optional(), description: GroupDescriptionSchema.optional() });
export type GroupPatch = z.input<typeof GroupPatchSchema>;

export const GroupSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  isDefault: z.boolean(),
  /** The code of the group's invite link (`#/register?group=<code>`); null for the default group, whose link is the plain one. */
  inviteCode: z.string().nullable(),
  /** Promoters in the group (any status). */
  promoterCount: z.number().int(),
  /** Questions the group asks at registration. */
  questionCount: z.number().int(),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
});
export type Group = z.infer<typeof GroupSchema>;
export const GroupListSchema = z.object({ items: z.array(GroupSchema) });
export type GroupList = z.infer<typeof GroupListSchema>;
export const GroupEnvelopeSchema = z.object({ group: GroupSchema });
export type GroupEnvelope = z.infer<typeof GroupEnvelopeSchema>;
/** A deleted group's promoters are in the default group now. */
export const GroupDeletedSchema = z.object({ ok: z.literal(true), movedPromoters: z.number().int() });
export type GroupDeleted = z.infer<typeof GroupDeletedSchema>;

/** `PATCH api/admin/promoters/:id`: the promoter's group. */
export const PromoterPatchSchema = z.strictObject({ groupId: IdSchema });
export type PromoterPatch = z.input<typeof PromoterPatchSchema>;
/** `POST api/admin/promoters/group`: many promoters into one group (all or none). */
export const PromoterGroupMoveSchema = z.strictObject({ promoterIds: z.array(IdSchema).min(1).max(GROUP_MOVE_MAX), groupId: IdSchema });
export type PromoterGroupMove = z.input<typeof PromoterGroupMoveSchema>;
/** `moved`: promoters whose group changed; `unchanged`: those already in it. */
export const PromoterGroupMovedSchema = z.object({ moved: z.number().int(), unchanged: z.number().int(), groupId: z.string() });
export type PromoterGroupMoved = z.infer<typeof PromoterGroupMovedSchema>;

// ——— The application form ———

const QuestionKindSchema = z.enum(QUESTION_KINDS);
const labels = (max: number) =>
  z.partialRecord(LocaleSchema, z.string().max(max + 40).superRefine(rule((v) => checkLine(v, max, false))).transform((v) => v.trim()))
    .refine((v) => Object.values(v).some((s) => !!s), { params: { fieldCode: 'required' } });

const OptionInputSchema = z.strictObject({
  /** An existing option's id, kept so that answers given before still name it; new options get one. */
  id: IdSchema.optional(),
  labels: labels(OPTION_LABEL_MAX),
});
const QuestionInputSchema = z.strictObject({
  /** An existing question's id (of this form), kept so its answers stay linked; new questions get one. */
  id: IdSchema.optional(),
  kind: QuestionKindSchema,
  required: z.boolean().default(false),
  /** The question in each language; the reader's is shown, else English, else any that is filled. */
  labels: labels(QUESTION_LABEL_MAX),
  /** Only for `choice`: 2 to 20 options. */
  options: z.array(OptionInputSchema).max(QUESTION_OPTIONS_MAX).default([]),
}).superRefine((q, ctx) => {
  if (q.kind === 'choice' && q.options.length < QUESTION_OPTIONS_MIN) ctx.addIssue({ code: 'custom', path: ['options'], message: 'too_short', params: { fieldCode: 'too_short' } });
  if (q.kind !== 'choice' && q.options.length > 0) ctx.addIssue({ code: 'custom', path: ['options'], message: 'not_allowed', params: { fieldCode: 'not_allowed' } });
  const ids = q.options.map((o) => o.id).filter((id): id is string => !!id);
  if (new Set(ids).size !== ids.length) ctx.addIssue({ code: 'custom', path: ['options'], message: 'conflict', params: { fieldCode: 'conflict' } });
});
export type QuestionInput = z.input<typeof QuestionInputSchema>;

/** `PUT api/admin/application-form` and `PUT api/admin/groups/:id/questions`: the whole form, in order. */
export const ApplicationFormBodySchema = z.strictObject({
  questions: z.array(QuestionInputSchema).max(QUESTIONS_MAX).superRefine((qs, ctx) => {
    const ids = qs.map((q) => q.id).filter((id): id is string => !!id);
    if (new Set(ids).size !== ids.length) ctx.addIssue({ code: 'custom', message: 'conflict', params: { fieldCode: 'conflict' } });
  }),
});
export type ApplicationFormBody = z.input<typeof ApplicationFormBodySchema>;

const LabelsSchema = z.partialRecord(LocaleSchema, z.string());
export const QuestionSchema = z.object({
  id: z.string(),
  kind: QuestionKindSchema,
  required: z.boolean(),
  labels: LabelsSchema,
  options: z.array(z.object({ id: z.string(), labels: LabelsSchema })),
});
export type Question = z.infer<typeof QuestionSchema>;
export const ApplicationFormSchema = z.object({ questions: z.array(QuestionSchema) });
export type ApplicationForm = z.infer<typeof ApplicationFormSchema>;

/** `GET api/auth/application-form?group=<code>`: what the register page asks, in the reader's language. */
export const RegistrationFormQuerySchema = z.strictObject({ group: GroupCodeSchema.optional() });
const AskedQuestionSchema = z.object({
  id: z.string(),
  kind: QuestionKindSchema,
  required: z.boolean(),
  label: z.string(),
  options: z.array(z.object({ id: z.string(), label: z.string() })),
  /** The longest answer accepted, in characters. */
  maxLength: z.number().int(),
});
export type AskedQuestionView = z.infer<typeof AskedQuestionSchema>;
/** The registration's questions (while registration is in approval mode) first, then the group's. */
export const RegistrationFormSchema = z.object({ questions: z.array(AskedQuestionSchema) });
export type RegistrationForm = z.infer<typeof RegistrationFormSchema>;
