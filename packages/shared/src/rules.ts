/**
 * Validation rules of PRODUCT.md §6 as plain functions, shared by the server (inside the zod
 * schemas) and the web forms (inline), so both sides apply exactly the same rules. No zod here.
 */
import type { FieldCode } from './errors';
import { ACCOUNT_MAX, accountKind, normalizeAccount } from './account';

// The account rules (sign-in's) and the withdrawal state machine and limits: zod-free too, each in
// a module of its own so that only the pages using them load them — the sign-in page, in the
// web app's entry, takes the account rules alone (a module's code goes where it is first
// imported, with every export any other page uses from it).
export * from './account';
export * from './withdrawals';

const DISPLAY_NAME_MIN = 2;
const DISPLAY_NAME_MAX = 32;
const PASSWORD_MIN = 8;
const PASSWORD_MAX = 72;
export const INVITE_CODE_LENGTH = 8;
export const CROCKFORD_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * Characters no display name may hold: control characters (C0 with CR, LF and TAB, DEL, C1), the
 * line and paragraph separators, and the bidirectional embeddings, overrides and isolates. A
 * name goes into mail bodies and headers, CSV cells and audit entries, where these break lines or
 * reorder what a reader sees.
 */
const DISPLAY_NAME_FORBIDDEN = /[\p{Cc}\p{Zl}\p{Zp}\u202A-\u202E\u2066-\u2069]/u;

/** An e-mail address to add to a phone account (issue 28): `invalid_account` when it is not one. */
export function checkEmail(raw: string): FieldCode | null {
  if (!raw.trim()) return 'required';
  if (raw.trim().length > ACCOUNT_MAX) return 'too_long';
  return accountKind(raw) === 'email' ? null : 'invalid_account';
}

export function checkDisplayName(raw: string): FieldCode | null {
  const v = raw.trim();
  if (!v) return 'required';
  if (DISPLAY_NAME_FORBIDDEN.test(v)) return 'control_characters';
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

/** A group's invite code (issue 31): longer than a promoter's, as it is handed out wider and names who earns what. */
export const GROUP_CODE_LENGTH = 12;

export function checkGroupCode(raw: string): FieldCode | null {
  const v = normalizeInviteCode(raw);
  if (v.length !== GROUP_CODE_LENGTH) return 'invalid';
  for (const ch of v) if (!CROCKFORD_ALPHABET.includes(ch)) return 'invalid';
  return null;
}

/**
 * One line of text people type and others read (a group's name, a question's label, a short
 * answer): the display name's forbidden characters refused, `max` counted in characters.
 */
export function checkLine(raw: string, max: number, required = true): FieldCode | null {
  const v = raw.trim();
  if (!v) return required ? 'required' : null;
  if (DISPLAY_NAME_FORBIDDEN.test(v)) return 'control_characters';
  return [...v].length > max ? 'too_long' : null;
}

const LINK_CODE_MIN = 4;
export const LINK_CODE_MAX = 32;
const CHANNEL_MAX = 24;
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
 * A name as others see it: its first and last letter (or digit) kept, the letters between starred
 * (at most 8 stars): "Max Member" → "M*******r", "李雷" → "李*", "王小明" → "王*明". Spaces,
 * punctuation, symbols and emoji are left out rather than kept ("Sam (Lyon)" → "S*****n", not
 * "S********)"): a bracket or an emoji as the one visible character says nothing and looks broken.
 * A letter keeps its combining marks. No letters at all: "*".
 */
export function maskName(name: string): string {
  const letters = name.match(/\p{L}\p{M}*|\p{N}\p{M}*/gu) ?? [];
  if (letters.length <= 1) return letters[0] ?? '*';
  if (letters.length === 2) return `${letters[0]}*`;
  return `${letters[0]}${'*'.repeat(Math.min(letters.length - 2, 8))}${letters[letters.length - 1]}`;
}

// ——— Constants the schemas are built from and the web needs without zod ———

/** What an API key may do (ApiScopeSchema is `z.enum` of this). */
export const API_SCOPES = ['conversions:write', 'conversions:read'] as const;
export type ApiScope = (typeof API_SCOPES)[number];
/** The most commission ids one bulk decision takes (CommissionBulkSchema). */
export const COMMISSION_BULK_MAX = 100;

// ——— Withdrawals and payout accounts ———

export const PAYOUT_METHODS = ['bank', 'alipay', 'paypal', 'other'] as const;
export type PayoutMethod = (typeof PAYOUT_METHODS)[number];
export const HOLDER_NAME_MAX = 64;

/** An account number as stored: spaces and dashes between groups removed; e-mail addresses lower-cased. */
export function normalizePayoutNumber(method: PayoutMethod, raw: string): string {
  const compact = raw.trim().replace(/[\s-]+/g, '');
  return compact.includes('@') ? compact.toLowerCase() : compact.toUpperCase();
}

const EMAIL_FORM = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/**
 * bank: 6–34 letters and digits (domestic numbers and IBANs); alipay: a phone number (6–15
 * digits, optional +) or an e-mail address; paypal: an e-mail address; other: 4–64 printable characters.
 */
export function checkPayoutNumber(method: PayoutMethod, raw: string): FieldCode | null {
  const v = normalizePayoutNumber(method, raw);
  if (!v) return 'required';
  switch (method) {
    case 'bank':
      return /^[A-Z0-9]{6,34}$/.test(v) ? null : 'invalid';
    case 'alipay':
      return /^\+?\d{6,15}$/.test(v) || (v.length <= 254 && EMAIL_FORM.test(v)) ? null : 'invalid';
    case 'paypal':
      return v.length <= 254 && EMAIL_FORM.test(v) ? null : 'invalid';
    default:
      return v.length >= 4 && v.length <= 64 && [...v].every((ch) => ch.charCodeAt(0) >= 0x20) ? null : 'invalid';
  }
}

export function checkHolderName(raw: string): FieldCode | null {
  const v = raw.trim();
  if (!v) return 'required';
  if ([...v].length > HOLDER_NAME_MAX) return 'too_long';
  return null;
}

/** What a promoter sees of an account number: its last four characters. */
const payoutLast4 = (normalized: string) => [...normalized].slice(-4).join('');

/**
 * What is kept and shown of an account number (the `last4` field): an e-mail address (PayPal,
 * Alipay) masked as an e-mail — its first character, `***`, and the domain: `l***@example.com` —
 * anything else its last four characters ("•••• mple" told nobody which account it was).
 */
export function payoutShown(normalized: string): string {
  const at = normalized.lastIndexOf('@');
  if (at > 0) return `${[...normalized.slice(0, at)][0]}***${normalized.slice(at)}`;
  return payoutLast4(normalized);
}

/** The kept part as people read it: a masked e-mail as it is, last four characters after "•••• ". */
export const shownPayoutNumber = (last4: string): string => (last4.includes('@') ? last4 : `••••\u00a0${last4}`);

interface WithdrawalTerms {
  /** Minor units. */
  min: number;
  max: number;
  perDay: number;
  feeBps: number;
  feeFixed: number;
}

/** 10_000 basis points = 100 % (1 bp = 0.01 %). */
export const BPS_SCALE = 10_000;

/**
 * THE one rounding rule of the product (commissions and withdrawal fees alike): `base × bps /
 * 10_000`, rounded half up to the nearest minor unit (inputs are non-negative, so half up = half
 * away from zero), in integers only — BigInt once the product passes 2^53, where floating point
 * would round (955,337,332,143 × 9,993 bp is …010 exactly; `Math.floor` of the float gave …011).
 *
 *   1999 × 250 bp = 49.975 → 50;   1 × 4999 bp = 0.4999 → 0;   1 × 5000 bp = 0.5 → 1.
 *
 * Throws a RangeError unless `base` is a non-negative safe integer and `bps` an integer in
 * 0..10_000 (a rate above 100 % is never valid, and it keeps the result ≤ base, hence safe).
 */
export function applyRate(base: number, bps: number): number {
  if (!Number.isSafeInteger(base) || base < 0) throw new RangeError(`base must be a non-negative safe integer, got ${base}`);
  if (!Number.isInteger(bps) || bps < 0 || bps > BPS_SCALE) throw new RangeError(`bps must be an integer in 0..${BPS_SCALE}, got ${bps}`);
  const product = base * bps;
  if (product <= Number.MAX_SAFE_INTEGER) {
    // Exact: both factors are integers and the product is still a safe integer.
    const whole = Math.floor(product / BPS_SCALE);
    return product - whole * BPS_SCALE >= BPS_SCALE / 2 ? whole + 1 : whole;
  }
  return Number((BigInt(base) * BigInt(bps) + BigInt(BPS_SCALE / 2)) / BigInt(BPS_SCALE));
}

/**
 * The fee for a withdrawal: basis points of the amount (applyRate: rounded half up, exact) plus
 * the fixed part. An amount that is not a positive safe integer (a form still being typed) has
 * only the fixed part; the amount checks refuse it anyway.
 */
export function withdrawalFee(amount: number, terms: Pick<WithdrawalTerms, 'feeBps' | 'feeFixed'>): number {
  if (!Number.isSafeInteger(amount) || amount <= 0) return terms.feeFixed;
  return applyRate(amount, terms.feeBps) + terms.feeFixed;
}

export type WithdrawalProblem = 'WITHDRAWAL_BELOW_MINIMUM' | 'WITHDRAWAL_ABOVE_MAXIMUM' | 'NEGATIVE_BALANCE' | 'INSUFFICIENT_BALANCE' | 'WITHDRAWAL_DAILY_LIMIT';

/** The amount limits alone (they need nothing but the request): below the minimum, above the maximum. */
export function checkWithdrawalAmount(amount: number, terms: Pick<WithdrawalTerms, 'min' | 'max' | 'feeBps' | 'feeFixed'>): 'WITHDRAWAL_BELOW_MINIMUM' | 'WITHDRAWAL_ABOVE_MAXIMUM' | null {
  if (!Number.isSafeInteger(amount) || amount < terms.min || amount - withdrawalFee(amount, terms) <= 0) return 'WITHDRAWAL_BELOW_MINIMUM';
  if (amount > terms.max) return 'WITHDRAWAL_ABOVE_MAXIMUM';
  return null;
}

/**
 * The checks of a withdrawal request, in the order the server applies them (the form shows the
 * same answer inline): amount limits, a negative balance, the balance, the day's count. The fee
 * comes out of the amount; an amount that would leave nothing after the fee is below the minimum.
 */
export function checkWithdrawal(amount: number, available: number, usedToday: number, terms: WithdrawalTerms): WithdrawalProblem | null {
  const limits = checkWithdrawalAmount(amount, terms);
  if (limits) return limits;
  if (available < 0) return 'NEGATIVE_BALANCE';
  if (amount > available) return 'INSUFFICIENT_BALANCE';
  if (usedToday >= terms.perDay) return 'WITHDRAWAL_DAILY_LIMIT';
  return null;
}

/** The latest instant any date field takes, in epoch milliseconds: the last moment of year 9999. */
export const MAX_INSTANT = 253_402_300_799_999;

/**
 * One rule for every day parameter (`from`, `to`, …): `YYYY-MM-DD` naming a day that exists on the
 * calendar, between 1970 and 9999 — so "2024-13-45", "2024-00-01", "2023-02-29" and "9999-99-99"
 * are refused at the boundary rather than turned into an invalid Date deeper in.
 */
export function isCalendarDay(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (year < 1970 || month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
  return day <= days;
}

/** The largest amount the API takes, in minor units (10^12). */
export const MAX_AMOUNT = 1_000_000_000_000;
