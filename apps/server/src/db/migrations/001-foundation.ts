import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../types';

/** Users, sessions, settings, used nonces, audit entries, sign-in failures, rate limits, RSA keys. */
export function foundation(dialect: Dialect): Migration {
  // Epoch-millisecond times need 64 bits: int8 on PostgreSQL; SQLite integers are 64-bit already.
  const time = dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('users')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account', 'text', (c) => c.notNull().unique())
        .addColumn('display_name', 'text', (c) => c.notNull())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('locale', 'text', (c) => c.notNull())
        .addColumn('invite_code', 'text', (c) => c.notNull().unique())
        .addColumn('parent_id', 'text', (c) => c.references('users.id'))
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('updated_at', time, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('users_parent_idx').on('users').column('parent_id').execute();
      await db.schema.createIndex('users_status_created_idx').on('users').columns(['status', 'created_at']).execute();

      await db.schema
        .createTable('sessions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('device', 'text', (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('last_seen_at', time, (c) => c.notNull())
        .addColumn('expires_at', time, (c) => c.notNull())
        .addColumn('revoked_at', time)
        .execute();
      await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();

      await db.schema
        .createTable('settings')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('updated_at', time, (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('used_nonces')
        .addColumn('nonce', 'text', (c) => c.primaryKey())
        .addColumn('expires_at', time, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('used_nonces_expires_idx').on('used_nonces').column('expires_at').execute();

      await db.schema
        .createTable('audit_entries')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('actor_id', 'text')
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('entity', 'text', (c) => c.notNull())
        .addColumn('entity_id', 'text')
        .addColumn('before_json', 'text')
        .addColumn('after_json', 'text')
        .addColumn('at', time, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('audit_entity_idx').on('audit_entries').columns(['entity', 'entity_id']).execute();

      await db.schema
        .createTable('auth_failures')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account', 'text', (c) => c.notNull())
        .addColumn('at', time, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('auth_failures_account_idx').on('auth_failures').columns(['account', 'at']).execute();

      await db.schema
        .createTable('rate_limits')
        .addColumn('bucket', 'text', (c) => c.primaryKey())
        .addColumn('count', 'integer', (c) => c.notNull())
        .addColumn('reset_at', time, (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('rsa_keys')
        .addColumn('key_id', 'text', (c) => c.primaryKey())
        .addColumn('spki', 'text', (c) => c.notNull())
        .addColumn('private_enc', 'text', (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('retired_at', time)
        .execute();
    },
  };
}
