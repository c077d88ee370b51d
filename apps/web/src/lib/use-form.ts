/**
 * Minimal form state: values, field error codes, validation with the shared rules (the same
 * functions the server runs), and server field errors applied to the same fields.
 */
import { useCallback, useState } from 'react';
import type { FieldCode } from '@pa/shared/errors';

export type Rules<V> = Partial<Record<keyof V, (value: string, all: V) => FieldCode | null>>;

export function useForm<V extends { [K in keyof V]: string }>(initial: V, rules: Rules<V>) {
  const [values, setValues] = useState<V>(initial);
  const [errors, setErrors] = useState<Partial<Record<string, string>>>({});

  const check = useCallback((name: keyof V, all: V) => rules[name]?.((all[name] as string | undefined) ?? '', all) ?? null, [rules]);

  const field = (name: keyof V) => ({
    value: (values[name] as string | undefined) ?? '',
    error: errors[name as string],
    invalid: !!errors[name as string],
    onChange: (value: string) => {
      const next = { ...values, [name]: value };
      setValues(next);
      if (errors[name as string]) setErrors((e) => ({ ...e, [name as string]: check(name, next) ?? undefined }));
    },
    onBlur: () => {
      if (values[name]) setErrors((e) => ({ ...e, [name as string]: check(name, values) ?? undefined }));
    },
  });

  /** Validates every field; true when all pass. */
  const validate = () => {
    const found: Partial<Record<string, string>> = {};
    for (const name of Object.keys(rules) as (keyof V)[]) {
      const code = check(name, values);
      if (code) found[name as string] = code;
    }
    setErrors(found);
    return Object.keys(found).length === 0;
  };

  return { values, setValues, errors, setErrors, field, validate };
}
