/**
 * Where the server may connect when it calls out (webhook deliveries): no server-side request
 * forgery. Loopback, private, link-local and other special-purpose addresses are refused; with
 * `allowPrivate` (WEBHOOK_ALLOW_PRIVATE, for development and tests) loopback and private ranges
 * are allowed, link-local ones (cloud metadata services live at 169.254.169.254) never.
 *
 * The check is made on the address actually connected to: `guardedLookup` is the `lookup` of the
 * outgoing connection, so a name that resolves to 127.0.0.1 is refused when it resolves, and an
 * address written in the URL is checked before connecting (Node does not look those up).
 */
import dns from 'node:dns';
import net from 'node:net';

const always = new net.BlockList();
// Link-local (cloud metadata), "this network", multicast and reserved: never.
always.addSubnet('169.254.0.0', 16, 'ipv4');
always.addSubnet('0.0.0.0', 8, 'ipv4');
always.addSubnet('224.0.0.0', 4, 'ipv4');
always.addSubnet('240.0.0.0', 4, 'ipv4');
always.addSubnet('fe80::', 10, 'ipv6');
always.addSubnet('ff00::', 8, 'ipv6');
always.addAddress('::', 'ipv6');

const privateRanges = new net.BlockList();
privateRanges.addSubnet('127.0.0.0', 8, 'ipv4');
privateRanges.addSubnet('10.0.0.0', 8, 'ipv4');
privateRanges.addSubnet('172.16.0.0', 12, 'ipv4');
privateRanges.addSubnet('192.168.0.0', 16, 'ipv4');
privateRanges.addSubnet('100.64.0.0', 10, 'ipv4'); // carrier-grade NAT
privateRanges.addSubnet('198.18.0.0', 15, 'ipv4'); // benchmarking
privateRanges.addAddress('::1', 'ipv6');
privateRanges.addSubnet('fc00::', 7, 'ipv6'); // unique local

export type AddressVerdict = 'public' | 'private' | 'forbidden';

/** What kind of address `ip` is (an IPv4-mapped IPv6 address counts as its IPv4 address). */
export function classifyAddress(ip: string): AddressVerdict {
  const family = net.isIP(ip);
  if (family === 0) return 'forbidden';
  let address = ip;
  let type: 'ipv4' | 'ipv6' = family === 4 ? 'ipv4' : 'ipv6';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) [address, type] = [mapped[1]!, 'ipv4'];
  if (always.check(address, type)) return 'forbidden';
  if (privateRanges.check(address, type)) return 'private';
  return 'public';
}

/** Whether a connection to `ip` is allowed. */
export function addressAllowed(ip: string, allowPrivate: boolean): boolean {
  const verdict = classifyAddress(ip);
  return verdict === 'public' || (verdict === 'private' && allowPrivate);
}

export class ForbiddenAddressError extends Error {
  readonly code = 'ADDRESS_FORBIDDEN';
  constructor(readonly host: string, readonly address: string) {
    super(`${host} resolves to ${address}, which is not allowed`);
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/**
 * A `lookup` for outgoing sockets that refuses forbidden addresses (every address the name
 * resolves to must be allowed, so the connection cannot pick a forbidden one). `privateOnly`:
 * plain http, allowed only to loopback and private addresses (WEBHOOK_ALLOW_PRIVATE).
 */
export function guardedLookup(allowPrivate: boolean, privateOnly = false) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const list = addresses as dns.LookupAddress[];
      const bad = list.find((a) => !addressAllowed(a.address, allowPrivate) || (privateOnly && classifyAddress(a.address) !== 'private'));
      if (bad || list.length === 0) return callback(new ForbiddenAddressError(hostname, bad?.address ?? 'nothing') as unknown as NodeJS.ErrnoException, []);
      if (options.all) return callback(null, list);
      return callback(null, list[0]!.address, list[0]!.family);
    });
  };
}

/**
 * Checks an endpoint URL before it is stored or called: https (plain http only with
 * `allowPrivate`, meant for receivers on this machine or a private network), no credentials in
 * it, and an address written in it allowed. Names are checked when they resolve (guardedLookup).
 * Returns the catalogue reason, or null when the URL is acceptable.
 */
export function urlProblem(raw: string, allowPrivate: boolean): 'invalid' | 'https_required' | 'address_forbidden' | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'invalid';
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && allowPrivate)) return url.protocol === 'http:' ? 'https_required' : 'invalid';
  if (url.username || url.password || !url.hostname) return 'invalid';
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (net.isIP(host) && (!addressAllowed(host, allowPrivate) || (url.protocol === 'http:' && classifyAddress(host) !== 'private'))) return 'address_forbidden';
  return null;
}
