import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../types';

/** Campaigns with their images, enrollments, links, clicks and the per-day click rollups. */
export function campaignsLinksClicks(dialect: Dialect): Migration {
  const time = dialect === 'postgres' ? 'bigint' : 'integer';
  const money = dialect === 'postgres' ? 'bigint' : 'integer';
  const bytes = dialect === 'postgres' ? 'bytea' : 'blob';
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('campaigns')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('names_json', 'text', (c) => c.notNull())
        .addColumn('descriptions_json', 'text', (c) => c.notNull())
        .addColumn('landing_url', 'text', (c) => c.notNull())
        .addColumn('allowed_hosts_json', 'text', (c) => c.notNull())
        .addColumn('starts_at', time)
        .addColumn('ends_at', time)
        .addColumn('lead_reward', money, (c) => c.notNull())
        .addColumn('sale_reward_type', 'text', (c) => c.notNull())
        .addColumn('sale_reward', money, (c) => c.notNull())
        .addColumn('tiers_json', 'text', (c) => c.notNull())
        .addColumn('override_bps', 'integer', (c) => c.notNull())
        .addColumn('attribution_window_days', 'integer', (c) => c.notNull())
        .addColumn('hold_days', 'integer', (c) => c.notNull())
        .addColumn('approval_mode', 'text', (c) => c.notNull())
        .addColumn('join_mode', 'text', (c) => c.notNull())
        .addColumn('share_texts_json', 'text', (c) => c.notNull())
        .addColumn('cover_image_id', 'text')
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('updated_at', time, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('campaigns_status_idx').on('campaigns').columns(['status', 'created_at']).execute();

      await db.schema
        .createTable('campaign_images')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('campaign_id', 'text', (c) => c.notNull().references('campaigns.id'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('content_type', 'text', (c) => c.notNull())
        .addColumn('data', bytes, (c) => c.notNull())
        .addColumn('byte_size', 'integer', (c) => c.notNull())
        .addColumn('sha256', 'text', (c) => c.notNull())
        .addColumn('width', 'integer', (c) => c.notNull())
        .addColumn('height', 'integer', (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('campaign_images_campaign_idx').on('campaign_images').columns(['campaign_id', 'kind']).execute();

      await db.schema
        .createTable('enrollments')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('promoter_id', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('campaign_id', 'text', (c) => c.notNull().references('campaigns.id'))
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('coupon_code', 'text', (c) => c.unique())
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('decided_at', time)
        .addColumn('decided_by', 'text')
        .addUniqueConstraint('enrollments_promoter_campaign_uq', ['promoter_id', 'campaign_id'])
        .execute();
      await db.schema.createIndex('enrollments_campaign_status_idx').on('enrollments').columns(['campaign_id', 'status']).execute();

      await db.schema
        .createTable('links')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('code', 'text', (c) => c.notNull())
        .addColumn('code_key', 'text', (c) => c.notNull().unique())
        .addColumn('promoter_id', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('campaign_id', 'text', (c) => c.notNull().references('campaigns.id'))
        .addColumn('label', 'text')
        .addColumn('channel', 'text')
        .addColumn('destination', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('is_default', 'integer', (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('updated_at', time, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('links_promoter_idx').on('links').columns(['promoter_id', 'created_at']).execute();
      await db.schema.createIndex('links_campaign_idx').on('links').column('campaign_id').execute();

      await db.schema
        .createTable('clicks')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('link_id', 'text', (c) => c.notNull())
        .addColumn('campaign_id', 'text', (c) => c.notNull())
        .addColumn('promoter_id', 'text', (c) => c.notNull())
        .addColumn('at', time, (c) => c.notNull())
        .addColumn('visitor_hash', 'text', (c) => c.notNull())
        .addColumn('is_unique', 'integer', (c) => c.notNull())
        .addColumn('is_bot', 'integer', (c) => c.notNull())
        .addColumn('device', 'text', (c) => c.notNull())
        .addColumn('referrer_host', 'text')
        .addColumn('attributed', 'integer', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('clicks_link_at_idx').on('clicks').columns(['link_id', 'at']).execute();

      await db.schema
        .createTable('visitor_seen')
        .addColumn('link_id', 'text', (c) => c.notNull())
        .addColumn('visitor_hash', 'text', (c) => c.notNull())
        .addColumn('unique_at', time, (c) => c.notNull())
        .addPrimaryKeyConstraint('visitor_seen_pk', ['link_id', 'visitor_hash'])
        .execute();

      await db.schema
        .createTable('link_daily_stats')
        .addColumn('link_id', 'text', (c) => c.notNull())
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('clicks', 'integer', (c) => c.notNull())
        .addColumn('unique_clicks', 'integer', (c) => c.notNull())
        .addColumn('bot_clicks', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('link_daily_stats_pk', ['link_id', 'day'])
        .execute();
    },
  };
}
