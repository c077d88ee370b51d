/** Environment parsed and checked once at start; a bad value stops the process with a sentence. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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
  version: string;
}

export class ConfigError extends Error {}

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}; got "${raw}".`);
  }
  return value;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const databaseUrl = env.DATABASE_URL?.trim() || null;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must start with postgres:// or postgresql:// (leave it unset for the embedded SQLite database).');
  }
  const trustRaw = env.TRUST_PROXY?.trim() ?? '';
  let trustProxy: Config['trustProxy'] = false;
  if (trustRaw === 'true') trustProxy = true;
  else if (/^\d+$/.test(trustRaw)) trustProxy = Number(trustRaw);
  else if (trustRaw && trustRaw !== 'false') trustProxy = trustRaw; // address list, e.g. "127.0.0.1,10.0.0.0/8"
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
  return {
    timeZone,
    port: int(env, 'PORT', 3000, 0, 65535),
    host: env.HOST?.trim() || '0.0.0.0',
    databaseUrl,
    dataDir: path.resolve(env.DATA_DIR?.trim() || path.join(repoRoot, 'data')),
    webDist: path.resolve(env.WEB_DIST?.trim() || path.join(repoRoot, 'apps/web/dist')),
    trustProxy,
    cookieSecure: cookieSecureRaw === 'auto' ? 'auto' : cookieSecureRaw === 'true',
    cookiePath,
    logLevel,
    authRateLimitPerMinute: int(env, 'AUTH_RATE_LIMIT', 20, 1, 100000),
    appSecret,
    version: env.npm_package_version || '0.1.0',
  };
}
