import { Button, Dialog, Toast } from 'antd-mobile';
import { AddOutline, DeleteOutline } from 'antd-mobile-icons';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { AdminCampaign } from '@pa/shared';
import { fillShareText } from '@pa/shared/rules';
import { isLocale, type Locale } from '@pa/shared/locales';
import { TextInput } from '@/components/field';
import { TextLocalePicker } from '@/components/text-locale-picker';
import { ApiError } from '@/lib/api-client';
import { errorText } from '@/lib/errors';
import { localeToShow, revealFirstError } from '@/lib/form-errors';
import { currencyMark } from '@/lib/format';
import { useNavigate } from '@/lib/hash-router';
import { useLeaveGuard } from '@/lib/use-leave-guard';
import { useCreateCampaign, useUpdateCampaign } from '../api/console-campaigns';
import {
  decimalSeparator, DESCRIPTION_MAX, emptyValues, localesWithErrors, NAME_MAX, newTier, rewardChanged, sameValues, serverErrors, SHARE_TEXT_MAX, TIERS_MAX, toBody, valuesFromCampaign,
  type CampaignFormValues, type FormErrors, type Texts, type TierValues,
} from '../lib/campaign-form';
import { CampaignImages } from './campaign-images';
import { Choice } from '@/components/choice';
import { BountiesLink, RewardRulesLink } from './reward-rules-link';
import { CampaignStatusCard } from './campaign-status-card';
import { FormField, TextArea, WithUnit } from '@/components/form-field';

type TextKind = 'names' | 'descriptions' | 'shareTexts';

interface Props {
  /** Absent on the new-campaign page. */
  campaign?: AdminCampaign;
  currency: string;
  /** The installation's time zone: the schedule's days begin and end there. */
  zone: string;
  canEdit: boolean;
}

/** The whole campaign editor: status, texts per language, link rules, rewards, schedule, then images. */
export function CampaignForm({ campaign, currency, zone, canEdit }: Props) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const create = useCreateCampaign();
  const update = useUpdateCampaign(campaign?.id ?? '');
  const decimal = decimalSeparator(i18n.language);
  const [baseline, setBaseline] = useState<CampaignFormValues>(() => (campaign ? valuesFromCampaign(campaign, currency, decimal, zone) : emptyValues()));
  const [values, setValues] = useState(baseline);
  const [errors, setErrors] = useState<FormErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [locale, setLocale] = useState<Locale>(isLocale(i18n.language) ? i18n.language : 'en');
  const ended = campaign?.status === 'ended';
  const editable = canEdit && !ended;
  const dirty = !sameValues(values, baseline);
  const saving = create.isPending || update.isPending;
  useLeaveGuard(dirty && editable && !saving);
  const unit = currencyMark(currency);

  const clear = (...keys: string[]) => {
    if (keys.some((k) => errors[k])) setErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => !keys.includes(k))));
  };
  const set = <K extends keyof CampaignFormValues>(key: K, value: CampaignFormValues[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    clear(key);
  };
  const setText = (kind: TextKind, text: string) => {
    setValues((v) => ({ ...v, [kind]: { ...v[kind], [locale]: text } as Texts }));
    clear(kind, `${kind}.${locale}`);
  };
  const setTier = (index: number, patch: Partial<TierValues>) => {
    setValues((v) => ({ ...v, tiers: v.tiers.map((tier, i) => (i === index ? { ...tier, ...patch } : tier)) }));
    clear(`tiers.${index}.minSales`, `tiers.${index}.bps`, 'tiers');
  };
  const removeTier = (index: number) => {
    setValues((v) => ({ ...v, tiers: v.tiers.filter((_, i) => i !== index) }));
    setErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => !k.startsWith('tiers'))));
  };

  /** Shows errors; if the language on screen has none but another has, switches to it. */
  const showErrors = (found: FormErrors) => {
    setErrors(found);
    setLocale(localeToShow(locale, localesWithErrors(found)));
    revealFirstError('.console-form .field-invalid');
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    const result = toBody(values, currency, i18n.language, zone);
    if (result.errors) {
      setFormError(t('errors.VALIDATION_FAILED'));
      showErrors(result.errors);
      return;
    }
    // Promoters are earning on an active campaign: a new reward is confirmed first.
    if (campaign?.status === 'active' && rewardChanged(values, baseline)) {
      const go = await Dialog.confirm({ title: t('campaignAdmin.rewardConfirm.title'), content: t('campaignAdmin.rewardConfirm.body'), confirmText: t('campaignAdmin.rewardConfirm.confirm'), cancelText: t('app.cancel') });
      if (!go) return;
    }
    try {
      const saved = campaign ? await update.mutateAsync(result.body) : await create.mutateAsync(result.body);
      const next = valuesFromCampaign(saved, currency, decimal, zone);
      setBaseline(next);
      setValues(next);
      setErrors({});
      Toast.show({ icon: 'success', content: campaign ? t('campaignAdmin.saved') : t('campaignAdmin.created') });
      if (!campaign) navigate(`/admin/campaigns/${encodeURIComponent(saved.id)}`, { replace: true });
    } catch (error) {
      setFormError(errorText(t, error));
      if (error instanceof ApiError && Object.keys(error.fields).length > 0) showErrors(serverErrors(error.fields));
      else Toast.show({ content: errorText(t, error) });
    }
  };

  const text = (kind: TextKind) => values[kind][locale];
  const textError = (kind: TextKind) => errors[`${kind}.${locale}`] ?? (kind === 'names' ? errors.names : undefined);
  const localeLabel = t(`languages.${locale}`);
  const badLocales = localesWithErrors(errors);

  return (
    <>
      {campaign ? <CampaignStatusCard campaign={campaign} canEdit={canEdit} dirty={dirty} /> : null}
      {!canEdit ? <p className="console-note">{t('campaignAdmin.readOnly')}</p> : null}
      <form className="console-form" onSubmit={onSubmit} noValidate>
        {formError ? <div className="form-error" role="alert" data-testid="form-error">{formError}</div> : null}

        <section className="card">
          <h2>{t('campaignAdmin.sections.texts')}</h2>
          <p className="hint console-locale-hint">{t('campaignAdmin.textsHelp')}</p>
          <TextLocalePicker
            label={t('campaignAdmin.textLanguage')}
            value={locale}
            onChange={setLocale}
            withErrors={badLocales}
            written={(l) => values.names[l].trim() !== ''}
            errorLabel={t('campaignAdmin.localeHasError')}
            writtenLabel={t('campaignAdmin.localeFilled')}
            testIdPrefix="locale-"
          />
          <FormField id="campaign-name" label={t('campaignAdmin.fields.name', { language: localeLabel })} error={textError('names')}>
            <TextInput id="campaign-name" data-testid="campaign-name" lang={locale} value={text('names')} onChange={(v) => setText('names', v)} invalid={!!textError('names')} maxLength={NAME_MAX} disabled={!editable} autoComplete="off" />
          </FormField>
          <FormField id="campaign-description" label={t('campaignAdmin.fields.description', { language: localeLabel })} error={textError('descriptions')}>
            <TextArea id="campaign-description" data-testid="campaign-description" lang={locale} rows={4} value={text('descriptions')} onChange={(v) => setText('descriptions', v)} invalid={!!textError('descriptions')} maxLength={DESCRIPTION_MAX} disabled={!editable} />
          </FormField>
          <FormField id="campaign-share-text" label={t('campaignAdmin.fields.shareText', { language: localeLabel })} error={textError('shareTexts')} help={t('campaignAdmin.shareTextHelp')}>
            <TextArea id="campaign-share-text" data-testid="campaign-share-text" lang={locale} rows={3} value={text('shareTexts')} onChange={(v) => setText('shareTexts', v)} invalid={!!textError('shareTexts')} maxLength={SHARE_TEXT_MAX} disabled={!editable} />
          </FormField>
          {text('shareTexts').trim() ? (
            <p className="console-share-preview" data-testid="share-preview">
              <span className="console-share-preview-label">{t('campaignAdmin.sharePreview')}</span>
              {fillShareText(text('shareTexts').trim(), { link: 'https://example.com/r/SUMMER24', code: 'SUMMER24', name: text('names').trim() || t('campaignAdmin.shareSampleName') })}
            </p>
          ) : null}
        </section>

        <section className="card">
          <h2>{t('campaignAdmin.sections.links')}</h2>
          <FormField id="campaign-landing" label={t('campaignAdmin.fields.landingUrl')} error={errors.landingUrl} help={t('campaignAdmin.landingHelp')}>
            <TextInput id="campaign-landing" data-testid="campaign-landing" type="url" inputMode="url" placeholder="https://" autoCapitalize="off" autoComplete="off" spellCheck={false} value={values.landingUrl} onChange={(v) => set('landingUrl', v)} invalid={!!errors.landingUrl} maxLength={2000} disabled={!editable} />
          </FormField>
          <FormField id="campaign-hosts" label={t('campaignAdmin.fields.allowedHosts')} error={errors.allowedHosts} help={t('campaignAdmin.hostsHelp')}>
            <TextArea id="campaign-hosts" data-testid="campaign-hosts" rows={3} placeholder="shop.example.com" autoCapitalize="off" spellCheck={false} value={values.allowedHosts} onChange={(v) => set('allowedHosts', v)} invalid={!!errors.allowedHosts} disabled={!editable} />
          </FormField>
        </section>

        <section className="card">
          <h2>{t('campaignAdmin.sections.rewards')}</h2>
          {campaign ? <RewardRulesLink campaignId={campaign.id} /> : null}
          {campaign ? <BountiesLink campaignId={campaign.id} /> : null}
          <FormField id="campaign-lead-reward" label={t('campaignAdmin.fields.leadReward')} error={errors.leadReward} help={t('campaignAdmin.leadHelp')}>
            <WithUnit unit={unit}>
              <TextInput id="campaign-lead-reward" data-testid="campaign-lead-reward" inputMode="decimal" autoComplete="off" value={values.leadReward} onChange={(v) => set('leadReward', v)} invalid={!!errors.leadReward} disabled={!editable} />
            </WithUnit>
          </FormField>
          <div className="field">
            <span className="console-field-label" id="campaign-sale-type-label">{t('campaignAdmin.fields.saleRewardType')}</span>
            <Choice
              label={t('campaignAdmin.fields.saleRewardType')}
              value={values.saleRewardType}
              disabled={!editable}
              onChange={(v) => {
                set('saleRewardType', v);
                clear('saleReward');
              }}
              options={[
                { value: 'bps', label: t('campaignAdmin.saleType.bps'), testId: 'campaign-sale-type-bps' },
                { value: 'fixed', label: t('campaignAdmin.saleType.fixed'), testId: 'campaign-sale-type-fixed' },
              ]}
            />
          </div>
          <FormField id="campaign-sale-reward" label={t('campaignAdmin.fields.saleReward')} error={errors.saleReward} help={values.saleRewardType === 'bps' ? t('campaignAdmin.salePercentHelp') : t('campaignAdmin.saleFixedHelp')}>
            <WithUnit unit={values.saleRewardType === 'bps' ? '%' : unit}>
              <TextInput id="campaign-sale-reward" data-testid="campaign-sale-reward" inputMode="decimal" autoComplete="off" value={values.saleReward} onChange={(v) => set('saleReward', v)} invalid={!!errors.saleReward} disabled={!editable} />
            </WithUnit>
          </FormField>

          <div className="field">
            <span className="console-field-label">{t('campaignAdmin.fields.tiers')}</span>
            <p className="field-help">{t('campaignAdmin.tiersHelp')}</p>
            {values.tiers.length ? (
              <div className="console-tier-head" aria-hidden>
                <span>{t('campaignAdmin.fields.tierMinSales')}</span>
                <span>{t('campaignAdmin.fields.tierPercent')}</span>
              </div>
            ) : null}
            {values.tiers.length ? (
              <ol className="console-tiers" data-testid="tier-list">
                {values.tiers.map((tier, i) => {
                  const minError = errors[`tiers.${i}.minSales`];
                  const bpsError = errors[`tiers.${i}.bps`];
                  return (
                    <li key={tier.key} className="console-tier">
                      <FormField id={`campaign-tier-min-${i}`} label={<span className="visually-hidden">{t('campaignAdmin.fields.tierMinSales')}</span>} error={minError}>
                        <TextInput id={`campaign-tier-min-${i}`} inputMode="numeric" autoComplete="off" value={tier.minSales} onChange={(v) => setTier(i, { minSales: v })} invalid={!!minError} disabled={!editable} />
                      </FormField>
                      <FormField id={`campaign-tier-pct-${i}`} label={<span className="visually-hidden">{t('campaignAdmin.fields.tierPercent')}</span>} error={bpsError}>
                        <WithUnit unit="%">
                          <TextInput id={`campaign-tier-pct-${i}`} inputMode="decimal" autoComplete="off" value={tier.percent} onChange={(v) => setTier(i, { percent: v })} invalid={!!bpsError} disabled={!editable} />
                        </WithUnit>
                      </FormField>
                      {editable ? (
                        <button type="button" className="console-tier-remove" aria-label={t('campaignAdmin.removeTier', { n: i + 1 })} onClick={() => removeTier(i)} data-testid={`campaign-tier-remove-${i}`}>
                          <DeleteOutline aria-hidden />
                        </button>
                      ) : null}
                    </li>
                  );
                })}
              </ol>
            ) : (
              <p className="console-tier-empty">{t('campaignAdmin.noTiers')}</p>
            )}
            {editable ? (
              <Button size="small" fill="outline" disabled={values.tiers.length >= TIERS_MAX} onClick={() => set('tiers', [...values.tiers, newTier()])} data-testid="campaign-tier-add">
                <AddOutline aria-hidden /> {values.tiers.length >= TIERS_MAX ? t('campaignAdmin.tiersFull', { max: TIERS_MAX }) : t('campaignAdmin.addTier')}
              </Button>
            ) : null}
          </div>

          <FormField id="campaign-override" label={t('campaignAdmin.fields.override')} error={errors.overrideBps} help={t('campaignAdmin.overrideHelp')}>
            <WithUnit unit="%">
              <TextInput id="campaign-override" data-testid="campaign-override" inputMode="decimal" autoComplete="off" value={values.overrideBps} onChange={(v) => set('overrideBps', v)} invalid={!!errors.overrideBps} disabled={!editable} />
            </WithUnit>
          </FormField>
        </section>

        <section className="card">
          <h2>{t('campaignAdmin.sections.rules')}</h2>
          <FormField id="campaign-window" label={t('campaignAdmin.fields.window')} error={errors.attributionWindowDays} help={t('campaignAdmin.windowHelp')}>
            <WithUnit unit={t('campaignAdmin.days')}>
              <TextInput id="campaign-window" data-testid="campaign-window" inputMode="numeric" autoComplete="off" value={values.attributionWindowDays} onChange={(v) => set('attributionWindowDays', v)} invalid={!!errors.attributionWindowDays} disabled={!editable} />
            </WithUnit>
          </FormField>
          <div className="field">
            <span className="console-field-label">{t('campaignAdmin.fields.binding')}</span>
            <Choice
              label={t('campaignAdmin.fields.binding')}
              value={values.bindingMode}
              disabled={!editable}
              onChange={(v) => set('bindingMode', v)}
              options={[
                { value: 'window', label: t('campaignAdmin.binding.window'), testId: 'campaign-binding-window' },
                { value: 'months', label: t('campaignAdmin.binding.months'), testId: 'campaign-binding-months' },
                { value: 'lifetime', label: t('campaignAdmin.binding.lifetime'), testId: 'campaign-binding-lifetime' },
              ]}
            />
            <p className="field-help">{t(`campaignAdmin.bindingHelp.${values.bindingMode}`)}</p>
          </div>
          {values.bindingMode === 'months' ? (
            <FormField id="campaign-binding-months" label={t('campaignAdmin.fields.bindingMonths')} error={errors.customerBinding}>
              <WithUnit unit={t('campaignAdmin.monthsUnit')}>
                <TextInput id="campaign-binding-months" data-testid="campaign-binding-months-input" inputMode="numeric" autoComplete="off" value={values.bindingMonths} onChange={(v) => set('bindingMonths', v)} invalid={!!errors.customerBinding} disabled={!editable} />
              </WithUnit>
            </FormField>
          ) : null}
          <FormField id="campaign-hold" label={t('campaignAdmin.fields.hold')} error={errors.holdDays} help={t('campaignAdmin.holdHelp')}>
            <WithUnit unit={t('campaignAdmin.days')}>
              <TextInput id="campaign-hold" data-testid="campaign-hold" inputMode="numeric" autoComplete="off" value={values.holdDays} onChange={(v) => set('holdDays', v)} invalid={!!errors.holdDays} disabled={!editable} />
            </WithUnit>
          </FormField>
          <div className="field">
            <span className="console-field-label">{t('campaignAdmin.fields.approvalMode')}</span>
            <Choice
              label={t('campaignAdmin.fields.approvalMode')}
              value={values.approvalMode}
              disabled={!editable}
              onChange={(v) => set('approvalMode', v)}
              options={[
                { value: 'auto', label: t('campaignAdmin.approvalMode.auto'), testId: 'campaign-approval-auto' },
                { value: 'manual', label: t('campaignAdmin.approvalMode.manual'), testId: 'campaign-approval-manual' },
              ]}
            />
            <p className="field-help">{t(`campaignAdmin.approvalModeHelp.${values.approvalMode}`)}</p>
          </div>
          <div className="field">
            <span className="console-field-label">{t('campaignAdmin.fields.joinMode')}</span>
            <Choice
              label={t('campaignAdmin.fields.joinMode')}
              value={values.joinMode}
              disabled={!editable}
              onChange={(v) => set('joinMode', v)}
              options={[
                { value: 'open', label: t('campaignAdmin.joinMode.open'), testId: 'campaign-join-open' },
                { value: 'approval', label: t('campaignAdmin.joinMode.approval'), testId: 'campaign-join-approval' },
              ]}
            />
            <p className="field-help">{t(`campaignAdmin.joinModeHelp.${values.joinMode}`)}</p>
          </div>
        </section>

        <section className="card">
          <h2>{t('campaignAdmin.sections.schedule')}</h2>
          <div className="console-dates">
            <FormField id="campaign-starts" label={t('campaignAdmin.fields.startsAt')} error={errors.startsAt}>
              <TextInput id="campaign-starts" data-testid="campaign-starts" type="date" value={values.startsAt} onChange={(v) => set('startsAt', v)} invalid={!!errors.startsAt} disabled={!editable} />
            </FormField>
            <FormField id="campaign-ends" label={t('campaignAdmin.fields.endsAt')} error={errors.endsAt}>
              <TextInput id="campaign-ends" data-testid="campaign-ends" type="date" value={values.endsAt} onChange={(v) => set('endsAt', v)} invalid={!!errors.endsAt} disabled={!editable} />
            </FormField>
          </div>
          <p className="hint" data-testid="campaign-schedule-help">{t('campaignAdmin.scheduleHelp', { zone })}</p>
        </section>

        {editable ? (
          <div className="console-save-bar">
            {campaign && dirty ? <span className="console-unsaved" data-testid="campaign-unsaved">{t('campaignAdmin.unsaved')}</span> : null}
            <Button block type="submit" color="primary" size="large" loading={saving} data-testid="campaign-save">
              {campaign ? t('campaignAdmin.save') : t('campaignAdmin.create')}
            </Button>
          </div>
        ) : null}
      </form>
      {campaign ? <CampaignImages campaign={campaign} canEdit={canEdit && !ended} /> : canEdit ? <p className="console-note">{t('campaignAdmin.imagesAfterCreate')}</p> : null}
    </>
  );
}
