/** Calendar day (YYYY-MM-DD) of an instant in a time zone. */
const formatters = new Map<string, Intl.DateTimeFormat>();

export function dayKey(epochMs: number, timeZone: string): string {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formatters.set(timeZone, f);
  }
  return f.format(epochMs);
}
