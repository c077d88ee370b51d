import type { Kysely, Migration } from 'kysely';

/**
 * The campaign's end day is included (issue 28, item 14). The console's editor stored "ends
 * 28/02/2027" as 28 February 00:00 while promoters read "until 28 Feb"; it now stores the end of
 * the chosen day (1 March 00:00 in the installation's time zone), `endsAt` staying the first
 * instant after the campaign. A campaign the old editor saved keeps the day its operator chose:
 * one still to end (draft, active or paused, `ends_at` in the future) whose end falls exactly on a
 * midnight of the installation's zone — what the old editor wrote — moves to the end of that day.
 * Ended campaigns are history and stay as they are; an end at any other time (set through the API
 * to the minute) is not a chosen day and stays too. docs/console.md says so.
 */
export function campaignEndDay(defaultZone: string): Migration {
  return {
    async up(db: Kysely<unknown>) {
      const q = db as Kysely<{
        campaigns: { id: string; status: string; ends_at: number | string | null };
        settings: { key: string; value: string };
      }>;
      const stored = await q.selectFrom('settings').select('value').where('key', '=', 'timeZone').executeTakeFirst();
      const zone = stored ? (JSON.parse(stored.value) as string) : defaultZone;
      const now = Date.now();
      const rows = await q.selectFrom('campaigns').select(['id', 'ends_at']).where('status', 'in', ['draft', 'active', 'paused']).where('ends_at', '>', now).execute();
      for (const row of rows) {
        const endsAt = Number(row.ends_at);
        if (!isMidnight(endsAt, zone)) continue;
        await q.updateTable('campaigns').set({ ends_at: nextMidnight(endsAt, zone) }).where('id', '=', row.id).execute();
      }
    },
  };
}

/** Wall-clock parts of an instant in a zone (Intl; no application code in a migration). */
function partsOf(at: number, zone: string) {
  const f = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
  const p: Record<string, number> = {};
  for (const part of f.formatToParts(at)) if (part.type !== 'literal') p[part.type] = Number(part.value);
  return { year: p.year!, month: p.month!, day: p.day!, hour: p.hour!, minute: p.minute!, second: p.second! };
}

const isMidnight = (at: number, zone: string) => {
  const p = partsOf(at, zone);
  return at % 1000 === 0 && p.hour === 0 && p.minute === 0 && p.second === 0;
};

/** The start of the next day in `zone` after the midnight `at` (23, 24 or 25 hours later). */
function nextMidnight(at: number, zone: string): number {
  const p = partsOf(at + 36 * 3_600_000, zone); // safely inside the next day, whatever its length
  const utcMidnight = Date.UTC(p.year, p.month - 1, p.day);
  const offset = (t: number) => {
    const q = partsOf(t, zone);
    return Date.UTC(q.year, q.month - 1, q.day, q.hour, q.minute, q.second) - (t - (t % 1000));
  };
  return utcMidnight - offset(utcMidnight - offset(utcMidnight));
}
