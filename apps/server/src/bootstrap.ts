/** Opens the database, applies migrations and prepares the key material: what both main and tests need. */
import type { Config } from './config';
import type { AppContext } from './context';
import { migrateToLatest, openDatabase, sqliteFile, type DatabaseHandle, type OpenOptions } from './db/connection';
import { MasterKey } from './platform/crypto/master-key';
import { RsaKeyring } from './platform/crypto/rsa-keys';
import { SealOpener } from './platform/crypto/sealed';
import { ClickBuffer } from './platform/click-buffer';
import { UnitOfWork } from './db/unit-of-work';
import { AppError } from './platform/errors';
import { LinkCache } from './platform/link-cache';
import { WebhookSubscribers } from './platform/webhooks/outbox';
import { Mailer } from './platform/mail/outbox';
import { VisitorHasher } from './platform/visitor';
import { primeZone, zoneOf } from './platform/settings';
import { loadRedirectTarget } from './modules/links/repository';
import { webhookQueue } from './modules/webhooks/service';
import { mailQueueDepth } from './modules/mail/service';
import { Metrics } from './platform/metrics';

export async function createContext(config: Config, dbOptions?: Partial<OpenOptions>, master?: MasterKey): Promise<{ ctx: AppContext; handle: DatabaseHandle }> {
  const handle = await openDatabase({
    databaseUrl: config.databaseUrl,
    sqlitePath: sqliteFile(config.dataDir),
    statementTimeoutMs: config.statementTimeoutMs,
    ...dbOptions,
  });
  await migrateToLatest(handle, config.timeZone);
  const masterKey = master ?? MasterKey.load({ appSecret: config.appSecret, dataDir: config.dataDir });
  const keyring = new RsaKeyring(handle.db, masterKey);
  await keyring.current();
  // The process's own metrics (memory, event-loop lag) only where /metrics is served.
  const metrics = new Metrics({ process: config.metrics !== null });
  const uow = new UnitOfWork(handle.db, handle.dialect, { isItemError: (error) => error instanceof AppError, readsFirst: handle.dialect === 'postgres', onBatch: metrics.groupCommitted });
  const ctx: AppContext = {
    config,
    db: handle.db,
    dialect: handle.dialect,
    uow,
    master: masterKey,
    keyring,
    seals: new SealOpener(handle.db, keyring),
    clicks: new ClickBuffer(uow, () => zoneOf(ctx)),
    links: new LinkCache((codeKey) => loadRedirectTarget(handle.db, codeKey)),
    visitors: new VisitorHasher(masterKey),
    webhooks: new WebhookSubscribers(),
    mail: new Mailer(config.mail, masterKey),
    metrics,
  };
  watchState(ctx, handle);
  await primeZone(ctx);
  return { ctx, handle };
}

/**
 * The state /metrics reads when scraped, beside the counters the code adds to as it works: clicks
 * and group commits (in memory), the PostgreSQL pool, and the queues in the database (bounded:
 * a queue the database does not tell within a second is left out of that scrape).
 */
function watchState(ctx: AppContext, handle: DatabaseHandle) {
  const m = ctx.metrics;
  m.read('pa_build_info', 'This instance: its version and database (always 1).', 'gauge', () => [{ labels: { version: ctx.config.version, database: ctx.dialect }, value: 1 }]);
  m.read('pa_clicks_received_total', 'Clicks of tracked redirects handed to the group commit.', 'counter', () => ctx.clicks.accepted);
  m.read('pa_clicks_written_total', 'Clicks stored (their redirect carried the click id).', 'counter', () => ctx.clicks.written);
  m.read('pa_clicks_failed_total', 'Clicks that could not be stored (their redirect went out untracked).', 'counter', () => ctx.clicks.failed);
  m.read('pa_clicks_buffered', 'Clicks waiting for their group commit now.', 'gauge', () => ctx.clicks.accepted - ctx.clicks.written - ctx.clicks.failed);
  m.read('pa_group_commit_waiting', 'Items (clicks, conversions) waiting for a group commit now.', 'gauge', () => ctx.uow.waiting);
  m.read('pa_group_commit_retries_total', 'Group commits sent round again (an item failed, a conflict, a lost connection).', 'counter', () => ctx.uow.stats.retried);
  const pool = handle.pool;
  if (pool) {
    m.read('pa_db_pool_connections', 'PostgreSQL connections of this instance by state.', 'gauge', () => {
      const now = pool();
      return [{ labels: { state: 'in_use' }, value: now.inUse }, { labels: { state: 'idle' }, value: now.idle }];
    });
    m.read('pa_db_pool_waiting', 'Queries waiting for a PostgreSQL connection of this instance.', 'gauge', () => pool().waiting);
  }
  let webhooks: Promise<{ deliveries: number; envelopes: number }> | null = null;
  // One query for both webhook gauges per scrape (the first asks, the second takes its answer).
  const queue = () => (webhooks ??= webhookQueue(ctx).finally(() => (webhooks = null)));
  m.read('pa_webhook_queue_depth', 'Webhook deliveries waiting to be sent (retries included), all instances.', 'gauge', async () => (await queue()).deliveries);
  m.read('pa_webhook_outbox_envelopes', 'Webhook envelopes written and not yet sent or made into deliveries, all instances.', 'gauge', async () => (await queue()).envelopes);
  m.read('pa_mail_queue_depth', 'Mails waiting to be sent (retries included), all instances.', 'gauge', () => mailQueueDepth(ctx));
}
