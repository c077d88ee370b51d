import { Button, List, Toast } from 'antd-mobile';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { User } from '@pa/shared';
import { checkDisplayName } from '@pa/shared/rules';
import { Field, TextInput } from '@/components/field';
import { PageNav } from '@/components/page-nav';
import { PageError, PageLoading } from '@/components/page-status';
import { ApiError } from '@/lib/api-client';
import { errorText } from '@/lib/errors';
import { formatDate } from '@/lib/format';
import { useMe } from '@/lib/session';
import { useForm } from '@/lib/use-form';
import { useUpdateMe } from '../api/update-me';

const rules = { displayName: (v: string) => checkDisplayName(v) };

function ProfileForm({ user }: { user: User }) {
  const { t, i18n } = useTranslation();
  const update = useUpdateMe();
  const form = useForm({ displayName: user.displayName }, rules);
  const name = form.field('displayName');

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!form.validate()) return;
    try {
      await update.mutateAsync({ displayName: form.values.displayName });
      Toast.show({ icon: 'success', content: t('profile.saved') });
    } catch (error) {
      if (error instanceof ApiError) form.setErrors(error.fields);
      Toast.show({ content: errorText(t, error) });
    }
  };

  return (
    <>
      <form className="form card" onSubmit={onSubmit} noValidate>
        <Field id="displayName" label={t('profile.displayName')} error={name.error}>
          <TextInput id="displayName" {...name} autoComplete="nickname" />
        </Field>
        <Button block type="submit" color="primary" size="large" loading={update.isPending} data-testid="profile-save">{t('app.save')}</Button>
      </form>
      <List className="info-list">
        <List.Item extra={<span className="list-value">{user.account}</span>}>{t('profile.account')}</List.Item>
        <List.Item extra={<span className="list-value">{user.inviteCode}</span>}>{t('profile.inviteCode')}</List.Item>
        <List.Item extra={<span className="list-value">{formatDate(user.createdAt, i18n.language)}</span>}>{t('profile.joined')}</List.Item>
      </List>
    </>
  );
}

export default function ProfilePage() {
  const { t } = useTranslation();
  const me = useMe();
  return (
    <div className="sub-page">
      <PageNav title={t('profile.title')} fallback="/me" />
      {me.isPending ? <PageLoading /> : me.isError ? <PageError error={me.error} onRetry={() => me.refetch()} /> : <ProfileForm user={me.data} />}
    </div>
  );
}
