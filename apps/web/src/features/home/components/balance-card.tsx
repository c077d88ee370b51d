import { useTranslation } from 'react-i18next';
import type { StatsOverview } from '@pa/shared';
import { formatMoney } from '@/lib/format';
import { Link } from '@/lib/hash-router';
import { RightOutline } from './icons';

/** Available balance, big; pending and withdrawing below. The whole card opens the wallet. */
export function BalanceCard({ wallet, currency }: { wallet: StatsOverview['wallet']; currency: string }) {
  const { t, i18n } = useTranslation();
  const money = (minor: number) => formatMoney(minor, currency, i18n.language);
  return (
    <Link to="/wallet" className="balance-card home-balance" data-testid="home-balance">
      <span className="home-balance-top">
        <span className="balance-label">{t('wallet.available')}</span>
        <span className="home-balance-more">{t('stats.openWallet')} <RightOutline aria-hidden /></span>
      </span>
      <span className="balance-value" data-testid="home-available">{money(wallet.available)}</span>
      <span className="home-balance-grid">
        <span><span className="home-balance-k">{t('wallet.pending')}</span><span className="home-balance-v" data-testid="home-pending">{money(wallet.pending)}</span></span>
        <span><span className="home-balance-k">{t('wallet.withdrawing')}</span><span className="home-balance-v" data-testid="home-withdrawing">{money(wallet.withdrawing)}</span></span>
      </span>
    </Link>
  );
}
