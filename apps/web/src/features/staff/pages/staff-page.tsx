/**
 * `#/admin/staff` (admins): the operators and admins. Add someone (they get a one-time link to set
 * their password, shown here once), change a role, suspend or reactivate, or make a new link for
 * someone who lost theirs. The last active admin stays (LAST_ADMIN); a changed person is signed
 * out everywhere. A table at desk width, cards on a phone.
 */
import { Button, Dialog, Toast } from 'antd-mobile';
import { AddOutline } from 'antd-mobile-icons';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { checkAccount, checkDisplayName } from '@pa/shared/rules';
import type { StaffInvite, StaffMember, StaffRole } from '@pa/shared';
import { CopyField } from '@/components/copy-field';
import { DataTable, type Column } from '@/components/data-table';
import { DateTimeText } from '@/components/date-time-text';
import { EmptyState } from '@/components/empty-state';
import { Field, TextInput } from '@/components/field';
import { PageNav } from '@/components/page-nav';
import { PageError, PageLoading } from '@/components/page-status';
import { ApiError } from '@/lib/api-client';
import { useDesk } from '@/lib/desk';
import { errorText } from '@/lib/errors';
import { formatDateTime } from '@/lib/format';
import { useMe } from '@/lib/session';
import { useForm, type Rules } from '@/lib/use-form';
import { useCreateStaff } from '../api/staff-create';
import { useReinviteStaff } from '../api/staff-invite';
import { useStaff } from '@/lib/staff-query';
import { useUpdateStaff } from '../api/staff-update';
import { DeskToolbar } from '@/components/desk-toolbar';
import { Sheet } from '@/components/sheet';
import { UserStatusTag } from '@/components/user-status-tag';
import '@/components/desk.css';
import '../components/staff.css';

const ROLES: StaffRole[] = ['operator', 'admin'];

/** The one-time set-password link, shown once: copy it now, it expires in 30 minutes. */
function InviteLink({ invite, fresh, onDone }: { invite: StaffInvite; fresh: boolean; onDone: () => void }) {
  const { t, i18n } = useTranslation();
  return (
    <section className="staff-invite" data-testid="staff-invite">
      <h2 id="staff-invite-title" className="staff-title">{t(fresh ? 'staffAdmin.invite.addedTitle' : 'staffAdmin.invite.newTitle', { name: invite.user.displayName })}</h2>
      <p className="staff-intro">{t('staffAdmin.invite.intro', { name: invite.user.displayName })}</p>
      {invite.mailedTo ? <p className="staff-intro" data-testid="staff-invite-mailed">{t('staffAdmin.invite.mailed', { address: invite.mailedTo })}</p> : null}
      <CopyField label={t('staffAdmin.invite.label')} value={invite.inviteUrl} buttonLabel={t('staffAdmin.invite.copy')} testId="staff-invite-url" />
      <p className="notice staff-once" data-testid="staff-invite-note">
        {t('staffAdmin.invite.once', { time: formatDateTime(invite.expiresAt, i18n.language) })}
      </p>
      <div className="staff-actions">
        <Button color="primary" onClick={onDone} data-testid="staff-invite-done">{t('staffAdmin.invite.done')}</Button>
      </div>
    </section>
  );
}

interface Values {
  account: string;
  displayName: string;
}
const rules: Rules<Values> = {
  account: (v) => checkAccount(v),
  displayName: (v) => checkDisplayName(v),
};

function AddForm({ onCreated, onCancel }: { onCreated: (invite: StaffInvite) => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const create = useCreateStaff();
  const form = useForm<Values>({ account: '', displayName: '' }, rules);
  const [role, setRole] = useState<StaffRole>('operator');
  const [formError, setFormError] = useState<string | null>(null);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    if (!form.validate() || create.isPending) return;
    try {
      onCreated(await create.mutateAsync({ account: form.values.account.trim(), displayName: form.values.displayName.trim(), role }));
    } catch (error) {
      if (error instanceof ApiError) form.setErrors(error.fields);
      setFormError(errorText(t, error));
    }
  };

  const account = form.field('account');
  const displayName = form.field('displayName');
  return (
    <form className="staff-form" onSubmit={onSubmit} noValidate data-testid="staff-form">
      <h2 id="staff-form-title" className="staff-title">{t('staffAdmin.add.title')}</h2>
      <p className="staff-intro">{t('staffAdmin.add.intro')}</p>
      {formError ? <p className="form-error staff-error" role="alert" data-testid="staff-form-error">{formError}</p> : null}
      <div data-testid="staff-account">
        <Field id="staff-account-input" label={t('auth.account')} error={account.error}>
          <TextInput id="staff-account-input" {...account} placeholder={t('auth.accountPlaceholder')} autoComplete="off" inputMode="email" autoCapitalize="off" spellCheck={false} />
        </Field>
      </div>
      <div data-testid="staff-name">
        <Field id="staff-name-input" label={t('staffAdmin.add.name')} error={displayName.error}>
          <TextInput id="staff-name-input" {...displayName} autoComplete="off" />
        </Field>
      </div>
      <fieldset className="staff-roles">
        <legend>{t('staffAdmin.add.role')}</legend>
        {ROLES.map((r) => (
          <label key={r} className={`staff-role${role === r ? ' is-on' : ''}`} data-testid={`staff-role-${r}`}>
            <input type="radio" name="staff-role" value={r} checked={role === r} onChange={() => setRole(r)} />
            <span>
              <span className="staff-role-name">{t(`me.roles.${r}`)}</span>
              <span className="staff-role-help">{t(`staffAdmin.roleHelp.${r}`)}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <div className="staff-actions">
        <Button type="button" fill="outline" onClick={onCancel} disabled={create.isPending}>{t('app.cancel')}</Button>
        <Button type="submit" color="primary" loading={create.isPending} disabled={create.isPending} data-testid="staff-submit">{t('staffAdmin.add.submit')}</Button>
      </div>
    </form>
  );
}

type Action = 'makeAdmin' | 'makeOperator' | 'suspend' | 'reactivate' | 'newLink';

function actionsFor(member: StaffMember): Action[] {
  const out: Action[] = [member.role === 'admin' ? 'makeOperator' : 'makeAdmin'];
  if (member.status === 'active') out.push('suspend');
  else if (member.status === 'suspended') out.push('reactivate');
  out.push('newLink');
  return out;
}

/** The row's changes: confirmed first when they take power away or sign the person out. */
function useStaffActions(onInvite: (invite: StaffInvite) => void) {
  const { t } = useTranslation();
  const update = useUpdateStaff();
  const reinvite = useReinviteStaff();
  const [busy, setBusy] = useState<string | null>(null);
  const run = async (member: StaffMember, action: Action) => {
    const name = member.displayName;
    if (action !== 'reactivate') {
      const confirmed = await Dialog.confirm({
        title: t(`staffAdmin.confirm.${action}.title`, { name }),
        content: t(`staffAdmin.confirm.${action}.body`, { name }),
        confirmText: t(`staffAdmin.actions.${action}`),
        cancelText: t('app.cancel'),
      });
      if (!confirmed) return;
    }
    setBusy(member.id);
    try {
      if (action === 'newLink') {
        onInvite(await reinvite.mutateAsync(member.id));
      } else {
        const patch = action === 'makeAdmin' ? { role: 'admin' as const } : action === 'makeOperator' ? { role: 'operator' as const } : { status: action === 'suspend' ? 'suspended' as const : 'active' as const };
        await update.mutateAsync({ id: member.id, ...patch });
        Toast.show({ icon: 'success', content: t(`staffAdmin.done.${action}`, { name }) });
      }
    } catch (error) {
      // LAST_ADMIN and the others, in the reader's words; a dialog, so it is read, not missed.
      await Dialog.alert({ content: errorText(t, error), confirmText: t('app.confirm') });
    } finally {
      setBusy(null);
    }
  };
  return { run, busy };
}

function RowActions({ member, busy, onRun }: { member: StaffMember; busy: string | null; onRun: (m: StaffMember, a: Action) => void }) {
  const { t } = useTranslation();
  return (
    <span className="staff-row-actions">
      {actionsFor(member).map((action) => (
        <Button
          key={action}
          size="small"
          fill="outline"
          color={action === 'suspend' ? 'danger' : action === 'reactivate' ? 'primary' : 'default'}
          disabled={busy !== null}
          onClick={() => onRun(member, action)}
          data-testid={`staff-${action}-${member.account}`}
        >
          {t(`staffAdmin.actions.${action}`)}
        </Button>
      ))}
    </span>
  );
}

/** An account that may wrap after its "@" (e-mail), never inside a word. */
function AccountText({ account }: { account: string }) {
  const at = account.indexOf('@');
  return <span className="staff-account">{at > 0 ? <>{account.slice(0, at)}<wbr />{account.slice(at)}</> : account}</span>;
}

function StatusTags({ member }: { member: StaffMember }) {
  const { t } = useTranslation();
  return (
    <span className="staff-tags">
      <UserStatusTag status={member.status} testId={`staff-status-${member.account}`} />
      {!member.passwordSet ? <span className="staff-tag staff-waiting">{t('staffAdmin.noPassword')}</span> : null}
    </span>
  );
}

export default function StaffPage() {
  const { t, i18n } = useTranslation();
  const desk = useDesk();
  const me = useMe();
  const staff = useStaff();
  const [adding, setAdding] = useState(false);
  const [invite, setInvite] = useState<{ invite: StaffInvite; fresh: boolean } | null>(null);
  const { run, busy } = useStaffActions((i) => setInvite({ invite: i, fresh: false }));
  const locale = i18n.language;
  const lastSignIn = (m: StaffMember) => (m.lastSignInAt === null ? t('console.never') : formatDateTime(m.lastSignInAt, locale));
  const self = (m: StaffMember) => m.id === me.data?.id;
  const name = (m: StaffMember) => (
    <span className="staff-name">
      <span className="data-table-strong">{m.displayName}</span>
      {self(m) ? <span className="staff-tag staff-you">{t('staffAdmin.you')}</span> : null}
    </span>
  );

  const addButton = (
    <Button color="primary" onClick={() => setAdding(true)} data-testid="staff-add" className="staff-add">
      <span className="staff-add-label"><AddOutline aria-hidden /> {t('staffAdmin.add.open')}</span>
    </Button>
  );

  let content: ReactNode;
  const items = staff.data ?? [];
  if (desk) {
    const columns: Column<StaffMember>[] = [
      { key: 'name', title: t('console.col.name'), sortValue: (m) => m.displayName, render: name },
      { key: 'account', title: t('console.col.account'), sortValue: (m) => m.account, render: (m) => <AccountText account={m.account} /> },
      { key: 'role', title: t('console.col.role'), sortValue: (m) => t(`me.roles.${m.role}`), render: (m) => <span data-testid={`staff-role-value-${m.account}`}>{t(`me.roles.${m.role}`)}</span> },
      { key: 'status', title: t('console.col.status'), sortValue: (m) => m.status, render: (m) => <StatusTags member={m} /> },
      { key: 'lastSignIn', title: t('staffAdmin.col.lastSignIn'), sortValue: (m) => m.lastSignInAt ?? 0, render: (m) => (m.lastSignInAt === null ? lastSignIn(m) : <DateTimeText at={m.lastSignInAt} locale={locale} />) },
      { key: 'actions', title: <span className="visually-hidden">{t('console.col.actions')}</span>, align: 'end', render: (m) => (self(m) ? null : <RowActions member={m} busy={busy} onRun={run} />) },
    ];
    content = staff.isError ? <PageError error={staff.error} onRetry={() => void staff.refetch()} /> : (
      <DataTable
        data-testid="staff-table"
        caption={t('staffAdmin.title')}
        rows={items}
        rowKey={(m) => m.id}
        rowTestId={(m) => `staff-row-${m.account}`}
        columns={columns}
        loading={staff.isPending}
        initialSort={{ key: 'name', dir: 'asc' }}
        empty={<EmptyState title={t('staffAdmin.empty')} body={t('staffAdmin.emptyBody')} />}
        toolbar={<DeskToolbar filters={<p className="staff-lead">{t('staffAdmin.lead')}</p>} actions={addButton} />}
      />
    );
  } else if (staff.isPending) {
    content = <PageLoading />;
  } else if (staff.isError) {
    content = <PageError error={staff.error} onRetry={() => void staff.refetch()} />;
  } else {
    content = (
      <>
        <div className="staff-phone-head">
          <p className="staff-lead">{t('staffAdmin.lead')}</p>
          {addButton}
        </div>
        <ul className="staff-cards" data-testid="staff-table">
          {items.map((m) => (
            <li key={m.id} className="staff-card" data-testid={`staff-row-${m.account}`}>
              <div className="staff-card-head">
                {name(m)}
                <span className="role-tag" data-testid={`staff-role-value-${m.account}`}>{t(`me.roles.${m.role}`)}</span>
              </div>
              <span className="staff-card-account">{m.account}</span>
              <StatusTags member={m} />
              <span className="staff-card-meta">{t('staffAdmin.lastSignIn', { time: lastSignIn(m) })}</span>
              {self(m) ? null : <RowActions member={m} busy={busy} onRun={run} />}
            </li>
          ))}
        </ul>
      </>
    );
  }

  return (
    <div className={`sub-page staff-page${desk ? ' desk-page' : ''}`}>
      <PageNav title={t('staffAdmin.title')} fallback="/me" />
      {content}
      <Sheet visible={adding} onClose={() => setAdding(false)} labelledBy="staff-form-title">
        <AddForm onCancel={() => setAdding(false)} onCreated={(i) => { setAdding(false); setInvite({ invite: i, fresh: true }); }} />
      </Sheet>
      {/* Not closed by a tap outside: the link is shown only once. */}
      <Sheet visible={invite !== null} onClose={() => undefined} labelledBy="staff-invite-title">
        {invite ? <InviteLink invite={invite.invite} fresh={invite.fresh} onDone={() => setInvite(null)} /> : null}
      </Sheet>
    </div>
  );
}
