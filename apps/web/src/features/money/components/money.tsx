import { formatMoney } from '@/lib/format';

/** An amount with an explicit sign (for ledger movements) or plain. */
export function Money({ minor, currency, locale, signed, className }: { minor: number; currency: string; locale: string; signed?: boolean; className?: string }) {
  const text = formatMoney(minor, currency, locale, { signed });
  return <span className={`money${signed ? (minor < 0 ? ' money-out' : ' money-in') : ''}${className ? ` ${className}` : ''}`}>{text}</span>;
}
