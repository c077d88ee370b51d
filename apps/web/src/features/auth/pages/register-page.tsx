import { Button } from 'antd-mobile';
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { checkAccount, checkDisplayName, checkGroupCode, checkInviteCode, checkPassword, normalizeInviteCode } from '@pa/shared/rules';
import { checkAnswer } from '@pa/shared/application-form';
import type { Locale } from '@pa/shared/locales';
import { ApiError } from '@/lib/api-client';
import { errorText } from '@/lib/errors';
import { Link, useNavigate, useSearchParams } from '@/lib/hash-router';
import { useForm, type Rules } from '@/lib/use-form';
import { useAppStore } from '@/stores/app-store';
import { Field, TextInput } from '@/components/field';
import { PasswordInput } from '@/components/password-input';
import { AuthFooter } from '../components/auth-footer';
import { AuthLayout } from '../components/auth-layout';
import { useInvite } from '../api/get-invite';
import { useRegister } from '../api/register';
import { useApplicationForm } from '../api/get-application-form';
import { ApplicationQuestions } from '../components/application-questions';
import '../components/application-questions.css';

interface Values {
  account: string;
  displayName: string;
  password: string;
  inviteCode: string;
}

const rules: Rules<Values> = {
  account: (v) => checkAccount(v),
  displayName: (v) => checkDisplayName(v),
  password: (v, all) => checkPassword(v, all.account),
  inviteCode: (v) => (v.trim() ? checkInviteCode(v) : null),
};

/** Who invited the reader (masked, as on Team) and with which code; or that the code is not known. */
function InviteBanner({ code, inviterName, unknown }: { code: string; inviterName: string | null; unknown: boolean }) {
  const { t } = useTranslation();
  if (unknown) return <p className="invite-banner is-unknown" role="alert" data-testid="invite-banner">{t('auth.inviteUnknown', { code })}</p>;
  return (
    <p className="invite-banner" data-testid="invite-banner">
      {inviterName ? <strong className="invite-banner-by" data-testid="invite-inviter">{t('auth.invitedBy', { name: inviterName })}</strong> : null}
      <span>{t('auth.invitedWith', { code })}</span>
    </p>
  );
}

/** A group's invite link that no longer works (renewed, or its group deleted): register without it, or ask for a new one. */
function GroupLinkBanner() {
  const { t } = useTranslation();
  const params = useSearchParams();
  const rest = new URLSearchParams(params);
  rest.delete('group');
  const qs = rest.toString();
  return (
    <p className="invite-banner is-unknown" role="alert" data-testid="group-banner">
      <span>{t('auth.application.groupUnknown')}</span>{' '}
      <Link to={`/register${qs ? `?${qs}` : ''}`} className="invite-banner-link" data-testid="group-banner-drop">{t('auth.application.withoutGroup')}</Link>
    </p>
  );
}

export default function RegisterPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const params = useSearchParams();
  const rawInvite = params.get('invite')?.trim() || null;
  const invite = rawInvite ? normalizeInviteCode(rawInvite) : null;
  const lookup = useInvite(invite && !checkInviteCode(invite) ? invite : null);
  // A group's invite link (issue 31): the person joins that group and answers its questions.
  const rawGroup = params.get('group')?.trim() || null;
  const group = rawGroup ? normalizeInviteCode(rawGroup) : null;
  const groupWellFormed = group !== null && !checkGroupCode(group);
  const application = useApplicationForm(groupWellFormed ? group : null, i18n.language);
  const groupUnknown = (group !== null && !groupWellFormed) || (application.error instanceof ApiError && application.error.code === 'NOT_FOUND');
  const questions = application.data?.questions ?? [];
  const [answers, setAnswers] = useState<Record<string, string>>({});
  const [answerErrors, setAnswerErrors] = useState<Record<string, string>>({});
  const [groupRefused, setGroupRefused] = useState(false);
  useEffect(() => setGroupRefused(false), [group]);
  const register = useRegister();
  const draft = useAppStore((s) => s.drafts.register);
  const saveDraft = useAppStore((s) => s.saveDraft);
  const initial = useMemo<Values>(
    () => ({ account: draft?.account ?? '', displayName: draft?.displayName ?? '', password: '', inviteCode: invite ?? draft?.inviteCode ?? '' }),
    // The draft is read once, when the page opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [],
  );
  const form = useForm(initial, rules);
  // An invite link opened while this page is already showing (same document, only the hash
  // changes) fills the field too, not only the banner.
  const { setValues } = form;
  useEffect(() => {
    if (invite) setValues((v) => (v.inviteCode === invite ? v : { ...v, inviteCode: invite }));
  }, [invite, setValues]);
  const [formError, setFormError] = useState<string | null>(null);

  const bind = (name: keyof Values) => {
    const f = form.field(name);
    return {
      ...f,
      onChange: (v: string) => {
        f.onChange(v);
        if (name !== 'password') {
          const { password: _secret, ...rest } = { ...form.values, [name]: v };
          saveDraft('register', rest);
        }
      },
    };
  };

  const setAnswer = (id: string, value: string) => {
    setAnswers((a) => ({ ...a, [id]: value }));
    if (answerErrors[id]) {
      const question = questions.find((q) => q.id === id);
      setAnswerErrors((e) => ({ ...e, [id]: (question && checkAnswer(question, value)) || '' }));
    }
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    // The same rules the server runs on every answer.
    const found = Object.fromEntries(questions.map((q) => [q.id, checkAnswer(q, answers[q.id])]).filter(([, code]) => code)) as Record<string, string>;
    setAnswerErrors(found);
    const formOk = form.validate();
    if (!formOk || Object.keys(found).length > 0) return;
    const v = form.values;
    const given = Object.fromEntries(questions.map((q): [string, string] => [q.id, answers[q.id] ?? '']).filter(([, a]) => a.trim()));
    try {
      const { user } = await register.mutateAsync({
        account: v.account,
        displayName: v.displayName,
        password: v.password,
        inviteCode: v.inviteCode.trim() ? normalizeInviteCode(v.inviteCode) : undefined,
        groupCode: groupWellFormed ? group : undefined,
        answers: given,
        locale: i18n.language as Locale,
      });
      useAppStore.getState().clearDraft('register');
      navigate(user.status === 'active' ? '/' : '/pending', { replace: true });
    } catch (error) {
      if (error instanceof ApiError) {
        form.setErrors(error.fields);
        setAnswerErrors(Object.fromEntries(Object.entries(error.fields).filter(([k]) => k.startsWith('answers.')).map(([k, code]) => [k.slice('answers.'.length), code])));
        if (error.fields.groupCode) setGroupRefused(true);
        // The form changed since it was shown (a question added or removed): show it as it is now.
        if (Object.entries(error.fields).some(([k, code]) => k.startsWith('answers.') && (code === 'unknown_field' || !questions.some((q) => `answers.${q.id}` === k)))) void application.refetch();
      }
      setFormError(errorText(t, error));
    }
  };

  const account = bind('account');
  const displayName = bind('displayName');
  const password = bind('password');
  const inviteCode = bind('inviteCode');
  return (
    <AuthLayout title={t('auth.registerTitle')}>
      {invite ? <InviteBanner code={invite} inviterName={lookup.data?.inviterName ?? null} unknown={!!checkInviteCode(invite) || (lookup.error instanceof ApiError && lookup.error.code === 'NOT_FOUND')} /> : null}
      {groupUnknown || groupRefused ? <GroupLinkBanner /> : null}
      <form className="form" onSubmit={onSubmit} noValidate>
        {formError ? <div className="form-error" role="alert" data-testid="form-error">{formError}</div> : null}
        <Field id="account" label={t('auth.account')} error={account.error}>
          <TextInput id="account" {...account} placeholder={t('auth.accountPlaceholder')} autoComplete="username" inputMode="email" autoCapitalize="off" />
        </Field>
        <Field id="displayName" label={t('auth.displayName')} error={displayName.error}>
          <TextInput id="displayName" {...displayName} placeholder={t('auth.displayNamePlaceholder')} autoComplete="nickname" />
        </Field>
        <Field id="password" label={t('auth.password')} error={password.error} help={t('auth.passwordHint')}>
          <PasswordInput id="password" {...password} placeholder={t('auth.newPasswordPlaceholder')} autoComplete="new-password" />
        </Field>
        <Field id="inviteCode" label={t('auth.inviteCode')} error={inviteCode.error}>
          <TextInput id="inviteCode" {...inviteCode} placeholder={t('auth.inviteCodePlaceholder')} autoComplete="off" autoCapitalize="characters" />
        </Field>
        <ApplicationQuestions questions={questions} answers={answers} errors={answerErrors} onChange={setAnswer} />
        {application.isError && !groupUnknown ? (
          <p className="form-error" role="alert" data-testid="application-error">
            {errorText(t, application.error)}{' '}
            <button type="button" className="invite-banner-link" onClick={() => void application.refetch()}>{t('app.retry')}</button>
          </p>
        ) : null}
        <Button block type="submit" color="primary" size="large" loading={register.isPending} disabled={application.isPending && application.fetchStatus !== 'idle'} data-testid="register-submit">
          {t('auth.register')}
        </Button>
      </form>
      <AuthFooter question={t('auth.haveAccount')} to="/login" label={t('auth.goSignIn')} />
    </AuthLayout>
  );
}
