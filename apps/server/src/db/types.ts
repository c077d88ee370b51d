/** The Kysely database type: one interface for SQLite and PostgreSQL. Times are epoch ms. */
import type { ColumnType, Kysely } from 'kysely';

export interface UsersTable {
  id: string;
  account: string;
  display_name: string;
  password_hash: string;
  role: 'promoter' | 'operator' | 'admin';
  status: 'pending' | 'active' | 'rejected' | 'suspended';
  locale: string;
  invite_code: string;
  parent_id: string | null;
  /** 1 when the promoter chose not to appear on the leaderboard. */
  leaderboard_opt_out: ColumnType<number, number | undefined, number>;
  /** The display name folded for search (domain/search.ts): lower case, accents removed. */
  name_folded: ColumnType<string, string | undefined, string>;
  /** A verified e-mail address of a phone-number account (null: none); mail goes to it. */
  email: ColumnType<string | null, string | null | undefined, string | null>;
  /** The promoter's group (promoter_groups.id; 'default' unless moved). */
  group_id: ColumnType<string, string | undefined, string>;
  created_at: number;
  updated_at: number;
}

/** Promoter groups (issue 31): reward rules and bounties may be limited to groups. */
export interface PromoterGroupsTable {
  id: string;
  name: string;
  description: ColumnType<string, string | undefined, string>;
  /** 1 for the one default group ('default'), which cannot be deleted. */
  is_default: ColumnType<number, number | undefined, number>;
  /** The code of the group's invite link (migration 023); null for the default group. */
  invite_code: ColumnType<string | null, string | null | undefined, string | null>;
  /** The name folded (NFKC, lower case), unique: names are unique regardless of case. */
  name_key: ColumnType<string, string | undefined, string>;
  created_at: number;
  updated_at: number;
}

/** The application form's questions (issue 31): the registration's (group_id null) or a group's. */
export interface ApplicationQuestionsTable {
  id: string;
  group_id: string | null;
  position: number;
  kind: 'shortText' | 'longText' | 'url' | 'choice';
  required: number;
  /** { locale: label } */
  labels_json: string;
  /** [{ id, labels: { locale: label } }] (choices only; '[]' otherwise) */
  options_json: ColumnType<string, string | undefined, string>;
  created_at: number;
  updated_at: number;
}

/** A registration's answers, each with the question (and chosen option) as it was asked. */
export interface ApplicationAnswersTable {
  id: string;
  user_id: string;
  question_id: string;
  source: 'registration' | 'group';
  position: number;
  kind: 'shortText' | 'longText' | 'url' | 'choice';
  /** The question's labels when answered: { locale: label } */
  question_json: string;
  /** The answer; for a choice, the option's id. */
  value: string;
  /** A choice's chosen option's labels when answered; null for other kinds. */
  option_json: string | null;
  created_at: number;
}

export interface EmailVerificationsTable {
  id: string;
  user_id: string;
  email: string;
  token_hash: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  token_hash: string;
  device: string;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
  revoked_at: number | null;
}

export interface SettingsTable {
  key: string;
  value: string;
  updated_at: number;
}

export interface UsedNoncesTable {
  nonce: string;
  expires_at: number;
}

/** Append-only (migration 008's triggers): every column is insert-only, so updateTable does not compile. */
export interface AuditEntriesTable {
  id: ColumnType<string, string, never>;
  actor_id: ColumnType<string | null, string | null, never>;
  action: ColumnType<string, string, never>;
  entity: ColumnType<string, string, never>;
  entity_id: ColumnType<string | null, string | null, never>;
  before_json: ColumnType<string | null, string | null, never>;
  after_json: ColumnType<string | null, string | null, never>;
  at: ColumnType<number, number, never>;
  /** The client's address (null for the scheduler and the command line). */
  ip: ColumnType<string | null, string | null | undefined, never>;
}

export interface PasswordTokensTable {
  id: string;
  user_id: string;
  token_hash: string;
  purpose: 'reset' | 'invite';
  created_by: string | null;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface AdjustmentsTable {
  id: string;
  promoter_id: string;
  amount: number;
  currency: string;
  reason: string;
  allow_negative: number;
  idempotency_key: string | null;
  request_hash: string;
  journal_id: string;
  created_by: string;
  created_at: number;
}

export interface AuthFailuresTable {
  id: string;
  account: string;
  at: number;
}

export interface RateLimitsTable {
  bucket: string;
  count: number;
  reset_at: number;
}

export interface RsaKeysTable {
  key_id: string;
  spki: string;
  private_enc: string;
  created_at: number;
  retired_at: number | null;
}

export interface Database {
  users: UsersTable;
  promoter_groups: PromoterGroupsTable;
  reward_usage: RewardUsageTable;
  application_questions: ApplicationQuestionsTable;
  application_answers: ApplicationAnswersTable;
  sessions: SessionsTable;
  settings: SettingsTable;
  used_nonces: UsedNoncesTable;
  audit_entries: AuditEntriesTable;
  password_tokens: PasswordTokensTable;
  email_verifications: EmailVerificationsTable;
  adjustments: AdjustmentsTable;
  auth_failures: AuthFailuresTable;
  rate_limits: RateLimitsTable;
  rsa_keys: RsaKeysTable;
  campaigns: CampaignsTable;
  campaign_images: CampaignImagesTable;
  enrollments: EnrollmentsTable;
  links: LinksTable;
  clicks: ClicksTable;
  visitor_seen: VisitorSeenTable;
  daily_stats: DailyStatsTable;
  period_stats: PeriodStatsTable;
  program_daily_stats: ProgramDailyStatsTable;
  promoter_day_sales: PromoterDaySalesTable;
  announcements: AnnouncementsTable;
  api_keys: ApiKeysTable;
  conversions: ConversionsTable;
  commissions: CommissionsTable;
  bounties: BountiesTable;
  bounty_submissions: BountySubmissionsTable;
  bounty_images: BountyImagesTable;
  commission_events: CommissionEventsTable;
  ledger_journals: LedgerJournalsTable;
  ledger_entries: LedgerEntriesTable;
  ledger_balances: LedgerBalancesTable;
  payout_accounts: PayoutAccountsTable;
  withdrawals: WithdrawalsTable;
  withdrawal_events: WithdrawalEventsTable;
  notifications: NotificationsTable;
  notification_marks: NotificationMarksTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_outbox: WebhookOutboxTable;
  customer_bindings: CustomerBindingsTable;
  stripe_endpoints: StripeEndpointsTable;
  stripe_events: StripeEventsTable;
  stripe_refs: StripeRefsTable;
  stripe_pending: StripePendingTable;
  webhook_events: WebhookEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  mail_messages: MailMessagesTable;
  mail_opt_outs: MailOptOutsTable;
  mail_digests: MailDigestsTable;
}

export interface MailMessagesTable {
  id: string;
  user_id: string | null;
  recipient: string;
  locale: string;
  template: string;
  subject: string;
  body_sealed: string;
  status: 'pending' | 'sent' | 'failed';
  attempts: number;
  next_attempt_at: number;
  claimed_until: number | null;
  last_error: string | null;
  created_at: number;
  sent_at: number | null;
}

export interface MailOptOutsTable {
  user_id: string;
  category: string;
  created_at: number;
}

export interface MailDigestsTable {
  user_id: string;
  kind: string;
  day: string;
  created_at: number;
}

export interface WebhookEndpointsTable {
  id: string;
  url: string;
  description: string | null;
  events_json: string;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_until: number | null;
  status: 'enabled' | 'disabled';
  disabled_reason: string | null;
  failing_since: number | null;
  created_by: string;
  created_at: number;
  updated_at: number;
}

export interface WebhookOutboxTable {
  id: string;
  /** The envelope's events: a JSON string on SQLite, parsed JSON on PostgreSQL (a json column). */
  events: unknown;
  claimed_until: number | null;
  created_at: number;
}

export interface WebhookEventsTable {
  id: string;
  type: string;
  body: string;
  created_at: number;
}

export interface WebhookDeliveriesTable {
  id: string;
  event_id: string;
  endpoint_id: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  next_attempt_at: number;
  claimed_until: number | null;
  last_status_code: number | null;
  /** The successful attempt (status 'succeeded'): when it was made and how long it took; webhook_attempts holds the others. */
  last_attempt_at: number | null;
  last_duration_ms: number | null;
  created_at: number;
  updated_at: number;
}

export interface WebhookAttemptsTable {
  id: string;
  delivery_id: string;
  at: number;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
}

export type Dialect = 'sqlite' | 'postgres';
export type Db = Kysely<Database>;
/**
 * A query handle that only reads: Kysely's `selectFrom` and `selectNoFrom`, and nothing that writes
 * (no `insertInto`, `updateTable`, `deleteFrom`, `with`, no executor for raw SQL). Batchable work's
 * `tx.q` is one (db/collectors.ts): its writes go through collectors, which the compiler then
 * enforces. Every `Db` is one, so a read written against it takes either. db/hot.ts runs its
 * compiled reads on one.
 */
export type ReadOnlyDb = Pick<Db, 'selectFrom' | 'selectNoFrom'>;

export interface CampaignsTable {
  id: string;
  status: 'draft' | 'active' | 'paused' | 'ended';
  /** JSON { locale: text } */
  names_json: string;
  descriptions_json: string;
  landing_url: string;
  /** JSON string[] of extra hosts deep links may point to (the landing host is always allowed). */
  allowed_hosts_json: string;
  starts_at: number | null;
  ends_at: number | null;
  lead_reward: number;
  sale_reward_type: 'bps' | 'fixed';
  sale_reward: number;
  /** JSON [{ minSales, bps }] */
  tiers_json: string;
  override_bps: number;
  attribution_window_days: number;
  hold_days: number;
  approval_mode: 'auto' | 'manual';
  join_mode: 'open' | 'approval';
  /** JSON { locale: template } with {link} {code} {name} */
  share_texts_json: string;
  cover_image_id: string | null;
  /** How long a customer stays bound to the promoter who brought them: 0 (the window only), months, or null (lifetime). */
  binding_months: number | null;
  /** JSON RewardRule[] (issue 31): the ordered rules; the base rules mirror the reward fields above. */
  rules_json: ColumnType<string, string | undefined, string>;
  /** The most the campaign pays in commissions (overrides included) in a calendar month; null: no budget. */
  budget_per_month: ColumnType<number | null, number | null | undefined, number | null>;
  created_at: number;
  updated_at: number;
}

export interface CampaignImagesTable {
  id: string;
  campaign_id: string;
  kind: 'cover' | 'poster';
  content_type: string;
  data: Buffer;
  byte_size: number;
  sha256: string;
  width: number;
  height: number;
  created_at: number;
}

export interface EnrollmentsTable {
  id: string;
  promoter_id: string;
  campaign_id: string;
  status: 'pending' | 'approved' | 'rejected';
  coupon_code: string | null;
  created_at: number;
  decided_at: number | null;
  decided_by: string | null;
}

export interface LinksTable {
  id: string;
  code: string;
  code_key: string;
  promoter_id: string;
  campaign_id: string;
  label: string | null;
  channel: string | null;
  destination: string | null;
  status: 'active' | 'disabled';
  is_default: number;
  created_at: number;
  updated_at: number;
}

export interface ClicksTable {
  id: string;
  link_id: string;
  campaign_id: string;
  promoter_id: string;
  at: number;
  visitor_hash: string;
  is_unique: number;
  is_bot: number;
  device: string;
  referrer_host: string | null;
  attributed: number;
}

export interface VisitorSeenTable {
  link_id: string;
  visitor_hash: string;
  unique_at: number;
}

/** Per-day figures of one promoter, campaign and link ('' when no link: level-2 overrides). */
export interface DailyStatsTable {
  promoter_id: string;
  day: string;
  campaign_id: string;
  link_id: string;
  clicks: number;
  unique_clicks: number;
  bot_clicks: number;
  leads: number;
  sales: number;
  sale_amount: number;
  refund_amount: number;
  commission_pending: number;
  commission_approved: number;
  commission_rejected: number;
  commission_reversed: number;
}

/** daily_stats summed over promoters and links: the program's figures by day and campaign (migration 009). */
export type ProgramDailyStatsTable = Omit<DailyStatsTable, 'promoter_id' | 'link_id'>;

/** A promoter's sale amount on a day, for the overview's top promoters (migration 009). */
export interface PromoterDaySalesTable {
  day: string;
  promoter_id: string;
  sale_amount: number;
}

/** Leaderboard totals of one promoter in one period ('w:<Monday>' or 'm:<YYYY-MM>'). */
export interface PeriodStatsTable {
  period: string;
  promoter_id: string;
  earnings: number;
  conversions: number;
}

export interface AnnouncementsTable {
  id: string;
  /** JSON { locale: { title, body } } */
  texts_json: string;
  status: 'draft' | 'published' | 'archived';
  pinned: number;
  published_at: number | null;
  created_by: string;
  created_at: number;
  updated_at: number;
}

export interface ApiKeysTable {
  id: string;
  name: string;
  /** The first characters of the secret, shown in lists so a key can be recognised. */
  prefix: string;
  /** SHA-256 of the secret: how a presented key is found. */
  secret_hash: string;
  /** The secret sealed with the master key, for X-Signature checks. Never returned. */
  secret_sealed: string;
  scopes_json: string;
  require_signature: number;
  created_by: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

export type ConversionKind = 'lead' | 'sale' | 'refund';
export type ConversionStatus = 'attributed' | 'unattributed' | 'rejected';
/** `staff`: assigned by an operator (issue 31, corrections). */
export type AttributedBy = 'coupon' | 'click' | 'customer' | 'link' | 'staff';

export interface ConversionsTable {
  id: string;
  campaign_id: string;
  kind: ConversionKind;
  external_id: string;
  amount: number;
  /** Sales: the total refunded so far. */
  refunded_amount: number;
  /** Refunds: the id of the sale conversion they refund. */
  refund_of: string | null;
  customer_external_id: string | null;
  customer_email_sha256: string | null;
  click_id: string | null;
  coupon_code: string | null;
  link_code: string | null;
  promoter_id: string | null;
  link_id: string | null;
  attributed_by: AttributedBy | null;
  status: ConversionStatus;
  reason: string | null;
  occurred_at: number;
  received_at: number;
  api_key_id: string | null;
  /** JSON StoredLine[] (issue 31): a sale's lines as decided; null when it named none. */
  items_json: string | null;
  country: string | null;
  metadata_json: string | null;
  /** 1 new customer, 0 returning, null not known. */
  new_customer: number | null;
  /** JSON ExplanationStep[]: how it was decided (null: recorded before issue 31). */
  explanation_json: string | null;
}

/** What caps have used (issue 31): scope `budget` or `rule:<ruleId>:<promoterId>`, per month (YYYY-MM). */
export interface RewardUsageTable {
  campaign_id: string;
  scope: string;
  month: string;
  used: number;
}

export type CommissionStatus = 'pending' | 'approved' | 'rejected' | 'reversed';

export interface CommissionsTable {
  id: string;
  /** null for a bounty's reward (kind `bounty`, migration 025). */
  conversion_id: string | null;
  campaign_id: string;
  promoter_id: string;
  link_id: string | null;
  /** Level 2: the promoter whose sale earned this override. */
  source_promoter_id: string | null;
  level: number;
  kind: 'lead' | 'sale' | 'bounty';
  rule: string;
  base: number;
  rate_bps: number | null;
  amount: number;
  /** What refunds have taken back so far (≤ amount). */
  reversed_amount: number;
  status: CommissionStatus;
  occurred_at: number;
  /** YYYY-MM of occurred_at in the installation's time zone (monthly tiers). */
  month: string;
  available_at: number;
  created_at: number;
  decided_at: number | null;
  decided_by: string | null;
  reason: string | null;
  /** Earned through a customer binding: its month (1 = the first), of `binding_months` (null: lifetime). */
  binding_month: number | null;
  binding_months: number | null;
  /** 0: made when the conversion was recorded; n: made by its n-th assignment by staff (issue 31, migration 024). */
  assignment: number;
  /** A bounty's reward: the bounty, and the period it was earned for (`YYYY-MM`, `campaign`, `once`); unique with promoter_id. */
  bounty_id: string | null;
  bounty_period: string | null;
}

export interface BountiesTable {
  id: string;
  campaign_id: string;
  kind: 'performance' | 'submission';
  names_json: string;
  descriptions_json: string;
  reward: number;
  /** Performance: { metric, value, period }; null for a submission bounty. */
  goal_json: string | null;
  group_ids_json: string;
  starts_at: number | null;
  ends_at: number | null;
  status: 'active' | 'archived';
  created_at: number;
  updated_at: number;
}

export interface BountySubmissionsTable {
  id: string;
  bounty_id: string;
  promoter_id: string;
  url: string | null;
  text: string;
  image_id: string | null;
  status: 'pending' | 'approved' | 'rejected';
  reason: string | null;
  created_at: number;
  decided_at: number | null;
  decided_by: string | null;
  commission_id: string | null;
}

export interface BountyImagesTable {
  id: string;
  bounty_id: string;
  promoter_id: string;
  content_type: string;
  data: Buffer;
  byte_size: number;
  sha256: string;
  width: number;
  height: number;
  created_at: number;
}

export interface CommissionEventsTable {
  id: string;
  commission_id: string;
  /** created | approved | rejected | reversed | partially_reversed */
  status: string;
  amount: number;
  actor_id: string | null;
  reason: string | null;
  at: number;
}

export interface LedgerJournalsTable {
  id: string;
  kind: string;
  ref_type: string;
  ref_id: string;
  promoter_id: string | null;
  memo_json: string;
  at: number;
}

export interface LedgerEntriesTable {
  id: string;
  journal_id: string;
  account: string;
  amount: number;
}

export interface LedgerBalancesTable {
  account: string;
  balance: number;
  updated_at: number;
}

export interface PayoutAccountsTable {
  id: string;
  promoter_id: string;
  method: 'bank' | 'alipay' | 'paypal' | 'other';
  holder_name: string;
  number_sealed: string;
  number_digest: string;
  last4: string;
  is_default: number;
  created_at: number;
}

export interface WithdrawalsTable {
  id: string;
  promoter_id: string;
  amount: number;
  fee: number;
  net: number;
  currency: string;
  status: 'requested' | 'approved' | 'paid' | 'failed' | 'rejected' | 'cancelled';
  payout_account_id: string | null;
  account_method: 'bank' | 'alipay' | 'paypal' | 'other';
  account_holder: string;
  account_last4: string;
  account_sealed: string;
  account_digest: string;
  idempotency_key: string | null;
  request_hash: string;
  day: string;
  requested_at: number;
  decided_at: number | null;
  decided_by: string | null;
  paid_at: number | null;
  payout_reference: string | null;
  reason: string | null;
}

export interface WithdrawalEventsTable {
  id: string;
  withdrawal_id: string;
  status: WithdrawalsTable['status'];
  actor_id: string | null;
  reason: string | null;
  reference: string | null;
  at: number;
}

export interface NotificationsTable {
  id: string;
  user_id: string;
  type: string;
  params_json: string;
  read_at: number | null;
  created_at: number;
}

export interface NotificationMarksTable {
  user_id: string;
  /** Every notification of the user with an id below this one is read. */
  unread_from: string;
}

/** A customer bound to the promoter who brought them (issue 17: recurring and lifetime commissions). */
export interface CustomerBindingsTable {
  /** The binding's own id (migration 024): a new one whenever the binding is replaced or moved. */
  id: string;
  campaign_id: string;
  customer_external_id: string;
  promoter_id: string;
  link_id: string | null;
  /** The conversion that started it (a binding moved by staff keeps the first one's). */
  conversion_id: string;
  started_at: number;
  /** null: for the customer's lifetime. */
  months: number | null;
  /** When it was ended early (the subscription was cancelled). */
  ended_at: number | null;
  created_at: number;
}

export interface StripeEndpointsTable {
  campaign_id: string;
  secret_sealed: string;
  updated_by: string;
  created_at: number;
  updated_at: number;
}

export interface StripeEventsTable {
  campaign_id: string;
  event_id: string;
  type: string;
  outcome: 'recorded' | 'ignored' | 'rejected';
  detail: string | null;
  conversion_id: string | null;
  received_at: number;
}

export interface StripeRefsTable {
  campaign_id: string;
  /** A payment intent or an invoice id. */
  ref: string;
  /** The sale's externalId. */
  external_id: string;
}

/** An event waiting for its sale: one row per payment reference it names (migration 016). */
export interface StripePendingTable {
  campaign_id: string;
  ref: string;
  event_id: string;
  type: string;
  /** The event's `created`, Unix seconds. */
  created: number;
  /** The fields of the event's object it is acted on by. */
  object_json: string;
  received_at: number;
}
