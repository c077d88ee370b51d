/**
 * `#/admin/campaigns/:id/bounties` (staff; only admins change them; issue 31 item 5): a
 * campaign's bounties — kind and goal, reward, groups, dates, how often earned and what waits for
 * review — with create, change and archive. A table at desk width, cards on a phone.
 */
import { useQuery } from '@tanstack/react-query';
import { Button, Dialog, Toast } from 'antd-mobile';
import { AddOutline } from 'antd-mobile-icons';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable, type Column } from '@/components/data-table';
import { DeskToolbar } from '@/components/desk-toolbar';
import { EmptyState } from '@/components/empty-state';
import { PageNav } from '@/components/page-nav';
import { PageError, PageLoading } from '@/components/page-status';
import { Sheet } from '@/components/sheet';
import { useCurrency } from '@/lib/currency';
import { useDesk } from '@/lib/desk';
import { errorText } from '@/lib/errors';
import { formatDate, formatMoney, formatNumber } from '@/lib/format';
import { Link, useParams } from '@/lib/hash-router';
import { useMe } from '@/lib/session';
import { settingsQuery } from '@/lib/settings-query';
import { campaignName } from '@/lib/campaign-name';
import { browserZone } from '@/lib/zone-dates';
import { useAdminBounties, useBountyCampaign, useBountyGroups, usePatchBounty, type AdminBounty, type GroupOption } from '../api/admin-bounties';
import { BountyForm } from '../components/bounty-form';
import { BountyStatusTag } from '../components/bounty-tags';
import { goalText, pickText } from '../lib/bounty-text';
import '@/components/desk.css';
import '../bounties.css';
import { useGroupName } from '@/lib/group-name';

export default function BountiesAdminPage() {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const desk = useDesk();
  const { id = '' } = useParams();
  const me = useMe();
  const canEdit = me.data?.role === 'admin';
  const { currency } = useCurrency();
  const campaign = useBountyCampaign(id);
  const bounties = useAdminBounties(id);
  const groups = useBountyGroups();
  const settings = useQuery({ ...settingsQuery, enabled: canEdit });
  const zone = settings.data?.timeZone ?? browserZone();
  const archive = usePatchBounty();
  const [editing, setEditing] = useState<AdminBounty | 'new' | null>(null);
  const groupName = useGroupName();

  const name = campaign.data ? campaignName(campaign.data.names, locale) : '';
  const title = name ? t('bountiesAdmin.titleOf', { name }) : t('bountiesAdmin.title');
  const money = (minor: number) => (currency ? formatMoney(minor, currency, locale) : '');
  const groupNames = new Map((groups.options ?? []).map((g: GroupOption) => [g.id, groupName(g)]));

  const onArchive = async (b: AdminBounty) => {
    const label = pickText(b.names, locale);
    const ok = await Dialog.confirm({
      title: t('bountiesAdmin.archive.title', { name: label }),
      content: b.pendingSubmissions > 0 ? t('bountiesAdmin.archive.bodyPending', { count: b.pendingSubmissions }) : t('bountiesAdmin.archive.body'),
      confirmText: t('bountiesAdmin.archive.confirm'),
      cancelText: t('app.cancel'),
    });
    if (!ok) return;
    try {
      await archive.mutateAsync({ id: b.id, status: 'archived' });
      Toast.show({ icon: 'success', content: t('bountiesAdmin.done.archived', { name: label }) });
    } catch (error) {
      Toast.show({ content: errorText(t, error) });
    }
  };

  /** The name, its kind and goal ("5 sales a month"), and the description's start. */
  const nameCell = (b: AdminBounty) => (
    <span className="bounty-admin-name">
      <span className="data-table-strong">{pickText(b.names, locale)}</span>
      <span className="bounty-admin-goal">
        <span className="bounty-kind-tag">{t(`bountiesAdmin.kind.${b.kind}`)}</span>
        {b.goal && currency ? <span data-testid="bounty-goal">{goalText(t, b.goal, currency, locale)}</span> : null}
      </span>
      {pickText(b.descriptions, locale) ? <span className="bounty-admin-description">{pickText(b.descriptions, locale)}</span> : null}
    </span>
  );
  const groupsCell = (b: AdminBounty) => (b.groupIds.length === 0 ? <span className="data-table-muted">{t('bountiesAdmin.allGroups')}</span> : (
    <span className="bounty-admin-groups">{b.groupIds.map((g) => groupNames.get(g) ?? t('bountiesAdmin.unknownGroup')).join(', ')}</span>
  ));
  const datesCell = (b: AdminBounty) => (
    <span className="bounty-admin-dates">
      {b.startsAt === null && b.endsAt === null ? t('bountiesAdmin.noDates')
        : b.endsAt === null ? t('bountiesAdmin.from', { date: formatDate(b.startsAt!, locale, zone) })
          : b.startsAt === null ? t('bountiesAdmin.until', { date: formatDate(b.endsAt - 1, locale, zone) })
            : t('bountiesAdmin.between', { start: formatDate(b.startsAt, locale, zone), end: formatDate(b.endsAt - 1, locale, zone) })}
    </span>
  );
  const pendingCell = (b: AdminBounty) => (b.kind !== 'submission' ? <span className="data-table-muted">—</span> : (
    <Link to={`/admin/bounties/submissions?bountyId=${encodeURIComponent(b.id)}`} className={`bounty-pending-link${b.pendingSubmissions > 0 ? ' has-pending' : ''}`} data-testid={`bounty-pending-${b.id}`}>
      {desk ? <span aria-label={t('bountiesAdmin.pending', { count: b.pendingSubmissions })}>{formatNumber(b.pendingSubmissions, locale)}</span> : t('bountiesAdmin.pending', { count: b.pendingSubmissions })}
    </Link>
  ));
  const actions = (b: AdminBounty) => (canEdit ? (
    <span className="bounty-row-actions">
      <Button size="small" fill="outline" onClick={() => setEditing(b)} data-testid={`bounty-edit-${b.id}`}>{t('bountiesAdmin.edit')}</Button>
      {b.status === 'active' ? <Button size="small" fill="outline" color="danger" onClick={() => void onArchive(b)} data-testid={`bounty-archive-${b.id}`}>{t('bountiesAdmin.archive.open')}</Button> : null}
    </span>
  ) : null);
  const addButton = canEdit && campaign.data?.status !== 'ended' ? (
    <Button color="primary" onClick={() => setEditing('new')} data-testid="bounty-add" className="bounty-add">
      <span className="bounty-button-label"><AddOutline aria-hidden /> {t('bountiesAdmin.add')}</span>
    </Button>
  ) : null;
  const lead = <p className="bounty-lead">{canEdit ? t('bountiesAdmin.lead') : t('bountiesAdmin.readOnly')}</p>;
  const empty = <EmptyState title={t('bountiesAdmin.emptyTitle')} body={t('bountiesAdmin.emptyBody')} />;

  const items = bounties.data?.items ?? [];
  let content: ReactNode;
  if (bounties.isError) content = <PageError error={bounties.error} onRetry={() => void bounties.refetch()} />;
  else if (desk) {
    const columns: Column<AdminBounty>[] = [
      { key: 'name', title: t('bountiesAdmin.col.name'), render: nameCell },
      { key: 'reward', title: t('bountiesAdmin.col.reward'), align: 'end', sortValue: (b) => b.reward, render: (b) => <span className="data-table-num data-table-strong">{money(b.reward)}</span> },
      { key: 'groups', title: t('bountiesAdmin.col.groups'), render: groupsCell, priority: 'lowest' },
      { key: 'dates', title: t('bountiesAdmin.col.dates'), render: datesCell, priority: 'low', width: '10rem' },
      { key: 'earned', title: t('bountiesAdmin.col.earned'), align: 'end', priority: 'low', width: '6rem', sortValue: (b) => b.earnedCount, render: (b) => <span className="data-table-num">{formatNumber(b.earnedCount, locale)}</span> },
      { key: 'pending', title: t('bountiesAdmin.col.pending'), align: 'end', width: '6.5rem', sortValue: (b) => b.pendingSubmissions, render: pendingCell },
      { key: 'status', title: t('bountiesAdmin.col.status'), render: (b) => <BountyStatusTag status={b.status} /> },
      ...(canEdit ? [{ key: 'actions', title: <span className="visually-hidden">{t('console.col.actions')}</span>, align: 'end' as const, render: actions }] : []),
    ];
    content = (
      <DataTable
        data-testid="bounties-table"
        caption={title}
        rows={items}
        rowKey={(b) => b.id}
        rowTestId={(b) => `bounty-row-${b.id}`}
        columns={columns}
        loading={bounties.isPending || !currency || campaign.isPending}
        empty={empty}
        toolbar={<DeskToolbar filters={lead} actions={addButton} />}
      />
    );
  } else if (bounties.isPending || !currency) content = <PageLoading />;
  else {
    content = (
      <>
        <div className="bounty-phone-head">{lead}{addButton}</div>
        {items.length === 0 ? empty : (
          <ul className="bounty-admin-cards" data-testid="bounties-table">
            {items.map((b) => (
              <li key={b.id} className="bounty-admin-card" data-testid={`bounty-row-${b.id}`}>
                <span className="bounty-admin-card-head">{nameCell(b)}<BountyStatusTag status={b.status} /></span>
                <span className="bounty-admin-card-line"><strong>{money(b.reward)}</strong> · {t('bountiesAdmin.earned', { count: b.earnedCount })}</span>
                <span className="bounty-admin-card-line">{groupsCell(b)} · {datesCell(b)}</span>
                {b.kind === 'submission' ? <span className="bounty-admin-card-line">{pendingCell(b)}</span> : null}
                {actions(b)}
              </li>
            ))}
          </ul>
        )}
      </>
    );
  }

  return (
    <div className={`sub-page bounties-admin-page${desk ? ' desk-page' : ''}`}>
      <PageNav title={title} fallback={`/admin/campaigns/${encodeURIComponent(id)}`} />
      {content}
      <Sheet visible={editing !== null} onClose={() => undefined} labelledBy="bounty-form-title" wide>
        {editing && currency ? (
          <BountyForm campaignId={id} bounty={editing === 'new' ? null : editing} currency={currency} zone={zone} groups={groups.options ?? null} onDone={() => setEditing(null)} />
        ) : null}
      </Sheet>
    </div>
  );
}
