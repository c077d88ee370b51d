/** RFC 9530 Content-Digest: parse the structured-field dictionary and check sha-256 / sha-512. */
import { createHash, timingSafeEqual } from 'node:crypto';

const SUPPORTED = { 'sha-256': 'sha256', 'sha-512': 'sha512' } as const;

/** True when the header names at least one supported algorithm and every supported one matches. */
export function contentDigestMatches(header: string | undefined, body: Buffer): boolean {
  if (!header) return false;
  let checked = 0;
  for (const member of header.split(',')) {
    const match = /^\s*([a-z0-9-]+)\s*=\s*:([A-Za-z0-9+/=]*):\s*$/.exec(member);
    if (!match) return false;
    const algorithm = SUPPORTED[match[1] as keyof typeof SUPPORTED];
    if (!algorithm) continue;
    const given = Buffer.from(match[2]!, 'base64');
    const actual = createHash(algorithm).update(body).digest();
    if (given.length !== actual.length || !timingSafeEqual(given, actual)) return false;
    checked++;
  }
  return checked > 0;
}

export function contentDigest(body: Buffer | string): string {
  return `sha-256=:${createHash('sha256').update(body).digest('base64')}:`;
}
