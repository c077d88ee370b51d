import { describe, expect, it } from 'vitest';
import {
  canMoveWithdrawal, STAFF_WITHDRAWAL_ACTIONS, WITHDRAWAL_STATUSES, WITHDRAWAL_TRANSITIONS, withdrawalActionsFrom, withdrawalCanReach,
  WITHDRAWAL_REASON_MAX, WITHDRAWAL_REFERENCE_MAX, WITHDRAWAL_SETTING_MONEY_MAX, WITHDRAWALS_PER_DAY, COMMISSION_BULK_MAX,
} from '../src/rules';
import { CommissionBulkSchema, SettingsPatchSchema, WithdrawalActionBodySchema, WithdrawalActionParamsSchema, WithdrawalStatusSchema } from '../src/schemas';

describe('the withdrawal state machine (PRODUCT.md §5)', () => {
  it('is the table the server moves by: each step from one status to one other', () => {
    expect(WITHDRAWAL_TRANSITIONS).toEqual({
      approve: { from: 'requested', to: 'approved', by: 'staff' },
      pay: { from: 'approved', to: 'paid', by: 'staff' },
      fail: { from: 'approved', to: 'failed', by: 'staff' },
      reject: { from: 'requested', to: 'rejected', by: 'staff' },
      cancel: { from: 'requested', to: 'cancelled', by: 'promoter' },
    });
    expect(WithdrawalStatusSchema.options).toEqual([...WITHDRAWAL_STATUSES]);
  });

  it('offers per status exactly the steps that leave it, split by who takes them', () => {
    const staff = Object.fromEntries(WITHDRAWAL_STATUSES.map((s) => [s, withdrawalActionsFrom(s, 'staff')]));
    expect(staff).toEqual({ requested: ['approve', 'reject'], approved: ['pay', 'fail'], paid: [], failed: [], rejected: [], cancelled: [] });
    expect(withdrawalActionsFrom('requested', 'promoter')).toEqual(['cancel']);
    expect(withdrawalActionsFrom('requested')).toEqual(['approve', 'reject', 'cancel']);
    expect(withdrawalActionsFrom('approved', 'promoter')).toEqual([]);
    for (const status of WITHDRAWAL_STATUSES) {
      for (const action of Object.keys(WITHDRAWAL_TRANSITIONS) as (keyof typeof WITHDRAWAL_TRANSITIONS)[]) {
        expect(canMoveWithdrawal(status, action), `${action} from ${status}`).toBe(withdrawalActionsFrom(status).includes(action));
      }
    }
  });

  it('knows what can still come: payment from requested and approved, nothing after an end', () => {
    expect(withdrawalCanReach('requested', 'paid')).toBe(true);
    expect(withdrawalCanReach('approved', 'paid')).toBe(true);
    expect(withdrawalCanReach('approved', 'rejected')).toBe(false);
    expect(withdrawalCanReach('requested', 'failed')).toBe(true);
    for (const end of ['paid', 'failed', 'rejected', 'cancelled'] as const) {
      for (const to of WITHDRAWAL_STATUSES) expect(withdrawalCanReach(end, to), `${end} → ${to}`).toBe(false);
    }
    // One or more steps: a status does not "reach" itself.
    expect(withdrawalCanReach('requested', 'requested')).toBe(false);
  });

  it("the operators' route takes exactly the staff steps (the promoter's cancel has its own route)", () => {
    expect(STAFF_WITHDRAWAL_ACTIONS).toEqual(['approve', 'pay', 'fail', 'reject']);
    for (const action of STAFF_WITHDRAWAL_ACTIONS) expect(WithdrawalActionParamsSchema.safeParse({ id: 'w1', action }).success, action).toBe(true);
    expect(WithdrawalActionParamsSchema.safeParse({ id: 'w1', action: 'cancel' }).success).toBe(false);
  });
});

describe('limits the schemas are built from (exported for the web forms)', () => {
  it('withdrawal settings: money up to 10^12 minor units, 1–100 a day', () => {
    expect(SettingsPatchSchema.safeParse({ withdrawalMax: WITHDRAWAL_SETTING_MONEY_MAX }).success).toBe(true);
    expect(SettingsPatchSchema.safeParse({ withdrawalMax: WITHDRAWAL_SETTING_MONEY_MAX + 1 }).success).toBe(false);
    expect(SettingsPatchSchema.safeParse({ withdrawalsPerDay: WITHDRAWALS_PER_DAY.min }).success).toBe(true);
    expect(SettingsPatchSchema.safeParse({ withdrawalsPerDay: WITHDRAWALS_PER_DAY.min - 1 }).success).toBe(false);
    expect(SettingsPatchSchema.safeParse({ withdrawalsPerDay: WITHDRAWALS_PER_DAY.max }).success).toBe(true);
    expect(SettingsPatchSchema.safeParse({ withdrawalsPerDay: WITHDRAWALS_PER_DAY.max + 1 }).success).toBe(false);
    expect([WITHDRAWAL_SETTING_MONEY_MAX, WITHDRAWALS_PER_DAY]).toEqual([1_000_000_000_000, { min: 1, max: 100 }]);
  });

  it("an operator's step: reference up to 100 characters, reason up to 500", () => {
    expect(WithdrawalActionBodySchema.safeParse({ reference: 'r'.repeat(WITHDRAWAL_REFERENCE_MAX) }).success).toBe(true);
    expect(WithdrawalActionBodySchema.safeParse({ reference: 'r'.repeat(WITHDRAWAL_REFERENCE_MAX + 1) }).success).toBe(false);
    expect(WithdrawalActionBodySchema.safeParse({ reason: 'r'.repeat(WITHDRAWAL_REASON_MAX) }).success).toBe(true);
    expect(WithdrawalActionBodySchema.safeParse({ reason: 'r'.repeat(WITHDRAWAL_REASON_MAX + 1) }).success).toBe(false);
    expect([WITHDRAWAL_REFERENCE_MAX, WITHDRAWAL_REASON_MAX]).toEqual([100, 500]);
  });

  it('a bulk commission decision takes at most 100 ids', () => {
    const ids = (n: number) => Array.from({ length: n }, (_, i) => `c${i}`);
    expect(CommissionBulkSchema.safeParse({ ids: ids(COMMISSION_BULK_MAX), action: 'approve' }).success).toBe(true);
    expect(CommissionBulkSchema.safeParse({ ids: ids(COMMISSION_BULK_MAX + 1), action: 'approve' }).success).toBe(false);
    expect(COMMISSION_BULK_MAX).toBe(100);
  });
});
