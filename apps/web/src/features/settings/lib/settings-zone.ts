/**
 * The settings page's time zone and currency choices: every zone and currency this browser knows
 * (Intl), a zone's offset from UTC at a moment, and the search over them.
 */

/** Every IANA time zone the browser knows, with UTC (not always listed) first. */
export function timeZones(): string[] {
  const all = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return ['UTC', ...all.filter((z) => z !== 'UTC')];
}

/** Offset of `zone` from UTC at `at` as "UTC+08:00", "UTC−03:30", "UTC". */
export function utcOffset(zone: string, at: number): string {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' }).formatToParts(at);
  const name = parts.find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  // "GMT+08:00", "GMT-03:30", and "GMT" or "GMT+00:00" for zero.
  const offset = name.replace(/^GMT/, '').replace('-', '\u2212');
  return offset && offset !== '+00:00' ? `UTC${offset}` : 'UTC';
}

/** Minutes east of UTC (for ordering and matching "+8"). */
export function offsetMinutes(zone: string, at: number): number {
  const m = /([+\u2212])(\d{2}):(\d{2})/.exec(utcOffset(zone, at));
  if (!m) return 0;
  const minutes = Number(m[2]) * 60 + Number(m[3]);
  return m[1] === '+' ? minutes : -minutes;
}

/** A zone's name as people read it: "America/Argentina/Buenos_Aires" → "America / Argentina / Buenos Aires". */
export const zoneLabel = (zone: string) => zone.replace(/_/g, ' ').split('/').join(' / ');

const fold = (s: string) => s.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[\s_/]+/g, ' ').trim();

/**
 * The zones matching what was typed: by name ("shanghai", "new york", "europe/par"), or by offset
 * ("+8", "utc+05:30", "-3"). Names starting with the text come first, then the rest in list order.
 */
export function searchZones(zones: readonly string[], query: string, at: number): string[] {
  const q = fold(query);
  if (!q) return [...zones];
  const offset = /^(?:utc|gmt)?\s*([+\-\u2212])\s*(\d{1,2})(?::?(\d{2}))?$/.exec(q);
  if (offset) {
    const minutes = (Number(offset[2]) * 60 + Number(offset[3] ?? 0)) * (offset[1] === '+' ? 1 : -1);
    return zones.filter((z) => offsetMinutes(z, at) === minutes);
  }
  const scored = zones
    .map((z, i) => {
      const name = fold(z);
      const city = fold(z.split('/').pop() ?? z);
      const score = city.startsWith(q) ? 0 : name.startsWith(q) ? 1 : name.includes(q) ? 2 : -1;
      return { z, i, score };
    })
    .filter((x) => x.score >= 0);
  return scored.sort((a, b) => a.score - b.score || a.i - b.i).map((x) => x.z);
}

/** Every currency the browser can format, ISO 4217 codes. */
export function currencies(): string[] {
  return typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('currency') : [];
}

/** "CNY — Chinese Yuan" in the reader's language (the code alone when the browser has no name). */
export function currencyLabel(code: string, locale: string): string {
  try {
    const name = new Intl.DisplayNames([locale], { type: 'currency' }).of(code);
    return name && name !== code ? `${code} — ${name}` : code;
  } catch {
    return code;
  }
}
