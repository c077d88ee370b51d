import { Button, Dialog, Tabs, Toast } from 'antd-mobile';
import { LockOutline, PayCircleOutline } from 'antd-mobile-icons';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type {
  AdminPromoterCommission, AdminPromoterDetail, AdminPromoterLink, AdminPromoterPayoutAccount, AdminPromoterSession, LedgerLine, PasswordResetLink,
  PromoterAction, Withdrawal,
} from '@pa/shared';
import { shownPayoutNumber } from '@pa/shared/rules';
import { CopyField } from '@/components/copy-field';
import { DataTable, type Column } from '@/components/data-table';
import { EmptyState } from '@/components/empty-state';
import { LoadMore } from '@/components/load-more';
import { PageNav } from '@/components/page-nav';
import { PageError, PageLoading } from '@/components/page-status';
import { useDesk } from '@/lib/desk';
import { errorText } from '@/lib/errors';
import { formatDate, formatDateTime, formatMoney } from '@/lib/format';
import { Link, navigate, useParams } from '@/lib/hash-router';
import { useMe } from '@/lib/session';
import { usePromoter, usePromoterAction, usePromoterTab, useResetLink, type PromoterTab } from '../api/promoters';
import { AdjustDialog } from '../components/adjust-dialog';
import { PromoterStatusTag } from '../components/promoter-status-tag';
import { accountText } from '@/lib/payout-account';
import { WithdrawalStatusTag } from '@/components/withdrawal-status-tag';
import { useUrlFilter } from '@/lib/url-filter';
import '@/components/desk.css';
import '../components/promoters.css';

const TABS: PromoterTab[] = ['ledger', 'commissions', 'withdrawals', 'links', 'payout-accounts', 'sessions'];
const ACTION_COLORS: Record<PromoterAction, 'primary' | 'danger'> = { approve: 'primary', reject: 'danger', suspend: 'danger', reactivate: 'primary' };

/* ---------- Head: who, status and its actions, inviter, team, invite code ---------- */

function StatusActions({ detail }: { detail: AdminPromoterDetail }) {
  const { t } = useTranslation();
  const act = usePromoterAction();
  const { promoter } = detail;
  const run = async (action: PromoterAction) => {
    const name = promoter.displayName;
    const confirmed = action === 'approve' || (await Dialog.confirm({ content: t(`admin.confirm.${action}`, { name }), confirmText: t(`admin.actions.${action}`), cancelText: t('app.cancel') }));
    if (!confirmed) return;
    try {
      await act.mutateAsync({ id: promoter.id, action });
      Toast.show({ icon: 'success', content: t(`admin.done.${action}`, { name }) });
    } catch (error) {
      Toast.show({ content: errorText(t, error) });
    }
  };
  if (detail.actions.length === 0) return null;
  return (
    <>
      {detail.actions.map((action) => (
        <Button key={action} size="small" color={ACTION_COLORS[action]} fill={action === 'approve' || action === 'reactivate' ? 'solid' : 'outline'} disabled={act.isPending} onClick={() => void run(action)} data-testid={`promoter-${action}`}>
          {t(`admin.actions.${action}`)}
        </Button>
      ))}
    </>
  );
}

function Head({ detail, canAdjust, onAdjust, onReset, resetting }: { detail: AdminPromoterDetail; canAdjust: boolean; onAdjust: () => void; onReset: () => void; resetting: boolean }) {
  const { t, i18n } = useTranslation();
  const { promoter, inviter } = detail;
  const facts: [string, ReactNode, string?][] = [
    [t('console.col.account'), <span className="desk-code">{promoter.account}</span>, 'promoter-account'],
    [t('promotersAdmin.inviteCode'), <span className="desk-code">{promoter.inviteCode}</span>, 'promoter-invite-code'],
    [
      t('console.col.inviter'),
      inviter ? <Link to={`/admin/promoters/${encodeURIComponent(inviter.id)}`} className="pr-link">{inviter.displayName}</Link> : <span className="dt-muted">{t('promotersAdmin.noInviter')}</span>,
      'promoter-inviter',
    ],
    [t('promotersAdmin.teamSize'), t('promotersAdmin.members', { count: detail.teamSize }), 'promoter-team-size'],
    [t('console.col.joined'), formatDate(promoter.createdAt, i18n.language)],
    [t('promotersAdmin.language'), t(`languages.${promoter.locale}`)],
  ];
  return (
    <section className="card pr-head" aria-labelledby="promoter-name" data-testid="promoter-head">
      <div className="pr-head-top">
        <h2 id="promoter-name" className="pr-head-name">{promoter.displayName}</h2>
        <PromoterStatusTag status={promoter.status} testId="promoter-status" />
      </div>
      <dl className="pr-facts">
        {facts.map(([label, value, testId], i) => (
          <div key={label} className={i === 0 ? 'pr-fact-wide' : undefined}>
            <dt>{label}</dt>
            <dd data-testid={testId}>{value}</dd>
          </div>
        ))}
      </dl>
      <div className="pr-head-actions">
        <StatusActions detail={detail} />
        <Button size="small" fill="outline" color="primary" loading={resetting} disabled={resetting} onClick={onReset} data-testid="reset-link-open">
          <span className="pr-button-label"><LockOutline aria-hidden /> {t('promotersAdmin.reset.open')}</span>
        </Button>
        {canAdjust ? (
          <Button size="small" color="primary" onClick={onAdjust} data-testid="adjust-open">
            <span className="pr-button-label"><PayCircleOutline aria-hidden /> {t('promotersAdmin.adjust.open')}</span>
          </Button>
        ) : null}
      </div>
    </section>
  );
}

function WalletFigures({ detail }: { detail: AdminPromoterDetail }) {
  const { t, i18n } = useTranslation();
  const money = (minor: number) => formatMoney(minor, detail.currency, i18n.language);
  const { wallet } = detail;
  const figures: [string, number, string][] = [
    [t('promotersAdmin.available'), wallet.available, 'promoter-available'],
    [t('promotersAdmin.pending'), wallet.pending, 'promoter-pending'],
    [t('promotersAdmin.withdrawing'), wallet.withdrawing, 'promoter-withdrawing'],
    [t('promotersAdmin.paidOut'), wallet.paidOut, 'promoter-paid-out'],
  ];
  return (
    <section className="card pr-wallet" aria-labelledby="promoter-wallet-title">
      <h2 id="promoter-wallet-title">{t('promotersAdmin.wallet')}</h2>
      <dl className="pr-figures">
        {figures.map(([label, value, testId], i) => (
          <div key={testId} className={i === 0 ? 'pr-figure-main' : undefined}>
            <dt>{label}</dt>
            <dd className={value < 0 ? 'pr-negative' : undefined} data-testid={testId}>{money(value)}</dd>
          </div>
        ))}
      </dl>
      {wallet.available < 0 ? <p className="pr-note">{t('promotersAdmin.negativeNote')}</p> : null}
    </section>
  );
}

/** The one-time link, shown once: copy it now and give it to the promoter. */
function ResetLinkCard({ link, name, onDismiss }: { link: PasswordResetLink; name: string; onDismiss: () => void }) {
  const { t, i18n } = useTranslation();
  return (
    <section className="card pr-reset" aria-labelledby="reset-link-title" data-testid="reset-link">
      <div className="card-title-row">
        <h2 id="reset-link-title">{t('promotersAdmin.reset.title')}</h2>
        <Button size="small" fill="none" onClick={onDismiss} data-testid="reset-link-dismiss">{t('promotersAdmin.reset.dismiss')}</Button>
      </div>
      <p className="notice">{t('promotersAdmin.reset.once', { name })}</p>
      {link.mailedTo ? <p className="pr-note" data-testid="reset-link-mailed">{t('promotersAdmin.reset.mailed', { address: link.mailedTo })}</p> : null}
      <CopyField label={t('promotersAdmin.reset.label')} value={link.url} buttonLabel={t('promotersAdmin.reset.copy')} testId="reset-link-url" />
      <p className="pr-note" data-testid="reset-link-expiry">{t('promotersAdmin.reset.expires', { time: formatDateTime(link.expiresAt, i18n.language) })}</p>
    </section>
  );
}

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
      <ul className="pr-cards" data-testid={testId}>
        {rows.map((row) => (
          <li key={rowKey(row)} className="pr-card">
            <div className="pr-card-title">
              {onRowClick ? <button type="button" className="pr-card-open" onClick={() => onRowClick(row)}>{cardTitle(row)}</button> : cardTitle(row)}
            </div>
            <dl className="pr-card-facts">
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
    <span className="pr-entry">
      <span className="dt-strong">{ledgerTitle(t, g.kind)}</span>
      {typeof g.memo.reason === 'string' && g.memo.reason ? <span className="pr-reason" data-testid="ledger-reason">{t('ledger.note.reason', { reason: g.memo.reason })}</span> : null}
    </span>
  );
  const columns: Column<JournalGroup>[] = [
    { key: 'at', title: t('console.col.date'), render: (g) => <span className="dt-nowrap">{formatDateTime(g.at, i18n.language)}</span> },
    { key: 'entry', title: t('promotersAdmin.ledger.entry'), render: entry },
    {
      key: 'moves',
      title: t('promotersAdmin.ledger.moves'),
      align: 'end',
      render: (g) => (
        <span className="pr-moves">
          {[...g.moves].sort((a, b) => Number(a.amount > 0) - Number(b.amount > 0)).map((m) => (
            <span key={`${m.account}-${m.amount}`} className="pr-move">
              <span className="dt-muted">{t(`wallet.bucket.${m.account}`)}</span>
              <span className={`dt-nowrap ${m.amount < 0 ? 'money-out' : 'money-in'}`}>{formatMoney(m.amount, currency, i18n.language, { signed: true })}</span>
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
    { key: 'createdAt', title: t('console.col.created'), render: (c) => <span className="dt-nowrap">{formatDate(c.createdAt, i18n.language)}</span> },
    { key: 'campaign', title: t('console.col.campaign'), render: (c) => c.campaignName },
    { key: 'kind', title: t('console.col.kind'), render: (c) => `${t(`moneyAdmin.kind.${c.kind}`)} · ${t(c.level === 2 ? 'moneyAdmin.commissions.level2' : 'moneyAdmin.commissions.level1')}` },
    {
      key: 'amount',
      title: t('console.col.amount'),
      align: 'end',
      render: (c) => (
        <span className="pr-entry pr-end">
          <span className="dt-nowrap pr-num">{money(c.amount)}</span>
          {c.reversedAmount > 0 ? <span className="pr-reason">{t('moneyAdmin.commissions.reversedAmount', { amount: money(c.reversedAmount) })}</span> : null}
        </span>
      ),
    },
    { key: 'status', title: t('console.col.status'), render: (c) => t(`moneyAdmin.commissions.tag.${c.status}`) },
    { key: 'availableAt', title: t('console.col.availableAt'), render: (c) => <span className="dt-nowrap">{formatDate(c.availableAt, i18n.language)}</span> },
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
    { key: 'requestedAt', title: t('console.col.requested'), render: (w) => <span className="dt-nowrap">{formatDateTime(w.requestedAt, i18n.language)}</span> },
    { key: 'amount', title: t('console.col.amount'), align: 'end', render: (w) => <span className="dt-nowrap pr-num">{money(w, w.amount)}</span> },
    { key: 'net', title: t('console.col.net'), align: 'end', render: (w) => <span className="dt-nowrap pr-num">{money(w, w.net)}</span> },
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
    { key: 'label', title: t('promotersAdmin.links.label'), render: (l) => [l.label, l.channel].filter(Boolean).join(' · ') || <span className="dt-muted">—</span> },
    { key: 'status', title: t('console.col.status'), render: (l) => [t(l.status === 'active' ? 'promotersAdmin.links.active' : 'promotersAdmin.links.disabled'), l.isDefault ? t('promotersAdmin.links.default') : null].filter(Boolean).join(' · ') },
    { key: 'createdAt', title: t('console.col.created'), render: (l) => <span className="dt-nowrap">{formatDate(l.createdAt, i18n.language)}</span> },
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
    { key: 'last4', title: t('promotersAdmin.accounts.number'), render: (a) => <span className="desk-code dt-nowrap">{shownPayoutNumber(a.last4)}</span> },
    { key: 'default', title: t('promotersAdmin.accounts.default'), render: (a) => (a.isDefault ? t('console.yes') : t('console.no')) },
    { key: 'createdAt', title: t('console.col.created'), render: (a) => <span className="dt-nowrap">{formatDate(a.createdAt, i18n.language)}</span> },
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
  const time = (at: number) => <span className="dt-nowrap">{formatDateTime(at, i18n.language)}</span>;
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

function TabContent({ tab, id, currency }: { tab: PromoterTab; id: string; currency: string }) {
  switch (tab) {
    case 'ledger': return <LedgerTab id={id} currency={currency} />;
    case 'commissions': return <CommissionsTab id={id} currency={currency} />;
    case 'withdrawals': return <WithdrawalsTab id={id} />;
    case 'links': return <LinksTab id={id} />;
    case 'payout-accounts': return <PayoutAccountsTab id={id} />;
    default: return <SessionsTab id={id} />;
  }
}

/** `/admin/promoters/:id` (staff): one promoter, their money and activity; admins adjust the balance. */
export default function PromoterPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const me = useMe();
  const detail = usePromoter(id);
  const reset = useResetLink();
  const [tab, setTab] = useUrlFilter<PromoterTab>('tab', TABS, 'ledger');
  const [adjusting, setAdjusting] = useState(false);
  const [link, setLink] = useState<PasswordResetLink | null>(null);
  const makeLink = async () => {
    try {
      setLink(await reset.mutateAsync(id));
    } catch (error) {
      Toast.show({ content: errorText(t, error) });
    }
  };
  return (
    <div className="sub-page pr-page pr-detail">
      <PageNav title={t('promotersAdmin.detailTitle')} fallback="/admin/promoters" />
      {detail.isPending ? <PageLoading /> : detail.isError ? <PageError error={detail.error} onRetry={() => detail.refetch()} /> : (
        <>
          <div className="pr-top">
            <Head detail={detail.data} canAdjust={me.data?.role === 'admin'} onAdjust={() => setAdjusting(true)} onReset={() => void makeLink()} resetting={reset.isPending} />
            <WalletFigures detail={detail.data} />
          </div>
          {link ? <ResetLinkCard link={link} name={detail.data.promoter.displayName} onDismiss={() => setLink(null)} /> : null}
          <section className="card pr-tabs" aria-label={t('promotersAdmin.activity')}>
            <Tabs activeKey={tab} onChange={(key) => setTab(key as PromoterTab)} data-testid="promoter-tabs">
              {TABS.map((k) => <Tabs.Tab key={k} title={<span data-testid={`promoter-tab-${k}`}>{t(`promotersAdmin.tabs.${k}`)}</span>} />)}
            </Tabs>
            <div className="pr-tab-body">
              <TabContent key={tab} tab={tab} id={id} currency={detail.data.currency} />
            </div>
          </section>
          {me.data?.role === 'admin' ? (
            <AdjustDialog
              visible={adjusting}
              promoterId={id}
              name={detail.data.promoter.displayName}
              currency={detail.data.currency}
              available={detail.data.wallet.available}
              onClose={() => setAdjusting(false)}
            />
          ) : null}
        </>
      )}
    </div>
  );
}
