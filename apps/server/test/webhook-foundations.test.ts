/**
 * Issue 16's foundations: webhook signatures as the Standard Webhooks libraries verify them (the
 * `standardwebhooks` package, the reference implementation), and the outbound address policy
 * (no server-side request forgery) on real sockets.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressAllowed, classifyAddress, ForbiddenAddressError, guardedLookup, urlProblem } from '../src/platform/outbound-address';
import { newWebhookSecret, webhookHeaders } from '../src/platform/webhooks/signing';

describe('webhook signatures (Standard Webhooks)', () => {
  const body = JSON.stringify({ type: 'commission.approved', timestamp: '2026-11-25T03:00:00.000Z', data: { id: 'c1', amount: 1250, note: 'é – 中文' } });
  const now = () => Math.floor(Date.now() / 1000);

  it('a new secret is whsec_ and 32 random bytes in base64, never the same twice', () => {
    const a = newWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(a.slice(6), 'base64')).toHaveLength(32);
    expect(newWebhookSecret()).not.toBe(a);
  });

  it('verifies with the reference library; a changed body, id, timestamp or secret does not', () => {
    const secret = newWebhookSecret();
    const headers = webhookHeaders([secret], 'msg_01', now(), body);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(secret).verify(body.replace('1250', '1251'), headers)).toThrow();
    expect(() => new Webhook(secret).verify(body, { ...headers, 'webhook-id': 'msg_02' })).toThrow();
    expect(() => new Webhook(secret).verify(body, { ...headers, 'webhook-timestamp': String(now() - 1) })).toThrow();
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow();
  });

  it('during a rotation both secrets verify (one signature each in the header)', () => {
    const [old, fresh] = [newWebhookSecret(), newWebhookSecret()];
    const headers = webhookHeaders([fresh, old], 'msg_03', now(), body);
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(new Webhook(old).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(fresh).verify(body, headers)).toEqual(JSON.parse(body));
  });
});

describe('outbound addresses (no server-side request forgery)', () => {
  it('classifies loopback, private, link-local, mapped and public addresses', () => {
    const cases: [string, string][] = [
      ['127.0.0.1', 'private'], ['127.9.9.9', 'private'], ['10.1.2.3', 'private'], ['172.16.0.1', 'private'], ['172.31.255.255', 'private'],
      ['192.168.1.1', 'private'], ['100.64.0.1', 'private'], ['::1', 'private'], ['fd00::1', 'private'], ['::ffff:127.0.0.1', 'private'],
      ['169.254.169.254', 'forbidden'], ['fe80::1', 'forbidden'], ['0.0.0.0', 'forbidden'], ['::', 'forbidden'], ['224.0.0.1', 'forbidden'],
      ['::ffff:169.254.169.254', 'forbidden'], ['not an address', 'forbidden'],
      ['172.32.0.1', 'public'], ['8.8.8.8', 'public'], ['2606:4700::1111', 'public'],
    ];
    expect(cases.map(([ip]) => [ip, classifyAddress(ip)])).toEqual(cases);
    expect(addressAllowed('127.0.0.1', false)).toBe(false);
    expect(addressAllowed('127.0.0.1', true)).toBe(true);
    expect(addressAllowed('169.254.169.254', true)).toBe(false);
  });

  it('endpoint URLs: https; plain http only to private addresses when allowed; no credentials; forbidden literals refused', () => {
    expect(urlProblem('https://hooks.example.com/in', false)).toBeNull();
    expect(urlProblem('http://hooks.example.com/in', false)).toBe('https_required');
    expect(urlProblem('ftp://hooks.example.com/in', false)).toBe('invalid');
    expect(urlProblem('not a url', false)).toBe('invalid');
    expect(urlProblem('https://user:pw@hooks.example.com/', false)).toBe('invalid');
    expect(urlProblem('https://127.0.0.1/in', false)).toBe('address_forbidden');
    expect(urlProblem('https://[::1]/in', false)).toBe('address_forbidden');
    expect(urlProblem('https://169.254.169.254/latest/meta-data', true)).toBe('address_forbidden');
    expect(urlProblem('http://127.0.0.1:8080/in', true)).toBeNull();
    expect(urlProblem('http://8.8.8.8/in', true)).toBe('address_forbidden');
  });

  describe('on a real socket', () => {
    let server: http.Server;
    let port: number;
    beforeAll(async () => {
      server = http.createServer((_req, res) => res.end('reached'));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as AddressInfo).port;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    const get = (host: string, lookup: ReturnType<typeof guardedLookup>) => new Promise<string>((resolve, reject) => {
      const req = http.get({ host, port, path: '/', lookup, family: 4 }, (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve(text));
      });
      req.on('error', reject);
    });

    it('a name that resolves to 127.0.0.1 is refused when it resolves — nothing reaches the receiver', async () => {
      const error = await get('localhost', guardedLookup(false)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ForbiddenAddressError);
      expect((error as ForbiddenAddressError).address).toBe('127.0.0.1');
    });

    it('with private addresses allowed (development, tests) the same name connects', async () => {
      expect(await get('localhost', guardedLookup(true))).toBe('reached');
      expect(await get('localhost', guardedLookup(true, true))).toBe('reached');
    });
  });
});
