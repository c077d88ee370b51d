/**
 * Calendar days typed in a form (yyyy-mm-dd) ↔ instants, in the installation's time zone: the
 * campaign editor's schedule and a bounty's dates.
 */

/** This browser's time zone: the default where the installation's is not known. */
export const browserZone = () => new Intl.DateTimeFormat().resolvedOptions().timeZone;

/** A zone's offset from UTC at an instant, in ms (east positive), by Intl. */
function zoneOffsetMs(at: number, zone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' }).formatToParts(at);
  const p: Record<string, number> = {};
  for (const part of parts) if (part.type !== 'literal') p[part.type] = Number(part.value);
  return Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!) - (at - (((at % 1000) + 1000) % 1000));
}

/** The instant a calendar day begins in `zone` (across an offset change, a second step settles it). */
function dayStart(year: number, month: number, day: number, zone: string): number {
  const utcMidnight = Date.UTC(year, month - 1, day);
  const guess = utcMidnight - zoneOffsetMs(utcMidnight, zone);
  return utcMidnight - zoneOffsetMs(guess, zone);
}

const DAY_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** "2026-05-01" → the instant that day begins in the installation's time zone `zone`; empty → null. */
export function dateInputToEpoch(text: string, zone: string): number | null {
  const m = DAY_RE.exec(text);
  if (!m) return null;
  return dayStart(Number(m[1]), Number(m[2]), Number(m[3]), zone);
}

/**
 * The chosen end day is included (issue 28): "2027-02-28" → the instant that day ends in `zone`,
 * the first moment of 1 March there, which is what the API's `endsAt` holds (a conversion at or
 * after it is outside the campaign). Empty → null.
 */
export function endDayToEpoch(text: string, zone: string): number | null {
  const m = DAY_RE.exec(text);
  if (!m) return null;
  // Date.UTC carries day 29 of February into 1 March, and 32 December into the next year.
  const next = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + 1));
  return dayStart(next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate(), zone);
}

/** Epoch ms → its day in `zone` as yyyy-mm-dd; null → empty. */
export function epochToDateInput(epoch: number | null, zone: string): string {
  if (epoch === null) return '';
  return new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(epoch);
}

/** `endsAt` → the last day it includes in `zone` (the day of its last millisecond); null → empty. */
export function endEpochToDateInput(endsAt: number | null, zone: string): string {
  return endsAt === null ? '' : epochToDateInput(endsAt - 1, zone);
}
