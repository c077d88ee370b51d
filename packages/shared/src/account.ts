/**
 * The account rules (PRODUCT.md §6): an e-mail address or an international phone number. A module
 * of its own, re-exported by rules.ts: the sign-in page (in the web app's entry) needs only these.
 */
import type { FieldCode } from './errors';

export const ACCOUNT_MAX = 254;

const EMAIL_RE = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;
const PHONE_RE = /^\+[1-9]\d{6,14}$/;

/** Case-folds and trims an account; phones lose spaces and dashes. */
export function normalizeAccount(raw: string): string {
  const trimmed = raw.trim();
  if (trimmed.startsWith('+')) return trimmed.replace(/[\s()-]/g, '');
  return trimmed.toLowerCase();
}

export function accountKind(account: string): 'email' | 'phone' | null {
  const a = normalizeAccount(account);
  if (a.length === 0 || a.length > ACCOUNT_MAX) return null;
  if (PHONE_RE.test(a)) return 'phone';
  if (EMAIL_RE.test(a)) return 'email';
  return null;
}

export function checkAccount(raw: string): FieldCode | null {
  if (!raw.trim()) return 'required';
  if (raw.trim().length > ACCOUNT_MAX) return 'too_long';
  return accountKind(raw) ? null : 'invalid_account';
}
