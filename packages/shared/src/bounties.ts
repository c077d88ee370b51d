/**
 * Bounties (issue 31 item 5): a reward for reaching a goal (`performance`) or for proof of a task
 * that staff approve (`submission`). The contract of the console's and the promoter's calls; the
 * rules are in docs/bounties.md.
 */
import { z } from 'zod';
import { CommissionSchema, LocaleSchema } from './schemas';
import { MAX_AMOUNT } from './rules';

export const BOUNTY_KINDS = ['performance', 'submission'] as const;
export type BountyKind = (typeof BOUNTY_KINDS)[number];
export const BOUNTY_METRICS = ['sales', 'saleAmount', 'leads'] as const;
export type BountyMetric = (typeof BOUNTY_METRICS)[number];
export const BOUNTY_PERIODS = ['month', 'campaign'] as const;
export type BountyPeriod = (typeof BOUNTY_PERIODS)[number];
export const BOUNTY_STATUSES = ['active', 'archived'] as const;
export type BountyStatus = (typeof BOUNTY_STATUSES)[number];
export const SUBMISSION_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type SubmissionStatus = (typeof SUBMISSION_STATUSES)[number];

const texts = (max: number) => z.partialRecord(LocaleSchema, z.string().trim().max(max));

/** `sales`/`leads`: a count of attributed conversions; `saleAmount`: their sum in minor units (less refunds). */
export const BountyGoalSchema = z.strictObject({
  metric: z.enum(BOUNTY_METRICS),
  value: z.number().int().min(1).max(MAX_AMOUNT),
  period: z.enum(BOUNTY_PERIODS),
});
export type BountyGoal = z.infer<typeof BountyGoalSchema>;

const bountyFields = {
  /** What promoters read, per language (at least one). */
  names: texts(80).refine((v) => Object.values(v).some((s) => s && s.length > 0), { params: { fieldCode: 'required' } }),
  descriptions: texts(2000).default({}),
  /** A fixed amount in minor units. */
  reward: z.number().int().min(1).max(MAX_AMOUNT),
  /** Empty: every group. */
  groupIds: z.array(z.string().trim().min(1).max(64)).max(50).default([]),
  /** Open from / until (epoch ms); null: from now / no end. */
  startsAt: z.number().int().nullable().default(null),
  endsAt: z.number().int().nullable().default(null),
};

export const BountyCreateSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('performance'), goal: BountyGoalSchema, ...bountyFields }),
  z.strictObject({ kind: z.literal('submission'), ...bountyFields }),
]);
export type BountyCreate = z.input<typeof BountyCreateSchema>;

/** `PATCH api/admin/bounties/:id`: any of the fields (the kind and goal of a bounty already earned stay), or `status`. */
export const BountyPatchSchema = z.strictObject({
  names: bountyFields.names.optional(),
  descriptions: texts(2000).optional(),
  reward: bountyFields.reward.optional(),
  groupIds: bountyFields.groupIds.optional(),
  startsAt: z.number().int().nullable().optional(),
  endsAt: z.number().int().nullable().optional(),
  goal: BountyGoalSchema.optional(),
  status: z.enum(BOUNTY_STATUSES).optional(),
});
export type BountyPatch = z.infer<typeof BountyPatchSchema>;

export const AdminBountySchema = z.object({
  id: z.string(),
  campaignId: z.string(),
  kind: z.enum(BOUNTY_KINDS),
  names: z.record(z.string(), z.string()),
  descriptions: z.record(z.string(), z.string()),
  reward: z.number().int(),
  goal: BountyGoalSchema.nullable(),
  groupIds: z.array(z.string()),
  startsAt: z.number().int().nullable(),
  endsAt: z.number().int().nullable(),
  status: z.enum(BOUNTY_STATUSES),
  createdAt: z.number().int(),
  /** How many times it was earned, and submissions waiting for a decision. */
  earnedCount: z.number().int(),
  pendingSubmissions: z.number().int(),
});
export type AdminBounty = z.infer<typeof AdminBountySchema>;
export const AdminBountyListSchema = z.object({ items: z.array(AdminBountySchema) });
export type AdminBountyList = z.infer<typeof AdminBountyListSchema>;

/** `POST api/bounties/:id/submissions`: proof of the task (a link, words, an uploaded image). */
export const BountySubmissionCreateSchema = z.strictObject({
  url: z.string().trim().max(2000).url().optional(),
  text: z.string().trim().min(1).max(2000),
  imageId: z.string().trim().min(1).max(64).optional(),
});
export type BountySubmissionCreate = z.infer<typeof BountySubmissionCreateSchema>;

export const BountySubmissionSchema = z.object({
  id: z.string(),
  bountyId: z.string(),
  /** The bounty's and its campaign's names in the reader's language (the review queue says what the proof is for). */
  bountyName: z.string(),
  campaignName: z.string(),
  promoterId: z.string(),
  promoterName: z.string(),
  url: z.string().nullable(),
  text: z.string(),
  imageUrl: z.string().nullable(),
  status: z.enum(SUBMISSION_STATUSES),
  /** Staff's reason when rejected. */
  reason: z.string().nullable(),
  createdAt: z.number().int(),
  decidedAt: z.number().int().nullable(),
  /** The commission approval made (kind `bounty`). */
  commissionId: z.string().nullable(),
});
export type BountySubmission = z.infer<typeof BountySubmissionSchema>;
export const BountySubmissionListSchema = z.object({ items: z.array(BountySubmissionSchema), nextCursor: z.string().nullable() });
export type BountySubmissionList = z.infer<typeof BountySubmissionListSchema>;
export const BountySubmissionRejectSchema = z.strictObject({ reason: z.string().trim().min(1).max(500) });

/** `GET api/bounties`: what is open to the promoter, in their language, with progress. */
export const PromoterBountySchema = z.object({
  id: z.string(),
  campaignId: z.string(),
  campaignName: z.string(),
  kind: z.enum(BOUNTY_KINDS),
  name: z.string(),
  description: z.string(),
  reward: z.number().int(),
  goal: BountyGoalSchema.nullable(),
  endsAt: z.number().int().nullable(),
  /** Performance: how far this period is (`current` of `goal.value`); the period's end (null: the campaign's). */
  progress: z.object({ current: z.number().int(), periodEndsAt: z.number().int().nullable() }).nullable(),
  /** Earned in the current period (performance) or approved (submission). */
  earned: z.boolean(),
  /** Submission: the promoter's latest one, if any. */
  submission: z.object({ id: z.string(), status: z.enum(SUBMISSION_STATUSES), reason: z.string().nullable(), createdAt: z.number().int() }).nullable(),
});
export type PromoterBounty = z.infer<typeof PromoterBountySchema>;
export const PromoterBountyListSchema = z.object({ currency: z.string(), items: z.array(PromoterBountySchema) });
export type PromoterBountyList = z.infer<typeof PromoterBountyListSchema>;

/** `POST api/admin/campaigns/:id/bounties` (201) and `PATCH api/admin/bounties/:id`. */
export const AdminBountyEnvelopeSchema = z.object({ bounty: AdminBountySchema });
export type AdminBountyEnvelope = z.infer<typeof AdminBountyEnvelopeSchema>;
/** `POST api/bounties/:id/submissions` (201) and the staff's approve / reject. */
export const BountySubmissionEnvelopeSchema = z.object({ submission: BountySubmissionSchema });
export type BountySubmissionEnvelope = z.infer<typeof BountySubmissionEnvelopeSchema>;
/** `GET api/admin/bounty-submissions?status=&bountyId=&limit=&cursor=`: newest first. */
export const BountySubmissionQuerySchema = z.strictObject({
  status: z.enum(SUBMISSION_STATUSES).optional(),
  bountyId: z.string().min(1).max(64).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: z.string().max(200).optional(),
});
export type BountySubmissionQuery = z.input<typeof BountySubmissionQuerySchema>;
/**
 * `POST api/bounties/:id/images` (raw PNG, JPEG or WebP body, at most 2 MiB, as a campaign's
 * images): 201 with the id to send as a submission's `imageId` and where staff and the promoter
 * read it (`GET api/bounty-images/:id`, signed-in).
 */
export const BountyImageSchema = z.object({ id: z.string(), url: z.string() });
export type BountyImage = z.infer<typeof BountyImageSchema>;

/**
 * The `bounty.earned` webhook event's `data` (docs/webhooks.md): the bounty as it was when earned,
 * the promoter, the period (`YYYY-MM`, `campaign`, or `once` for a submission), the submission
 * approved (null for a goal reached), and the commission of kind `bounty` it made.
 */
export const BountyEarnedEventSchema = z.object({
  bounty: z.object({ id: z.string(), campaignId: z.string(), kind: z.enum(BOUNTY_KINDS), names: z.record(z.string(), z.string()), reward: z.number().int(), goal: BountyGoalSchema.nullable() }),
  promoterId: z.string(),
  period: z.string(),
  submissionId: z.string().nullable(),
  commission: CommissionSchema,
});
export type BountyEarnedEvent = z.infer<typeof BountyEarnedEventSchema>;
