import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../types';

/**
 * Group invite links and the application form (issue 31, items 1 and 8).
 *
 * - `promoter_groups.invite_code`: the code of a group's invite link (`#/register?group=<code>`);
 *   null for the default group, whose link is the plain register link. `name_key`: the name
 *   folded (NFKC, lower case) with a unique index, so two groups cannot be named alike under
 *   concurrent creations on either database (SQLite's `lower()` folds ASCII only).
 * - `application_questions`: the questions of a form, in order — the registration's
 *   (`group_id` null, asked while registration is in approval mode) or a group's. Labels and
 *   options per locale as JSON.
 * - `application_answers`: what a person answered at registration, with the question (and the
 *   chosen option) as it was asked, so an answer stays readable after the form changes.
 */
export function applicationForms(dialect: Dialect): Migration {
  const time = dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('promoter_groups').addColumn('invite_code', 'text').execute();
      await db.schema.alterTable('promoter_groups').addColumn('name_key', 'text', (c) => c.notNull().defaultTo('')).execute();
      await sql`update promoter_groups set name_key = lower(name)`.execute(db);
      await db.schema.createIndex('promoter_groups_invite_code').on('promoter_groups').column('invite_code').unique().execute();
      await db.schema.createIndex('promoter_groups_name_key').on('promoter_groups').column('name_key').unique().execute();

      await db.schema
        .createTable('application_questions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('group_id', 'text')
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('required', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('labels_json', 'text', (c) => c.notNull())
        .addColumn('options_json', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('updated_at', time, (c) => c.notNull())
        .addCheckConstraint('application_questions_kind', sql`kind in ('shortText', 'longText', 'url', 'choice')`)
        .addCheckConstraint('application_questions_required', sql`required in (0, 1)`)
        .execute();
      await db.schema.createIndex('application_questions_form').on('application_questions').columns(['group_id', 'position']).execute();

      await db.schema
        .createTable('application_answers')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('question_id', 'text', (c) => c.notNull())
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('question_json', 'text', (c) => c.notNull())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('option_json', 'text')
        .addColumn('created_at', time, (c) => c.notNull())
        .addCheckConstraint('application_answers_source', sql`source in ('registration', 'group')`)
        .execute();
      await db.schema.createIndex('application_answers_user').on('application_answers').columns(['user_id', 'position']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('application_answers').execute();
      await db.schema.dropTable('application_questions').execute();
      await db.schema.dropIndex('promoter_groups_name_key').execute();
      await db.schema.dropIndex('promoter_groups_invite_code').execute();
      await db.schema.alterTable('promoter_groups').dropColumn('name_key').execute();
      await db.schema.alterTable('promoter_groups').dropColumn('invite_code').execute();
    },
  };
}
