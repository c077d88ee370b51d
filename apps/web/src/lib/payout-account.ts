import { shownPayoutNumber } from '@pa/shared/rules';
import type { AdminWithdrawal } from '@pa/shared';

/** "Bank · Wang Fang · •••• 6789" (an e-mail: "l***@example.com"): never more of the number than that. */
export function accountText(t: (key: string) => string, account: AdminWithdrawal['account']): string {
  // A no-break space keeps the mask and the last four together when the line wraps.
  return `${t(`withdrawalsAdmin.method.${account.method}`)} · ${account.holderName} · ${shownPayoutNumber(account.last4)}`;
}
