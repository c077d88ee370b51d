/** Numbers, money and dates through Intl, in the reader's locale. Money arrives as integer minor units. */
const cache = new Map<string, Intl.NumberFormat>();

function numberFormat(locale: string, options: Intl.NumberFormatOptions) {
  const key = `${locale}|${JSON.stringify(options)}`;
  let f = cache.get(key);
  if (!f) {
    f = new Intl.NumberFormat(locale, options);
    cache.set(key, f);
  }
  return f;
}

export function minorUnitDigits(currency: string): number {
  return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
}

/** Formats an integer of minor units exactly (no float arithmetic on the amount). */
export function formatMoney(minor: number, currency: string, locale: string, options: { signed?: boolean } = {}): string {
  if (!Number.isSafeInteger(minor)) throw new Error('money must be an integer of minor units');
  const digits = minorUnitDigits(currency);
  const abs = String(Math.abs(minor)).padStart(digits + 1, '0');
  const decimal = `${minor < 0 ? '-' : ''}${digits ? `${abs.slice(0, -digits)}.${abs.slice(-digits)}` : abs}`;
  // Intl formats decimal strings exactly, without going through a binary float.
  const text = numberFormat(locale, { style: 'currency', currency, ...(options.signed ? { signDisplay: 'exceptZero' as const } : {}) }).format(decimal as `${number}`);
  // A signed movement sits next to its "+" twin: give it a real minus sign (−), not a hyphen.
  return options.signed ? text.replace('-', '\u2212') : text;
}

/** A rate in basis points as a percentage in the reader's locale ("10%", "12,5 %"). */
export function formatPercent(bps: number, locale: string): string {
  return numberFormat(locale, { style: 'percent', maximumFractionDigits: 2 }).format(bps / 10_000);
}

export function formatNumber(value: number, locale: string): string {
  return numberFormat(locale, {}).format(value);
}

export function formatDateTime(epochMs: number, locale: string, timeZone?: string): string {
  // Chinese readers expect 24-hour times ("05:59"), not "清晨5:59".
  const hours = locale.startsWith('zh') ? { hourCycle: 'h23' as const } : {};
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', ...hours, ...(timeZone ? { timeZone } : {}) }).format(epochMs);
}

export function formatDate(epochMs: number, locale: string, timeZone?: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', ...(timeZone ? { timeZone } : {}) }).format(epochMs);
}
