/**
 * A commission's life as data (docs/money.md): each step names where it may start, where it ends,
 * the ledger entries it posts, the figures it moves and what the promoter is told. The service
 * applies a step with one conditional update (`… WHERE status = from`), and writes these effects in
 * the same transaction; `ledger:check` is written independently of this table and verifies them.
 * Pure: no I/O.
 */
export type CommissionStatus = 'pending' | 'approved' | 'rejected' | 'reversed';
type CommissionStep = 'create' | 'approve' | 'reject' | 'reverse';

/** Where an entry goes: one of the promoter's buckets, or the program's commission expense. */
export type EntrySide = 'pending' | 'available' | 'program';
type StepFigure = 'commission_pending' | 'commission_approved' | 'commission_rejected' | 'commission_reversed';

export interface StepEffect {
  /** The status afterwards. */
  to: CommissionStatus;
  /** The timeline event recorded (creation is the row's own `created_at`). */
  event: 'approved' | 'rejected' | 'reversed' | 'partially_reversed' | null;
  journal: 'commission_created' | 'commission_approved' | 'commission_rejected' | 'commission_reversed';
  entries: { side: EntrySide; amount: number }[];
  /** Per-day figure deltas, on the commission's own day. */
  figures: Partial<Record<StepFigure, number>>;
  notification: 'commission.created' | 'commission.approved' | 'commission.rejected' | 'commission.reversed';
}

/** Which statuses each step may start from (`null`: the commission does not exist yet). */
export const TRANSITIONS: Readonly<Record<CommissionStep, readonly (CommissionStatus | null)[]>> = {
  create: [null],
  approve: ['pending'],
  reject: ['pending'],
  reverse: ['pending', 'approved'],
};

function canStep(step: CommissionStep, from: CommissionStatus | null): boolean {
  return TRANSITIONS[step].includes(from);
}

/** The bucket holding a commission's money while it has this status. */
const bucketOf = (status: CommissionStatus): 'pending' | 'available' => (status === 'pending' ? 'pending' : 'available');
const figureOf = (status: CommissionStatus): StepFigure => `commission_${status}`;

/**
 * What a step does to a commission in status `from`, moving `amount` minor units (> 0): for
 * approve and reject what remains after reversals; for reverse the part taken back, and `full`
 * when nothing remains afterwards.
 */
export function stepEffect(step: CommissionStep, from: CommissionStatus | null, amount: number, options: { full?: boolean } = {}): StepEffect {
  if (!canStep(step, from)) throw new RangeError(`a commission cannot ${step} from ${from ?? 'nothing'}`);
  if (!Number.isSafeInteger(amount) || amount < 0) throw new RangeError(`amount must be a non-negative safe integer, got ${amount}`);
  switch (step) {
    case 'create':
      return {
        to: 'pending', event: null, journal: 'commission_created',
        entries: [{ side: 'pending', amount }, { side: 'program', amount: -amount }],
        figures: { commission_pending: amount }, notification: 'commission.created',
      };
    case 'approve':
      return {
        to: 'approved', event: 'approved', journal: 'commission_approved',
        entries: [{ side: 'pending', amount: -amount }, { side: 'available', amount }],
        figures: { commission_pending: -amount, commission_approved: amount }, notification: 'commission.approved',
      };
    case 'reject':
      return {
        to: 'rejected', event: 'rejected', journal: 'commission_rejected',
        entries: [{ side: 'pending', amount: -amount }, { side: 'program', amount }],
        figures: { commission_pending: -amount, commission_rejected: amount }, notification: 'commission.rejected',
      };
    case 'reverse': {
      const status = from as 'pending' | 'approved';
      return {
        to: options.full ? 'reversed' : status, event: options.full ? 'reversed' : 'partially_reversed', journal: 'commission_reversed',
        entries: [{ side: bucketOf(status), amount: -amount }, { side: 'program', amount }],
        figures: { [figureOf(status)]: -amount, commission_reversed: amount }, notification: 'commission.reversed',
      };
    }
  }
}
