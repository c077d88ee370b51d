/**
 * A form's problems, field by field, as the desk's forms show them (components/form-field.tsx).
 */
import { LOCALES, type Locale } from '@pa/shared/locales';

/** A code (a feature's errors.* key or fields.*) and the values its message needs. */
export interface FieldError {
  code: string;
  values?: Record<string, string | number>;
}
export type FormErrors = Record<string, FieldError>;

/** The reader's decimal separator ("," in French and Spanish): amounts are shown the way they would type them. */
export function decimalSeparator(locale: string): string {
  return new Intl.NumberFormat(locale).formatToParts(1.5).find((p) => p.type === 'decimal')?.value ?? '.';
}

/**
 * The language a form with texts per language shows once a check has found errors in
 * `withErrors`: the one on screen when it has some (or no language has), else the first, in the
 * language switch's order, that has.
 */
export function localeToShow(current: Locale, withErrors: ReadonlySet<string>): Locale {
  if (withErrors.size === 0 || withErrors.has(current)) return current;
  return LOCALES.find((l) => withErrors.has(l)) ?? current;
}

/** Scrolls the first element matching `selector` (a field with an error) into view, once it is shown. */
export function revealFirstError(selector: string): void {
  window.setTimeout(() => document.querySelector(selector)?.scrollIntoView({ block: 'center', behavior: 'smooth' }), 50);
}
