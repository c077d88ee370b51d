/**
 * Link lookups for the tracked redirect, cached per instance. An entry (also "no such code") is
 * trusted for 3 seconds; changes made through this instance invalidate at once, and changes made
 * on other instances are seen within those 3 seconds — a bounded staleness, never a stale
 * destination forever.
 */
export interface RedirectTarget {
  linkId: string;
  promoterId: string;
  campaignId: string;
  /** May this click be attributed (link active, campaign active and running, promoter active)? */
  attributable: boolean;
  /** Where an attributable click goes (deep link still allowed, else the landing page). */
  destination: string;
  landingUrl: string;
}

export const LINK_CACHE_TTL_MS = 3000;
const MAX_ENTRIES = 20_000;

export class LinkCache {
  private entries = new Map<string, { value: RedirectTarget | null; at: number }>();
  private loading = new Map<string, Promise<RedirectTarget | null>>();

  constructor(private readonly load: (codeKey: string) => Promise<RedirectTarget | null>, private readonly ttlMs = LINK_CACHE_TTL_MS) {}

  async get(codeKey: string, now = Date.now()): Promise<RedirectTarget | null> {
    const hit = this.entries.get(codeKey);
    if (hit && now - hit.at < this.ttlMs) return hit.value;
    let pending = this.loading.get(codeKey);
    if (!pending) {
      pending = this.load(codeKey).finally(() => this.loading.delete(codeKey));
      this.loading.set(codeKey, pending);
    }
    const value = await pending;
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(codeKey, { value, at: Date.now() });
    return value;
  }

  invalidateCode(codeKey: string) {
    this.entries.delete(codeKey);
  }

  /** A campaign or promoter changed: drop every entry that points at it. */
  invalidateWhere(match: (t: RedirectTarget) => boolean) {
    for (const [key, entry] of this.entries) if (entry.value && match(entry.value)) this.entries.delete(key);
  }
}
