import { Button } from 'antd-mobile';
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { checkAccount, checkDisplayName, checkInviteCode, checkPassword, normalizeInviteCode } from '@pa/shared/rules';
import type { Locale } from '@pa/shared/locales';
import { ApiError } from '@/lib/api-client';
import { errorText } from '@/lib/errors';
import { useNavigate, useSearchParams } from '@/lib/hash-router';
import { useForm, type Rules } from '@/lib/use-form';
import { useAppStore } from '@/stores/app-store';
import { Field, TextInput } from '@/components/field';
import { PasswordInput } from '@/components/password-input';
import { AuthFooter } from '../components/auth-footer';
import { AuthLayout } from '../components/auth-layout';
import { useInvite } from '../api/get-invite';
import { useRegister } from '../api/register';

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

export default function RegisterPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const params = useSearchParams();
  const rawInvite = params.get('invite')?.trim() || null;
  const invite = rawInvite ? normalizeInviteCode(rawInvite) : null;
  const lookup = useInvite(invite && !checkInviteCode(invite) ? invite : null);
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

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    if (!form.validate()) return;
    const v = form.values;
    try {
      const { user } = await register.mutateAsync({
        account: v.account,
        displayName: v.displayName,
        password: v.password,
        inviteCode: v.inviteCode.trim() ? normalizeInviteCode(v.inviteCode) : undefined,
        locale: i18n.language as Locale,
      });
      useAppStore.getState().clearDraft('register');
      navigate(user.status === 'active' ? '/' : '/pending', { replace: true });
    } catch (error) {
      if (error instanceof ApiError) form.setErrors(error.fields);
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
        <Button block type="submit" color="primary" size="large" loading={register.isPending} data-testid="register-submit">
          {t('auth.register')}
        </Button>
      </form>
      <AuthFooter question={t('auth.haveAccount')} to="/login" label={t('auth.goSignIn')} />
    </AuthLayout>
  );
}
