import { Button, Toast } from 'antd-mobile';
import { useQuery } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Campaign, CampaignList } from '@pa/shared';
import { checkChannel, checkLinkCode, LINK_CODE_MAX } from '@pa/shared/rules';
import { EmptyState } from '@/components/empty-state';
import { Field, TextInput } from '@/components/field';
import { PageNav } from '@/components/page-nav';
import { PageError, PageLoading } from '@/components/page-status';
import { api, ApiError } from '@/lib/api-client';
import { errorText } from '@/lib/errors';
import { navigate, useSearchParams } from '@/lib/hash-router';
import { useForm } from '@/lib/use-form';
import { useCreateLink } from '../api/links';

interface Values {
  campaignId: string;
  code: string;
  label: string;
  channel: string;
  path: string;
}

const rules = {
  campaignId: (v: string) => (v ? null : 'required' as const),
  code: (v: string) => (v.trim() ? checkLinkCode(v) : null),
  label: (v: string) => ([...v.trim()].length > 40 ? 'too_long' as const : null),
  channel: (v: string) => checkChannel(v),
};

/** Server field names (`code`, `path`, …) match the form's; DESTINATION_NOT_ALLOWED lands on the path. */
function serverFields(error: ApiError): Record<string, string> {
  if (error.code === 'LINK_CODE_TAKEN') return { code: 'taken' };
  if (error.code === 'DESTINATION_NOT_ALLOWED') return { path: 'not_allowed' };
  return error.fields;
}

function NewLinkForm({ campaigns, preset }: { campaigns: Campaign[]; preset: string }) {
  const { t } = useTranslation();
  const create = useCreateLink();
  const form = useForm<Values>({ campaignId: campaigns.some((c) => c.id === preset) ? preset : (campaigns[0]?.id ?? ''), code: '', label: '', channel: '', path: '' }, rules);
  const selected = campaigns.find((c) => c.id === form.values.campaignId);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!form.validate()) return;
    const v = form.values;
    try {
      const link = await create.mutateAsync({
        campaignId: v.campaignId,
        ...(v.code.trim() ? { code: v.code.trim() } : {}),
        ...(v.label.trim() ? { label: v.label.trim() } : {}),
        ...(v.channel.trim() ? { channel: v.channel.trim() } : {}),
        ...(v.path.trim() ? { path: v.path.trim() } : {}),
      });
      Toast.show({ icon: 'success', content: t('links.created') });
      navigate(`/links/${encodeURIComponent(link.id)}`, { replace: true });
    } catch (error) {
      if (error instanceof ApiError) form.setErrors(serverFields(error));
      Toast.show({ content: errorText(t, error) });
    }
  };

  const field = form.field;
  return (
    <form className="form card" onSubmit={onSubmit} noValidate>
      <Field id="campaignId" label={t('links.campaign')} error={field('campaignId').error}>
        <select id="campaignId" className="text-input" value={form.values.campaignId} onChange={(e) => field('campaignId').onChange(e.target.value)} data-testid="link-campaign">
          {campaigns.map((c) => <option key={c.id} value={c.id}>{c.name}</option>)}
        </select>
      </Field>
      <Field id="code" label={t('links.code')} error={field('code').error} help={t('links.codeHelp', { max: LINK_CODE_MAX })}>
        <TextInput id="code" {...field('code')} autoCapitalize="off" autoCorrect="off" spellCheck={false} placeholder={t('links.codePlaceholder')} />
      </Field>
      <Field id="label" label={t('links.label')} error={field('label').error} help={t('links.labelHelp')}>
        <TextInput id="label" {...field('label')} maxLength={40} />
      </Field>
      <Field id="channel" label={t('links.channel')} error={field('channel').error} help={t('links.channelHelp')}>
        <TextInput id="channel" {...field('channel')} placeholder={t('links.channelPlaceholder')} autoCapitalize="off" />
      </Field>
      <Field id="path" label={t('links.path')} error={field('path').error} help={t('links.pathHelp', { url: selected?.landingUrl ?? '' })}>
        <TextInput id="path" {...field('path')} inputMode="url" autoCapitalize="off" autoCorrect="off" spellCheck={false} placeholder="/products/…" />
      </Field>
      <Button block type="submit" color="primary" size="large" loading={create.isPending} data-testid="link-create">{t('links.create')}</Button>
    </form>
  );
}

export default function NewLinkPage() {
  const { t, i18n } = useTranslation();
  const params = useSearchParams();
  const joined = useQuery({
    queryKey: ['campaigns', i18n.language, 'joined'] as const,
    queryFn: ({ signal }) => api<CampaignList>('GET', 'campaigns?joined=true&limit=100', undefined, { signal }),
  });
  const usable = joined.data?.items.filter((c) => c.enrollment?.status === 'approved' && c.status === 'active') ?? [];
  return (
    <div className="sub-page">
      <PageNav title={t('links.new')} fallback="/links" />
      {joined.isPending ? <PageLoading /> : joined.isError ? <PageError error={joined.error} onRetry={() => joined.refetch()} /> : usable.length === 0 ? (
        <EmptyState
          title={t('links.noCampaignTitle')}
          body={t('links.noCampaignBody')}
          action={<Button color="primary" className="empty-action" onClick={() => navigate('/promote')}>{t('links.browse')}</Button>}
        />
      ) : <NewLinkForm campaigns={usable} preset={params.get('campaign') ?? ''} />}
    </div>
  );
}
