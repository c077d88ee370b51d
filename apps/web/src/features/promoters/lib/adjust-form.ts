/**
 * The manual adjustment form's rules (admin, `POST api/admin/promoters/:id/adjustments`): the typed
 * amount → signed integer minor units by string arithmetic (lib/money-input), never a float; the
 * reason as the server checks it (AdjustmentCreateSchema); and the Idempotency-Key kept across
 * retries of the same attempt, so a lost answer can never move money twice.
 */
import { ADJUSTMENT_REASON_MAX, MAX_AMOUNT } from '@pa/shared';
import { minorUnitDigits } from '@/lib/format';
import { keyedAttempt, outcomeUnknown, randomKey, type Attempt } from '@/lib/idempotency-key';
import { parseMoneyInput, type AmountError } from '@/lib/money-input';

export type Direction = 'credit' | 'debit';

/** Why an amount was refused: money-input's reasons, plus `zero` (an adjustment of nothing). */
type AdjustmentAmountError = Exclude<AmountError, 'negative'> | 'zero';
type AdjustmentAmount = { ok: true; amount: number } | { ok: false; error: AdjustmentAmountError; digits: number };

/** A sign typed in front of the figure: ASCII, the typographic minus (U+2212) and full-width forms. */
const SIGN_RE = /^\s*([+\-\u2212\uFF0B\uFF0D])\s*/;

/**
 * Splits a leading sign off what was typed: "-12.34" → debit "12.34"; "+5" → credit "5"; without
 * a sign, `direction` null. The form uses it to turn a typed minus into the Debit choice.
 */
export function splitSign(text: string): { direction: Direction | null; rest: string } {
  const m = SIGN_RE.exec(text);
  if (!m) return { direction: null, rest: text };
  return { direction: m[1] === '+' || m[1] === '\uFF0B' ? 'credit' : 'debit', rest: text.slice(m[0].length) };
}

/**
 * The signed amount in minor units: "12.34" credited in CNY → 1234, debited → −1234. A sign in
 * the text wins over `direction` ("-5" is a debit whatever is chosen). Refuses nothing typed
 * (`required`), junk or a second sign (`invalid`), more decimals than the currency has
 * (`decimals`), 0 (`zero`) and more than the server's MAX_AMOUNT (`too_large`).
 */
export function parseAdjustmentAmount(text: string, direction: Direction, currency: string): AdjustmentAmount {
  const { direction: typed, rest } = splitSign(text.normalize('NFKC'));
  const parsed = parseMoneyInput(rest, currency, MAX_AMOUNT);
  if (!parsed.ok) return { ok: false, error: parsed.error === 'negative' ? 'invalid' : parsed.error, digits: parsed.digits };
  if (parsed.value === 0) return { ok: false, error: 'zero', digits: minorUnitDigits(currency) };
  return { ok: true, amount: (typed ?? direction) === 'debit' ? -parsed.value : parsed.value };
}

type ReasonError = 'required' | 'too_long';

/** The reason as the server trims and bounds it; null when acceptable. */
export function reasonError(reason: string): ReasonError | null {
  const trimmed = reason.trim();
  if (!trimmed) return 'required';
  // zod's max counts UTF-16 code units, as String.length does.
  return trimmed.length > ADJUSTMENT_REASON_MAX ? 'too_long' : null;
}

/** Whether this debit takes the available balance below zero (then `allowNegative` must be ticked). */
export const goesNegative = (available: number, amount: number) => amount < 0 && available + amount < 0;

export type AdjustmentAttempt = Attempt;

/**
 * The Idempotency-Key for a submission: the previous attempt's when the same request is sent
 * again (its answer never arrived), otherwise a new one.
 */
export function attemptFor(
  previous: AdjustmentAttempt | null,
  request: { promoterId: string; amount: number; reason: string; allowNegative: boolean },
  newKey: () => string = randomKey,
): AdjustmentAttempt {
  return keyedAttempt(previous, [request.promoterId, request.amount, request.reason.trim(), request.allowNegative], newKey);
}

export { outcomeUnknown, randomKey };
