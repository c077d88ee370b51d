import { Button, Selector, Toast } from 'antd-mobile';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { AdminBounty } from '@pa/shared';
import { isLocale, type Locale } from '@pa/shared/locales';
import { TextInput } from '@/components/field';
import { FormField, TextArea, WithUnit } from '@/components/form-field';
import { TextLocalePicker } from '@/components/text-locale-picker';
import { ApiError } from '@/lib/api-client';
import { errorText } from '@/lib/errors';
import { localeToShow, revealFirstError, type FormErrors } from '@/lib/form-errors';
import { currencyMark } from '@/lib/format';
import { Choice } from '@/components/choice';
import { useCreateBounty, usePatchBounty, type GroupOption } from '../api/admin-bounties';
import { useGroupName } from '@/lib/group-name';
import {
  BOUNTY_DESCRIPTION_MAX, BOUNTY_NAME_MAX, bountyLocalesWithErrors, bountyServerErrors, emptyBountyValues, toBountyBody, toPatch, valuesFromBounty, type BountyFormValues, type BountyTexts,
} from '../lib/bounty-form';

interface Props {
  campaignId: string;
  /** Absent: a new bounty. */
  bounty: AdminBounty | null;
  currency: string;
  zone: string;
  /** null: this server has no groups to choose from. */
  groups: GroupOption[] | null;
  onDone: () => void;
}

/** Create or change a bounty: its kind and goal, texts per language, reward, groups and dates. */
export function BountyForm({ campaignId, bounty, currency, zone, groups, onDone }: Props) {
  const { t, i18n } = useTranslation();
  const groupName = useGroupName();
  const create = useCreateBounty(campaignId);
  const patch = usePatchBounty();
  const [values, setValues] = useState<BountyFormValues>(() => (bounty ? valuesFromBounty(bounty, currency, zone) : emptyBountyValues()));
  const [errors, setErrors] = useState<FormErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [locale, setLocale] = useState<Locale>(isLocale(i18n.language) ? i18n.language : 'en');
  const busy = create.isPending || patch.isPending;
  // The kind and goal of a bounty already earned stay as they are.
  const goalLocked = bounty !== null && bounty.earnedCount > 0;

  const clear = (...keys: string[]) => {
    if (keys.some((k) => errors[k])) setErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => !keys.includes(k))));
  };
  const set = <K extends keyof BountyFormValues>(key: K, value: BountyFormValues[K], ...alsoClear: string[]) => {
    setValues((v) => ({ ...v, [key]: value }));
    clear(key, ...alsoClear);
  };
  const setText = (kind: 'names' | 'descriptions', text: string) => {
    setValues((v) => ({ ...v, [kind]: { ...v[kind], [locale]: text } as BountyTexts }));
    clear(kind, `${kind}.${locale}`);
  };
  const showErrors = (found: FormErrors) => {
    setErrors(found);
    setLocale(localeToShow(locale, bountyLocalesWithErrors(found)));
    revealFirstError('.bounty-form .field-invalid');
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    if (busy) return;
    const result = toBountyBody(values, currency, i18n.language, zone);
    if (result.errors) {
      setFormError(t('errors.VALIDATION_FAILED'));
      showErrors(result.errors);
      return;
    }
    try {
      if (bounty) {
        const body = toPatch(result.body);
        if (goalLocked) delete body.goal;
        await patch.mutateAsync({ id: bounty.id, ...body });
      } else await create.mutateAsync(result.body);
      Toast.show({ icon: 'success', content: t(bounty ? 'bountiesAdmin.done.saved' : 'bountiesAdmin.done.created') });
      onDone();
    } catch (error) {
      setFormError(errorText(t, error));
      if (error instanceof ApiError && Object.keys(error.fields).length > 0) showErrors(bountyServerErrors(error.fields));
    }
  };

  const textError = (kind: 'names' | 'descriptions') => errors[`${kind}.${locale}`] ?? (kind === 'names' ? errors.names : undefined);
  const localeLabel = t(`languages.${locale}`);
  const performance = values.kind === 'performance';
  const amountGoal = values.metric === 'saleAmount';
  const unit = currencyMark(currency);

  return (
    <form className="staff-form console-form bounty-form" onSubmit={onSubmit} noValidate data-testid="bounty-form">
      <h2 id="bounty-form-title" className="staff-title">{bounty ? t('bountiesAdmin.form.editTitle') : t('bountiesAdmin.form.newTitle')}</h2>
      {formError ? <p className="form-error" role="alert" data-testid="bounty-form-error">{formError}</p> : null}

      <div className="field">
        <span className="console-field-label">{t('bountiesAdmin.form.kind')}</span>
        <Choice
          label={t('bountiesAdmin.form.kind')}
          value={values.kind}
          disabled={bounty !== null}
          onChange={(v) => set('kind', v, 'goal.value')}
          options={[
            { value: 'performance', label: t('bountiesAdmin.kind.performance'), testId: 'bounty-kind-performance' },
            { value: 'submission', label: t('bountiesAdmin.kind.submission'), testId: 'bounty-kind-submission' },
          ]}
        />
        <p className="field-help">{t(`bountiesAdmin.kindHelp.${values.kind}`)}</p>
      </div>

      {performance ? (
        <fieldset className="bounty-goal" disabled={goalLocked}>
          <legend className="console-field-label">{t('bountiesAdmin.form.goal')}</legend>
          <div className="field">
            <span className="console-field-label bounty-sub-label">{t('bountiesAdmin.form.metric')}</span>
            <Choice
              label={t('bountiesAdmin.form.metric')}
              value={values.metric}
              disabled={goalLocked}
              columns={3}
              onChange={(v) => set('metric', v, 'goal.value')}
              options={[
                { value: 'sales', label: t('bountiesAdmin.metric.sales'), testId: 'bounty-metric-sales' },
                { value: 'saleAmount', label: t('bountiesAdmin.metric.saleAmount'), testId: 'bounty-metric-saleAmount' },
                { value: 'leads', label: t('bountiesAdmin.metric.leads'), testId: 'bounty-metric-leads' },
              ]}
            />
          </div>
          <div className="bounty-goal-row">
            <FormField id="bounty-goal-value" label={t(amountGoal ? 'bountiesAdmin.form.goalAmount' : 'bountiesAdmin.form.goalCount')} error={errors['goal.value']}>
              {amountGoal ? (
                <WithUnit unit={unit}>
                  <TextInput id="bounty-goal-value" data-testid="bounty-goal-value" inputMode="decimal" autoComplete="off" value={values.goalValue} onChange={(v) => set('goalValue', v, 'goal.value')} invalid={!!errors['goal.value']} disabled={goalLocked} />
                </WithUnit>
              ) : (
                <WithUnit unit={t(`bountiesAdmin.unit.${values.metric}`)}>
                  <TextInput id="bounty-goal-value" data-testid="bounty-goal-value" inputMode="numeric" autoComplete="off" value={values.goalValue} onChange={(v) => set('goalValue', v, 'goal.value')} invalid={!!errors['goal.value']} disabled={goalLocked} />
                </WithUnit>
              )}
            </FormField>
            <div className="field">
              <span className="console-field-label">{t('bountiesAdmin.form.period')}</span>
              <Choice
                label={t('bountiesAdmin.form.period')}
                value={values.period}
                disabled={goalLocked}
                onChange={(v) => set('period', v)}
                options={[
                  { value: 'month', label: t('bountiesAdmin.period.month'), testId: 'bounty-period-month' },
                  { value: 'campaign', label: t('bountiesAdmin.period.campaign'), testId: 'bounty-period-campaign' },
                ]}
              />
            </div>
          </div>
          <p className="field-help">{goalLocked ? t('bountiesAdmin.form.goalLocked') : t('bountiesAdmin.form.goalHelp')}</p>
        </fieldset>
      ) : null}

      <div className="bounty-texts">
        <TextLocalePicker
          label={t('campaignAdmin.textLanguage')}
          value={locale}
          onChange={setLocale}
          withErrors={bountyLocalesWithErrors(errors)}
          written={(l) => values.names[l].trim() !== ''}
          errorLabel={t('campaignAdmin.localeHasError')}
          writtenLabel={t('campaignAdmin.localeFilled')}
          testIdPrefix="bounty-locale-"
        />
        <FormField id="bounty-name" label={t('bountiesAdmin.form.name', { language: localeLabel })} error={textError('names')} help={t('bountiesAdmin.form.nameHelp')}>
          <TextInput id="bounty-name" data-testid="bounty-name" lang={locale} value={values.names[locale]} onChange={(v) => setText('names', v)} invalid={!!textError('names')} maxLength={BOUNTY_NAME_MAX} autoComplete="off" />
        </FormField>
        <FormField id="bounty-description" label={t('bountiesAdmin.form.description', { language: localeLabel })} error={textError('descriptions')} help={t(performance ? 'bountiesAdmin.form.descriptionHelp' : 'bountiesAdmin.form.descriptionHelpSubmission')}>
          <TextArea id="bounty-description" data-testid="bounty-description" lang={locale} rows={3} value={values.descriptions[locale]} onChange={(v) => setText('descriptions', v)} invalid={!!textError('descriptions')} maxLength={BOUNTY_DESCRIPTION_MAX} />
        </FormField>
      </div>

      <FormField id="bounty-reward" label={t('bountiesAdmin.form.reward')} error={errors.reward} help={t('bountiesAdmin.form.rewardHelp', { currency: unit })}>
        <WithUnit unit={unit}>
          <TextInput id="bounty-reward" data-testid="bounty-reward" inputMode="decimal" autoComplete="off" value={values.reward} onChange={(v) => set('reward', v)} invalid={!!errors.reward} />
        </WithUnit>
      </FormField>

      {groups && groups.length > 0 ? (
        <div className={`field${errors.groupIds ? ' field-invalid' : ''}`}>
          <span className="console-field-label" id="bounty-groups-label">{t('bountiesAdmin.form.groups')}</span>
          <div role="group" aria-labelledby="bounty-groups-label" data-testid="bounty-groups">
            <Selector
              className="console-choice"
              multiple
              columns={3}
              showCheckMark={false}
              value={values.groupIds}
              onChange={(next) => set('groupIds', next)}
              options={groups.map((g) => ({ value: g.id, label: <span className="console-choice-label" role="checkbox" aria-checked={values.groupIds.includes(g.id)}>{groupName(g)}</span> }))}
            />
          </div>
          {errors.groupIds ? <p className="field-error">{t([`fields.${errors.groupIds.code}`, 'fields.invalid'])}</p> : (
            <p className="field-help">{values.groupIds.length ? t('bountiesAdmin.form.groupsSome') : t('bountiesAdmin.form.groupsAll')}</p>
          )}
        </div>
      ) : null}

      <div className="console-dates">
        <FormField id="bounty-starts" label={t('bountiesAdmin.form.startsAt')} error={errors.startsAt}>
          <TextInput id="bounty-starts" data-testid="bounty-starts" type="date" value={values.startsAt} onChange={(v) => set('startsAt', v)} invalid={!!errors.startsAt} />
        </FormField>
        <FormField id="bounty-ends" label={t('bountiesAdmin.form.endsAt')} error={errors.endsAt}>
          <TextInput id="bounty-ends" data-testid="bounty-ends" type="date" value={values.endsAt} onChange={(v) => set('endsAt', v)} invalid={!!errors.endsAt} />
        </FormField>
      </div>
      <p className="hint">{t('bountiesAdmin.form.datesHelp', { zone })}</p>

      <div className="staff-actions">
        <Button type="button" fill="outline" onClick={onDone} disabled={busy}>{t('app.cancel')}</Button>
        <Button type="submit" color="primary" loading={busy} disabled={busy} data-testid="bounty-submit">{bounty ? t('bountiesAdmin.form.save') : t('bountiesAdmin.form.create')}</Button>
      </div>
    </form>
  );
}
