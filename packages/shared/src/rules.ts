/**
 * Validation rules of PRODUCT.md §6 as plain functions, shared by the server (inside the zod
 * schemas) and the web forms (inline), so both sides apply exactly the same rules. No zod here:
 * the sign-in page imports this file and must stay small.
 */
import type { FieldCode } from './errors';

export const ACCOUNT_MAX = 254;
export const DISPLAY_NAME_MIN = 2;
export const DISPLAY_NAME_MAX = 32;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 72;
export const INVITE_CODE_LENGTH = 8;
export const CROCKFORD_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

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

export function checkDisplayName(raw: string): FieldCode | null {
  const v = raw.trim();
  if (!v) return 'required';
  const length = [...v].length;
  if (length < DISPLAY_NAME_MIN) return 'too_short';
  if (length > DISPLAY_NAME_MAX) return 'too_long';
  return null;
}

export function checkPassword(password: string, account?: string): FieldCode | null {
  if (!password) return 'required';
  const length = [...password].length;
  if (length < PASSWORD_MIN) return 'too_short';
  if (length > PASSWORD_MAX) return 'too_long';
  if (!/\p{L}/u.test(password) || !/\p{Nd}/u.test(password)) return 'password_weak';
  if (account && normalizeAccount(account) === normalizeAccount(password)) return 'password_equals_account';
  return null;
}

/** Upper-cases and maps the Crockford look-alikes (I, L → 1; O → 0). */
export function normalizeInviteCode(raw: string): string {
  return raw.trim().toUpperCase().replace(/[IL]/g, '1').replace(/O/g, '0');
}

export function checkInviteCode(raw: string): FieldCode | null {
  const v = normalizeInviteCode(raw);
  if (v.length !== INVITE_CODE_LENGTH) return 'invalid';
  for (const ch of v) if (!CROCKFORD_ALPHABET.includes(ch)) return 'invalid';
  return null;
}

export const LINK_CODE_MIN = 4;
export const LINK_CODE_MAX = 32;
export const CHANNEL_MAX = 24;
export const RESERVED_CODES = ['api', 'r', 'admin', 'assets', 'docs', 'static', 'login', 'register', 'pending', 'app', 'www', 'help', 'about', 'health', 'ready', 'manifest', 'icon', 'images', 'me', 'team', 'promote', 'links', 'poster'];

export function checkLinkCode(raw: string): FieldCode | null {
  const v = raw.trim();
  if (!v) return 'required';
  if (v.length < LINK_CODE_MIN) return 'too_short';
  if (v.length > LINK_CODE_MAX) return 'too_long';
  if (!/^[A-Za-z0-9_-]+$/.test(v)) return 'invalid';
  if (RESERVED_CODES.includes(v.toLowerCase())) return 'reserved';
  return null;
}

export function checkChannel(raw: string): FieldCode | null {
  return [...raw.trim()].length > CHANNEL_MAX ? 'too_long' : null;
}

/** Fills a share-text template: {link}, {code} and {name}. */
export function fillShareText(template: string, values: { link: string; code: string; name: string }): string {
  return template.replace(/\{(link|code|name)\}/g, (_, key: 'link' | 'code' | 'name') => values[key]);
}

/**
 * A team member's name as others see it: the first and last character kept, the rest starred
 * ("Max Member" → "M********r", "李雷" → "李*", "王小明" → "王*明"). Characters, not UTF-16 units.
 */
export function maskName(name: string): string {
  const chars = [...name.trim()];
  if (chars.length <= 1) return chars.join('') || '*';
  if (chars.length === 2) return `${chars[0]}*`;
  return `${chars[0]}${'*'.repeat(Math.min(chars.length - 2, 8))}${chars[chars.length - 1]}`;
}
