import type { TFunction } from 'i18next';
import { ApiError } from './api-client';

/** The reader's own translation of an error code (the server's message is not shown). */
export function errorText(t: TFunction, error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 0) return t('errors.NETWORK');
    return t(`errors.${error.code}`);
  }
  return t('errors.INTERNAL');
}

/** Field codes → translated texts, for inline display. */
export function fieldErrors(t: TFunction, error: unknown): Record<string, string> {
  if (!(error instanceof ApiError)) return {};
  return Object.fromEntries(Object.entries(error.fields).map(([field, code]) => [field, t(`fields.${code}`, { defaultValue: t('fields.invalid') })]));
}
