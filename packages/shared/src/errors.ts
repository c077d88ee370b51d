/** The error catalogue (PRODUCT.md §9). A code never changes meaning; new codes are appended. */
export const ERROR_STATUS = {
  VALIDATION_FAILED: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  RATE_LIMITED: 429,
  PAYLOAD_TOO_LARGE: 413,
  INVALID_CREDENTIALS: 401,
  ACCOUNT_LOCKED: 423,
  ACCOUNT_PENDING: 403,
  ACCOUNT_SUSPENDED: 403,
  ACCOUNT_REJECTED: 403,
  ACCOUNT_EXISTS: 409,
  INVITE_CODE_INVALID: 400,
  ENCRYPTION_INVALID: 400,
  REPLAY_DETECTED: 400,
  DIGEST_MISMATCH: 400,
  CSRF_INVALID: 403,
  SIGNATURE_INVALID: 401,
  CAMPAIGN_NOT_ACTIVE: 409,
  ENROLLMENT_REQUIRED: 403,
  LINK_CODE_TAKEN: 409,
  DESTINATION_NOT_ALLOWED: 400,
  INSUFFICIENT_BALANCE: 409,
  NEGATIVE_BALANCE: 409,
  WITHDRAWAL_BELOW_MINIMUM: 400,
  WITHDRAWAL_ABOVE_MAXIMUM: 400,
  WITHDRAWAL_DAILY_LIMIT: 409,
  PAYOUT_ACCOUNT_REQUIRED: 400,
  INVALID_STATE_TRANSITION: 409,
  IDEMPOTENCY_CONFLICT: 409,
  UNSUPPORTED_MEDIA_TYPE: 415,
  PAYOUT_ACCOUNT_IN_USE: 409,
  REQUEST_TIMEOUT: 408,
  RESET_TOKEN_INVALID: 400,
  LAST_ADMIN: 409,
  MAIL_DISABLED: 409,
  SERVICE_UNAVAILABLE: 503,
  INTERNAL: 500,
  GROUP_NAME_TAKEN: 409,
  DEFAULT_GROUP: 409,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

/**
 * Field-level codes, used in `error.fields` and shown inline by the client: every one the server
 * emits, and no other (docs/api.md lists the same set; a test compares them).
 */
export const FIELD_CODES = [
  'required',
  'invalid',
  'too_short',
  'too_long',
  'invalid_account',
  'password_weak',
  'password_equals_account',
  'unknown_field',
  'mismatch',
  'reserved',
  'taken',
  'not_allowed',
  'not_found',
  'too_large',
  'too_small',
  'stale',
  'replayed',
  'stale_key',
  'invalid_json',
  'after_to',
  'conflict',
  'control_characters',
  'disposable',
] as const;
export type FieldCode = (typeof FIELD_CODES)[number];

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && value in ERROR_STATUS;
}
