import { Button, Dialog, Tabs, Toast } from 'antd-mobile';
import { LinkOutline, LockOutline, PayCircleOutline, ReceiptOutline } from 'antd-mobile-icons';
import { useState, type CSSProperties, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { AdminPromoterDetail, ApplicationAnswer, PasswordResetLink, PromoterAction } from '@pa/shared';
import { CopyField } from '@/components/copy-field';
import { PageNav } from '@/components/page-nav';
import { PageError, PageLoading } from '@/components/page-status';
import { errorText } from '@/lib/errors';
import { formatDate, formatDateTime, formatMoney } from '@/lib/format';
import { Link, navigate, useParams } from '@/lib/hash-router';
import { useMe } from '@/lib/session';
import { usePromoter, usePromoterAction, useResetLink, type PromoterTab } from '../api/promoters';
import { AdjustDialog } from '../components/adjust-dialog';
import { UserStatusTag } from '@/components/user-status-tag';
import { useUrlFilter } from '@/lib/url-filter';
import { TabContent } from '../components/promoter-tabs';
import { MoveGroupSheet } from '../components/move-group';
import { ApplicationAnswers } from '../components/application-answers';
import '@/components/desk.css';
import '../components/promoters.css';
import { useGroupName } from '@/lib/group-name';

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

function Head({ detail, canAdjust, onAdjust, onReset, resetting, onGroup }: { detail: AdminPromoterDetail; canAdjust: boolean; onAdjust: () => void; onReset: () => void; resetting: boolean; onGroup: (() => void) | null }) {
  const { t, i18n } = useTranslation();
  const groupName = useGroupName();
  const { promoter, inviter } = detail;
  const facts: [string, ReactNode, string?][] = [
    [t('console.col.account'), <span className="desk-code">{promoter.account}</span>, 'promoter-account'],
    [
      t('promotersAdmin.group.column'),
      <span className="promoter-group-fact">
        <span data-testid="promoter-group-name">{groupName(detail.group)}</span>
        {onGroup ? <button type="button" className="promoter-inline-action" onClick={onGroup} data-testid="promoter-group-change">{t('promotersAdmin.group.change')}</button> : null}
      </span>,
      'promoter-group',
    ],
    [t('promotersAdmin.inviteCode'), <span className="desk-code">{promoter.inviteCode}</span>, 'promoter-invite-code'],
    [
      t('console.col.inviter'),
      inviter ? <Link to={`/admin/promoters/${encodeURIComponent(inviter.id)}`} className="promoter-link">{inviter.displayName}</Link> : <span className="data-table-muted">{t('promotersAdmin.noInviter')}</span>,
      'promoter-inviter',
    ],
    [t('promotersAdmin.teamSize'), t('promotersAdmin.members', { count: detail.teamSize }), 'promoter-team-size'],
    [t('console.col.joined'), formatDate(promoter.createdAt, i18n.language)],
    [t('promotersAdmin.language'), t(`languages.${promoter.locale}`)],
  ];
  return (
    <section className="card promoter-head" aria-labelledby="promoter-name" data-testid="promoter-head">
      <div className="promoter-head-top">
        <h2 id="promoter-name" className="promoter-head-name">{promoter.displayName}</h2>
        <UserStatusTag status={promoter.status} testId="promoter-status" />
      </div>
      <dl className="promoter-facts">
        {facts.map(([label, value, testId], i) => (
          <div key={label} className={i === 0 ? 'promoter-fact-wide' : undefined}>
            <dt>{label}</dt>
            <dd data-testid={testId}>{value}</dd>
          </div>
        ))}
      </dl>
      <div className="promoter-head-actions">
        <StatusActions detail={detail} />
        <Button size="small" fill="outline" color="primary" loading={resetting} disabled={resetting} onClick={onReset} data-testid="reset-link-open">
          <span className="promoter-button-label"><LockOutline aria-hidden /> {t('promotersAdmin.reset.open')}</span>
        </Button>
        {canAdjust ? (
          <Button size="small" color="primary" onClick={onAdjust} data-testid="adjust-open">
            <span className="promoter-button-label"><PayCircleOutline aria-hidden /> {t('promotersAdmin.adjust.open')}</span>
          </Button>
        ) : null}
        <Button size="small" fill="outline" color="primary" onClick={() => navigate(`/admin/conversions?promoterId=${encodeURIComponent(detail.promoter.id)}`)} data-testid="promoter-conversions">
          <span className="promoter-button-label"><ReceiptOutline aria-hidden /> {t('promotersAdmin.openConversions')}</span>
        </Button>
        <Button size="small" fill="outline" color="primary" onClick={() => navigate(`/admin/bindings?promoterId=${encodeURIComponent(detail.promoter.id)}&all=1`)} data-testid="promoter-bindings">
          <span className="promoter-button-label"><LinkOutline aria-hidden /> {t('promotersAdmin.openBindings')}</span>
        </Button>
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
    <section className="card promoter-wallet" aria-labelledby="promoter-wallet-title">
      <h2 id="promoter-wallet-title">{t('promotersAdmin.wallet')}</h2>
      <dl className="promoter-figures">
        {figures.map(([label, value, testId], i) => (
          <div key={testId} className={i === 0 ? 'promoter-figure-main' : undefined}>
            <dt>{label}</dt>
            <dd className={value < 0 ? 'promoter-negative' : undefined} style={i === 0 ? ({ '--chars': [...money(value)].length } as CSSProperties) : undefined} data-testid={testId}>{money(value)}</dd>
          </div>
        ))}
      </dl>
      {wallet.available < 0 ? <p className="promoter-note">{t('promotersAdmin.negativeNote')}</p> : null}
    </section>
  );
}

/** What they answered when registering (issue 31), the questions as they were asked. */
function ApplicationCard({ answers }: { answers: ApplicationAnswer[] }) {
  const { t } = useTranslation();
  return (
    <section className="card promoter-application" aria-labelledby="promoter-application-title" data-testid="promoter-application">
      <h2 id="promoter-application-title">{t('promotersAdmin.application.title')}</h2>
      <ApplicationAnswers answers={answers} />
    </section>
  );
}

/** The one-time link, shown once: copy it now and give it to the promoter. */
function ResetLinkCard({ link, name, onDismiss }: { link: PasswordResetLink; name: string; onDismiss: () => void }) {
  const { t, i18n } = useTranslation();
  return (
    <section className="card promoter-reset" aria-labelledby="reset-link-title" data-testid="reset-link">
      <div className="card-title-row">
        <h2 id="reset-link-title">{t('promotersAdmin.reset.title')}</h2>
        <Button size="small" fill="none" onClick={onDismiss} data-testid="reset-link-dismiss">{t('promotersAdmin.reset.dismiss')}</Button>
      </div>
      <p className="notice">{t('promotersAdmin.reset.once', { name })}</p>
      {link.mailedTo ? <p className="promoter-note" data-testid="reset-link-mailed">{t('promotersAdmin.reset.mailed', { address: link.mailedTo })}</p> : null}
      <CopyField label={t('promotersAdmin.reset.label')} value={link.url} buttonLabel={t('promotersAdmin.reset.copy')} testId="reset-link-url" />
      <p className="promoter-note" data-testid="reset-link-expiry">{t('promotersAdmin.reset.expires', { time: formatDateTime(link.expiresAt, i18n.language) })}</p>
    </section>
  );
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
  const [grouping, setGrouping] = useState(false);
  const [link, setLink] = useState<PasswordResetLink | null>(null);
  const makeLink = async () => {
    try {
      setLink(await reset.mutateAsync(id));
    } catch (error) {
      Toast.show({ content: errorText(t, error) });
    }
  };
  return (
    <div className="sub-page promoter-page promoter-detail">
      <PageNav title={t('promotersAdmin.detailTitle')} fallback="/admin/promoters" />
      {detail.isPending ? <PageLoading /> : detail.isError ? <PageError error={detail.error} onRetry={() => detail.refetch()} /> : (
        <>
          <div className="promoter-top">
            <Head detail={detail.data} canAdjust={me.data?.role === 'admin'} onAdjust={() => setAdjusting(true)} onReset={() => void makeLink()} resetting={reset.isPending} onGroup={me.data?.role === 'admin' ? () => setGrouping(true) : null} />
            <WalletFigures detail={detail.data} />
          </div>
          {detail.data.application.length > 0 ? <ApplicationCard answers={detail.data.application} /> : null}
          {link ? <ResetLinkCard link={link} name={detail.data.promoter.displayName} onDismiss={() => setLink(null)} /> : null}
          <section className="card promoter-tabs" aria-label={t('promotersAdmin.activity')}>
            <Tabs activeKey={tab} onChange={(key) => setTab(key as PromoterTab)} data-testid="promoter-tabs">
              {TABS.map((k) => <Tabs.Tab key={k} title={<span data-testid={`promoter-tab-${k}`}>{t(`promotersAdmin.tabs.${k}`)}</span>} />)}
            </Tabs>
            <div className="promoter-tab-body">
              <TabContent key={tab} tab={tab} id={id} currency={detail.data.currency} />
            </div>
          </section>
          {me.data?.role === 'admin' ? <MoveGroupSheet visible={grouping} promoterIds={[id]} currentGroupId={detail.data.group.id} onClose={() => setGrouping(false)} /> : null}
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
