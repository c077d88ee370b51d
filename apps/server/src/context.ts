import type BetterSqlite3 from 'better-sqlite3';
import type { Config } from './config';
import type { Db, Dialect } from './db/types';
import type { MasterKey } from './platform/crypto/master-key';
import type { RsaKeyring } from './platform/crypto/rsa-keys';
import type { SealOpener } from './platform/crypto/sealed';
import type { ClickBuffer } from './platform/click-buffer';
import type { LinkCache } from './platform/link-cache';
import type { VisitorHasher } from './platform/visitor';

/** What routes and services are given: configuration, the database and the key material. */
export interface AppContext {
  config: Config;
  db: Db;
  dialect: Dialect;
  /** The SQLite connection itself (SQLite only), for the prepared-statement write paths. */
  sqlite?: BetterSqlite3.Database;
  master: MasterKey;
  keyring: RsaKeyring;
  seals: SealOpener;
  clicks: ClickBuffer;
  links: LinkCache;
  visitors: VisitorHasher;
}
