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
