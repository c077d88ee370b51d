/**
 * `#/admin/groups` (admins; issue 31): the promoter groups. Each with its promoters (a link to the
 * promoters table filtered by it), the questions it asks at registration, and its invite link to
 * copy; create, rename, a new link, delete (its promoters move to the default group, which cannot
 * be deleted). A table at desk width, cards on a phone.
 */
import { Button, Dialog, Toast } from 'antd-mobile';
import { AddOutline, LinkOutline } from 'antd-mobile-icons';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { GROUP_DESCRIPTION_MAX, GROUP_NAME_MAX, type Group } from '@pa/shared';
import { checkLine } from '@pa/shared/rules';
import { DataTable, type Column } from '@/components/data-table';
import { DeskToolbar } from '@/components/desk-toolbar';
import { EmptyState } from '@/components/empty-state';
import { Field, TextInput } from '@/components/field';
import { PageNav } from '@/components/page-nav';
import { PageError, PageLoading } from '@/components/page-status';
import { QuestionsEditor } from '@/components/questions-editor';
import { Sheet } from '@/components/sheet';
import { ApiError } from '@/lib/api-client';
import { copyText } from '@/lib/clipboard';
import { useDesk } from '@/lib/desk';
import { errorText } from '@/lib/errors';
import { Link } from '@/lib/hash-router';
import { groupInviteLink } from '@/lib/links';
import { useForm, type Rules } from '@/lib/use-form';
import { useCreateGroup, useDeleteGroup, useGroupQuestions, useGroups, useRenewGroupLink, useSaveGroupQuestions, useUpdateGroup } from '../api/groups';
import '@/components/desk.css';
import '../components/groups.css';
import { useGroupName } from '@/lib/group-name';

interface Values { name: string; description: string }
const rules: Rules<Values> = {
  name: (v) => checkLine(v, GROUP_NAME_MAX),
  description: (v) => checkLine(v, GROUP_DESCRIPTION_MAX, false),
};

/** Create a group, or rename and re-describe one (and give it a new invite link). */
function GroupForm({ group, onDone }: { group: Group | null; onDone: () => void }) {
  const { t } = useTranslation();
  const groupName = useGroupName();
  const create = useCreateGroup();
  const update = useUpdateGroup();
  const renew = useRenewGroupLink();
  const form = useForm<Values>({ name: group?.name ?? '', description: group?.description ?? '' }, rules);
  const [formError, setFormError] = useState<string | null>(null);
  const busy = create.isPending || update.isPending;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    if (!form.validate() || busy) return;
    const body = { name: form.values.name.trim(), description: form.values.description.trim() };
    try {
      if (group) await update.mutateAsync({ id: group.id, ...body });
      else await create.mutateAsync(body);
      Toast.show({ icon: 'success', content: t(group ? 'groupsAdmin.done.saved' : 'groupsAdmin.done.created', { name: body.name }) });
      onDone();
    } catch (error) {
      if (error instanceof ApiError) form.setErrors(error.fields);
      setFormError(errorText(t, error));
    }
  };

  const newLink = async () => {
    if (!group) return;
    const ok = await Dialog.confirm({ title: t('groupsAdmin.renew.title'), content: t('groupsAdmin.renew.body', { name: group.name }), confirmText: t('groupsAdmin.renew.confirm'), cancelText: t('app.cancel') });
    if (!ok) return;
    try {
      const { group: next } = await renew.mutateAsync(group.id);
      const copied = next.inviteCode ? await copyText(groupInviteLink(next.inviteCode)) : false;
      Toast.show({ icon: 'success', content: t(copied ? 'groupsAdmin.renew.doneCopied' : 'groupsAdmin.renew.done') });
    } catch (error) {
      Toast.show({ content: errorText(t, error) });
    }
  };

  const name = form.field('name');
  const description = form.field('description');
  return (
    <form className="staff-form" onSubmit={onSubmit} noValidate data-testid="group-form">
      <h2 id="group-form-title" className="staff-title">{group ? t('groupsAdmin.form.editTitle', { name: groupName(group) }) : t('groupsAdmin.form.newTitle')}</h2>
      <p className="staff-intro">{t('groupsAdmin.form.intro')}</p>
      {formError ? <p className="form-error" role="alert" data-testid="group-form-error">{formError}</p> : null}
      <Field id="group-name" label={t('groupsAdmin.form.name')} error={name.error === 'taken' ? undefined : name.error} errorText={name.error === 'taken' ? t('groupsAdmin.form.nameTaken') : undefined}>
        <TextInput id="group-name" {...name} maxLength={GROUP_NAME_MAX + 10} autoComplete="off" data-testid="group-name" />
      </Field>
      <Field id="group-description" label={t('groupsAdmin.form.description')} error={description.error} help={t('groupsAdmin.form.descriptionHelp')}>
        <TextInput id="group-description" {...description} maxLength={GROUP_DESCRIPTION_MAX + 10} autoComplete="off" data-testid="group-description" />
      </Field>
      {group && !group.isDefault ? (
        <div className="groups-renew">
          <p className="staff-intro">{t('groupsAdmin.renew.help')}</p>
          <Button size="small" fill="outline" onClick={() => void newLink()} loading={renew.isPending} data-testid="group-renew">{t('groupsAdmin.renew.open')}</Button>
        </div>
      ) : null}
      <div className="staff-actions">
        <Button type="button" fill="outline" onClick={onDone} disabled={busy}>{t('app.cancel')}</Button>
        <Button type="submit" color="primary" loading={busy} disabled={busy} data-testid="group-submit">{group ? t('groupsAdmin.form.save') : t('groupsAdmin.form.create')}</Button>
      </div>
    </form>
  );
}

/** A group's questions, asked of whoever registers through its invite link. */
function GroupQuestions({ group, onDone }: { group: Group; onDone: () => void }) {
  const { t } = useTranslation();
  const questions = useGroupQuestions(group.id);
  const save = useSaveGroupQuestions(group.id);
  return (
    <div className="groups-questions" data-testid="group-questions">
      <h2 id="group-questions-title" className="staff-title">{t('groupsAdmin.questions.title', { name: group.name })}</h2>
      <p className="staff-intro">{t('groupsAdmin.questions.intro')}</p>
      {questions.isPending ? <PageLoading /> : questions.isError ? <PageError error={questions.error} onRetry={() => void questions.refetch()} /> : (
        <QuestionsEditor questions={questions.data.questions} save={(body) => save.mutateAsync(body)} idPrefix="group-questions" onCancel={onDone} />
      )}
    </div>
  );
}

function CopyLinkButton({ group }: { group: Group }) {
  const { t } = useTranslation();
  const copy = async () => {
    const ok = await copyText(groupInviteLink(group.inviteCode));
    Toast.show({ content: ok ? t('groupsAdmin.linkCopied', { name: group.name }) : t('app.copyFailed'), icon: ok ? 'success' : undefined });
  };
  return (
    <Button size="small" fill="outline" color="primary" onClick={() => void copy()} data-testid={`group-copy-${group.id}`}>
      <span className="groups-button-label"><LinkOutline aria-hidden /> {t('groupsAdmin.copyLink')}</span>
    </Button>
  );
}

export default function GroupsPage() {
  const { t } = useTranslation();
  const groupName = useGroupName();
  const desk = useDesk();
  const groups = useGroups();
  const remove = useDeleteGroup();
  const [editing, setEditing] = useState<Group | 'new' | null>(null);
  const [asking, setAsking] = useState<Group | null>(null);

  const deleteGroup = async (g: Group) => {
    const ok = await Dialog.confirm({
      title: t('groupsAdmin.delete.title', { name: g.name }),
      content: t('groupsAdmin.delete.body', { count: g.promoterCount }),
      confirmText: t('groupsAdmin.delete.confirm'),
      cancelText: t('app.cancel'),
    });
    if (!ok) return;
    try {
      const { movedPromoters } = await remove.mutateAsync(g.id);
      Toast.show({ icon: 'success', content: t('groupsAdmin.done.deleted', { name: g.name, count: movedPromoters }) });
    } catch (error) {
      await Dialog.alert({ content: errorText(t, error), confirmText: t('app.confirm') });
    }
  };

  const nameCell = (g: Group) => (
    <span className="groups-name">
      <span className="groups-name-line">
        <span className="data-table-strong">{groupName(g)}</span>
        {g.isDefault ? <span className="groups-tag" data-testid="group-default-tag">{t('groupsAdmin.defaultTag')}</span> : null}
      </span>
      {g.description ? <span className="groups-description">{g.description}</span> : null}
    </span>
  );
  const promotersCell = (g: Group) => (
    <Link to={`/admin/promoters?groupId=${encodeURIComponent(g.id)}`} className="groups-count-link" data-testid={`group-promoters-${g.id}`}>
      {t('groupsAdmin.promoters', { count: g.promoterCount })}
    </Link>
  );
  // The default group has no invite link of its own: questions of its own would never be asked.
  const questionsCell = (g: Group) => g.isDefault ? <span className="data-table-muted" title={t('groupsAdmin.noQuestionsDefault')}>—</span> : (
    <Button size="small" fill="none" className="groups-questions-button" onClick={() => setAsking(g)} data-testid={`group-questions-${g.id}`}>
      {g.questionCount === 0 ? t('groupsAdmin.noQuestions') : t('groupsAdmin.questionCount', { count: g.questionCount })}
    </Button>
  );
  const actions = (g: Group) => (
    <span className="groups-row-actions">
      <Button size="small" fill="outline" onClick={() => setEditing(g)} data-testid={`group-edit-${g.id}`}>{t('groupsAdmin.edit')}</Button>
      {g.isDefault ? null : <Button size="small" fill="outline" color="danger" onClick={() => void deleteGroup(g)} data-testid={`group-delete-${g.id}`}>{t('groupsAdmin.delete.open')}</Button>}
    </span>
  );
  const addButton = (
    <Button color="primary" onClick={() => setEditing('new')} data-testid="group-add" className="groups-add">
      <span className="groups-button-label"><AddOutline aria-hidden /> {t('groupsAdmin.add')}</span>
    </Button>
  );

  let content: ReactNode;
  const items = groups.data ?? [];
  if (desk) {
    const columns: Column<Group>[] = [
      { key: 'name', title: t('groupsAdmin.col.name'), render: nameCell },
      { key: 'promoters', title: t('groupsAdmin.col.promoters'), align: 'end', render: promotersCell },
      { key: 'questions', title: t('groupsAdmin.col.questions'), render: questionsCell },
      { key: 'link', title: t('groupsAdmin.col.link'), render: (g) => <CopyLinkButton group={g} /> },
      { key: 'actions', title: <span className="visually-hidden">{t('console.col.actions')}</span>, align: 'end', render: actions },
    ];
    content = groups.isError ? <PageError error={groups.error} onRetry={() => void groups.refetch()} /> : (
      <DataTable
        data-testid="groups-table"
        caption={t('groupsAdmin.title')}
        rows={items}
        rowKey={(g) => g.id}
        rowTestId={(g) => `group-row-${g.id}`}
        columns={columns}
        loading={groups.isPending}
        empty={<EmptyState title={t('groupsAdmin.title')} body={t('groupsAdmin.lead')} />}
        toolbar={<DeskToolbar filters={<p className="groups-lead">{t('groupsAdmin.lead')}</p>} actions={addButton} />}
      />
    );
  } else if (groups.isPending) {
    content = <PageLoading />;
  } else if (groups.isError) {
    content = <PageError error={groups.error} onRetry={() => void groups.refetch()} />;
  } else {
    content = (
      <>
        <div className="groups-phone-head">
          <p className="groups-lead">{t('groupsAdmin.lead')}</p>
          {addButton}
        </div>
        <ul className="groups-cards" data-testid="groups-table">
          {items.map((g) => (
            <li key={g.id} className="groups-card" data-testid={`group-row-${g.id}`}>
              {nameCell(g)}
              <span className="groups-card-line">{promotersCell(g)} · {questionsCell(g)}</span>
              <span className="groups-card-actions"><CopyLinkButton group={g} />{actions(g)}</span>
            </li>
          ))}
        </ul>
      </>
    );
  }

  return (
    <div className={`sub-page groups-page${desk ? ' desk-page' : ''}`}>
      <PageNav title={t('groupsAdmin.title')} fallback="/me" />
      {content}
      <Sheet visible={editing !== null} onClose={() => setEditing(null)} labelledBy="group-form-title">
        {editing ? <GroupForm group={editing === 'new' ? null : editing} onDone={() => setEditing(null)} /> : null}
      </Sheet>
      <Sheet visible={asking !== null} onClose={() => undefined} labelledBy="group-questions-title" wide>
        {asking ? <GroupQuestions group={asking} onDone={() => setAsking(null)} /> : null}
      </Sheet>
    </div>
  );
}
