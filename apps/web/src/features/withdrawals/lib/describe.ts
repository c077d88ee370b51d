import type { TFunction } from 'i18next';
import { shownPayoutNumber, type PayoutMethod } from '@pa/shared/rules';
import { formatMoney, formatPercent } from '@/lib/format';

/** "Alipay •••• 6789", "PayPal l***@example.com": the method and what is kept of the number, never more. */
export function accountLabel(account: { method: PayoutMethod; last4: string }, t: TFunction): string {
  return `${t(`payoutAccounts.method.${account.method}`)} ${shownPayoutNumber(account.last4)}`;
}

/** The fee rule in plain words: "No fee", "1%", "CN¥2.00 per withdrawal", "1% + CN¥2.00". */
export function feeRuleText(terms: { feeBps: number; feeFixed: number; currency: string }, t: TFunction, locale: string): string {
  const rate = formatPercent(terms.feeBps, locale);
  const amount = formatMoney(terms.feeFixed, terms.currency, locale);
  if (terms.feeBps > 0 && terms.feeFixed > 0) return t('withdraw.feeBoth', { rate, amount });
  if (terms.feeBps > 0) return t('withdraw.feeRate', { rate });
  if (terms.feeFixed > 0) return t('withdraw.feeFixed', { amount });
  return t('withdraw.feeNone');
}
