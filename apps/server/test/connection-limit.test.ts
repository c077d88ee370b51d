/**
 * MAX_CONNECTIONS_PER_ADDRESS (platform/connection-limit.ts) on real loopback sockets: one address
 * gets its limit and no more, another address is not affected, a trusted proxy (TRUST_PROXY) is
 * exempt, and a closed connection frees its place. What address a TRUST_PROXY setting trusts, and
 * what connections are counted by (an IPv6 client by its /64). The whole server under a flood is
 * slow-senders.test.ts's.
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { addressKey, limitConnectionsPerAddress, parseProxyList, trustedProxy } from '../src/platform/connection-limit';

describe('connections per address', () => {
  let server: net.Server | null = null;
  const clients: net.Socket[] = [];
  afterEach(async () => {
    for (const c of clients.splice(0)) c.destroy();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = null;
  });

  /** A server holding every connection it keeps; what it hears of refusals. */
  async function listen(perAddress: number, trust: boolean | number | string) {
    const accepted: string[] = [];
    server = net.createServer((socket) => {
      accepted.push(socket.remoteAddress!);
      socket.on('error', () => undefined);
    });
    const refusals: [string, number][] = [];
    const state = limitConnectionsPerAddress(server, perAddress, trustedProxy(trust), (peer, since) => refusals.push([peer, since]));
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return { port: (server.address() as AddressInfo).port, accepted, refusals, state };
  }

  /** Opens `n` connections from `from`; resolves with those still open after a moment. */
  async function open(port: number, from: string, n: number) {
    const mine = Array.from({ length: n }, () => {
      const socket = net.connect({ port, host: '127.0.0.1', localAddress: from });
      socket.on('error', () => undefined);
      clients.push(socket);
      return socket;
    });
    await Promise.all(mine.map((s) => new Promise((r) => s.once('connect', r).once('close', r))));
    await new Promise((r) => setTimeout(r, 300));
    return mine.filter((s) => !s.destroyed && s.readyState === 'open');
  }

  it('one address gets its limit and no more; another address is not affected; a closed connection frees its place', async () => {
    const { port, accepted, refusals, state } = await listen(5, false);
    expect(await open(port, '127.0.0.2', 8)).toHaveLength(5);
    expect(await open(port, '127.0.0.3', 4)).toHaveLength(4);
    expect(accepted.filter((a) => a === '127.0.0.3')).toHaveLength(4);
    expect(state.open.get('127.0.0.2')).toBe(5);
    expect(state.refused).toBe(3);
    // Reported once for the log (then at most once a minute).
    expect(refusals).toEqual([['127.0.0.2', 1]]);
    const held = clients.filter((c) => !c.destroyed && c.localAddress === '127.0.0.2');
    held[0]!.destroy();
    await new Promise((r) => setTimeout(r, 200));
    expect(state.open.get('127.0.0.2')).toBe(4);
    expect(await open(port, '127.0.0.2', 1)).toHaveLength(1);
  });

  it('a trusted proxy (TRUST_PROXY=127.0.0.4) is exempt; other addresses are not', async () => {
    const { port } = await listen(3, '127.0.0.4');
    expect(await open(port, '127.0.0.4', 10)).toHaveLength(10);
    expect(await open(port, '127.0.0.5', 10)).toHaveLength(3);
  });

  it('which peers TRUST_PROXY trusts', () => {
    expect(trustedProxy(false)('127.0.0.1')).toBe(false);
    expect(trustedProxy(0)('127.0.0.1')).toBe(false);
    expect(trustedProxy(true)('203.0.113.5')).toBe(true);
    expect(trustedProxy(1)('203.0.113.5')).toBe(true);
    const list = trustedProxy('127.0.0.1, 10.0.0.0/8, 192.168.1.0/255.255.255.0, fd00::/8, uniquelocal');
    expect(['127.0.0.1', '::ffff:127.0.0.1', '10.9.9.9', '192.168.1.77', 'fd00::5', '172.16.3.4'].map(list)).toEqual([true, true, true, true, true, true]);
    expect(['127.0.0.2', '192.0.2.1', '8.8.8.8', '2001:4860::1', 'nonsense'].map(list)).toEqual([false, false, false, false, false]);
    expect(trustedProxy('loopback')('127.5.5.5')).toBe(true);
    expect(() => parseProxyList('10.0.0.0/33')).toThrow(/prefix length/);
    expect(() => parseProxyList('proxy.example.com')).toThrow(/"proxy.example.com" is not an address/);
  });

  it('counts IPv4 clients by address and IPv6 clients by their /64', () => {
    expect(addressKey('203.0.113.5')).toBe('203.0.113.5');
    expect(addressKey('::ffff:203.0.113.5')).toBe('203.0.113.5');
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe(addressKey('2001:db8:1:2:ffff::9'));
    expect(addressKey('2001:db8:1:2::1')).not.toBe(addressKey('2001:db8:1:3::1'));
  });
});
