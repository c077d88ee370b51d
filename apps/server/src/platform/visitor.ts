/**
 * Who clicked, without keeping who they are: SHA-256 of a secret salt that changes every UTC day
 * (derived from the master key, so every instance has the same one and nobody can recompute it
 * later), the client address and the user agent. The address itself is never stored.
 */
import { createHash } from 'node:crypto';
import { isbot } from 'isbot';
import UAParser from 'ua-parser-js';
import type { MasterKey } from './crypto/master-key';

const DAY_MS = 86_400_000;

export class VisitorHasher {
  private salt: Buffer = Buffer.alloc(0);
  /** The current salt's UTC day, as [start, start + 1 day) in milliseconds. */
  private dayStart = Number.NaN;
  constructor(private readonly master: MasterKey) {}

  /**
   * Recent visitors' hashes by user agent, then address, cleared with the salt each day (and when
   * it grows large). Nested, not a joined key: the user agent's string hash is already computed
   * (classifyUserAgent looked it up), and no long key is built per click.
   */
  private recent = new Map<string, Map<string, string>>();
  private recentSize = 0;

  hash(address: string, userAgent: string, now = Date.now()): string {
    if (!(now >= this.dayStart && now < this.dayStart + DAY_MS)) {
      this.dayStart = now - (now % DAY_MS);
      this.salt = this.master.derive(`visitor-salt:${new Date(this.dayStart).toISOString().slice(0, 10)}`);
      this.recent.clear();
      this.recentSize = 0;
    }
    let byAddress = this.recent.get(userAgent);
    let hash = byAddress?.get(address);
    if (!hash) {
      hash = createHash('sha256').update(this.salt).update(`${address}\n${userAgent}`).digest('base64url');
      if (this.recentSize >= 10_000) {
        this.recent.clear();
        this.recentSize = 0;
        byAddress = undefined;
      }
      if (!byAddress) this.recent.set(userAgent, (byAddress = new Map()));
      byAddress.set(address, hash);
      this.recentSize++;
    }
    return hash;
  }
}

interface UaInfo {
  bot: boolean;
  device: 'mobile' | 'tablet' | 'desktop' | 'bot' | 'other';
}

const cache = new Map<string, UaInfo>();

/**
 * Link-preview fetchers the `isbot` list misses (checked in test/links.test.ts with those it
 * catches: WhatsApp, Telegram, Slack, Discord, Facebook, X, LinkedIn, Skype/Teams, iMessage, LINE,
 * KakaoTalk, Snapchat, QQ, DingTalk, Zalo…). Viber's app fetches with a user agent that starts
 * with `Viber/`; its in-app browser (a person) starts with `Mozilla/` like every browser.
 */
const PREVIEW_FETCHERS = /^viber\//i;

/** Bot flag (the maintained `isbot` list, and preview fetchers it misses) and device class; memoized, user agents repeat a lot. */
export function classifyUserAgent(userAgent: string): UaInfo {
  const hit = cache.get(userAgent);
  if (hit) return hit;
  const bot = !userAgent || isbot(userAgent) || PREVIEW_FETCHERS.test(userAgent);
  let device: UaInfo['device'] = 'other';
  if (bot) device = 'bot';
  else {
    const type = new UAParser(userAgent).getDevice().type;
    device = type === 'mobile' ? 'mobile' : type === 'tablet' ? 'tablet' : type === undefined ? 'desktop' : 'other';
  }
  const info = { bot, device };
  if (cache.size > 5000) cache.clear();
  cache.set(userAgent, info);
  return info;
}
