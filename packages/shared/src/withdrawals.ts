/**
 * The withdrawal state machine and the withdrawal limits, as data and without zod: the server's
 * service moves by this table, its schemas are built from these values, and the web offers and
 * checks exactly the same (via `@pa/shared/rules`, which re-exports this file).
 */

/** Every status a withdrawal can be in (WithdrawalStatusSchema is `z.enum` of this). */
export const WITHDRAWAL_STATUSES = ['requested', 'approved', 'paid', 'failed', 'rejected', 'cancelled'] as const;
type WithdrawalStatusName = (typeof WITHDRAWAL_STATUSES)[number];

/**
 * The withdrawal state machine (PRODUCT.md §5) as data: which step takes which status to which,
 * and who takes it. The server moves a withdrawal only `from` → `to` (anything else is
 * INVALID_STATE_TRANSITION); the web offers exactly the steps the table allows from a status.
 */
export const WITHDRAWAL_TRANSITIONS = {
  approve: { from: 'requested', to: 'approved', by: 'staff' },
  pay: { from: 'approved', to: 'paid', by: 'staff' },
  fail: { from: 'approved', to: 'failed', by: 'staff' },
  reject: { from: 'requested', to: 'rejected', by: 'staff' },
  cancel: { from: 'requested', to: 'cancelled', by: 'promoter' },
} as const satisfies Record<string, { from: WithdrawalStatusName; to: WithdrawalStatusName; by: 'staff' | 'promoter' }>;
export type WithdrawalAction = keyof typeof WITHDRAWAL_TRANSITIONS;
/** The steps operators take (`POST api/admin/withdrawals/:id/:action`); the promoter's is `cancel`. */
export type StaffWithdrawalAction = { [A in WithdrawalAction]: (typeof WITHDRAWAL_TRANSITIONS)[A]['by'] extends 'staff' ? A : never }[WithdrawalAction];
export const STAFF_WITHDRAWAL_ACTIONS = (Object.keys(WITHDRAWAL_TRANSITIONS) as WithdrawalAction[]).filter((a) => WITHDRAWAL_TRANSITIONS[a].by === 'staff') as StaffWithdrawalAction[];

/** The steps the table allows from `status` (in the table's order), optionally only those `by` takes. */
export function withdrawalActionsFrom(status: WithdrawalStatusName, by: 'staff'): StaffWithdrawalAction[];
export function withdrawalActionsFrom(status: WithdrawalStatusName, by?: 'staff' | 'promoter'): WithdrawalAction[];
export function withdrawalActionsFrom(status: WithdrawalStatusName, by?: 'staff' | 'promoter'): WithdrawalAction[] {
  return (Object.keys(WITHDRAWAL_TRANSITIONS) as WithdrawalAction[]).filter((a) => WITHDRAWAL_TRANSITIONS[a].from === status && (by === undefined || WITHDRAWAL_TRANSITIONS[a].by === by));
}

/** Whether the table allows `action` from `status`. */
export const canMoveWithdrawal = (status: WithdrawalStatusName, action: WithdrawalAction): boolean => WITHDRAWAL_TRANSITIONS[action].from === status;

/** Whether one or more steps can still take a withdrawal from `from` to `to` ("can this still be paid?"). */
export function withdrawalCanReach(from: WithdrawalStatusName, to: WithdrawalStatusName): boolean {
  const seen = new Set<WithdrawalStatusName>();
  const next: WithdrawalStatusName[] = [from];
  while (next.length > 0) {
    const s = next.pop()!;
    for (const t of Object.values(WITHDRAWAL_TRANSITIONS)) {
      if (t.from !== s) continue;
      if (t.to === to) return true;
      if (!seen.has(t.to)) {
        seen.add(t.to);
        next.push(t.to);
      }
    }
  }
  return false;
}

/** Limits of the withdrawal settings (SettingsPatchSchema): money settings in minor units, the daily count. */
export const WITHDRAWAL_SETTING_MONEY_MAX = 1_000_000_000_000;
export const WITHDRAWALS_PER_DAY = { min: 1, max: 100 } as const;
/** Limits of an operator's step (WithdrawalActionBodySchema): the payout reference and the reason. */
export const WITHDRAWAL_REFERENCE_MAX = 100;
export const WITHDRAWAL_REASON_MAX = 500;
