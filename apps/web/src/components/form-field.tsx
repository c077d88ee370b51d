import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Field } from './field';
import type { FieldError } from '@/lib/form-errors';

/** A field error in words: the editor's own messages first, then the shared field codes. */
function fieldErrorText(t: TFunction, error: FieldError): string {
  return t([`campaignAdmin.errors.${error.code}`, `fields.${error.code}`, 'fields.invalid'], error.values ?? {});
}

/** components/field's Field, for errors that carry values (limits, the offending host). */
export function FormField({ id, label, error, help, children }: { id: string; label: ReactNode; error?: FieldError; help?: ReactNode; children: ReactNode }) {
  const { t } = useTranslation();
  return <Field id={id} label={label} errorText={error ? fieldErrorText(t, error) : undefined} help={help}>{children}</Field>;
}

export { TextArea } from './text-area';

/** An input with a unit after it (%, the currency, days). */
export function WithUnit({ unit, children }: { unit: string; children: ReactNode }) {
  return (
    <div className={`console-unit-input${[...unit].length <= 2 ? ' console-unit-input-short' : ''}`}>
      {children}
      <span className="console-unit" aria-hidden>{unit}</span>
    </div>
  );
}
