/**
 * Open connections per client address (MAX_CONNECTIONS_PER_ADDRESS): one client holding thousands
 * of idle connections would otherwise reach MAX_CONNECTIONS and lock everyone else out, the health
 * check included. A connection past an address's limit is closed as it is accepted, before a byte
 * is read. IPv6 clients are counted per /64 (one host or one customer's network: an address each
 * costs them nothing). A trusted proxy (TRUST_PROXY) is exempt: its connections carry many clients,
 * and the global MAX_CONNECTIONS still bounds it.
 */
import type net from 'node:net';
import ipaddr from 'ipaddr.js';

/** proxy-addr's (Fastify's) names for ranges in TRUST_PROXY. */
const NAMED: Record<string, string[]> = {
  loopback: ['127.0.0.1/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

type Parsed = ipaddr.IPv4 | ipaddr.IPv6;

/** An address as it compares: `::ffff:a.b.c.d` as a.b.c.d; null when it is not one. */
function parse(address: string): Parsed | null {
  try {
    const ip = ipaddr.parse(address.split('%')[0]!);
    return ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress() ? (ip as ipaddr.IPv6).toIPv4Address() : ip;
  } catch {
    return null;
  }
}

/**
 * The subnets of a TRUST_PROXY address list ("127.0.0.1, 10.0.0.0/8, loopback",
 * "10.0.0.0/255.0.0.0"), as Fastify reads it; throws a sentence naming the entry it cannot read.
 */
export function parseProxyList(list: string): [Parsed, number][] {
  const subnets: [Parsed, number][] = [];
  for (const raw of list.split(',').map((s) => s.trim()).filter(Boolean)) {
    for (const entry of NAMED[raw] ?? [raw]) {
      const [addressText, bitsText] = entry.split('/') as [string, string | undefined];
      const address = ipaddr.isValid(addressText) ? parse(addressText) : null;
      if (!address) throw new Error(`"${raw}" is not an address, a subnet or one of loopback, linklocal, uniquelocal`);
      const most = address.kind() === 'ipv4' ? 32 : 128;
      let bits = most;
      if (bitsText !== undefined) {
        if (/^\d+$/.test(bitsText)) bits = Number(bitsText);
        else if (address.kind() === 'ipv4' && ipaddr.IPv4.isValidFourPartDecimal(bitsText)) bits = ipaddr.IPv4.parse(bitsText).prefixLengthFromSubnetMask() ?? -1;
        else bits = -1;
        // An IPv4-mapped IPv6 subnet is its IPv4 subnet.
        if (address.kind() === 'ipv4' && ipaddr.IPv6.isValid(addressText) && bits >= 96) bits -= 96;
      }
      if (!(bits >= 0 && bits <= most)) throw new Error(`"${raw}" has a prefix length that is not one of ${address.kind() === 'ipv4' ? 'IPv4' : 'IPv6'}`);
      subnets.push([address, bits]);
    }
  }
  return subnets;
}

/**
 * Whether the connecting peer is a trusted proxy, by TRUST_PROXY: `true` trusts every peer, a hop
 * count the nearest hops (the peer is the nearest), an address list the peers in it; false nobody.
 */
export function trustedProxy(setting: boolean | number | string): (peer: string) => boolean {
  if (setting === true || (typeof setting === 'number' && setting > 0)) return () => true;
  if (typeof setting !== 'string') return () => false;
  const subnets = parseProxyList(setting);
  return (peer) => {
    const address = parse(peer);
    return address !== null && subnets.some(([net, bits]) => net.kind() === address.kind() && address.match(net as never, bits));
  };
}

/** What connections are counted by: the IPv4 address, or the IPv6 /64. */
export function addressKey(peer: string): string {
  const address = parse(peer);
  if (!address) return peer;
  if (address.kind() === 'ipv4') return address.toString();
  return `${(address as ipaddr.IPv6).parts.slice(0, 4).map((p) => p.toString(16)).join(':')}::/64`;
}

interface ConnectionLimit {
  /** Connections open per counted address (exempt ones are not counted). */
  readonly open: Map<string, number>;
  /** Connections closed for being past the limit, since the start. */
  refused: number;
}

/**
 * Closes, as they are accepted, connections past `perAddress` from one address; `exempt` peers
 * (trusted proxies) are not counted. `onRefused` hears of the first refusal and then of at most one
 * a minute (with how many since), for the log.
 */
export function limitConnectionsPerAddress(server: net.Server, perAddress: number, exempt: (peer: string) => boolean, onRefused?: (peer: string, since: number) => void): ConnectionLimit {
  const state: ConnectionLimit = { open: new Map(), refused: 0 };
  let reportedAt = -Infinity;
  let reported = 0;
  // Before the HTTP server's own listener: a refused connection is closed before a byte is read.
  server.prependListener('connection', (socket: net.Socket) => {
    const peer = socket.remoteAddress;
    if (!peer || exempt(peer)) return;
    const key = addressKey(peer);
    const count = state.open.get(key) ?? 0;
    if (count >= perAddress) {
      state.refused++;
      socket.destroy();
      const now = Date.now();
      if (onRefused && now - reportedAt >= 60_000) {
        onRefused(peer, state.refused - reported);
        reportedAt = now;
        reported = state.refused;
      }
      return;
    }
    state.open.set(key, count + 1);
    socket.once('close', () => {
      const left = (state.open.get(key) ?? 1) - 1;
      if (left > 0) state.open.set(key, left);
      else state.open.delete(key);
    });
  });
  return state;
}
