/** API key queries. Secrets (their hash and sealed copy) are written here but never read back for a list. */
import type { ApiKeysTable, Db } from '../../db/types';

/** What a list shows of a key: everything but its secret and its author. */
export type ApiKeyRow = Omit<ApiKeysTable, 'secret_hash' | 'secret_sealed' | 'created_by'>;

const COLUMNS = ['id', 'name', 'prefix', 'scopes_json', 'require_signature', 'created_at', 'last_used_at', 'revoked_at'] as const;

/** The newest keys first. */
export async function listApiKeys(db: Db, limit: number): Promise<ApiKeyRow[]> {
  return db.selectFrom('api_keys').select(COLUMNS).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

export async function insertApiKey(db: Db, row: ApiKeysTable): Promise<void> {
  await db.insertInto('api_keys').values(row).execute();
}

export async function findApiKeyState(db: Db, id: string): Promise<Pick<ApiKeysTable, 'id' | 'revoked_at'> | undefined> {
  return db.selectFrom('api_keys').select(['id', 'revoked_at']).where('id', '=', id).executeTakeFirst();
}

export async function setApiKeyRevoked(db: Db, id: string, now: number): Promise<void> {
  await db.updateTable('api_keys').set({ revoked_at: now }).where('id', '=', id).execute();
}
