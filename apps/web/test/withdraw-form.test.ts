import { describe, expect, it } from 'vitest';
import type { WithdrawalTermsView } from '@pa/shared';
import { allAmount, attemptFor, blockingProblem, checkAmount, outcomeUnknown, randomKey, summaryOf } from '../src/features/withdrawals/lib/withdraw-form';

const terms: WithdrawalTermsView = { currency: 'CNY', available: 50_000, min: 1_000, max: 5_000_000, perDay: 3, usedToday: 0, feeBps: 100, feeFixed: 200 };

describe('the withdrawal form, checked with the server’s own rules', () => {
  it('computes fee and net from the typed amount (1% rounded half up + fixed)', () => {
    expect(checkAmount('100', terms)).toEqual({ state: 'ok', amount: 10_000, fee: 300, net: 9_700 });
    expect(checkAmount('12.34', terms)).toEqual({ state: 'ok', amount: 1_234, fee: 212, net: 1_022 });
    expect(checkAmount('１００', terms)).toMatchObject({ state: 'ok', amount: 10_000 });
  });

  it('reports the first problem in the server’s order', () => {
    expect(checkAmount('9.99', terms)).toMatchObject({ state: 'problem', problem: 'WITHDRAWAL_BELOW_MINIMUM' });
    expect(checkAmount('500.01', terms)).toMatchObject({ state: 'problem', problem: 'INSUFFICIENT_BALANCE' });
    expect(checkAmount('60000', { ...terms, available: 10_000_000 })).toMatchObject({ state: 'problem', problem: 'WITHDRAWAL_ABOVE_MAXIMUM' });
    expect(checkAmount('100', { ...terms, usedToday: 3 })).toMatchObject({ state: 'problem', problem: 'WITHDRAWAL_DAILY_LIMIT' });
    expect(checkAmount('100', { ...terms, available: -5 })).toMatchObject({ state: 'problem', problem: 'NEGATIVE_BALANCE' });
    // At or above the minimum but nothing left after the fee: below the minimum too.
    expect(checkAmount('10', { ...terms, feeFixed: 1_000 })).toMatchObject({ state: 'problem', problem: 'WITHDRAWAL_BELOW_MINIMUM', fee: 1_010, net: -10 });
  });

  it('names the limit that binds when an amount is over both the maximum and the balance (issue 28)', () => {
    // 6,000 asked, 66.09 available, 5,000 the most per request: the balance is the problem.
    const poor = { ...terms, available: 6_609, max: 500_000 };
    expect(checkAmount('6000', poor)).toMatchObject({ state: 'problem', problem: 'INSUFFICIENT_BALANCE' });
    expect(checkAmount('5000', poor)).toMatchObject({ state: 'problem', problem: 'INSUFFICIENT_BALANCE' });
    // Rich enough: the maximum binds, whatever the amount.
    const rich = { ...terms, available: 900_000, max: 500_000 };
    expect(checkAmount('6000', rich)).toMatchObject({ state: 'problem', problem: 'WITHDRAWAL_ABOVE_MAXIMUM' });
    expect(checkAmount('10000', rich)).toMatchObject({ state: 'problem', problem: 'WITHDRAWAL_ABOVE_MAXIMUM' });
    // Exactly the maximum available: over it, the maximum is the rule that was broken.
    expect(checkAmount('5000.01', { ...terms, available: 500_000, max: 500_000 })).toMatchObject({ problem: 'WITHDRAWAL_ABOVE_MAXIMUM' });
    // Below the minimum still comes first; a negative balance is named as such.
    expect(checkAmount('9', poor)).toMatchObject({ problem: 'WITHDRAWAL_BELOW_MINIMUM' });
    expect(checkAmount('6000', { ...poor, available: -500 })).toMatchObject({ problem: 'NEGATIVE_BALANCE' });
  });

  it('shows a summary (amount, fee, net) only for an amount that can be sent', () => {
    const poor = { ...terms, available: 6_609, max: 500_000 };
    expect(summaryOf(checkAmount('6000', poor))).toBeNull();
    expect(summaryOf(checkAmount('9.99', terms))).toBeNull();
    expect(summaryOf(checkAmount('100', { ...terms, usedToday: 3 }))).toBeNull();
    expect(summaryOf(checkAmount('12.345', terms))).toBeNull();
    expect(summaryOf(checkAmount('', terms))).toBeNull();
    expect(summaryOf(checkAmount('66.09', poor))).toEqual({ amount: 6_609, fee: 266, net: 6_343 });
  });

  it('tells unreadable input apart from an empty field', () => {
    expect(checkAmount('  ', terms)).toEqual({ state: 'empty' });
    expect(checkAmount('12.345', terms)).toEqual({ state: 'unreadable', error: 'decimals', digits: 2 });
    expect(checkAmount('1,000.00', terms)).toMatchObject({ state: 'unreadable', error: 'invalid' });
    expect(checkAmount('-5', terms)).toMatchObject({ state: 'unreadable', error: 'negative' });
  });

  it('closes the form when no amount could pass', () => {
    expect(blockingProblem(terms)).toBeNull();
    expect(blockingProblem({ ...terms, available: -1 })).toBe('NEGATIVE_BALANCE');
    expect(blockingProblem({ ...terms, usedToday: 3 })).toBe('WITHDRAWAL_DAILY_LIMIT');
    expect(blockingProblem({ ...terms, available: 999 })).toBe('NOTHING_AVAILABLE');
  });

  it('“all” takes everything available, capped at the maximum', () => {
    expect(allAmount(terms)).toBe(50_000);
    expect(allAmount({ ...terms, max: 20_000 })).toBe(20_000);
    expect(allAmount({ ...terms, available: -10 })).toBe(0);
  });
});

describe('Idempotency-Key per attempt', () => {
  let n = 0;
  const next = () => `key-${++n}`;

  it('reuses the key only for exactly the same request whose answer never arrived', () => {
    const first = attemptFor(null, { amount: 10_000, payoutAccountId: 'pa1' }, next);
    expect(attemptFor(first, { amount: 10_000, payoutAccountId: 'pa1' }, next).key).toBe(first.key);
    expect(attemptFor(first, { amount: 10_001, payoutAccountId: 'pa1' }, next).key).not.toBe(first.key);
    expect(attemptFor(first, { amount: 10_000, payoutAccountId: 'pa2' }, next).key).not.toBe(first.key);
  });

  it('keeps the attempt open only when the outcome is unknown', () => {
    expect(outcomeUnknown(0)).toBe(true);
    expect(outcomeUnknown(502)).toBe(true);
    expect(outcomeUnknown(409)).toBe(false);
    expect(outcomeUnknown(201)).toBe(false);
  });

  it('makes UUID v4 keys', () => {
    expect(randomKey()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(randomKey()).not.toBe(randomKey());
  });
});
