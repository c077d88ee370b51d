/**
 * The withdrawal form's arithmetic, kept pure (and tested): the typed amount in minor units,
 * its fee and net by the shared rule, and the first problem the server would report, checked
 * with the very same function the server runs.
 */
import { checkWithdrawal, withdrawalFee, type WithdrawalProblem } from '@pa/shared/rules';
import type { WithdrawalTermsView } from '@pa/shared';
import { keyedAttempt, outcomeUnknown, randomKey, type Attempt } from '../../../lib/idempotency-key';
import { parseMoneyInput, type AmountError } from '../../../lib/money-input';

export type AmountCheck =
  | { state: 'empty' }
  /** The text is not an amount (letters, too many decimals, a sign…). */
  | { state: 'unreadable'; error: AmountError; digits: number }
  | { state: 'problem'; amount: number; fee: number; net: number; problem: WithdrawalProblem }
  | { state: 'ok'; amount: number; fee: number; net: number };

export function checkAmount(text: string, terms: WithdrawalTermsView): AmountCheck {
  if (!text.trim()) return { state: 'empty' };
  const parsed = parseMoneyInput(text, terms.currency);
  if (!parsed.ok) return { state: 'unreadable', error: parsed.error, digits: parsed.digits };
  const amount = parsed.value;
  const fee = withdrawalFee(amount, terms);
  const net = amount - fee;
  const problem = checkWithdrawal(amount, terms.available, terms.usedToday, terms);
  return problem ? { state: 'problem', amount, fee, net, problem } : { state: 'ok', amount, fee, net };
}

/** Problems that no amount can fix: the form says so up front and stays closed. */
export function blockingProblem(terms: WithdrawalTermsView): 'NEGATIVE_BALANCE' | 'WITHDRAWAL_DAILY_LIMIT' | 'NOTHING_AVAILABLE' | null {
  if (terms.available < 0) return 'NEGATIVE_BALANCE';
  if (terms.usedToday >= terms.perDay) return 'WITHDRAWAL_DAILY_LIMIT';
  if (terms.available < terms.min || terms.available - withdrawalFee(terms.available, terms) <= 0) return 'NOTHING_AVAILABLE';
  return null;
}

/** The "all" shortcut: everything available, within the per-request maximum. */
export const allAmount = (terms: WithdrawalTermsView) => Math.max(0, Math.min(terms.available, terms.max));

export type { Attempt };

/**
 * The Idempotency-Key for a submission: the previous attempt's key when it is the same request
 * again (its answer never arrived), otherwise a new one.
 */
export function attemptFor(previous: Attempt | null, request: { amount: number; payoutAccountId: string }, newKey: () => string = randomKey): Attempt {
  return keyedAttempt(previous, [request.amount, request.payoutAccountId], newKey);
}

export { outcomeUnknown, randomKey };
