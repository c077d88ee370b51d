/** The Kysely database type: one interface for SQLite and PostgreSQL. Times are epoch ms. */
import type { Kysely } from 'kysely';

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
  created_at: number;
  updated_at: number;
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

export interface AuditEntriesTable {
  id: string;
  actor_id: string | null;
  action: string;
  entity: string;
  entity_id: string | null;
  before_json: string | null;
  after_json: string | null;
  at: number;
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
  sessions: SessionsTable;
  settings: SettingsTable;
  used_nonces: UsedNoncesTable;
  audit_entries: AuditEntriesTable;
  auth_failures: AuthFailuresTable;
  rate_limits: RateLimitsTable;
  rsa_keys: RsaKeysTable;
  campaigns: CampaignsTable;
  campaign_images: CampaignImagesTable;
  enrollments: EnrollmentsTable;
  links: LinksTable;
  clicks: ClicksTable;
  visitor_seen: VisitorSeenTable;
  link_daily_stats: LinkDailyStatsTable;
}

export type Dialect = 'sqlite' | 'postgres';
export type Db = Kysely<Database>;

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

export interface LinkDailyStatsTable {
  link_id: string;
  day: string;
  clicks: number;
  unique_clicks: number;
  bot_clicks: number;
}
