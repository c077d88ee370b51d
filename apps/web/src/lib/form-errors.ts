/**
 * A form's problems, field by field, as the desk's forms show them (components/form-field.tsx).
 */
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
