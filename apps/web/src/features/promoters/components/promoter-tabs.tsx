/**
 * The promoter page's activity tabs (`/admin/promoters/:id`): ledger, commissions, withdrawals,
 * links, payout accounts and sessions, each a table at desk width and cards on a phone.
 */
import { type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { AdminPromoterCommission, AdminPromoterLink, AdminPromoterPayoutAccount, AdminPromoterSession, LedgerLine, Withdrawal } from '@pa/shared';
import { shownPayoutNumber } from '@pa/shared/rules';
import { DataTable, type Column } from '@/components/data-table';
import { EmptyState } from '@/components/empty-state';
import { LoadMore } from '@/components/load-more';
import { PageError, PageLoading } from '@/components/page-status';
import { useDesk } from '@/lib/desk';
import { formatDate, formatDateTime, formatMoney } from '@/lib/format';
import { navigate } from '@/lib/hash-router';
import { usePromoterTab, type PromoterTab } from '../api/promoters';
import { accountText } from '@/lib/payout-account';
import { WithdrawalStatusTag } from '@/components/withdrawal-status-tag';
import { CommissionStatusTag } from '@/components/commission-status-tag';

/* ---------- Tabs: one column list, a table at desk and cards on a phone ---------- */

interface TabListProps<Row> {
  rows: Row[] | undefined;
  query: { isPending: boolean; isError: boolean; error: unknown; refetch: () => unknown; hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => Promise<unknown> };
  columns: Column<Row>[];
  rowKey: (row: Row) => string;
  /** The card's heading on a phone, and the columns it already says (not repeated under it). */
  cardTitle: (row: Row) => ReactNode;
  cardSkip?: string[];
  empty: ReactNode;
  caption: string;
  testId: string;
  onRowClick?: (row: Row) => void;
}

function TabList<Row>({ rows, query, columns, rowKey, cardTitle, cardSkip = [], empty, caption, testId, onRowClick }: TabListProps<Row>) {
  const desk = useDesk();
  if (query.isError) return <PageError error={query.error} onRetry={() => void query.refetch()} />;
  if (desk) {
    return <DataTable data-testid={testId} caption={caption} rows={rows ?? []} rowKey={rowKey} columns={columns} loading={query.isPending} pagination={query} empty={empty} onRowClick={onRowClick} />;
  }
  if (query.isPending || !rows) return <PageLoading />;
  if (rows.length === 0) return <>{empty}</>;
  return (
    <>
      <ul className="promoter-cards" data-testid={testId}>
        {rows.map((row) => (
          <li key={rowKey(row)} className="promoter-card">
            <div className="promoter-card-title">
              {onRowClick ? <button type="button" className="promoter-card-open" onClick={() => onRowClick(row)}>{cardTitle(row)}</button> : cardTitle(row)}
            </div>
            <dl className="promoter-card-facts">
              {columns.filter((c) => !cardSkip.includes(c.key)).map((c) => (
                <div key={c.key}>
                  <dt>{c.title}</dt>
                  <dd>{c.render(row)}</dd>
                </div>
              ))}
            </dl>
          </li>
        ))}
      </ul>
      <LoadMore query={query} />
    </>
  );
}

const pagesOf = <T,>(data: { pages: { items: T[] }[] } | undefined) => data?.pages.flatMap((p) => p.items);

/** Lines of one journal belong together: "Commission approved: pending −10, available +10". */
interface JournalGroup { journalId: string; kind: string; memo: LedgerLine['memo']; at: number; moves: LedgerLine[] }
function groupByJournal(lines: LedgerLine[]): JournalGroup[] {
  const groups: JournalGroup[] = [];
  for (const line of lines) {
    const last = groups[groups.length - 1];
    if (last && last.journalId === line.journalId) last.moves.push(line);
    else groups.push({ journalId: line.journalId, kind: line.kind, memo: line.memo, at: line.at, moves: [line] });
  }
  return groups;
}

function ledgerTitle(t: TFunction, kind: string): string {
  return t(`ledger.kind.${kind}`, { defaultValue: t('ledger.kind.other') });
}

function LedgerTab({ id, currency }: { id: string; currency: string }) {
  const { t, i18n } = useTranslation();
  const query = usePromoterTab(id, 'ledger', i18n.language);
  const lines = pagesOf<LedgerLine>(query.data);
  const rows = lines ? groupByJournal(lines) : undefined;
  const entry = (g: JournalGroup) => (
    <span className="promoter-entry">
      <span className="data-table-strong">{ledgerTitle(t, g.kind)}</span>
      {typeof g.memo.reason === 'string' && g.memo.reason ? <span className="promoter-reason" data-testid="ledger-reason">{t('ledger.note.reason', { reason: g.memo.reason })}</span> : null}
    </span>
  );
  const columns: Column<JournalGroup>[] = [
    { key: 'at', title: t('console.col.date'), render: (g) => <span className="data-table-nowrap">{formatDateTime(g.at, i18n.language)}</span> },
    { key: 'entry', title: t('promotersAdmin.ledger.entry'), render: entry },
    {
      key: 'moves',
      title: t('promotersAdmin.ledger.moves'),
      align: 'end',
      render: (g) => (
        <span className="promoter-moves">
          {[...g.moves].sort((a, b) => Number(a.amount > 0) - Number(b.amount > 0)).map((m) => (
            <span key={`${m.account}-${m.amount}`} className="promoter-move">
              <span className="data-table-muted">{t(`wallet.bucket.${m.account}`)}</span>
              <span className={`data-table-nowrap ${m.amount < 0 ? 'money-out' : 'money-in'}`}>{formatMoney(m.amount, currency, i18n.language, { signed: true })}</span>
            </span>
          ))}
        </span>
      ),
    },
  ];
  return (
    <TabList
      rows={rows}
      query={query}
      columns={columns}
      rowKey={(g) => g.journalId}
      cardTitle={entry}
      cardSkip={['entry']}
      empty={<EmptyState title={t('promotersAdmin.ledger.empty')} body={t('promotersAdmin.ledger.emptyBody')} />}
      caption={t('promotersAdmin.tabs.ledger')}
      testId="promoter-ledger"
    />
  );
}

function CommissionsTab({ id, currency }: { id: string; currency: string }) {
  const { t, i18n } = useTranslation();
  const query = usePromoterTab(id, 'commissions', i18n.language);
  const money = (minor: number) => formatMoney(minor, currency, i18n.language);
  const columns: Column<AdminPromoterCommission>[] = [
    { key: 'createdAt', title: t('console.col.created'), render: (c) => <span className="data-table-nowrap">{formatDate(c.createdAt, i18n.language)}</span> },
    { key: 'campaign', title: t('console.col.campaign'), render: (c) => c.campaignName },
    { key: 'kind', title: t('console.col.kind'), render: (c) => `${t(`conversions.kind.${c.kind}`)} · ${t(c.level === 2 ? 'moneyAdmin.commissions.level2' : 'moneyAdmin.commissions.level1')}` },
    {
      key: 'amount',
      title: t('console.col.amount'),
      align: 'end',
      render: (c) => (
        <span className="promoter-entry promoter-end">
          <span className="data-table-nowrap promoter-num">{money(c.amount)}</span>
          {c.reversedAmount > 0 ? <span className="promoter-reason">{t('moneyAdmin.commissions.reversedAmount', { amount: money(c.reversedAmount) })}</span> : null}
        </span>
      ),
    },
    { key: 'status', title: t('console.col.status'), render: (c) => <CommissionStatusTag desk status={c.status} /> },
    { key: 'availableAt', title: t('console.col.availableAt'), render: (c) => <span className="data-table-nowrap">{formatDate(c.availableAt, i18n.language)}</span> },
  ];
  return (
    <TabList
      rows={pagesOf<AdminPromoterCommission>(query.data)}
      query={query}
      columns={columns}
      rowKey={(c) => c.id}
      cardTitle={(c) => c.campaignName}
      cardSkip={['campaign']}
      empty={<EmptyState title={t('promotersAdmin.commissions.empty')} body={t('promotersAdmin.commissions.emptyBody')} />}
      caption={t('promotersAdmin.tabs.commissions')}
      testId="promoter-commissions"
    />
  );
}

function WithdrawalsTab({ id }: { id: string }) {
  const { t, i18n } = useTranslation();
  const query = usePromoterTab(id, 'withdrawals', i18n.language);
  const money = (w: Withdrawal, minor: number) => formatMoney(minor, w.currency, i18n.language);
  const columns: Column<Withdrawal>[] = [
    { key: 'requestedAt', title: t('console.col.requested'), render: (w) => <span className="data-table-nowrap">{formatDateTime(w.requestedAt, i18n.language)}</span> },
    { key: 'amount', title: t('console.col.amount'), align: 'end', render: (w) => <span className="data-table-nowrap promoter-num">{money(w, w.amount)}</span> },
    { key: 'net', title: t('console.col.net'), align: 'end', render: (w) => <span className="data-table-nowrap promoter-num">{money(w, w.net)}</span> },
    { key: 'account', title: t('console.col.payoutAccount'), render: (w) => accountText(t, w.account) },
    { key: 'status', title: t('console.col.status'), render: (w) => <WithdrawalStatusTag desk status={w.status} /> },
  ];
  return (
    <TabList
      rows={pagesOf<Withdrawal>(query.data)}
      query={query}
      columns={columns}
      rowKey={(w) => w.id}
      cardTitle={(w) => money(w, w.amount)}
      cardSkip={['amount']}
      onRowClick={(w) => navigate(`/admin/withdrawals/${encodeURIComponent(w.id)}`)}
      empty={<EmptyState title={t('promotersAdmin.withdrawals.empty')} body={t('promotersAdmin.withdrawals.emptyBody')} />}
      caption={t('promotersAdmin.tabs.withdrawals')}
      testId="promoter-withdrawals"
    />
  );
}

function LinksTab({ id }: { id: string }) {
  const { t, i18n } = useTranslation();
  const query = usePromoterTab(id, 'links', i18n.language);
  const columns: Column<AdminPromoterLink>[] = [
    { key: 'code', title: t('promotersAdmin.links.code'), render: (l) => <span className="desk-code">{l.code}</span> },
    { key: 'campaign', title: t('console.col.campaign'), render: (l) => l.campaignName },
    { key: 'label', title: t('promotersAdmin.links.label'), render: (l) => [l.label, l.channel].filter(Boolean).join(' · ') || <span className="data-table-muted">—</span> },
    { key: 'status', title: t('console.col.status'), render: (l) => [t(l.status === 'active' ? 'promotersAdmin.links.active' : 'promotersAdmin.links.disabled'), l.isDefault ? t('promotersAdmin.links.default') : null].filter(Boolean).join(' · ') },
    { key: 'createdAt', title: t('console.col.created'), render: (l) => <span className="data-table-nowrap">{formatDate(l.createdAt, i18n.language)}</span> },
  ];
  return (
    <TabList
      rows={pagesOf<AdminPromoterLink>(query.data)}
      query={query}
      columns={columns}
      rowKey={(l) => l.id}
      cardTitle={(l) => <span className="desk-code">{l.code}</span>}
      cardSkip={['code']}
      empty={<EmptyState title={t('promotersAdmin.links.empty')} body={t('promotersAdmin.links.emptyBody')} />}
      caption={t('promotersAdmin.tabs.links')}
      testId="promoter-links"
    />
  );
}

function PayoutAccountsTab({ id }: { id: string }) {
  const { t, i18n } = useTranslation();
  const query = usePromoterTab(id, 'payout-accounts', i18n.language);
  const columns: Column<AdminPromoterPayoutAccount>[] = [
    { key: 'method', title: t('promotersAdmin.accounts.method'), render: (a) => t(`withdrawalsAdmin.method.${a.method}`) },
    { key: 'holder', title: t('promotersAdmin.accounts.holder'), render: (a) => a.holderName },
    // A no-break space keeps the mask and the last four together.
    { key: 'last4', title: t('promotersAdmin.accounts.number'), render: (a) => <span className="desk-code data-table-nowrap">{shownPayoutNumber(a.last4)}</span> },
    { key: 'default', title: t('promotersAdmin.accounts.default'), render: (a) => (a.isDefault ? t('console.yes') : t('console.no')) },
    { key: 'createdAt', title: t('console.col.created'), render: (a) => <span className="data-table-nowrap">{formatDate(a.createdAt, i18n.language)}</span> },
  ];
  return (
    <TabList
      rows={pagesOf<AdminPromoterPayoutAccount>(query.data)}
      query={query}
      columns={columns}
      rowKey={(a) => a.id}
      cardTitle={(a) => `${t(`withdrawalsAdmin.method.${a.method}`)} ${shownPayoutNumber(a.last4)}`}
      cardSkip={['method', 'last4']}
      empty={<EmptyState title={t('promotersAdmin.accounts.empty')} body={t('promotersAdmin.accounts.emptyBody')} />}
      caption={t('promotersAdmin.tabs.payout-accounts')}
      testId="promoter-payout-accounts"
    />
  );
}

function SessionsTab({ id }: { id: string }) {
  const { t, i18n } = useTranslation();
  const query = usePromoterTab(id, 'sessions', i18n.language);
  const time = (at: number) => <span className="data-table-nowrap">{formatDateTime(at, i18n.language)}</span>;
  const columns: Column<AdminPromoterSession>[] = [
    { key: 'device', title: t('promotersAdmin.sessions.device'), render: (s) => s.device || t('devices.unknownDevice') },
    { key: 'createdAt', title: t('promotersAdmin.sessions.signedIn'), render: (s) => time(s.createdAt) },
    { key: 'lastSeenAt', title: t('promotersAdmin.sessions.lastSeen'), render: (s) => time(s.lastSeenAt) },
    { key: 'expiresAt', title: t('promotersAdmin.sessions.expires'), render: (s) => time(s.expiresAt) },
  ];
  return (
    <TabList
      rows={pagesOf<AdminPromoterSession>(query.data)}
      query={query}
      columns={columns}
      rowKey={(s) => s.id}
      cardTitle={(s) => s.device || t('devices.unknownDevice')}
      cardSkip={['device']}
      empty={<EmptyState title={t('promotersAdmin.sessions.empty')} body={t('promotersAdmin.sessions.emptyBody')} />}
      caption={t('promotersAdmin.tabs.sessions')}
      testId="promoter-sessions"
    />
  );
}

export function TabContent({ tab, id, currency }: { tab: PromoterTab; id: string; currency: string }) {
  switch (tab) {
    case 'ledger': return <LedgerTab id={id} currency={currency} />;
    case 'commissions': return <CommissionsTab id={id} currency={currency} />;
    case 'withdrawals': return <WithdrawalsTab id={id} />;
    case 'links': return <LinksTab id={id} />;
    case 'payout-accounts': return <PayoutAccountsTab id={id} />;
    default: return <SessionsTab id={id} />;
  }
}
