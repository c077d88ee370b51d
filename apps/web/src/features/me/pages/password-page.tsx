import { Button, Toast } from 'antd-mobile';
import { useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { checkPassword } from '@pa/shared/rules';
import { Field } from '@/components/field';
import { PageNav } from '@/components/page-nav';
import { PasswordInput } from '@/components/password-input';
import { ApiError } from '@/lib/api-client';
import { errorText } from '@/lib/errors';
import { useNavigate } from '@/lib/hash-router';
import { useMe } from '@/lib/session';
import { useForm, type Rules } from '@/lib/use-form';
import { useChangePassword } from '../api/change-password';

interface Values {
  current: string;
  next: string;
  repeat: string;
}

export default function PasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const me = useMe();
  const change = useChangePassword();
  const account = me.data?.account;
  const rules = useMemo<Rules<Values>>(() => ({
    current: (v) => (v ? null : 'required'),
    next: (v) => checkPassword(v, account),
    repeat: (v, all) => (!v ? 'required' : v === all.next ? null : 'mismatch'),
  }), [account]);
  const form = useForm<Values>({ current: '', next: '', repeat: '' }, rules);
  const [formError, setFormError] = useState<string | null>(null);
  const bind = (name: keyof Values) => {
    const f = form.field(name);
    return f;
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    if (!form.validate()) return;
    try {
      await change.mutateAsync({ current: form.values.current, next: form.values.next });
      Toast.show({ icon: 'success', content: t('password.changed') });
      navigate('/me', { replace: true });
    } catch (error) {
      if (error instanceof ApiError) form.setErrors(error.fields);
      setFormError(errorText(t, error));
    }
  };

  const current = bind('current');
  const next = bind('next');
  const repeat = bind('repeat');
  return (
    <div className="sub-page">
      <PageNav title={t('password.title')} fallback="/me" />
      <form className="form card" onSubmit={onSubmit} noValidate>
        {formError ? <div className="form-error" role="alert" data-testid="form-error">{formError}</div> : null}
        <Field id="current" label={t('password.current')} error={current.error}>
          <PasswordInput id="current" {...current} autoComplete="current-password" />
        </Field>
        <Field id="next" label={t('password.next')} error={next.error} help={t('auth.passwordHint')}>
          <PasswordInput id="next" {...next} autoComplete="new-password" />
        </Field>
        <Field id="repeat" label={t('password.repeat')} error={repeat.error}>
          <PasswordInput id="repeat" {...repeat} autoComplete="new-password" />
        </Field>
        <Button block type="submit" color="primary" size="large" loading={change.isPending} data-testid="password-submit">{t('password.submit')}</Button>
      </form>
    </div>
  );
}
