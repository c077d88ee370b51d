/** Calendar day (YYYY-MM-DD) of an instant in a time zone. */
const formatters = new Map<string, Intl.DateTimeFormat>();

let memo = { minute: -1, timeZone: '', day: '' };

/** Day of an instant; the answer is remembered per minute (every zone's offset is whole minutes). */
export function dayKey(epochMs: number, timeZone: string): string {
  const minute = Math.floor(epochMs / 60_000);
  if (memo.minute === minute && memo.timeZone === timeZone) return memo.day;
  const day = formatDay(epochMs, timeZone);
  memo = { minute, timeZone, day };
  return day;
}

function formatDay(epochMs: number, timeZone: string): string {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formatters.set(timeZone, f);
  }
  return f.format(epochMs);
}

/**
 * A day-of-instant function for scanning many instants in any order (the rollup rebuild): days
 * remembered per quarter hour, the step every zone's offset changes by.
 */
export function dayResolver(timeZone: string): (epochMs: number) => string {
  const days = new Map<number, string>();
  return (epochMs) => {
    const quarter = Math.floor(epochMs / 900_000);
    let day = days.get(quarter);
    if (day === undefined) {
      if (days.size > 200_000) days.clear();
      day = formatDay(epochMs, timeZone);
      days.set(quarter, day);
    }
    return day;
  };
}

const partFormatters = new Map<string, Intl.DateTimeFormat>();

/** The zone's offset from UTC at an instant, in ms (east positive). */
export function zoneOffsetMs(epochMs: number, timeZone: string): number {
  let f = partFormatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    partFormatters.set(timeZone, f);
  }
  const p: Record<string, number> = {};
  for (const part of f.formatToParts(epochMs)) if (part.type !== 'literal') p[part.type] = Number(part.value);
  const asUtc = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!);
  return asUtc - (epochMs - (epochMs % 1000));
}

/** The instant a calendar day (YYYY-MM-DD) begins in a time zone. */
export function dayStart(day: string, timeZone: string): number {
  const [y, m, d] = day.split('-').map(Number);
  const utcMidnight = Date.UTC(y!, m! - 1, d!);
  let at = utcMidnight - zoneOffsetMs(utcMidnight, timeZone);
  // Across an offset change the first guess is off by the change: one more step settles it.
  at = utcMidnight - zoneOffsetMs(at, timeZone);
  return at;
}

/** The local hour (0–23) of an instant in a time zone. */
export function localHour(epochMs: number, timeZone: string): number {
  return new Date(epochMs + zoneOffsetMs(epochMs, timeZone)).getUTCHours();
}
