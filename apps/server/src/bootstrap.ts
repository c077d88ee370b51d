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

export async function createContext(config: Config, dbOptions?: Partial<OpenOptions>, master?: MasterKey): Promise<{ ctx: AppContext; handle: DatabaseHandle }> {
  const handle = await openDatabase({
    databaseUrl: config.databaseUrl,
    sqlitePath: sqliteFile(config.dataDir),
    ...dbOptions,
  });
  await migrateToLatest(handle, config.timeZone);
  const masterKey = master ?? MasterKey.load({ appSecret: config.appSecret, dataDir: config.dataDir });
  const keyring = new RsaKeyring(handle.db, masterKey);
  await keyring.current();
  const uow = new UnitOfWork(handle.db, handle.dialect, { isItemError: (error) => error instanceof AppError, readsFirst: handle.dialect === 'postgres' });
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
  };
  await primeZone(ctx);
  return { ctx, handle };
}
