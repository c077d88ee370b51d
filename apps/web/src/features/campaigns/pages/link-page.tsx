import { Button, List, Switch, Toast } from 'antd-mobile';
import { PictureOutline, UploadOutline } from 'antd-mobile-icons';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Link } from '@pa/shared';
import { checkChannel } from '@pa/shared/rules';
import { CopyField } from '@/components/copy-field';
import { Field, TextInput } from '@/components/field';
import { PageNav } from '@/components/page-nav';
import { PageError, PageLoading } from '@/components/page-status';
import { ApiError } from '@/lib/api-client';
import { copyText } from '@/lib/clipboard';
import { errorText } from '@/lib/errors';
import { formatDate, formatNumber } from '@/lib/format';
import { trackedLink } from '@/lib/links';
import { navigate, useParams } from '@/lib/hash-router';
import { shareNatively } from '@/lib/share';
import { useForm } from '@/lib/use-form';
import { useCampaign } from '../api/get-campaign';
import { useLink, useLinkStats, useUpdateLink } from '../api/links';
import { DailyBars } from '../components/daily-bars';
import { QrImage } from '../components/qr-image';
import { shareTextFor } from '../lib/share-text';

const rules = {
  label: (v: string) => ([...v.trim()].length > 40 ? 'too_long' as const : null),
  channel: (v: string) => checkChannel(v),
};

function LinkSettings({ link }: { link: Link }) {
  const { t } = useTranslation();
  const update = useUpdateLink(link.id);
  const form = useForm({ label: link.label ?? '', channel: link.channel ?? '' }, rules);
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!form.validate()) return;
    try {
      await update.mutateAsync({ label: form.values.label.trim() || null, channel: form.values.channel.trim() || null });
      Toast.show({ icon: 'success', content: t('app.saved') });
    } catch (error) {
      if (error instanceof ApiError) form.setErrors(error.fields);
      Toast.show({ content: errorText(t, error) });
    }
  };
  const toggle = async (on: boolean) => {
    try {
      await update.mutateAsync({ status: on ? 'active' : 'disabled' });
      Toast.show({ icon: 'success', content: on ? t('links.enabledToast') : t('links.disabledToast') });
    } catch (error) {
      Toast.show({ content: errorText(t, error) });
    }
  };
  return (
    <section className="card" aria-labelledby="settings-title">
      <h2 id="settings-title">{t('links.settings')}</h2>
      <List className="flush-list">
        <List.Item
          description={link.status === 'active' ? t('links.activeHelp') : t('links.disabledHelp')}
          extra={<Switch checked={link.status === 'active'} loading={update.isPending} onChange={toggle} aria-label={t('links.enabled')} data-testid="link-enabled" />}
        >
          {t('links.enabled')}
        </List.Item>
      </List>
      <form className="inline-form" onSubmit={onSubmit} noValidate>
        <Field id="label" label={t('links.label')} error={form.field('label').error}>
          <TextInput id="label" {...form.field('label')} maxLength={40} placeholder={t('links.labelPlaceholder')} />
        </Field>
        <Field id="channel" label={t('links.channel')} error={form.field('channel').error}>
          <TextInput id="channel" {...form.field('channel')} placeholder={t('links.channelPlaceholder')} autoCapitalize="off" />
        </Field>
        <Button type="submit" color="primary" block loading={update.isPending} data-testid="link-save">{t('app.save')}</Button>
      </form>
    </section>
  );
}

function LinkDetail({ link }: { link: Link }) {
  const { t, i18n } = useTranslation();
  const stats = useLinkStats(link.id);
  const campaign = useCampaign(link.campaignId, i18n.language);
  const url = trackedLink(link.code);
  const shareText = shareTextFor(campaign.data?.shareText ?? '', { link: url, code: link.code, name: campaign.data?.name ?? link.campaignName }, t);

  const share = async () => {
    const outcome = await shareNatively({ title: link.campaignName, text: shareText });
    if (outcome !== 'unsupported') return;
    const ok = await copyText(shareText);
    Toast.show({ content: ok ? t('links.shareFallback') : t('app.copyFailed') });
  };

  return (
    <>
      <section className="card link-head">
        <p className="link-campaign">{link.campaignName}</p>
        <h1 className="link-code" data-testid="link-code">{link.code}</h1>
        <p className="link-tags">
          {link.label ? <span>{link.label}</span> : null}
          {link.channel ? <span>#{link.channel}</span> : null}
          {link.status === 'disabled' ? <span className="role-tag muted-tag">{t('links.disabled')}</span> : null}
          <span className="muted">{t('links.createdOn', { date: formatDate(link.createdAt, i18n.language) })}</span>
        </p>
        {link.status === 'disabled' ? <p className="notice">{t('links.disabledHelp')}</p> : null}
        <div className="qr-block">
          <QrImage value={url} size={176} label={t('links.qrLabel', { code: link.code })} />
          <p className="hint">{t('links.qrHint')}</p>
        </div>
        <CopyField label={t('links.url')} value={url} buttonLabel={t('links.copyLink')} testId="link-url" />
        <CopyField label={t('campaign.shareText')} value={shareText} buttonLabel={t('links.copyText')} testId="link-share-text" />
        <div className="button-row">
          <Button color="primary" onClick={share} data-testid="link-share"><UploadOutline aria-hidden /> {t('links.share')}</Button>
          <Button color="primary" fill="outline" onClick={() => navigate(`/poster/${encodeURIComponent(link.id)}`)} data-testid="link-poster"><PictureOutline aria-hidden /> {t('poster.make')}</Button>
        </div>
        {link.destination ? <p className="hint">{t('links.destination', { url: link.destination })}</p> : null}
      </section>
      <section className="card" aria-labelledby="stats-title">
        <h2 id="stats-title">{t('links.stats')}</h2>
        <div className="kpis">
          <div className="kpi"><span className="kpi-value" data-testid="link-clicks">{formatNumber(link.clicks, i18n.language)}</span><span className="kpi-label">{t('links.totalClicks')}</span></div>
          <div className="kpi"><span className="kpi-value" data-testid="link-unique">{formatNumber(link.uniqueClicks, i18n.language)}</span><span className="kpi-label">{t('links.totalUnique')}</span></div>
        </div>
        {/* Chat apps fetch every shared link for its preview: kept apart so the figures above are people. */}
        {link.botClicks > 0 ? <p className="hint link-bots" data-testid="link-bots">{t('links.botVisits', { count: link.botClicks, n: formatNumber(link.botClicks, i18n.language) })}</p> : null}
        {stats.isPending ? <PageLoading /> : stats.isError ? <PageError error={stats.error} onRetry={() => stats.refetch()} /> : <DailyBars stats={stats.data} />}
      </section>
      <LinkSettings link={link} />
    </>
  );
}

export default function LinkPage() {
  const { t, i18n } = useTranslation();
  const { id = '' } = useParams();
  const link = useLink(id, i18n.language);
  return (
    <div className="sub-page">
      <PageNav title={t('links.detail')} fallback="/links" />
      {link.isPending ? <PageLoading /> : link.isError ? <PageError error={link.error} onRetry={() => link.refetch()} /> : <LinkDetail link={link.data} />}
    </div>
  );
}
