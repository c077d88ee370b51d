/**
 * How a withdrawal row reads in the API: the columns it needs and the one mapping to `Withdrawal`,
 * used by the withdrawals module (the promoter's list and detail, the operators' queue) and by the
 * promoters module (a promoter's withdrawals tab in the console). It lives in platform/ because a
 * module may import only itself and the users repository (eslint.config.js, boundaries), so the
 * promoters module cannot reach into modules/withdrawals.
 */
import type { Withdrawal } from '@pa/shared';
import type { WithdrawalsTable } from '../db/types';

/** The columns `toWithdrawal` reads: never the sealed account number or its digest. */
export const WITHDRAWAL_VIEW_COLUMNS = [
  'id', 'amount', 'fee', 'net', 'currency', 'status', 'account_method', 'account_holder', 'account_last4',
  'requested_at', 'decided_at', 'paid_at', 'payout_reference', 'reason',
] as const;

type WithdrawalViewRow = Pick<WithdrawalsTable, (typeof WITHDRAWAL_VIEW_COLUMNS)[number]>;

export function toWithdrawal(r: WithdrawalViewRow): Withdrawal {
  return {
    id: r.id,
    amount: Number(r.amount),
    fee: Number(r.fee),
    net: Number(r.net),
    currency: r.currency,
    status: r.status,
    account: { method: r.account_method, holderName: r.account_holder, last4: r.account_last4 },
    requestedAt: Number(r.requested_at),
    decidedAt: r.decided_at === null ? null : Number(r.decided_at),
    paidAt: r.paid_at === null ? null : Number(r.paid_at),
    payoutReference: r.payout_reference,
    reason: r.reason,
  };
}
