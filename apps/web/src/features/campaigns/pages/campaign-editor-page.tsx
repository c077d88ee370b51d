import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { CopyField } from '@/components/copy-field';
import { PageNav } from '@/components/page-nav';
import { PageError, PageLoading } from '@/components/page-status';
import { useParams } from '@/lib/hash-router';
import { useMe } from '@/lib/session';
import { useCampaign } from '../api/console-campaigns';
import { useCurrency } from '@/lib/currency';
import { settingsQuery } from '@/lib/settings-query';
import { CampaignForm } from '../components/campaign-form';
import { StripeCard } from '../components/stripe-card';
import { browserZone, campaignName } from '../lib/campaign-form';

function NewCampaign({ currency, zone }: { currency: string; zone: string }) {
  return <CampaignForm currency={currency} zone={zone} canEdit />;
}

function EditCampaign({ id, currency, zone, canEdit }: { id: string; currency: string; zone: string; canEdit: boolean }) {
  const { t, i18n } = useTranslation();
  const campaign = useCampaign(id);
  if (campaign.isPending) return <><PageNav title={t('campaignAdmin.edit')} fallback="/admin/campaigns" /><PageLoading /></>;
  if (campaign.isError) return <><PageNav title={t('campaignAdmin.edit')} fallback="/admin/campaigns" /><PageError error={campaign.error} onRetry={() => campaign.refetch()} /></>;
  return (
    <>
      <PageNav title={campaignName(campaign.data.names, i18n.language) || t('campaignAdmin.edit')} fallback="/admin/campaigns" />
      {/* Integrators send this id with every conversion (api/v1/conversions). */}
      <section className="card console-api-id">
        <CopyField label={t('campaignAdmin.apiId')} value={campaign.data.id} buttonLabel={t('app.copy')} testId="campaign-api-id" />
        <p className="hint">{t('campaignAdmin.apiIdHelp')}</p>
      </section>
      {/* Keyed by id: the form starts from the campaign once; later saves reset it themselves. */}
      <CampaignForm key={campaign.data.id} campaign={campaign.data} currency={currency} zone={zone} canEdit={canEdit} />
      <StripeCard campaignId={campaign.data.id} canEdit={canEdit} />
    </>
  );
}

/** `/admin/campaigns/new` (admins) and `/admin/campaigns/:id` (staff; only admins edit). */
export default function CampaignPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const me = useMe();
  const { currency } = useCurrency();
  const canEdit = me.data?.role === 'admin';
  // The schedule's days are the installation's (admins read its zone; operators, who only look, their own).
  const settings = useQuery({ ...settingsQuery, enabled: canEdit });
  const zone = canEdit ? (settings.data?.timeZone ?? (settings.isError ? browserZone() : undefined)) : me.data ? browserZone() : undefined;
  return (
    <div className="sub-page console-page">
      {!currency || !zone ? (
        <>
          <PageNav title={id ? t('campaignAdmin.edit') : t('campaignAdmin.new')} fallback="/admin/campaigns" />
          <PageLoading />
        </>
      ) : id ? (
        <EditCampaign id={id} currency={currency} zone={zone} canEdit={canEdit} />
      ) : (
        <>
          <PageNav title={t('campaignAdmin.new')} fallback="/admin/campaigns" />
          <NewCampaign currency={currency} zone={zone} />
        </>
      )}
    </div>
  );
}
