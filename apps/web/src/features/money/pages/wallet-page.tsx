import { Button, Toast } from 'antd-mobile';
import { BankcardOutline, BillOutline, DownlandOutline, ReceivePaymentOutline, RightOutline } from 'antd-mobile-icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LedgerLine } from '@pa/shared';
import { EmptyState } from '@/components/empty-state';
import { PageNav } from '@/components/page-nav';
import { PageError, PageLoading } from '@/components/page-status';
import { apiFile } from '@/lib/api-client';
import { errorText } from '@/lib/errors';
import { formatDateTime } from '@/lib/format';
import { Link, navigate } from '@/lib/hash-router';
import { downloadBlob } from '@/lib/share';
import { useLedger, useWallet } from '../api/wallet';
import { Money } from '../components/money';
import { LoadMore } from '@/components/load-more';
import { ledgerNote, ledgerTarget } from '../lib/describe';

/** Ledger lines of one journal belong together: "Commission approved: pending −10, available +10". */
function groupByJournal(lines: LedgerLine[]) {
  const groups: { journalId: string; kind: string; refType: string; refId: string; memo: LedgerLine['memo']; at: number; moves: LedgerLine[] }[] = [];
  for (const line of lines) {
    const last = groups[groups.length - 1];
    if (last && last.journalId === line.journalId) last.moves.push(line);
    else groups.push({ journalId: line.journalId, kind: line.kind, refType: line.refType, refId: line.refId, memo: line.memo, at: line.at, moves: [line] });
  }
  return groups;
}

/** Money moving between two of the promoter's own buckets (pending → available): one neutral line. */
function isTransfer(moves: LedgerLine[]) {
  return moves.length === 2 && moves[0]!.amount + moves[1]!.amount === 0;
}

function LedgerList({ currency }: { currency: string }) {
  const { t, i18n } = useTranslation();
  const ledger = useLedger();
  if (ledger.isPending) return <PageLoading />;
  if (ledger.isError) return <PageError error={ledger.error} onRetry={() => ledger.refetch()} />;
  const groups = groupByJournal(ledger.data.pages.flatMap((p) => p.items));
  if (groups.length === 0) return <EmptyState icon={<BillOutline />} title={t('wallet.ledgerEmptyTitle')} body={t('wallet.ledgerEmptyBody')} />;
  return (
    <>
      <ul className="ledger-list" data-testid="ledger-list">
        {groups.map((g) => {
          const target = ledgerTarget(g.refType, g.refId, g.memo);
          const title = t(`ledger.kind.${g.kind}`, { defaultValue: t('ledger.kind.other') });
          const note = ledgerNote(g.kind, g.memo, currency, t, i18n.language);
          return (
            <li key={g.journalId} className="ledger-row" data-kind={g.kind}>
              <div className="ledger-row-main">
                {target ? <Link to={target} className="ledger-title">{title}</Link> : <span className="ledger-title">{title}</span>}
                <span className="ledger-time">{formatDateTime(g.at, i18n.language)}</span>
              </div>
              <div className="ledger-moves">
                {isTransfer(g.moves) ? (
                  <span className="ledger-move">
                    <span className="ledger-bucket">{t('wallet.transfer', { from: t(`wallet.bucket.${g.moves.find((m) => m.amount < 0)!.account}`), to: t(`wallet.bucket.${g.moves.find((m) => m.amount > 0)!.account}`) })}</span>
                    <Money minor={Math.abs(g.moves[0]!.amount)} currency={currency} locale={i18n.language} />
                  </span>
                ) : [...g.moves].sort((a, b) => Number(a.amount > 0) - Number(b.amount > 0)).map((m) => (
                  <span key={`${m.account}-${m.amount}`} className="ledger-move">
                    <span className="ledger-bucket">{t(`wallet.bucket.${m.account}`)}</span>
                    <Money minor={m.amount} currency={currency} locale={i18n.language} signed />
                  </span>
                ))}
              </div>
              {note ? <p className="ledger-note">{note}</p> : null}
            </li>
          );
        })}
      </ul>
      <LoadMore query={ledger} />
    </>
  );
}

export default function WalletPage() {
  const { t, i18n } = useTranslation();
  const wallet = useWallet();
  const [exporting, setExporting] = useState(false);
  const exportCsv = async () => {
    setExporting(true);
    try {
      const { blob, filename } = await apiFile('commissions/export');
      downloadBlob(blob, filename);
    } catch (error) {
      Toast.show({ content: errorText(t, error) });
    } finally {
      setExporting(false);
    }
  };
  return (
    <div className="sub-page">
      <PageNav title={t('wallet.title')} fallback="/me" />
      {wallet.isPending ? <PageLoading /> : wallet.isError ? <PageError error={wallet.error} onRetry={() => wallet.refetch()} /> : (
        <>
          <section className="balance-card" aria-labelledby="available-label">
            <p id="available-label" className="balance-label">{t('wallet.available')}</p>
            <p className="balance-value" data-testid="wallet-available"><Money minor={wallet.data.available} currency={wallet.data.currency} locale={i18n.language} /></p>
            {wallet.data.available < 0 ? <p className="balance-note">{t('wallet.negative')}</p> : null}
            <dl className="balance-grid">
              <div><dt>{t('wallet.pending')}</dt><dd data-testid="wallet-pending"><Money minor={wallet.data.pending} currency={wallet.data.currency} locale={i18n.language} /></dd></div>
              <div><dt>{t('wallet.withdrawing')}</dt><dd data-testid="wallet-withdrawing"><Money minor={wallet.data.withdrawing} currency={wallet.data.currency} locale={i18n.language} /></dd></div>
              <div><dt>{t('wallet.paidOut')}</dt><dd data-testid="wallet-paid-out"><Money minor={wallet.data.paidOut} currency={wallet.data.currency} locale={i18n.language} /></dd></div>
            </dl>
            <Button block className="balance-withdraw" onClick={() => navigate('/withdraw')} data-testid="wallet-withdraw">
              <ReceivePaymentOutline aria-hidden /> {t('wallet.withdraw')}
            </Button>
          </section>
          <p className="hint wallet-hint">{t('wallet.pendingHelp')}</p>
          <div className="wallet-actions">
            <Link to="/commissions" className="wallet-action" data-testid="wallet-commissions">
              <BillOutline aria-hidden /> <span>{t('wallet.commissions')}</span> <RightOutline aria-hidden className="wallet-action-arrow" />
            </Link>
            <Link to="/withdrawals" className="wallet-action" data-testid="wallet-withdrawals">
              <ReceivePaymentOutline aria-hidden /> <span>{t('wallet.withdrawals')}</span> <RightOutline aria-hidden className="wallet-action-arrow" />
            </Link>
            <Link to="/payout-accounts" className="wallet-action" data-testid="wallet-payout-accounts">
              <BankcardOutline aria-hidden /> <span>{t('wallet.payoutAccounts')}</span> <RightOutline aria-hidden className="wallet-action-arrow" />
            </Link>
            <button type="button" className="wallet-action" onClick={exportCsv} disabled={exporting} data-testid="wallet-export">
              <DownlandOutline aria-hidden /> <span>{t('wallet.export')}</span>
            </button>
          </div>
          <section className="card" aria-labelledby="ledger-title">
            <h2 id="ledger-title">{t('wallet.ledger')}</h2>
            <LedgerList currency={wallet.data.currency} />
          </section>
        </>
      )}
    </div>
  );
}
