import type { Config } from './config';
import type { Db, Dialect } from './db/types';
import type { UnitOfWork } from './db/unit-of-work';
import type { MasterKey } from './platform/crypto/master-key';
import type { RsaKeyring } from './platform/crypto/rsa-keys';
import type { SealOpener } from './platform/crypto/sealed';
import type { ClickBuffer } from './platform/click-buffer';
import type { LinkCache } from './platform/link-cache';
import type { VisitorHasher } from './platform/visitor';
import type { WebhookSubscribers } from './platform/webhooks/outbox';
import type { Mailer } from './platform/mail/outbox';
import type { Metrics } from './platform/metrics';

/** What routes and services are given: configuration, the database and the key material. */
export interface AppContext {
  config: Config;
  db: Db;
  dialect: Dialect;
  /** The one write path: transactions, and the group commit that batchable work joins. */
  uow: UnitOfWork;
  master: MasterKey;
  keyring: RsaKeyring;
  seals: SealOpener;
  clicks: ClickBuffer;
  links: LinkCache;
  visitors: VisitorHasher;
  /** Which webhook endpoints take which events (cached briefly). */
  webhooks: WebhookSubscribers;
  /** E-mail: renders and seals mails for the outbox; off when SMTP_URL is unset. */
  mail: Mailer;
  /** What /metrics reports: this instance's own registry (platform/metrics.ts). */
  metrics: Metrics;
}
