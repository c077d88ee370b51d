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
}

export type Dialect = 'sqlite' | 'postgres';
export type Db = Kysely<Database>;
