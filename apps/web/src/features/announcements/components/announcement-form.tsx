import { Button, Dialog, Switch, Toast } from 'antd-mobile';
import { CloseCircleOutline } from 'antd-mobile-icons';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { isLocale, type Locale } from '@pa/shared/locales';
import { Field, TextInput } from '@/components/field';
import { TextLocalePicker } from '@/components/text-locale-picker';
import { ApiError } from '@/lib/api-client';
import { errorText } from '@/lib/errors';
import { localeToShow, revealFirstError } from '@/lib/form-errors';
import { formatDateTime, formatNumber } from '@/lib/format';
import { useNavigate } from '@/lib/hash-router';
import { useLeaveGuard } from '@/lib/use-leave-guard';
import { useCreateAnnouncement, useDeleteAnnouncement, useUpdateAnnouncement, type AdminAnnouncement } from '../api/manage-announcements';
import {
  BODY_MAX, clearLocale, emptyValues, isFilled, localesWithErrors, sameValues, serverErrors, setText, TITLE_MAX, toTexts, valuesFromAnnouncement, writtenLocales,
  type AnnouncementFormValues, type FormErrors, type TextPart,
} from '../lib/announcement-form';
import { AnnouncementStatusTag } from './announcement-status-tag';
import { TextArea } from '@/components/form-field';
import './announcement-editor.css';

type Busy = 'save' | 'publish' | 'archive' | 'delete' | null;

/** The language shown first: the reader's if it is written (or nothing is), else the first one written. */
function startLocale(values: AnnouncementFormValues, reader: string): Locale {
  const own = isLocale(reader) ? reader : 'en';
  if (isFilled(values, own) || writtenLocales(values).length === 0) return own;
  return writtenLocales(values)[0] ?? own;
}

/**
 * The announcement editor: status and its moves (existing ones), one title and text per language,
 * the pin, and the save bar (save draft / publish for drafts, save for the rest).
 */
export function AnnouncementForm({ announcement }: { announcement?: AdminAnnouncement }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const create = useCreateAnnouncement();
  const update = useUpdateAnnouncement(announcement?.id ?? '');
  const remove = useDeleteAnnouncement(announcement?.id ?? '');
  const [baseline, setBaseline] = useState<AnnouncementFormValues>(() => (announcement ? valuesFromAnnouncement(announcement) : emptyValues()));
  const [values, setValues] = useState(baseline);
  const [errors, setErrors] = useState<FormErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [locale, setLocale] = useState<Locale>(() => startLocale(baseline, i18n.language));
  const [busy, setBusy] = useState<Busy>(null);
  const status = announcement?.status ?? 'draft';
  const dirty = !sameValues(values, baseline);
  useLeaveGuard(dirty && busy === null);
  const languageName = t(`languages.${locale}`);
  const badLocales = localesWithErrors(errors);
  const message = (code: string) => t([`announcementsAdmin.errors.${code}`, `fields.${code}`, 'fields.invalid']);

  const edit = (part: TextPart, text: string) => {
    setValues((v) => setText(v, locale, part, text));
    const key = `${locale}.${part}`;
    if (errors[key] || errors.texts) setErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => k !== key && k !== 'texts')));
  };
  const clearLanguage = () => {
    setValues((v) => clearLocale(v, locale));
    setErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => !k.startsWith(`${locale}.`))));
  };

  /** Shows errors; if the language on screen has none but another has, switches to it. */
  const showErrors = (found: FormErrors) => {
    setErrors(found);
    setLocale(localeToShow(locale, localesWithErrors(found)));
    revealFirstError('.announcement-form .field-invalid, .announcement-form .announcement-texts-error');
  };

  const fail = (error: unknown) => {
    setFormError(errorText(t, error));
    if (error instanceof ApiError && Object.keys(error.fields).length > 0) showErrors(serverErrors(error.fields));
    else Toast.show({ content: errorText(t, error) });
  };

  /** Saves the texts and pin; `publish` also publishes (a draft, or an archived one again). */
  const save = async (publish: boolean) => {
    setFormError(null);
    const result = toTexts(values);
    if (result.errors) {
      setFormError(t('errors.VALIDATION_FAILED'));
      showErrors(result.errors);
      return;
    }
    if (publish) {
      const confirmed = await Dialog.confirm({
        content: t(status === 'archived' ? 'announcementsAdmin.confirm.republish' : 'announcementsAdmin.confirm.publish'),
        confirmText: t(status === 'archived' ? 'announcementsAdmin.actions.republish' : 'announcementsAdmin.actions.publish'),
        cancelText: t('app.cancel'),
      });
      if (!confirmed) return;
    }
    setBusy(publish ? 'publish' : 'save');
    try {
      const saved = announcement
        ? await update.mutateAsync({ texts: result.texts, pinned: values.pinned, ...(publish ? { status: 'published' as const } : {}) })
        : await create.mutateAsync({ texts: result.texts, pinned: values.pinned, status: publish ? 'published' : 'draft' });
      const next = valuesFromAnnouncement(saved);
      setBaseline(next);
      setValues(next);
      setErrors({});
      Toast.show({ icon: 'success', content: t(publish ? 'announcementsAdmin.done.published' : announcement ? 'announcementsAdmin.done.saved' : 'announcementsAdmin.done.created') });
      if (!announcement) navigate(`/admin/announcements/${encodeURIComponent(saved.id)}`, { replace: true });
    } catch (error) {
      fail(error);
    } finally {
      setBusy(null);
    }
  };

  const archive = async () => {
    if (dirty) {
      await Dialog.alert({ content: t('announcementsAdmin.saveFirst'), confirmText: t('app.confirm') });
      return;
    }
    if (!(await Dialog.confirm({ content: t('announcementsAdmin.confirm.archive'), confirmText: t('announcementsAdmin.actions.archive'), cancelText: t('app.cancel') }))) return;
    setBusy('archive');
    try {
      await update.mutateAsync({ status: 'archived' });
      Toast.show({ icon: 'success', content: t('announcementsAdmin.done.archived') });
    } catch (error) {
      Toast.show({ content: errorText(t, error) });
    } finally {
      setBusy(null);
    }
  };

  const destroy = async () => {
    if (!(await Dialog.confirm({ content: t('announcementsAdmin.confirm.delete'), confirmText: t('announcementsAdmin.actions.delete'), cancelText: t('app.cancel') }))) return;
    setBusy('delete');
    try {
      await remove.mutateAsync();
      Toast.show({ icon: 'success', content: t('announcementsAdmin.done.deleted') });
      navigate('/admin/announcements', { replace: true });
    } catch (error) {
      Toast.show({ content: errorText(t, error) });
      setBusy(null);
    }
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void save(false);
  };

  const text = values.texts[locale];
  const count = (used: number, max: number) => t('announcementsAdmin.count', { used: formatNumber(used, i18n.language), max: formatNumber(max, i18n.language) });
  const fieldError = (part: TextPart) => (errors[`${locale}.${part}`] ? message(errors[`${locale}.${part}`]!) : undefined);

  return (
    <>
      {announcement ? (
        <section className="card console-status-card" data-testid="announcement-status-card">
          <div className="console-status-head">
            <h2>{t('announcementsAdmin.statusTitle')}</h2>
            <AnnouncementStatusTag status={announcement.status} />
          </div>
          <p className="hint">{t(`announcementsAdmin.statusHelp.${announcement.status}`)}</p>
          {announcement.publishedAt !== null && announcement.status !== 'draft' ? (
            <p className="hint" data-testid="announcement-published-at">{t('announcementsAdmin.publishedOn', { date: formatDateTime(announcement.publishedAt, i18n.language) })}</p>
          ) : null}
          <div className="console-status-actions">
            {announcement.status === 'draft' ? (
              <Button size="small" color="danger" fill="outline" loading={busy === 'delete'} disabled={busy !== null} onClick={() => void destroy()} data-testid="announcement-delete">
                {t('announcementsAdmin.actions.delete')}
              </Button>
            ) : null}
            {announcement.status === 'published' ? (
              <Button size="small" fill="outline" loading={busy === 'archive'} disabled={busy !== null} onClick={() => void archive()} data-testid="announcement-archive">
                {t('announcementsAdmin.actions.archive')}
              </Button>
            ) : null}
            {announcement.status === 'archived' ? (
              <Button size="small" color="primary" loading={busy === 'publish'} disabled={busy !== null} onClick={() => void save(true)} data-testid="announcement-republish">
                {t('announcementsAdmin.actions.republish')}
              </Button>
            ) : null}
          </div>
        </section>
      ) : null}

      <form className="console-form announcement-form" onSubmit={onSubmit} noValidate>
        {formError ? <div className="form-error" role="alert" data-testid="form-error">{formError}</div> : null}

        <section className="card">
          <h2>{t('announcementsAdmin.sections.texts')}</h2>
          <p className="hint console-locale-hint">{t('announcementsAdmin.textsHelp')}</p>
          <TextLocalePicker
            label={t('announcementsAdmin.textLanguage')}
            value={locale}
            onChange={setLocale}
            withErrors={badLocales}
            written={(l) => isFilled(values, l)}
            errorLabel={t('announcementsAdmin.localeHasError')}
            writtenLabel={t('announcementsAdmin.localeFilled')}
            testIdPrefix="announcement-locale-"
          />
          {errors.texts ? <p className="field-error announcement-texts-error" role="alert" data-testid="announcement-texts-error">{message(errors.texts)}</p> : null}
          <Field id="announcement-title" label={t('announcementsAdmin.fields.title', { language: languageName })} errorText={fieldError('title')} help={count(text.title.length, TITLE_MAX)}>
            <TextInput
              id="announcement-title"
              data-testid="announcement-title"
              lang={locale}
              value={text.title}
              onChange={(v) => edit('title', v)}
              invalid={!!fieldError('title')}
              maxLength={TITLE_MAX}
              autoComplete="off"
              enterKeyHint="next"
            />
          </Field>
          <Field id="announcement-body" label={t('announcementsAdmin.fields.body', { language: languageName })} errorText={fieldError('body')} help={count(text.body.length, BODY_MAX)}>
            <TextArea id="announcement-body" data-testid="announcement-body" lang={locale} rows={6} value={text.body} onChange={(v) => edit('body', v)} invalid={!!fieldError('body')} maxLength={BODY_MAX} />
          </Field>
          {isFilled(values, locale) ? (
            <button type="button" className="text-button announcement-clear" onClick={clearLanguage} data-testid="announcement-clear-locale">
              <CloseCircleOutline aria-hidden /> {t('announcementsAdmin.clearLocale', { language: languageName })}
            </button>
          ) : null}
        </section>

        <section className="card">
          <div className="console-switch-row">
            <span className="console-switch-label">
              <span className="console-field-label" id="announcement-pin-label">{t('announcementsAdmin.pin')}</span>
              <span className="field-help" id="announcement-pin-help">{t('announcementsAdmin.pinHelp')}</span>
            </span>
            <Switch
              checked={values.pinned}
              onChange={(pinned) => setValues((v) => ({ ...v, pinned }))}
              aria-labelledby="announcement-pin-label"
              aria-describedby="announcement-pin-help"
              data-testid="announcement-pin"
            />
          </div>
        </section>

        <div className="console-save-bar announcement-save-bar">
          {announcement && dirty ? <span className="console-unsaved" data-testid="announcement-unsaved">{t('announcementsAdmin.unsaved')}</span> : null}
          <div className="announcement-save-buttons">
            {status === 'draft' ? (
              <>
                <Button type="submit" size="large" loading={busy === 'save'} disabled={busy !== null} data-testid="announcement-save">
                  {t('announcementsAdmin.actions.saveDraft')}
                </Button>
                <Button type="button" color="primary" size="large" loading={busy === 'publish'} disabled={busy !== null} onClick={() => void save(true)} data-testid="announcement-publish">
                  {t('announcementsAdmin.actions.publish')}
                </Button>
              </>
            ) : (
              <Button type="submit" color="primary" size="large" loading={busy === 'save'} disabled={busy !== null || !dirty} data-testid="announcement-save">
                {t('announcementsAdmin.actions.save')}
              </Button>
            )}
          </div>
        </div>
      </form>
    </>
  );
}
