import { useTranslation } from 'react-i18next';
import type { InputHTMLAttributes, ReactNode } from 'react';

interface FieldProps {
  id: string;
  label: ReactNode;
  /** A field code (translated here) or nothing. */
  error?: string;
  /** An error already in words (overrides `error`), for messages that carry values. */
  errorText?: string;
  help?: ReactNode;
  children: ReactNode;
}

/** Label, control, and either its error (field code, translated) or a help line. */
export function Field({ id, label, error, errorText, help, children }: FieldProps) {
  const { t } = useTranslation();
  const message = errorText ?? (error ? t(`fields.${error}`, { defaultValue: t('fields.invalid') }) : undefined);
  return (
    <div className={`field${message ? ' field-invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {children}
      {message ? (
        <p className="field-error" id={`${id}-msg`} data-testid={`${id}-error`}>{message}</p>
      ) : help ? (
        <p className="field-help" id={`${id}-msg`}>{help}</p>
      ) : null}
    </div>
  );
}

type TextInputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value'> & {
  id: string;
  value: string;
  onChange: (value: string) => void;
  invalid?: boolean;
  /** Accepted so a form binding can be spread in; shown by Field, not here. */
  error?: string;
};

export function TextInput({ id, value, onChange, invalid, error: _error, ...rest }: TextInputProps) {
  return (
    <input
      id={id}
      name={id}
      className="text-input"
      value={value}
      aria-invalid={invalid || undefined}
      aria-describedby={`${id}-msg`}
      onChange={(e) => onChange(e.target.value)}
      {...rest}
    />
  );
}
