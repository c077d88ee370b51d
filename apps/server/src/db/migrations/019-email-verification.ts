import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../types';

/**
 * A verified e-mail address for people whose account is a phone number (issue 28): `users.email`
 * holds it once the link mailed to it was opened (unique: one person per address), and
 * `email_verifications` the links (only the token's SHA-256; single use, expiring).
 */
export function emailVerification(dialect: Dialect): Migration {
  const time = dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('users').addColumn('email', 'text').execute();
      await db.schema.createIndex('users_email_idx').on('users').column('email').unique().where(sql.ref('email'), 'is not', null).execute();
      await db.schema
        .createTable('email_verifications')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('expires_at', time, (c) => c.notNull())
        .addColumn('used_at', time)
        .execute();
      await db.schema.createIndex('email_verifications_user_idx').on('email_verifications').columns(['user_id', 'created_at']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('email_verifications').execute();
      await db.schema.dropIndex('users_email_idx').execute();
      await db.schema.alterTable('users').dropColumn('email').execute();
    },
  };
}
