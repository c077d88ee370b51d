/** Environment parsed and checked once at start; a bad value stops the process with a sentence. */
import fs from 'node:fs';
import path from 'node:path';
import { parseProxyList } from './platform/connection-limit';
import type { MailConfig } from './platform/mail/send';

export interface Config {
  port: number;
  host: string;
  databaseUrl: string | null;
  dataDir: string;
  webDist: string;
  trustProxy: boolean | number | string;
  cookieSecure: boolean | 'auto';
  cookiePath: string;
  logLevel: string;
  authRateLimitPerMinute: number;
  appSecret: string | null;
  /** Day boundaries for the per-day figures: TIME_ZONE, else TZ, else UTC. */
  timeZone: string;
  /** Longest time to receive a whole request, headers and body (REQUEST_TIMEOUT, seconds → ms). */
  requestTimeoutMs: number;
  /** Longest time to receive a request's headers (HEADERS_TIMEOUT, seconds → ms); at most requestTimeoutMs. */
  headersTimeoutMs: number;
  /** Open connections beyond this are refused at once (MAX_CONNECTIONS). */
  maxConnections: number;
  /**
   * Open connections from one client address (an IPv6 /64) beyond this are refused at once
   * (MAX_CONNECTIONS_PER_ADDRESS), below maxConnections so that one client cannot take them all;
   * trusted proxies (TRUST_PROXY) are exempt.
   */
  maxConnectionsPerAddress: number;
  /** WEBHOOK_ALLOW_PRIVATE=true: webhooks may go to loopback and private addresses, over plain http too (development, tests). */
  webhookAllowPrivate: boolean;
  /** E-mail (issue 16): all null when SMTP_URL is unset, and then no mail is written or sent. */
  mail: MailConfig | null;
  /**
   * `GET /metrics` (Prometheus): off (null) unless METRICS_TOKEN is set (then asked for as a bearer
   * token) or METRICS_PORT puts it on a listener of its own (on METRICS_HOST, default 127.0.0.1).
   */
  metrics: MetricsConfig | null;
  /**
   * PostgreSQL: longest a statement may run (DATABASE_STATEMENT_TIMEOUT, seconds → ms; 0: no limit),
   * enforced by the server and, a little later, by the client (a database that does not answer).
   */
  statementTimeoutMs: number;
  /** How often the server runs the ledger check itself (LEDGER_CHECK_INTERVAL, hours → ms; 0: never). */
  ledgerCheckIntervalMs: number;
  version: string;
}

interface MetricsConfig {
  /** Asked for as `Authorization: Bearer <token>` wherever /metrics is served (null: none asked). */
  token: string | null;
  /** A listener of its own for /metrics (null: on the main one, which then needs the token). */
  listener: { host: string; port: number } | null;
}


export type { MailConfig };

export class ConfigError extends Error {}

/**
 * The version the build stamped into the compiled server (scripts/build-server.mjs); run from the
 * sources through npm, npm_package_version says it.
 */
declare const PA_BUILD_VERSION: string | undefined;
const builtVersion = typeof PA_BUILD_VERSION === 'string' ? PA_BUILD_VERSION : undefined;

/** `true` or `false` (unset or empty: false). */
function bool(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = env[name]?.trim() ?? '';
  if (raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  throw new ConfigError(`${name} must be true or false; got "${raw}".`);
}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}; got "${raw}".`);
  }
  return value;
}

/**
 * The process's open-file limit (Linux: /proc/self/limits; Node raises the soft limit to the hard
 * one at start), or null where it cannot be read.
 */
export function openFileLimit(): number | null {
  try {
    const line = fs.readFileSync('/proc/self/limits', 'utf8').split('\n').find((l) => l.startsWith('Max open files'));
    const soft = line?.slice('Max open files'.length).trim().split(/\s+/)[0];
    return soft && /^\d+$/.test(soft) ? Number(soft) : null;
  } catch {
    return null;
  }
}

/**
 * Connections are capped well under the open-file limit (half of it, at most 10,000), so that
 * clients holding connections open can never use up the descriptors the database, log and the
 * health check need.
 */
function defaultMaxConnections(fileLimit: number | null) {
  return Math.max(64, Math.min(10_000, Math.floor((fileLimit ?? 20_000) / 2)));
}

/** SMTP_URL, MAIL_FROM, PUBLIC_URL (and APP_NAME): SMTP_URL unset means no e-mail; set, the other two are needed. */
function mailConfig(env: NodeJS.ProcessEnv): MailConfig | null {
  const smtpUrl = env.SMTP_URL?.trim() || '';
  if (!smtpUrl) return null;
  let smtp: URL;
  try {
    smtp = new URL(smtpUrl);
  } catch {
    throw new ConfigError('SMTP_URL must be an address such as smtp://user:password@mail.example.com:587.');
  }
  if (smtp.protocol !== 'smtp:' && smtp.protocol !== 'smtps:') throw new ConfigError(`SMTP_URL must start with smtp:// or smtps://; got "${smtp.protocol}//".`);
  if (!smtp.hostname) throw new ConfigError('SMTP_URL must name the mail server.');
  const from = env.MAIL_FROM?.trim() || '';
  if (!/^[^<>]*<[^<>@\s]+@[^<>@\s]+>$|^[^<>@\s]+@[^<>@\s]+$/.test(from)) {
    throw new ConfigError(`MAIL_FROM must be an address, alone or as "Name <address>" (needed with SMTP_URL); got "${from}".`);
  }
  const publicUrl = env.PUBLIC_URL?.trim() || '';
  let pub: URL;
  try {
    pub = new URL(publicUrl);
  } catch {
    throw new ConfigError(`PUBLIC_URL must be the app's address as people reach it, such as https://partners.example.com/ (needed with SMTP_URL); got "${publicUrl}".`);
  }
  if (pub.protocol !== 'https:' && pub.protocol !== 'http:') throw new ConfigError('PUBLIC_URL must start with https:// or http://.');
  return { smtpUrl, from, publicUrl: pub.href.replace(/[?#].*$/, '').replace(/\/*$/, '/'), appName: env.APP_NAME?.trim() || null };
}

/** METRICS_TOKEN, METRICS_HOST and METRICS_PORT: null (no /metrics) when neither a token nor a port is set. */
function metricsConfig(env: NodeJS.ProcessEnv, mainPort: number): MetricsConfig | null {
  const token = env.METRICS_TOKEN?.trim() || null;
  if (token !== null && !/^[\x21-\x7e]{16,}$/.test(token)) {
    throw new ConfigError('METRICS_TOKEN must be at least 16 printable characters without spaces (make one with: openssl rand -hex 32).');
  }
  const host = env.METRICS_HOST?.trim() || null;
  const portRaw = env.METRICS_PORT?.trim() || '';
  if (host !== null && portRaw === '') throw new ConfigError('METRICS_HOST needs METRICS_PORT: the port of the separate listener for /metrics.');
  const port = portRaw === '' ? null : int(env, 'METRICS_PORT', 0, 1, 65535);
  if (port !== null && port === mainPort) throw new ConfigError(`METRICS_PORT (${port}) must differ from PORT: it is a listener of its own for /metrics.`);
  if (token === null && port === null) return null;
  return { token, listener: port === null ? null : { host: host ?? '127.0.0.1', port } };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, fileLimit: number | null = openFileLimit()): Config {
  const databaseUrl = env.DATABASE_URL?.trim() || null;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must start with postgres:// or postgresql:// (leave it unset for the embedded SQLite database).');
  }
  const trustRaw = env.TRUST_PROXY?.trim() ?? '';
  let trustProxy: Config['trustProxy'] = false;
  if (trustRaw === 'true') trustProxy = true;
  else if (/^\d+$/.test(trustRaw)) trustProxy = Number(trustRaw);
  else if (trustRaw && trustRaw !== 'false') {
    trustProxy = trustRaw; // address list, e.g. "127.0.0.1,10.0.0.0/8"
    try {
      parseProxyList(trustRaw);
    } catch (error) {
      throw new ConfigError(`TRUST_PROXY must be true, false, a hop count, or addresses and subnets of trusted proxies separated by commas: ${(error as Error).message}.`);
    }
  }
  const cookieSecureRaw = (env.COOKIE_SECURE ?? 'auto').trim();
  if (!['auto', 'true', 'false'].includes(cookieSecureRaw)) {
    throw new ConfigError(`COOKIE_SECURE must be auto, true or false; got "${cookieSecureRaw}".`);
  }
  const cookiePath = env.COOKIE_PATH?.trim() || '/';
  if (!cookiePath.startsWith('/')) throw new ConfigError(`COOKIE_PATH must start with "/"; got "${cookiePath}".`);
  const appSecret = env.APP_SECRET?.trim() || null;
  if (appSecret && Buffer.from(appSecret, 'base64').length !== 32) {
    throw new ConfigError('APP_SECRET must be 32 bytes in base64 (make one with: openssl rand -base64 32).');
  }
  const logLevel = env.LOG_LEVEL?.trim() || 'info';
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent; got "${logLevel}".`);
  }
  // The installation's time zone: TIME_ZONE, else the process's TZ, else UTC.
  const zoneVar = env.TIME_ZONE?.trim() ? 'TIME_ZONE' : 'TZ';
  const timeZone = env.TIME_ZONE?.trim() || env.TZ?.trim() || 'UTC';
  try {
    new Intl.DateTimeFormat('en', { timeZone });
  } catch {
    throw new ConfigError(`${zoneVar} must be an IANA time zone such as Asia/Shanghai or UTC; got "${timeZone}".`);
  }
  // Slow senders: a request (headers and body) must arrive within REQUEST_TIMEOUT, its headers
  // within HEADERS_TIMEOUT; otherwise the connection is answered 408 and closed.
  const requestTimeout = int(env, 'REQUEST_TIMEOUT', 30, 1, 3600);
  const headersTimeout = int(env, 'HEADERS_TIMEOUT', Math.min(10, requestTimeout), 1, 3600);
  if (headersTimeout > requestTimeout) {
    throw new ConfigError(`HEADERS_TIMEOUT (${headersTimeout}) must not be longer than REQUEST_TIMEOUT (${requestTimeout}).`);
  }
  const maxConnections = int(env, 'MAX_CONNECTIONS', defaultMaxConnections(fileLimit), 1, 1_000_000);
  if (fileLimit !== null && maxConnections > fileLimit - 32) {
    throw new ConfigError(`MAX_CONNECTIONS (${maxConnections}) must stay under the open-file limit (${fileLimit}, see ulimit -n) with room for the database and logs.`);
  }
  // One address may hold at most 256 connections (half of MAX_CONNECTIONS when that is below 512),
  // so that one client can never take every connection (api/health included).
  const maxConnectionsPerAddress = int(env, 'MAX_CONNECTIONS_PER_ADDRESS', Math.max(1, Math.min(256, Math.floor(maxConnections / 2))), 1, 1_000_000);
  if (maxConnectionsPerAddress >= maxConnections && maxConnections > 1) {
    throw new ConfigError(`MAX_CONNECTIONS_PER_ADDRESS (${maxConnectionsPerAddress}) must be smaller than MAX_CONNECTIONS (${maxConnections}), so that one client address cannot take every connection.`);
  }
  const port = int(env, 'PORT', 3000, 0, 65535);
  return {
    timeZone,
    requestTimeoutMs: requestTimeout * 1000,
    headersTimeoutMs: headersTimeout * 1000,
    maxConnections,
    maxConnectionsPerAddress,
    port,
    host: env.HOST?.trim() || '0.0.0.0',
    databaseUrl,
    dataDir: path.resolve(env.DATA_DIR?.trim() || 'data'),
    webDist: path.resolve(env.WEB_DIST?.trim() || 'apps/web/dist'),
    trustProxy,
    cookieSecure: cookieSecureRaw === 'auto' ? 'auto' : cookieSecureRaw === 'true',
    cookiePath,
    logLevel,
    authRateLimitPerMinute: int(env, 'AUTH_RATE_LIMIT', 20, 1, 100000),
    appSecret,
    webhookAllowPrivate: bool(env, 'WEBHOOK_ALLOW_PRIVATE'),
    mail: mailConfig(env),
    metrics: metricsConfig(env, port),
    statementTimeoutMs: int(env, 'DATABASE_STATEMENT_TIMEOUT', 10, 0, 86_400) * 1000,
    ledgerCheckIntervalMs: int(env, 'LEDGER_CHECK_INTERVAL', 0, 0, 168) * 3_600_000,
    version: env.npm_package_version || builtVersion || '0.0.0',
  };
}
