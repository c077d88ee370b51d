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
