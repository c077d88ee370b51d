/**
 * The withdrawal form's arithmetic, kept pure (and tested): the typed amount in minor units,
 * its fee and net by the shared rule, and the first problem the server would report, checked
 * with the very same function the server runs.
 */
import { checkWithdrawal, withdrawalFee, type WithdrawalProblem } from '@pa/shared/rules';
import type { WithdrawalTermsView } from '@pa/shared';
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

/** A random UUID v4, also where `crypto.randomUUID` is missing (older in-app browsers). */
export function randomKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export interface Attempt {
  key: string;
  /** What was sent with the key: a retry reuses the key only for exactly the same request. */
  body: string;
}

/**
 * The Idempotency-Key for a submission: the previous attempt's key when it is the same request
 * again (its answer never arrived), otherwise a new one.
 */
export function attemptFor(previous: Attempt | null, request: { amount: number; payoutAccountId: string }, newKey: () => string = randomKey): Attempt {
  const body = JSON.stringify([request.amount, request.payoutAccountId]);
  return previous && previous.body === body ? previous : { key: newKey(), body };
}

/**
 * Whether the outcome of an attempt is unknown (no answer, or a server failure that may have
 * happened after the commit): then a retry must carry the same key so it cannot pay twice.
 * Any other answer settles the attempt.
 */
export const outcomeUnknown = (status: number) => status === 0 || status >= 500;
