/**
 * Me → E-mail address (issue 28): a phone account adds an address so it can receive mail and reset
 * its own password. A link is mailed to the address; the address counts once the link is opened.
 */
import { Button, List } from 'antd-mobile';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { User } from '@pa/shared';
import { checkEmail } from '@pa/shared/rules';
import { EMAIL_SLOT, EmailText, withEmail } from '@/components/email-text';
import { Field, TextInput } from '@/components/field';
import { PageNav } from '@/components/page-nav';
import { PageError, PageLoading } from '@/components/page-status';
import { ApiError } from '@/lib/api-client';
import { errorText } from '@/lib/errors';
import { useMe } from '@/lib/session';
import { useForm } from '@/lib/use-form';
import { useAddEmail } from '../api/add-email';

const rules = { email: (v: string) => checkEmail(v) };

function EmailForm({ user }: { user: User }) {
  const { t } = useTranslation();
  const add = useAddEmail();
  const form = useForm({ email: '' }, rules);
  const email = form.field('email');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    if (!form.validate() || add.isPending) return;
    try {
      const res = await add.mutateAsync({ email: form.values.email });
      setSentTo(res.email);
    } catch (error) {
      if (error instanceof ApiError) form.setErrors(error.fields);
      setFormError(errorText(t, error));
    }
  };

  return (
    <>
      <List className="info-list">
        {/* The address under its label, the whole width: a long one wraps before its "@" only. */}
        <List.Item description={<span className="list-value" data-testid="email-current">{user.email ? <EmailText email={user.email} /> : t('emailAddress.none')}</span>}>{t('emailAddress.current')}</List.Item>
      </List>
      <form className="form card" onSubmit={onSubmit} noValidate>
        <p className="form-intro">{t(user.email ? 'emailAddress.changeIntro' : 'emailAddress.intro')}</p>
        {formError ? <div className="form-error" role="alert" data-testid="form-error">{formError}</div> : null}
        {sentTo ? <div className="form-notice" role="status" data-testid="email-sent">{withEmail(t('emailAddress.sent', { email: EMAIL_SLOT }), sentTo)}</div> : null}
        <Field id="email" label={t('emailAddress.label')} error={email.error}>
          <TextInput id="email" {...email} type="email" inputMode="email" autoComplete="email" placeholder="name@example.com" />
        </Field>
        <Button block type="submit" color="primary" size="large" loading={add.isPending} data-testid="email-send">{t('emailAddress.send')}</Button>
      </form>
    </>
  );
}

export default function EmailPage() {
  const { t } = useTranslation();
  const me = useMe();
  return (
    <div className="sub-page">
      <PageNav title={t('emailAddress.title')} fallback="/me" />
      {me.isPending ? <PageLoading /> : me.isError ? <PageError error={me.error} onRetry={() => me.refetch()} /> : <EmailForm user={me.data} />}
    </div>
  );
}
