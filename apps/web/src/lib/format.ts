/**
 * Numbers, money and dates through Intl, in the reader's locale. Money arrives as integer minor units.
 *
 * Creating an Intl formatter costs far more than using one (a DateTimeFormat takes milliseconds on
 * a phone), so each is made once per locale and options and kept: a screen of figures or dates
 * then costs one formatter per kind, not one per value.
 */
const numberFormats = new Map<string, Intl.NumberFormat>();
const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();
const minorDigits = new Map<string, number>();

/** A shared Intl.NumberFormat for these locale and options (options must be plain JSON values). */
export function numberFormat(locale: string, options: Intl.NumberFormatOptions = {}): Intl.NumberFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let f = numberFormats.get(key);
  if (!f) {
    f = new Intl.NumberFormat(locale, options);
    numberFormats.set(key, f);
  }
  return f;
}

/** A shared Intl.DateTimeFormat for these locale and options (options must be plain JSON values). */
export function dateTimeFormat(locale: string, options: Intl.DateTimeFormatOptions = {}): Intl.DateTimeFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let f = dateTimeFormats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, options);
    dateTimeFormats.set(key, f);
  }
  return f;
}

export function minorUnitDigits(currency: string): number {
  let digits = minorDigits.get(currency);
  if (digits === undefined) {
    digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
    minorDigits.set(currency, digits);
  }
  return digits;
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
  return dateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', ...hours, ...(timeZone ? { timeZone } : {}) }).format(epochMs);
}

export function formatDate(epochMs: number, locale: string, timeZone?: string): string {
  return dateTimeFormat(locale, { dateStyle: 'medium', ...(timeZone ? { timeZone } : {}) }).format(epochMs);
}

/** A time of day ("10:42", "10:42 AM"); 24-hour for Chinese readers, as in formatDateTime. */
export function formatTime(epochMs: number, locale: string, timeZone?: string): string {
  const hours = locale.startsWith('zh') ? { hourCycle: 'h23' as const } : {};
  return dateTimeFormat(locale, { hour: 'numeric', minute: '2-digit', ...hours, ...(timeZone ? { timeZone } : {}) }).format(epochMs);
}

/**
 * Gets the formatters signed-in pages use first (numbers, dates, times) ready ahead of need, while
 * a page's code and data are still on their way (app/router.tsx). The first Intl.NumberFormat
 * and Intl.DateTimeFormat a page creates are slow — tens of milliseconds each on a phone, one
 * long task in the page's first render — because Intl's locale data is set up then. In Chromium
 * that set-up is shared by the whole page process, whichever thread does it first: a throw-away
 * worker does it, off the main thread. Once it is done (or if workers are unavailable), the
 * page's own formatters are made from a task of their own; quick where the worker did its part.
 */
export function warmFormatters(locale: string): void {
  const makeOwn = () =>
    setTimeout(() => {
      formatNumber(0, locale);
      formatTime(0, locale);
      formatDate(0, locale);
    }, 0);
  let worker: Worker;
  let url: string;
  try {
    const lang = JSON.stringify(locale);
    url = URL.createObjectURL(new Blob([`new Intl.NumberFormat(${lang}).format(1);new Intl.DateTimeFormat(${lang}).format(0);postMessage(0);`], { type: 'text/javascript' }));
    worker = new Worker(url);
  } catch {
    makeOwn();
    return;
  }
  const done = () => {
    worker.terminate();
    URL.revokeObjectURL(url);
    makeOwn();
  };
  worker.onmessage = done;
  worker.onerror = done;
}
