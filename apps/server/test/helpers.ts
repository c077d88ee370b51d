/**
 * Test harness: builds the real app on a real database (SQLite in memory, or a fresh PostgreSQL
 * schema that is dropped afterwards) and talks to it through inject() like the browser would:
 * cookie jar, X-CSRF-Token, Content-Digest and RSA-OAEP sealed secrets.
 */
import { dayKey } from '../src/platform/time';
import { constants, createHash, createPublicKey, publicEncrypt, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp, type BuildOptions } from '../src/app';
import { createContext } from '../src/bootstrap';
import { loadConfig, type Config } from '../src/config';
import type { AppContext } from '../src/context';
import { Migrator } from 'kysely';
import { openDatabase, type DatabaseHandle } from '../src/db/connection';
import { migrationProvider } from '../src/db/migrations/index';
import type { Dialect } from '../src/db/types';
import { MasterKey } from '../src/platform/crypto/master-key';

export const PG_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** SQLite always; PostgreSQL when reachable. In CI an unreachable PostgreSQL is a failure, not a skip. */
export const DIALECTS: Dialect[] = (await postgresReachable())
  ? ['sqlite', 'postgres']
  : process.env.CI
    ? (() => { throw new Error(`PostgreSQL is not reachable at ${PG_URL}; CI must test both databases.`); })()
    : ['sqlite'];

async function adminQuery(text: string) {
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  try {
    await admin.query(text);
  } finally {
    await admin.end();
  }
}

/** A new PostgreSQL schema of a random name (each suite its own; `dropSchema` removes it). */
export async function createSchema(): Promise<string> {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  await adminQuery(`create schema ${schema}`);
  return schema;
}

export const dropSchema = (schema: string) => adminQuery(`drop schema ${schema} cascade`);

/**
 * An empty database of its own, not migrated (PostgreSQL: a new schema; SQLite: a file in a
 * temporary folder), for tests that migrate it themselves; `drop` closes and removes it.
 */
export async function freshDatabase(dialect: Dialect): Promise<{ handle: DatabaseHandle; drop(): Promise<void> }> {
  if (dialect === 'postgres') {
    const schema = await createSchema();
    const handle = await openDatabase({ databaseUrl: PG_URL, pgSchema: schema, pgPoolSize: 2 });
    return { handle, drop: async () => { await handle.close(); await dropSchema(schema); } };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pa-fresh-'));
  const handle = await openDatabase({ databaseUrl: null, sqlitePath: path.join(dir, 'test.db') });
  return { handle, drop: async () => { await handle.close(); fs.rmSync(dir, { recursive: true, force: true }); } };
}

/** Migrates a database up to the migration `name` (inclusive); the results of each step. */
export async function migrateTo(handle: DatabaseHandle, name: string, timeZone: string) {
  const migrator = new Migrator({ db: handle.db, provider: migrationProvider(handle.dialect, timeZone), ...(handle.schema ? { migrationTableSchema: handle.schema } : {}) });
  const { error, results } = await migrator.migrateTo(name);
  if (error) throw error;
  return results ?? [];
}

export interface TestEnv {
  app: FastifyInstance;
  ctx: AppContext;
  dialect: Dialect;
  config: Config;
  /** The database handle the app runs on (for tests that migrate it). */
  handle: DatabaseHandle;
  close(): Promise<void>;
  /** Builds a second app on the same database (a restart, or another instance). */
  restart(options?: BuildOptions): Promise<{ app: FastifyInstance; ctx: AppContext; close(): Promise<void> }>;
}

export async function makeEnv(dialect: Dialect, overrides: Partial<Config> = {}, buildOptions: BuildOptions = {}): Promise<TestEnv> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pa-test-'));
  const config: Config = { ...loadConfig({}), dataDir, webDist: path.join(dataDir, 'no-web'), authRateLimitPerMinute: 10_000, ...overrides };
  const master = MasterKey.fromBytes(randomBytes(32));
  let schema: string | undefined;
  let dbOptions;
  if (dialect === 'postgres') {
    schema = await createSchema();
    dbOptions = { databaseUrl: PG_URL, pgSchema: schema, pgPoolSize: 5 };
  } else {
    dbOptions = { databaseUrl: null, sqlitePath: path.join(dataDir, 'test.db') };
  }
  const { ctx, handle } = await createContext({ ...config, databaseUrl: dialect === 'postgres' ? PG_URL : null }, dbOptions, master);
  const app = await buildApp(ctx, buildOptions);
  const others: (() => Promise<void>)[] = [];
  return {
    app, ctx, dialect, config, handle,
    async restart(options = {}) {
      const second = await createContext({ ...config, databaseUrl: dialect === 'postgres' ? PG_URL : null }, dbOptions, master);
      const app2 = await buildApp(second.ctx, options);
      const close = async () => { await app2.close(); await second.handle.close(); };
      others.push(close);
      return { app: app2, ctx: second.ctx, close };
    },
    async close() {
      for (const close of others) await close().catch(() => undefined);
      await app.close();
      await handle.close();
      if (schema) await dropSchema(schema);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export const digestOf = (body: string | Buffer) => `sha-256=:${createHash('sha256').update(body).digest('base64')}:`;

export interface PublicKeyInfo { keyId: string; spki: string }

/** Seals like the browser: RSA-OAEP-SHA256 over {"v","ts","nonce"}. */
export function seal(key: PublicKeyInfo, secret: string, ts = Date.now(), nonce = randomBytes(16).toString('base64')) {
  const publicKey = createPublicKey({ key: Buffer.from(key.spki, 'base64'), format: 'der', type: 'spki' });
  const ciphertext = publicEncrypt(
    { key: publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
    Buffer.from(JSON.stringify({ v: secret, ts, nonce })),
  ).toString('base64');
  return { keyId: key.keyId, ciphertext };
}

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT';

/** A browser-like client with a cookie jar. */
export class Client {
  cookies = new Map<string, string>();
  key: PublicKeyInfo | null = null;
  constructor(
    private readonly app: FastifyInstance,
    private readonly options: { locale?: string; ip?: string; userAgent?: string } = {},
  ) {}

  cookieHeader() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async request(method: Method, url: string, body?: unknown, extra: { headers?: Record<string, string>; rawBody?: string; noCsrf?: boolean; noDigest?: boolean } = {}) {
    if (method !== 'GET' && !this.cookies.has('pa_csrf') && !extra.noCsrf) await this.request('GET', '/api/health');
    const payload = extra.rawBody ?? (body === undefined ? undefined : JSON.stringify(body));
    const headers: Record<string, string> = {
      'accept-language': this.options.locale ?? 'en',
      'user-agent': this.options.userAgent ?? 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Mobile Safari/537.36',
      ...(this.cookies.size ? { cookie: this.cookieHeader() } : {}),
      ...(method !== 'GET' && !extra.noCsrf && this.cookies.get('pa_csrf') ? { 'x-csrf-token': this.cookies.get('pa_csrf')! } : {}),
      ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(payload !== undefined && !extra.noDigest ? { 'content-digest': digestOf(payload) } : {}),
      ...extra.headers,
    };
    const res = await this.app.inject({ method, url, headers, payload, remoteAddress: this.options.ip ?? '127.0.0.1' });
    this.absorb(res);
    return res;
  }

  absorb(res: LightMyRequestResponse) {
    for (const c of res.cookies) {
      const expired = c.maxAge === 0 || (c.expires && c.expires.getTime() < Date.now());
      if (expired || c.value === '') this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
  }

  /** Sends raw bytes (an image upload) with its digest and the CSRF header. */
  async upload(url: string, bytes: Buffer, contentType: string) {
    if (!this.cookies.has('pa_csrf')) await this.request('GET', '/api/health');
    const res = await this.app.inject({
      method: 'POST',
      url,
      payload: bytes,
      headers: { cookie: this.cookieHeader(), 'x-csrf-token': this.cookies.get('pa_csrf')!, 'content-type': contentType, 'content-digest': digestOf(bytes), 'accept-language': this.options.locale ?? 'en' },
      remoteAddress: this.options.ip ?? '127.0.0.1',
    });
    this.absorb(res);
    return res;
  }

  async publicKey(): Promise<PublicKeyInfo> {
    if (!this.key) this.key = (await this.request('GET', '/api/auth/public-key')).json();
    return this.key!;
  }

  async seal(secret: string) {
    return seal(await this.publicKey(), secret);
  }

  async register(input: { account: string; displayName?: string; password: string; inviteCode?: string }) {
    return this.request('POST', '/api/auth/register', {
      account: input.account,
      displayName: input.displayName ?? 'Test Person',
      password: await this.seal(input.password),
      ...(input.inviteCode ? { inviteCode: input.inviteCode } : {}),
    });
  }

  async login(account: string, password: string) {
    return this.request('POST', '/api/auth/login', { account, password: await this.seal(password) });
  }
}

export function errorCode(res: LightMyRequestResponse): string | undefined {
  try {
    return res.json().error?.code;
  } catch {
    return undefined;
  }
}

let counter = 0;
export const uniqueAccount = (prefix = 'user') => `${prefix}${Date.now().toString(36)}${counter++}@example.com`;

/** Creates a user directly (staff accounts are never self-registered). */
export async function createUser(ctx: AppContext, role: 'promoter' | 'operator' | 'admin', password = 'Passw0rd-test', status: 'active' | 'pending' = 'active') {
  const { insertUser } = await import('../src/modules/users/repository');
  const { hashPassword } = await import('../src/platform/crypto/password');
  const account = uniqueAccount(role);
  const id = await insertUser(ctx.db, { account, displayName: `${role} person`, passwordHash: await hashPassword(password), role, status, locale: 'en', parentId: null });
  return { id, account, password };
}

/** A real, minimal PNG of the given size (one grey colour), for upload tests. */
export function makePng(width: number, height: number): Buffer {
  const { crc32, deflateSync } = zlib;
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body) >>> 0);
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  const raw = Buffer.alloc((width + 1) * height, 0x80);
  for (let y = 0; y < height; y++) raw[y * (width + 1)] = 0;
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

/** Signs in a client as a fresh user of the given role. */
export async function signedIn(env: TestEnv, role: 'promoter' | 'operator' | 'admin', options: ConstructorParameters<typeof Client>[1] = {}) {
  const user = await createUser(env.ctx, role);
  const client = new Client(env.app, options);
  const res = await client.login(user.account, user.password);
  if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.body}`);
  return { client, user };
}

/** A valid campaign body for POST api/admin/campaigns. */
export const campaignBody = (overrides: Record<string, unknown> = {}) => ({
  names: { en: 'Summer Tea', 'zh-Hans': '夏日茶饮' },
  descriptions: { en: 'Cold brew for hot days.', 'zh-Hans': '炎炎夏日的冷泡茶。' },
  landingUrl: 'https://shop.example.com/tea',
  allowedHosts: ['m.example.com'],
  saleRewardType: 'bps',
  saleReward: 1000,
  leadReward: 200,
  shareTexts: { en: 'Try {name}: {link} (code {code})', 'zh-Hans': '{name} 推荐：{link}' },
  ...overrides,
});

/**
 * An instant `ms` before now but never before the start of today in `timeZone` (found by stepping back
 * a minute at a time at most `ms`): events a test files under "today" stay today whenever the suite runs.
 * CI once ran the figures tests two minutes after midnight in UTC+8 and a lead "two minutes ago" fell on yesterday.
 */
export function agoToday(ms: number, timeZone: string): number {
  const now = Date.now();
  const today = dayKey(now, timeZone);
  if (dayKey(now - ms, timeZone) === today) return now - ms;
  let at = now - (now % 60_000);
  while (dayKey(at - 60_000, timeZone) === today) at -= 60_000;
  return at;
}

/**
 * A local HTTP peer that answers every request with `status` (a webhook receiver that has gone away,
 * say): its address, and close() to stop it.
 */
export async function answeringWith(status: number): Promise<{ url: (path: string) => string; close(): Promise<void> }> {
  const server = http.createServer((_req, res) => {
    res.statusCode = status;
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return { url: (path) => `http://127.0.0.1:${port}${path}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
