import { AlipayCircleFill, BankcardOutline, CollectMoneyOutline, MailOutline } from 'antd-mobile-icons';
import type { PayoutMethod } from '@pa/shared/rules';

const ICONS = { bank: BankcardOutline, alipay: AlipayCircleFill, paypal: MailOutline, other: CollectMoneyOutline } as const;

/** A recognisable mark per payout method (decorative: the method is always written next to it). */
export function MethodIcon({ method }: { method: PayoutMethod }) {
  const Icon = ICONS[method] ?? CollectMoneyOutline;
  return <span className={`method-icon method-${method}`} aria-hidden><Icon /></span>;
}
