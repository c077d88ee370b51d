/**
 * Issue 16's foundations: webhook signatures as the Standard Webhooks libraries verify them (the
 * `standardwebhooks` package, the reference implementation), and the outbound address policy
 * (no server-side request forgery) on real sockets.
 */
import http from 'node:http';
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressAllowed, classifyAddress, ForbiddenAddressError, guardedLookup, machineAddresses, urlProblem } from '../src/platform/outbound-address';
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
  // Every address that is not global unicast is refused (ipaddr.js's view of the IANA special-purpose
  // registries); WEBHOOK_ALLOW_PRIVATE opens loopback, private, unique local and shared space only.
  it.each([
    // Loopback, private (RFC 1918), shared address space, unique local: allowed with WEBHOOK_ALLOW_PRIVATE.
    ['127.0.0.1', 'private'], ['127.9.9.9', 'private'], ['10.1.2.3', 'private'], ['172.16.0.1', 'private'], ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'], ['100.64.0.1', 'private'], ['100.127.255.254', 'private'], ['::1', 'private'], ['fd00::1', 'private'],
    ['fc00::5', 'private'], ['::ffff:127.0.0.1', 'private'], ['::ffff:10.0.0.5', 'private'],
    // IPv4 special-purpose ranges: never.
    ['0.0.0.0', 'forbidden'], ['0.1.2.3', 'forbidden'], ['169.254.169.254', 'forbidden'], ['192.0.0.8', 'forbidden'], ['192.0.2.1', 'forbidden'],
    ['192.88.99.1', 'forbidden'], ['198.18.0.1', 'forbidden'], ['198.19.255.255', 'forbidden'], ['198.51.100.7', 'forbidden'], ['203.0.113.9', 'forbidden'],
    ['224.0.0.1', 'forbidden'], ['239.255.255.250', 'forbidden'], ['240.0.0.1', 'forbidden'], ['255.255.255.255', 'forbidden'],
    // IPv6 outside global unicast, or special-purpose inside it: never.
    ['::', 'forbidden'], ['fe80::1', 'forbidden'], ['fe80::1%eth0', 'forbidden'], ['ff02::1', 'forbidden'], ['ff05::2', 'forbidden'], ['fec0::1', 'forbidden'],
    ['100::1', 'forbidden'], ['2001:db8::1', 'forbidden'], ['2001:db8:ffff::', 'forbidden'], ['2001::1', 'forbidden'], ['2001:2::1', 'forbidden'],
    ['2001:10::1', 'forbidden'], ['2002:7f00:1::1', 'forbidden'], ['3fff::1', 'forbidden'], ['5f00::1', 'forbidden'], ['4000::1', 'forbidden'], ['1::1', 'forbidden'],
    // IPv4 carried in IPv6: judged by the IPv4 address reached, or refused where nothing reaches it.
    ['::ffff:169.254.169.254', 'forbidden'], ['::ffff:192.0.2.1', 'forbidden'], ['::ffff:8.8.8.8', 'public'], ['::ffff:808:808', 'public'],
    ['::127.0.0.1', 'forbidden'], ['::8.8.8.8', 'forbidden'], ['::ffff:0:10.0.0.1', 'forbidden'], ['::ffff:0:8.8.8.8', 'forbidden'],
    ['64:ff9b::10.0.0.1', 'forbidden'], ['64:ff9b::7f00:1', 'forbidden'], ['64:ff9b::169.254.169.254', 'forbidden'], ['64:ff9b::8.8.8.8', 'public'], ['64:ff9b:1::8.8.8.8', 'forbidden'],
    // Not addresses.
    ['not an address', 'forbidden'], ['0x7f.1', 'forbidden'], ['127.1', 'forbidden'], ['', 'forbidden'],
    // Global unicast.
    ['172.32.0.1', 'public'], ['8.8.8.8', 'public'], ['1.1.1.1', 'public'], ['2606:4700::1111', 'public'], ['2a00:1450:4001:81c::200e', 'public'],
  ])('%s is %s', (ip, verdict) => {
    expect(classifyAddress(ip, new Set())).toBe(verdict);
  });

  it('allowed: global unicast always, loopback and private only with WEBHOOK_ALLOW_PRIVATE, link-local never', () => {
    expect(addressAllowed('8.8.8.8', false)).toBe(true);
    expect(addressAllowed('127.0.0.1', false)).toBe(false);
    expect(addressAllowed('127.0.0.1', true)).toBe(true);
    expect(addressAllowed('169.254.169.254', true)).toBe(false);
    expect(addressAllowed('192.0.2.1', true)).toBe(false);
  });

  it("the machine's own addresses, every interface, are refused (allowed only with WEBHOOK_ALLOW_PRIVATE, link-local never)", () => {
    const listed = Object.values(os.networkInterfaces()).flatMap((list) => (list ?? []).map((i) => i.address));
    expect(listed.length).toBeGreaterThan(0);
    for (const address of listed) {
      expect(addressAllowed(address, false), address).toBe(false);
      expect(urlProblem(`https://${address.includes(':') ? `[${address.split('%')[0]}]` : address}/in`, false), address).toBe('address_forbidden');
    }
    // A global unicast address is refused once it is one of the machine's (as its own public address would be).
    expect(classifyAddress('8.8.8.8', new Set(['8.8.8.8']))).toBe('private');
    expect(classifyAddress('::ffff:8.8.8.8', new Set(['8.8.8.8']))).toBe('private');
    expect(classifyAddress('2606:4700::1111', new Set(['2606:4700:0:0:0:0:0:1111']))).toBe('private');
    expect(classifyAddress('169.254.1.1', new Set(['169.254.1.1']))).toBe('forbidden');
    expect(machineAddresses().has('127.0.0.1')).toBe(true);
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
    for (const url of ['https://192.0.2.1/in', 'https://[2001:db8::1]/in', 'https://[::ffff:0:a00:1]/in', 'https://[64:ff9b::a00:1]/in', 'https://100.64.0.1/in', 'https://0.0.0.0/in', 'https://[::127.0.0.1]/in']) {
      expect(urlProblem(url, false), url).toBe('address_forbidden');
    }
    // The URL parser writes odd IPv4 forms out in full before the check: 0x7f.1 is 127.0.0.1.
    expect(urlProblem('https://0x7f.1/in', false)).toBe('address_forbidden');
    expect(urlProblem('https://8.8.8.8/in', false)).toBeNull();
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
