import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config';

describe('the installation time zone', () => {
  it('is TIME_ZONE, else the process TZ, else UTC', () => {
    expect(loadConfig({ TIME_ZONE: 'Asia/Shanghai', TZ: 'Europe/Paris' }).timeZone).toBe('Asia/Shanghai');
    expect(loadConfig({ TZ: 'Europe/Paris' }).timeZone).toBe('Europe/Paris');
    expect(loadConfig({ TIME_ZONE: '  ', TZ: 'America/New_York' }).timeZone).toBe('America/New_York');
    expect(loadConfig({}).timeZone).toBe('UTC');
  });

  it('refuses a name that is not an IANA zone, naming the variable it came from', () => {
    expect(() => loadConfig({ TIME_ZONE: 'Mars/Olympus' })).toThrow(ConfigError);
    expect(() => loadConfig({ TIME_ZONE: 'Mars/Olympus' })).toThrow(/TIME_ZONE must be an IANA time zone/);
    expect(() => loadConfig({ TZ: 'nowhere' })).toThrow(/^TZ must be an IANA time zone/);
  });
});

describe('limits on slow clients and connections', () => {
  it('defaults to 30 s for a whole request, 10 s for its headers, and half the open-file limit (at most 10,000) for connections', () => {
    const config = loadConfig({}, 20_000);
    expect(config.requestTimeoutMs).toBe(30_000);
    expect(config.headersTimeoutMs).toBe(10_000);
    expect(config.maxConnections).toBe(10_000);
    expect(loadConfig({}, 1024).maxConnections).toBe(512);
    expect(loadConfig({}, null).maxConnections).toBe(10_000);
    expect(loadConfig({ REQUEST_TIMEOUT: '5', HEADERS_TIMEOUT: '2', MAX_CONNECTIONS: '100' }, 1024)).toMatchObject({ requestTimeoutMs: 5000, headersTimeoutMs: 2000, maxConnections: 100 });
    expect(loadConfig({ REQUEST_TIMEOUT: '5' }, 1024).headersTimeoutMs).toBe(5000);
  });

  it('refuses headers slower than the whole request, and a connection bound at the open-file limit', () => {
    expect(() => loadConfig({ REQUEST_TIMEOUT: '5', HEADERS_TIMEOUT: '10' })).toThrow(/HEADERS_TIMEOUT \(10\) must not be longer than REQUEST_TIMEOUT \(5\)/);
    expect(() => loadConfig({ MAX_CONNECTIONS: '1024' }, 1024)).toThrow(/MAX_CONNECTIONS \(1024\) must stay under the open-file limit \(1024/);
    expect(() => loadConfig({ REQUEST_TIMEOUT: '0' })).toThrow(/REQUEST_TIMEOUT must be a whole number from 1 to 3600/);
  });

  it('one address gets 256 connections, or half of MAX_CONNECTIONS when that is smaller, and always fewer than MAX_CONNECTIONS', () => {
    expect(loadConfig({}, 20_000).maxConnectionsPerAddress).toBe(256);
    expect(loadConfig({ MAX_CONNECTIONS: '100' }, 20_000).maxConnectionsPerAddress).toBe(50);
    expect(loadConfig({ MAX_CONNECTIONS: '3' }, 20_000).maxConnectionsPerAddress).toBe(1);
    expect(loadConfig({ MAX_CONNECTIONS_PER_ADDRESS: '1000' }, 20_000).maxConnectionsPerAddress).toBe(1000);
    expect(() => loadConfig({ MAX_CONNECTIONS: '100', MAX_CONNECTIONS_PER_ADDRESS: '100' }, 20_000)).toThrow(/MAX_CONNECTIONS_PER_ADDRESS \(100\) must be smaller than MAX_CONNECTIONS \(100\), so that one client address cannot take every connection/);
    expect(() => loadConfig({ MAX_CONNECTIONS_PER_ADDRESS: '0' })).toThrow(/MAX_CONNECTIONS_PER_ADDRESS must be a whole number from 1 to 1000000; got "0"/);
    expect(() => loadConfig({ MAX_CONNECTIONS_PER_ADDRESS: 'many' })).toThrow(/MAX_CONNECTIONS_PER_ADDRESS must be a whole number/);
  });

  it('refuses a TRUST_PROXY list entry that is not an address or subnet, naming it', () => {
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8, loopback' }).trustProxy).toBe('127.0.0.1, 10.0.0.0/8, loopback');
    expect(() => loadConfig({ TRUST_PROXY: '127.0.0.1, proxy.internal' })).toThrow(/TRUST_PROXY must be .*"proxy.internal" is not an address/);
  });
});

describe('e-mail', () => {
  const ok = { SMTP_URL: 'smtp://u:p@mail.example.com:587', MAIL_FROM: 'Acme <partners@acme.example>', PUBLIC_URL: 'https://promo.example.com/app?x=1#/home' };
  it('is off without SMTP_URL; with it, MAIL_FROM and PUBLIC_URL (normalized to a folder) and APP_NAME', () => {
    expect(loadConfig({}).mail).toBeNull();
    expect(loadConfig({ MAIL_FROM: 'a@b.example' }).mail).toBeNull();
    expect(loadConfig(ok).mail).toEqual({ smtpUrl: ok.SMTP_URL, from: ok.MAIL_FROM, publicUrl: 'https://promo.example.com/app/', appName: null });
    expect(loadConfig({ ...ok, MAIL_FROM: 'partners@acme.example', APP_NAME: 'Acme Partners' }).mail).toMatchObject({ from: 'partners@acme.example', appName: 'Acme Partners' });
  });
  it('refuses a bad SMTP_URL, a missing sender or public address, saying which', () => {
    expect(() => loadConfig({ ...ok, SMTP_URL: 'http://mail.example.com' })).toThrow(/SMTP_URL must start with smtp:\/\/ or smtps:\/\//);
    expect(() => loadConfig({ ...ok, SMTP_URL: 'not a url' })).toThrow(/SMTP_URL must be an address/);
    expect(() => loadConfig({ ...ok, MAIL_FROM: '' })).toThrow(/MAIL_FROM must be an address/);
    expect(() => loadConfig({ ...ok, MAIL_FROM: 'Acme <nope>' })).toThrow(/MAIL_FROM must be an address/);
    expect(() => loadConfig({ ...ok, PUBLIC_URL: '' })).toThrow(/PUBLIC_URL must be the app's address/);
    expect(() => loadConfig({ ...ok, PUBLIC_URL: 'ftp://promo.example.com' })).toThrow(/PUBLIC_URL must start with https:\/\/ or http:\/\//);
  });
});

describe('metrics, the statement timeout and the scheduled ledger check', () => {
  const token = '0123456789abcdef0123456789abcdef';
  it('/metrics is off unless METRICS_TOKEN or METRICS_PORT is set; a separate listener is on 127.0.0.1 unless METRICS_HOST says otherwise', () => {
    expect(loadConfig({}).metrics).toBeNull();
    expect(loadConfig({ METRICS_TOKEN: token }).metrics).toEqual({ token, listener: null });
    expect(loadConfig({ METRICS_PORT: '9464' }).metrics).toEqual({ token: null, listener: { host: '127.0.0.1', port: 9464 } });
    expect(loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '10.0.0.5', METRICS_TOKEN: token }).metrics).toEqual({ token, listener: { host: '10.0.0.5', port: 9464 } });
  });
  it('refuses a short or spaced token, a host without a port, a bad port or the main port, saying which', () => {
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN must be at least 16 printable characters without spaces/);
    expect(() => loadConfig({ METRICS_TOKEN: 'sixteen chars with spaces' })).toThrow(/METRICS_TOKEN must be at least 16/);
    expect(() => loadConfig({ METRICS_HOST: '0.0.0.0' })).toThrow(/METRICS_HOST needs METRICS_PORT/);
    expect(() => loadConfig({ METRICS_PORT: 'x' })).toThrow(/METRICS_PORT must be a whole number from 1 to 65535; got "x"/);
    expect(() => loadConfig({ METRICS_PORT: '0' })).toThrow(/METRICS_PORT must be a whole number from 1 to 65535/);
    expect(() => loadConfig({ PORT: '8080', METRICS_PORT: '8080' })).toThrow(/METRICS_PORT \(8080\) must differ from PORT/);
  });
  it('DATABASE_STATEMENT_TIMEOUT is 10 s by default, 0 for none; LEDGER_CHECK_INTERVAL is off by default, in hours up to a week', () => {
    expect(loadConfig({}).statementTimeoutMs).toBe(10_000);
    expect(loadConfig({ DATABASE_STATEMENT_TIMEOUT: '30' }).statementTimeoutMs).toBe(30_000);
    expect(loadConfig({ DATABASE_STATEMENT_TIMEOUT: '0' }).statementTimeoutMs).toBe(0);
    expect(() => loadConfig({ DATABASE_STATEMENT_TIMEOUT: '1.5' })).toThrow(/DATABASE_STATEMENT_TIMEOUT must be a whole number from 0 to 86400; got "1.5"/);
    expect(loadConfig({}).ledgerCheckIntervalMs).toBe(0);
    expect(loadConfig({ LEDGER_CHECK_INTERVAL: '24' }).ledgerCheckIntervalMs).toBe(86_400_000);
    expect(() => loadConfig({ LEDGER_CHECK_INTERVAL: '169' })).toThrow(/LEDGER_CHECK_INTERVAL must be a whole number from 0 to 168/);
  });
});
