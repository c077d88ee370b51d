/**
 * Where a link may send a visitor: the campaign's landing page, or a deep link on the landing
 * host or one of the campaign's allowed hosts — never anywhere else (no open redirect).
 */
type DestinationResult = { ok: true; url: string } | { ok: false; reason: 'invalid' | 'not_allowed' };

function allowedHostsOf(landingUrl: string, allowedHosts: readonly string[]): Set<string> {
  return new Set([new URL(landingUrl).hostname.toLowerCase(), ...allowedHosts.map((h) => h.toLowerCase())]);
}

/** `path` is either "/some/path?x=1" on the landing host, or an absolute https URL on an allowed host. */
export function resolveDestination(landingUrl: string, allowedHosts: readonly string[], path: string): DestinationResult {
  let url: URL;
  try {
    url = path.startsWith('/') && !path.startsWith('//') ? new URL(path, new URL(landingUrl).origin) : new URL(path);
  } catch {
    return { ok: false, reason: 'invalid' };
  }
  if (url.protocol !== 'https:' || url.username || url.password) return { ok: false, reason: 'invalid' };
  if (!allowedHostsOf(landingUrl, allowedHosts).has(url.hostname.toLowerCase())) return { ok: false, reason: 'not_allowed' };
  return { ok: true, url: url.toString() };
}

/** Re-checks a stored destination against the campaign's current hosts (they may have changed). */
export function isStillAllowed(landingUrl: string, allowedHosts: readonly string[], destination: string): boolean {
  try {
    return allowedHostsOf(landingUrl, allowedHosts).has(new URL(destination).hostname.toLowerCase());
  } catch {
    return false;
  }
}

/** Adds `pa_click=<id>` to the URL's query, keeping everything else (and the fragment). */
export function withClickId(destination: string, clickId: string): string {
  // Destinations are normalized URLs (made by resolveDestination or the landing URL), so plain
  // string work is enough: insert before the fragment. Ids are base32, nothing to escape.
  const hash = destination.indexOf('#');
  const base = hash === -1 ? destination : destination.slice(0, hash);
  const fragment = hash === -1 ? '' : destination.slice(hash);
  if (/[?&]pa_click=/.test(base)) {
    const url = new URL(destination);
    url.searchParams.set('pa_click', clickId);
    return url.toString();
  }
  return `${base}${base.includes('?') ? '&' : '?'}pa_click=${clickId}${fragment}`;
}
