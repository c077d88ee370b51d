/**
 * Typed amounts ↔ the integers the server stores, by string arithmetic only (never a float
 * multiply): money in minor units of a currency, percentages in basis points (1% = 100 bps).
 *
 * Accepted input: digits with at most one decimal separator ("." or ","), optional surrounding
 * spaces, full-width digits (typed with a CJK keyboard); "12." and ".5" too. Trailing zeros after
 * the separator add no precision and are accepted ("12.500" is 12.50). Grouping separators,
 * signs, exponents and anything else are refused.
 */
import { currencyMark, minorUnitDigits } from './format';

/** Why an input was refused; the form shows a message for each. */
export type AmountError = 'required' | 'invalid' | 'negative' | 'decimals' | 'too_large';
export type AmountResult = { ok: true; value: number } | { ok: false; error: AmountError; digits: number };

/** A refused amount as a form's field error (its message code and values); `max` is the limit as the reader reads it. */
export function amountFieldError(r: AmountResult & { ok: false }, max: string): { code: string; values?: Record<string, string | number> } {
  if (r.error === 'decimals') return r.digits === 0 ? { code: 'noDecimals' } : { code: 'decimals', values: { digits: r.digits } };
  if (r.error === 'too_large') return { code: 'tooLarge', values: { max } };
  return { code: r.error };
}

const NUMBER_RE = /^(?:(\d+)(?:[.,](\d*))?|[.,](\d+))$/;

/** Shifts a decimal string right by `digits` places: the exact integer it then names, or an error. */
function parseScaled(text: string, digits: number, max: number): AmountResult {
  const fail = (error: AmountError): AmountResult => ({ ok: false, error, digits });
  const raw = text.normalize('NFKC').trim();
  if (raw === '') return fail('required');
  const negative = raw.startsWith('-');
  const match = NUMBER_RE.exec(negative ? raw.slice(1).trimStart() : raw);
  if (!match) return fail('invalid');
  if (negative) return fail('negative');
  const whole = match[1] ?? '0';
  const fraction = (match[2] ?? match[3] ?? '').replace(/0+$/, '');
  if (fraction.length > digits) return fail('decimals');
  const scaled = BigInt(whole + fraction.padEnd(digits, '0'));
  if (scaled > BigInt(max)) return fail('too_large');
  return { ok: true, value: Number(scaled) };
}

/**
 * "12.5" in a 2-digit currency → 1250; in JPY "1500" → 1500 and "1500.5" is refused
 * (`decimals`). `max` is the largest accepted number of minor units.
 */
export function parseMoneyInput(text: string, currency: string, max = Number.MAX_SAFE_INTEGER): AmountResult {
  return parseScaled(text, minorUnitDigits(currency), max);
}

/** "10.5" → 1050 basis points; at most two decimals; an optional trailing "%"; at most 100% unless `max` says otherwise. */
export function parsePercentToBps(text: string, max = 10_000): AmountResult {
  return parseScaled(text.normalize('NFKC').trim().replace(/\s*%$/, ''), 2, max);
}

/** Writes an integer scaled by 10^digits back as a plain decimal, without trailing zeros. */
function unscale(value: number, digits: number, keepAllDigits: boolean): string {
  if (!Number.isSafeInteger(value)) throw new Error('expected an integer');
  const abs = String(Math.abs(value)).padStart(digits + 1, '0');
  const whole = digits ? abs.slice(0, -digits) : abs;
  let fraction = digits ? abs.slice(-digits) : '';
  if (/^0*$/.test(fraction)) fraction = '';
  else if (!keepAllDigits) fraction = fraction.replace(/0+$/, '');
  return `${value < 0 ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** 1050 → "10.5", 1 → "0.01", 10000 → "100": the text an editor starts from. */
export function bpsToPercentText(bps: number): string {
  return unscale(bps, 2, false);
}

/** 1250 → "12.50", 1200 → "12", JPY 1500 → "1500": the text a money editor starts from. */
export function minorToInputText(minor: number, currency: string): string {
  return unscale(minor, minorUnitDigits(currency), true);
}

/**
 * How the reader's locale writes an amount: the currency mark, on which side of the figure
 * ("CN¥ 50", "50 CN¥"), and the decimal separator a form should write ("99.50", "99,50").
 */
export function amountStyle(currency: string, locale: string): { mark: string; after: boolean; decimal: string } {
  const parts = new Intl.NumberFormat(locale, { style: 'currency', currency, minimumFractionDigits: 1 }).formatToParts(1);
  const at = parts.findIndex((p) => p.type === 'currency');
  return {
    mark: currencyMark(currency),
    after: at > parts.findIndex((p) => p.type === 'integer'),
    decimal: parts.find((p) => p.type === 'decimal')?.value ?? '.',
  };
}
