import type { TFunction } from 'i18next';
import type { Commission, LedgerLine } from '@pa/shared';
import { formatMoney, formatPercent as percent } from '@/lib/format';


/** What earned the commission, in one line: "Sale", "Lead", "Team override". */
export function commissionTitle(c: Commission, t: TFunction): string {
  if (c.level === 2) return t('commissions.kind.override');
  return t(`commissions.kind.${c.kind}`);
}

/** The rule applied, in plain words with the figures: "10% of CN¥199.99", "CN¥2.50 per lead", … */
export function ruleText(c: Commission, currency: string, t: TFunction, locale: string): string {
  const money = (minor: number) => formatMoney(minor, currency, locale);
  switch (c.rule) {
    case 'lead_fixed':
      return t('commissions.rule.leadFixed', { amount: money(c.amount) });
    case 'sale_fixed':
      return t('commissions.rule.saleFixed', { amount: money(c.amount) });
    case 'sale_tier':
      return t('commissions.rule.saleTier', { rate: percent(c.rateBps ?? 0, locale), base: money(c.base) });
    case 'override':
      return t('commissions.rule.override', { rate: percent(c.rateBps ?? 0, locale), base: money(c.base) });
    case 'rules':
      // The campaign's rules decided line by line (issue 31): one rate when every earning line had the same.
      return c.rateBps === null ? t('commissions.rule.rules') : t('commissions.rule.saleRate', { rate: percent(c.rateBps, locale), base: money(c.base) });
    default:
      return t('commissions.rule.saleRate', { rate: percent(c.rateBps ?? 0, locale), base: money(c.base) });
  }
}

/** Where a ledger journal leads: its commission or its withdrawal. */
export function ledgerTarget(refType: string, refId: string, memo: LedgerLine['memo']): string | null {
  if (refType === 'commission' && refId) return `/commissions/${encodeURIComponent(refId)}`;
  const withdrawalId = refType === 'withdrawal' ? refId : typeof memo.withdrawalId === 'string' ? memo.withdrawalId : null;
  return withdrawalId ? `/withdrawals/${encodeURIComponent(withdrawalId)}` : null;
}

/**
 * What the buckets alone do not show: a manual adjustment's reason, and a withdrawal's fee
 * (without it a paid withdrawal would look like money vanishing: 100 leaves "being paid", 98
 * arrives in "paid out").
 */
export function ledgerNote(kind: string, memo: LedgerLine['memo'], currency: string, t: TFunction, locale: string): string | null {
  // A manual adjustment: the reason the program gave is what explains it.
  if (kind === 'adjustment') return typeof memo.reason === 'string' && memo.reason.trim() ? t('ledger.note.reason', { reason: memo.reason.trim() }) : null;
  const fee = typeof memo.fee === 'number' ? memo.fee : 0;
  const net = typeof memo.net === 'number' ? memo.net : null;
  if (fee <= 0 || net === null || !Number.isSafeInteger(fee) || !Number.isSafeInteger(net)) return null;
  const values = { fee: formatMoney(fee, currency, locale), net: formatMoney(net, currency, locale) };
  if (kind === 'withdrawal_requested' || kind === 'withdrawal_approved') return t('ledger.note.feeAhead', values);
  if (kind === 'withdrawal_paid') return t('ledger.note.feePaid', values);
  return null;
}
