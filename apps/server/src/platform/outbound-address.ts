/**
 * Where the server may connect when it calls out (webhook deliveries): no server-side request
 * forgery. Only global unicast addresses are allowed, as the `ipaddr.js` classifier knows the IANA
 * special-purpose registries (loopback, private, link-local, "this network", shared address space,
 * documentation and benchmarking ranges, multicast, reserved, 6to4, Teredo, ORCHID…), and never
 * this machine's own addresses (os.networkInterfaces()). IPv6 is allowed only in 2000::/3, the
 * global unicast space; an IPv6 address that carries an IPv4 one (`::ffff:a.b.c.d`, and NAT64's
 * `64:ff9b::a.b.c.d`) is judged by the IPv4 address it reaches; the other embeddings (`::a.b.c.d`,
 * `::ffff:0:a.b.c.d`, 6to4, Teredo) are refused outright.
 *
 * With `allowPrivate` (WEBHOOK_ALLOW_PRIVATE, for development and tests) loopback, private
 * (RFC 1918, unique local fc00::/7), the shared address space 100.64.0.0/10 and the machine's own
 * addresses are allowed; link-local ones (cloud metadata services live at 169.254.169.254) and the
 * other special-purpose ranges never.
 *
 * The check is made on the address actually connected to: `guardedLookup` is the `lookup` of the
 * outgoing connection, so a name that resolves to 127.0.0.1 is refused when it resolves, and an
 * address written in the URL is checked before connecting (Node does not look those up).
 */
import dns from 'node:dns';
import net from 'node:net';
import os from 'node:os';
import ipaddr from 'ipaddr.js';

type AddressVerdict = 'public' | 'private' | 'forbidden';

/** IPv4 ranges (ipaddr.js's names) that WEBHOOK_ALLOW_PRIVATE opens; every other one but `unicast` is forbidden. */
const PRIVATE_V4 = new Set(['loopback', 'private', 'carrierGradeNat']);
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parse('2000::');
const NAT64 = ipaddr.IPv6.parse('64:ff9b::');

/** The machine's own addresses, read again at most every OWN_TTL_MS (interfaces rarely change). */
const OWN_TTL_MS = 10_000;
let own: { at: number; addresses: Set<string> } | null = null;
/** This machine's addresses (IPv4 dotted, IPv6 in full: `fd00:0:0:0:0:0:0:2`), every interface. */
export function machineAddresses(): ReadonlySet<string> {
  const now = Date.now();
  if (own && now - own.at < OWN_TTL_MS) return own.addresses;
  const addresses = new Set<string>();
  for (const list of Object.values(os.networkInterfaces())) {
    for (const info of list ?? []) {
      const parsed = parse(info.address);
      if (parsed) addresses.add(key(parsed));
    }
  }
  own = { at: now, addresses };
  return addresses;
}

function key(address: ipaddr.IPv4 | ipaddr.IPv6): string {
  return address.kind() === 'ipv4' ? address.toString() : address.toNormalizedString();
}

/**
 * Parses an address as the operating system reads it. ipaddr.js takes `::a.b.c.d` (IPv4-compatible,
 * deprecated) for `::ffff:a.b.c.d` (IPv4-mapped); the trailing dotted quad is written as two hex
 * groups first, so the two stay apart. Zone ids (`fe80::1%eth0`) are dropped.
 */
function parse(ip: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const bare = ip.split('%')[0]!;
  const family = net.isIP(bare);
  if (family === 0) return null;
  try {
    if (family === 4) return ipaddr.IPv4.parse(bare);
    const quad = /^(.*:)(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(bare);
    const text = quad ? `${quad[1]}${((Number(quad[2]) << 8) | Number(quad[3])).toString(16)}:${((Number(quad[4]) << 8) | Number(quad[5])).toString(16)}` : bare;
    return ipaddr.IPv6.parse(text);
  } catch {
    return null;
  }
}

function classifyV4(address: ipaddr.IPv4, own: ReadonlySet<string>): AddressVerdict {
  const range = address.range();
  if (PRIVATE_V4.has(range)) return 'private';
  if (range !== 'unicast') return 'forbidden';
  return own.has(key(address)) ? 'private' : 'public';
}

function classifyV6(address: ipaddr.IPv6, own: ReadonlySet<string>): AddressVerdict {
  const parts = address.parts;
  // ::ffff:a.b.c.d reaches a.b.c.d.
  if (parts.slice(0, 5).every((p) => p === 0) && parts[5] === 0xffff) return classifyV4(address.toIPv4Address(), own);
  // NAT64 (RFC 6052's well-known prefix): the gateway connects to the IPv4 address in the last 32 bits.
  if (address.match(NAT64, 96)) {
    const v4 = ipaddr.IPv4.parse(`${parts[6]! >> 8}.${parts[6]! & 0xff}.${parts[7]! >> 8}.${parts[7]! & 0xff}`);
    return classifyV4(v4, own) === 'public' ? 'public' : 'forbidden';
  }
  const range = address.range();
  if (range === 'loopback' || range === 'uniqueLocal') return 'private';
  if (range !== 'unicast' || !address.match(GLOBAL_UNICAST_V6, 3)) return 'forbidden';
  return own.has(key(address)) ? 'private' : 'public';
}

/**
 * What kind of address `ip` is: `public` (global unicast, not one of `own`, the machine's
 * addresses), `private` (allowed with WEBHOOK_ALLOW_PRIVATE) or `forbidden` (never; also anything
 * that is not an address).
 */
export function classifyAddress(ip: string, own: ReadonlySet<string> = machineAddresses()): AddressVerdict {
  const address = parse(ip);
  if (!address) return 'forbidden';
  return address.kind() === 'ipv4' ? classifyV4(address as ipaddr.IPv4, own) : classifyV6(address as ipaddr.IPv6, own);
}

/** Whether a connection to `ip` is allowed. */
export function addressAllowed(ip: string, allowPrivate: boolean): boolean {
  const verdict = classifyAddress(ip);
  return verdict === 'public' || (verdict === 'private' && allowPrivate);
}

/** A name resolved to an address the policy refuses (the address is for logs, never for the admin's screen). */
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
