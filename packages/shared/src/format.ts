/**
 * Numbers, money and dates through Intl, in the reader's locale — one formatter for the server
 * (mails, CSV texts) and the web alike. Money arrives as integer minor units.
 *
 * Creating an Intl formatter costs far more than using one (a DateTimeFormat takes milliseconds on
 * a phone), so each is made once per locale and options and kept: a screen of figures or dates
 * then costs one formatter per kind, not one per value.
 */
const numberFormats = new Map<string, Intl.NumberFormat>();
const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();
const minorDigits = new Map<string, number>();

/** The value kept under `key`, made by `make` the first time. */
function kept<V>(map: Map<string, V>, key: string, make: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = make();
    map.set(key, value);
  }
  return value;
}

/** A shared Intl.NumberFormat for these locale and options (options must be plain JSON values). */
export const numberFormat = (locale: string, options: Intl.NumberFormatOptions = {}): Intl.NumberFormat =>
  kept(numberFormats, `${locale}|${JSON.stringify(options)}`, () => new Intl.NumberFormat(locale, options));

/** A shared Intl.DateTimeFormat for these locale and options (options must be plain JSON values). */
export const dateTimeFormat = (locale: string, options: Intl.DateTimeFormatOptions = {}): Intl.DateTimeFormat =>
  kept(dateTimeFormats, `${locale}|${JSON.stringify(options)}`, () => new Intl.DateTimeFormat(locale, options));

/** How many minor units digits a currency has (CNY 2, JPY 0, KWD 3). */
export const minorUnitDigits = (currency: string): number =>
  kept(minorDigits, currency, () => new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2);

/**
 * An integer of minor units as an exact decimal string with `digits` decimals ("1234.50", "-0.05",
 * "1500"): no float arithmetic on the amount.
 */
export function decimalAmount(minor: number, digits: number): string {
  if (!Number.isSafeInteger(minor)) throw new Error('money must be an integer of minor units');
  const abs = String(Math.abs(minor)).padStart(digits + 1, '0');
  const text = digits ? `${abs.slice(0, -digits)}.${abs.slice(-digits)}` : abs;
  return minor < 0 ? `-${text}` : text;
}

/**
 * Bare signs that stand for different currencies to different readers ("¥" is the yuan to a
 * Chinese reader and the yen to an English one; "$" is the local dollar in Taiwan, Hong Kong…).
 */
const UNAMBIGUOUS_MARKS: Record<string, string> = { JPY: 'JP¥', USD: 'US$' };
const currencyMarks = new Map<string, string>();

/**
 * How a currency is marked, the same in every language (docs/architecture.md, "Currency display"):
 * the English (CLDR `en`) symbol, which names the country where the sign is shared ("CN¥", "HK$",
 * "NT$", else the ISO code), with the two bare signs English keeps for itself made explicit too.
 * Intl alone would write the yuan "¥" in Simplified Chinese, "CN¥" in English and "CNY" in French.
 */
export const currencyMark = (currency: string): string =>
  kept(currencyMarks, currency, () =>
    UNAMBIGUOUS_MARKS[currency] ?? new Intl.NumberFormat('en', { style: 'currency', currency }).formatToParts(0).find((p) => p.type === 'currency')?.value ?? currency);

/**
 * A currency amount through `format` (a currency NumberFormat) with the language's side and
 * separators but the currency's one mark; `minus` replaces the sign's hyphen.
 */
export function withCurrencyMark(format: Intl.NumberFormat, value: number | `${number}`, currency: string, minus?: string): string {
  const mark = currencyMark(currency);
  return (format.formatToParts(value as number) as Intl.NumberFormatPart[])
    .map((p) => (p.type === 'currency' ? mark : p.type === 'minusSign' && minus ? minus : p.value))
    .join('');
}

/** Formats an integer of minor units exactly (no float arithmetic on the amount). */
export function formatMoney(minor: number, currency: string, locale: string, options: { signed?: boolean } = {}): string {
  const decimal = decimalAmount(minor, minorUnitDigits(currency));
  // Intl formats decimal strings exactly, without going through a binary float.
  const format = numberFormat(locale, { style: 'currency', currency, ...(options.signed ? { signDisplay: 'exceptZero' as const } : {}) });
  // A signed movement sits next to its "+" twin: give it a real minus sign (−), not a hyphen.
  return withCurrencyMark(format, decimal as `${number}`, currency, options.signed ? '\u2212' : undefined);
}

/** A rate in basis points as a percentage in the reader's locale ("10%", "12,5 %"). */
export function formatPercent(bps: number, locale: string): string {
  return numberFormat(locale, { style: 'percent', maximumFractionDigits: 2 }).format(bps / 10_000);
}

export function formatNumber(value: number, locale: string): string {
  return numberFormat(locale, {}).format(value);
}

/** Clock options: 24-hour for Chinese readers ("05:59", not "清晨5:59"), and the zone if one is given. */
const clock = (locale: string, timeZone?: string): Intl.DateTimeFormatOptions => ({
  ...(locale.startsWith('zh') ? { hourCycle: 'h23' as const } : {}),
  ...(timeZone ? { timeZone } : {}),
});

/**
 * Traditional Chinese's medium date-time pattern is "2026/11/24 09:24" while its medium date is
 * "2026年11月24日": spelt out by parts, a date reads the same with or without its time.
 */
const DATE_TIME_STYLE = (locale: string): Intl.DateTimeFormatOptions =>
  locale.startsWith('zh-Hant') ? { year: 'numeric', month: 'long', day: 'numeric', hour: '2-digit', minute: '2-digit' } : { dateStyle: 'medium', timeStyle: 'short' };

export function formatDateTime(epochMs: number, locale: string, timeZone?: string): string {
  return dateTimeFormat(locale, { ...DATE_TIME_STYLE(locale), ...clock(locale, timeZone) }).format(epochMs);
}

/**
 * A campaign's end as its last day, which is included: `endsAt` is the first instant after the
 * campaign (the end of the chosen day in the installation's zone), so the day shown is that of
 * the millisecond before it — "until 28 Feb" for an `endsAt` of 1 March 00:00.
 */
export function formatLastDay(endsAt: number, locale: string, timeZone?: string): string {
  return formatDate(endsAt - 1, locale, timeZone);
}

export function formatDate(epochMs: number, locale: string, timeZone?: string): string {
  return dateTimeFormat(locale, { dateStyle: 'medium', ...(timeZone ? { timeZone } : {}) }).format(epochMs);
}

/** A time of day ("10:42", "10:42 AM"); 24-hour for Chinese readers, as in formatDateTime. */
export function formatTime(epochMs: number, locale: string, timeZone?: string): string {
  return dateTimeFormat(locale, { hour: 'numeric', minute: '2-digit', ...clock(locale, timeZone) }).format(epochMs);
}

/**
 * A day key (YYYY-MM-DD, already in the installation's zone) as a date in the reader's locale:
 * `numeric` "11/22", `short` "Nov 22", `weekday` "Sun, Nov 22" (Chinese: "11月22日 周日" — run
 * together it reads "11月22日周日"), `long` "November 22, 2026" (the mails' days).
 */
export function formatDay(day: string, locale: string, style: 'numeric' | 'short' | 'weekday' | 'long'): string {
  const date = new Date(`${day}T12:00:00Z`);
  const f = (o: Intl.DateTimeFormatOptions) => dateTimeFormat(locale, { ...o, timeZone: 'UTC' }).format(date);
  if (style === 'long') return f({ dateStyle: 'long' });
  if (style === 'numeric') return f({ month: 'numeric', day: 'numeric' });
  if (style === 'short') return f({ month: 'short', day: 'numeric' });
  if (locale.startsWith('zh')) return `${f({ month: 'long', day: 'numeric' })} ${f({ weekday: 'short' })}`;
  return f({ weekday: 'short', month: 'short', day: 'numeric' });
}

