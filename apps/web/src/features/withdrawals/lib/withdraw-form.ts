/**
 * The withdrawal form's arithmetic, kept pure (and tested): the typed amount in minor units,
 * its fee and net by the shared rule, and the first problem the server would report, checked
 * with the very same function the server runs.
 */
import { checkWithdrawal, withdrawalFee, type WithdrawalProblem } from '@pa/shared/rules';
import type { WithdrawalTermsView } from '@pa/shared';
import { keyedAttempt, outcomeUnknown, randomKey, type Attempt } from '@/lib/idempotency-key';
import { parseMoneyInput, type AmountError } from '@/lib/money-input';

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
  const problem = bindingProblem(checkWithdrawal(amount, terms.available, terms.usedToday, terms), amount, terms);
  return problem ? { state: 'problem', amount, fee, net, problem } : { state: 'ok', amount, fee, net };
}

/**
 * The problem to show for an amount over both the per-request maximum and the balance: the lower
 * of the two is what binds. The server checks the maximum first (it needs nothing but the
 * request), but asking 6,000 with 66.09 available is a balance problem: lowering the amount to the
 * maximum would not make it pass (issue 28).
 */
function bindingProblem(problem: WithdrawalProblem | null, amount: number, terms: WithdrawalTermsView): WithdrawalProblem | null {
  if (problem !== 'WITHDRAWAL_ABOVE_MAXIMUM' || amount <= terms.available || terms.available >= terms.max) return problem;
  return terms.available < 0 ? 'NEGATIVE_BALANCE' : 'INSUFFICIENT_BALANCE';
}

/**
 * The summary under the form (amount, fee, net): only for an amount that can be sent. An amount
 * with a problem has none: its message says what is wrong (the fee too, when the fee is what
 * leaves nothing), and a net figure beside it would read as a promise (issue 28).
 */
export function summaryOf(check: AmountCheck): { amount: number; fee: number; net: number } | null {
  return check.state === 'ok' ? { amount: check.amount, fee: check.fee, net: check.net } : null;
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
