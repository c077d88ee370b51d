/**
 * The double-entry ledger's rules (docs/money.md), pure: no I/O. Every movement of money is one
 * journal whose entries sum to zero; the stored balances move with the entries. Its reads and
 * writes (the journal collector, the stored balances, `ledger:check`) are platform/ledger.ts.
 *
 * Sign convention: a promoter account's balance is what the program owes the promoter in that
 * state (pending, available, withdrawing, paid out). Platform accounts take the other side, so
 * `platform:commissions` is the negative of all commission ever earned and not taken back.
 */

/**
 * `withdrawing` holds requested withdrawals, `payable` approved ones being paid (the wallet shows
 * both as withdrawing), `paid_out` what was paid (net of fees, which go to `platform:fees`).
 */
export const PROMOTER_BUCKETS = ['pending', 'available', 'withdrawing', 'payable', 'paid_out'] as const;
export type PromoterBucket = (typeof PROMOTER_BUCKETS)[number];
export const PLATFORM_ACCOUNTS = ['platform:commissions', 'platform:payouts', 'platform:fees', 'platform:adjustments'] as const;
export type PlatformAccount = (typeof PLATFORM_ACCOUNTS)[number];

export const promoterAccount = (promoterId: string, bucket: PromoterBucket) => `promoter:${promoterId}:${bucket}`;

/**
 * The promoter buckets whose balance may not go below zero: each holds money of commissions or
 * withdrawals that exist (pending commissions, requested, approved or paid withdrawals), so it is
 * their sum. `available` may: a refund reverses a commission already withdrawn, and an admin's
 * adjustment may debit past zero (`allowNegative`) — the promoter then owes the program. Platform
 * accounts take the other side and are negative by the sign convention. The database holds this
 * too (`ledger_balances_non_negative`, migration 020).
 */
export const NON_NEGATIVE_BUCKETS = ['pending', 'withdrawing', 'payable', 'paid_out'] as const satisfies readonly PromoterBucket[];

/** Whether an account's balance may be below zero (see NON_NEGATIVE_BUCKETS). */
export function mayGoNegative(account: string): boolean {
  if (!account.startsWith('promoter:')) return true;
  const bucket = account.slice(account.lastIndexOf(':') + 1);
  return !(NON_NEGATIVE_BUCKETS as readonly string[]).includes(bucket);
}

export interface Entry {
  account: string;
  amount: number;
}

export interface JournalInput {
  kind: string;
  refType: string;
  refId: string;
  promoterId: string | null;
  /** Parameters for the human description (rendered in the reader's language by the client). */
  memo?: Record<string, string | number | null>;
  entries: Entry[];
  at: number;
}

export class LedgerError extends Error {
  override name = 'LedgerError';
}

/**
 * A journal's entries as they are written: the zero ones left out; refused (LedgerError) unless at
 * least one remains, each is an integer of minor units, and they sum to zero.
 */
export function balancedEntries(input: Pick<JournalInput, 'kind' | 'entries'>): Entry[] {
  const entries = input.entries.filter((e) => e.amount !== 0);
  if (entries.length === 0) throw new LedgerError('a journal needs at least one non-zero entry');
  let sum = 0;
  for (const e of entries) {
    if (!Number.isSafeInteger(e.amount)) throw new LedgerError(`entry amount must be an integer of minor units: ${e.amount}`);
    sum += e.amount;
  }
  if (sum !== 0) throw new LedgerError(`journal ${input.kind} does not balance: ${sum}`);
  return entries;
}

export type Wallet = Record<PromoterBucket, number>;
export const emptyWallet = (): Wallet => ({ pending: 0, available: 0, withdrawing: 0, payable: 0, paid_out: 0 });

/**
 * What a commission should have left in the promoter's pending and available accounts, by its
 * status (what `ledger:check` verifies; written independently of the lifecycle table,
 * domain/commission-lifecycle.ts, whose journals it checks).
 */
export function commissionHolds(status: string, amount: number, reversedAmount: number): { pending: number; available: number } {
  const remaining = amount - reversedAmount;
  if (status === 'pending') return { pending: remaining, available: 0 };
  if (status === 'approved') return { pending: 0, available: remaining };
  return { pending: 0, available: 0 };
}

/** The accounts a withdrawal moves money through. */
export type WithdrawalMovement = Record<'available' | 'withdrawing' | 'payable' | 'paid_out' | 'fees', number>;
export const noMovement = (): WithdrawalMovement => ({ available: 0, withdrawing: 0, payable: 0, paid_out: 0, fees: 0 });

/** What a withdrawal should have moved, by its status: out of available, into where the status says. */
export function withdrawalMoves(status: string, amount: number, fee: number, net: number): WithdrawalMovement {
  const want = noMovement();
  if (status === 'requested') Object.assign(want, { available: -amount, withdrawing: amount });
  else if (status === 'approved') Object.assign(want, { available: -amount, payable: amount });
  else if (status === 'paid') Object.assign(want, { available: -amount, paid_out: net, fees: fee });
  return want;
}
