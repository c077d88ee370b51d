/**
 * The application form's editor (issue 31, item 8): the registration's questions (settings) and a
 * group's (groups). Questions in order — kind, required, the label in each language (one language
 * at a time, the switch marking the languages filled in) and a choice's options — checked with the
 * server's rules before saving; the server's field errors land on the same inputs.
 */
import { Button, Toast } from 'antd-mobile';
import { AddOutline, DeleteOutline, DownOutline, UpOutline } from 'antd-mobile-icons';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { LOCALES, isLocale, type Locale } from '@pa/shared/locales';
import { OPTION_LABEL_MAX, QUESTION_KINDS, QUESTION_LABEL_MAX, type QuestionKind } from '@pa/shared/application-form';
import type { ApplicationFormBody, Question } from '@pa/shared';
import { ApiError } from '../lib/api-client';
import { errorText } from '../lib/errors';
import {
  QUESTION_OPTIONS_MAX, QUESTIONS_MAX, bodyOf, checkDrafts, draftsOf, fallbackOf, localeComplete, localesWithErrors, moved, newOption, newQuestion, sameForm, withKind,
  type DraftErrors, type Labels, type QuestionDraft,
} from '../lib/question-drafts';
import './questions-editor.css';

interface Props {
  /** The form as saved. */
  questions: readonly Question[];
  save: (body: ApplicationFormBody) => Promise<unknown>;
  /** Prefix of the inputs' ids and test ids (two editors may share a page). */
  idPrefix: string;
  onSaved?: () => void;
  onCancel?: () => void;
}

function LabelInput({ id, labels, locale, max, error, label, onChange, testId }: {
  id: string; labels: Labels; locale: Locale; max: number; error: string | undefined; label: string; onChange: (v: string) => void; testId: string;
}) {
  const { t } = useTranslation();
  const fallback = fallbackOf(labels, locale);
  return (
    <div className={`field qe-field${error ? ' field-invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        className="text-input"
        lang={locale}
        value={labels[locale]}
        maxLength={max + 20}
        placeholder={fallback}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-msg`}
        onChange={(e) => onChange(e.target.value)}
        data-testid={testId}
      />
      {error ? <p className="field-error" id={`${id}-msg`}>{error}</p> : !labels[locale].trim() && fallback ? <p className="field-help" id={`${id}-msg`}>{t('questionsEditor.fallback', { text: fallback })}</p> : null}
    </div>
  );
}

export function QuestionsEditor({ questions, save, idPrefix, onSaved, onCancel }: Props) {
  const { t, i18n } = useTranslation();
  const [saved, setSaved] = useState(() => draftsOf(questions));
  const [drafts, setDrafts] = useState<QuestionDraft[]>(saved);
  // The texts in the reader's own language first.
  const [locale, setLocale] = useState<Locale>(() => (isLocale(i18n.language) ? i18n.language : 'en'));
  const [errors, setErrors] = useState<DraftErrors>({});
  const [busy, setBusy] = useState(false);
  const dirty = !sameForm(drafts, saved);
  const bad = localesWithErrors(errors);

  const errorOf = (key: string): string | undefined => {
    const code = errors[key];
    if (!code) return undefined;
    return t([`questionsEditor.errors.${code}`, `fields.${code}`, 'fields.invalid']);
  };
  const update = (index: number, change: (q: QuestionDraft) => QuestionDraft) => setDrafts((all) => all.map((q, i) => (i === index ? change(q) : q)));
  const setLabel = (labels: Labels, value: string): Labels => ({ ...labels, [locale]: value });

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const found = checkDrafts(drafts);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      // Show the first language with a problem.
      const first = localesWithErrors(found);
      if (first.size > 0 && !first.has(locale)) setLocale([...first][0]!);
      return;
    }
    setBusy(true);
    try {
      const answer = (await save(bodyOf(drafts))) as { questions: Question[] };
      const next = draftsOf(answer.questions);
      setSaved(next);
      setDrafts(next);
      Toast.show({ icon: 'success', content: t('app.saved') });
      onSaved?.();
    } catch (error) {
      if (error instanceof ApiError && Object.keys(error.fields).length > 0) setErrors(error.fields as DraftErrors);
      Toast.show({ content: errorText(t, error) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="qe" onSubmit={onSubmit} noValidate data-testid={`${idPrefix}-editor`}>
      <div className="qe-languages" role="group" aria-label={t('questionsEditor.language')}>
        <span className="qe-languages-label">{t('questionsEditor.language')}</span>
        {LOCALES.map((l) => (
          <button key={l} type="button" className={`chip${l === locale ? ' chip-on' : ''}`} aria-pressed={l === locale} onClick={() => setLocale(l)} data-testid={`${idPrefix}-locale-${l}`}>
            {t(`languages.${l}`)}
            {bad.has(l) ? <span className="console-locale-mark console-locale-mark-error" aria-label={t('questionsEditor.localeHasError')} /> : localeComplete(drafts, l) ? <span className="console-locale-mark" aria-label={t('questionsEditor.localeFilled')} /> : null}
          </button>
        ))}
      </div>
      {drafts.length === 0 ? <p className="qe-empty" data-testid={`${idPrefix}-empty`}>{t('questionsEditor.empty')}</p> : null}
      <ol className="qe-list">
        {drafts.map((q, i) => {
          const base = `${idPrefix}-q${i}`;
          return (
            <li key={q.key} className="qe-question" data-testid={base}>
              <div className="qe-question-head">
                <span className="qe-number">{t('questionsEditor.number', { n: i + 1 })}</span>
                <span className="qe-tools">
                  <Button size="mini" fill="none" disabled={i === 0} onClick={() => setDrafts((all) => moved(all, i, -1))} aria-label={t('questionsEditor.up')}><UpOutline /></Button>
                  <Button size="mini" fill="none" disabled={i === drafts.length - 1} onClick={() => setDrafts((all) => moved(all, i, 1))} aria-label={t('questionsEditor.down')}><DownOutline /></Button>
                  <Button size="mini" fill="none" color="danger" onClick={() => { setDrafts((all) => all.filter((_, j) => j !== i)); setErrors({}); }} aria-label={t('questionsEditor.remove')} data-testid={`${base}-remove`}><DeleteOutline /></Button>
                </span>
              </div>
              <div className="qe-row">
                <label className="qe-kind">
                  <span>{t('questionsEditor.kind')}</span>
                  <select value={q.kind} onChange={(e) => update(i, (d) => withKind(d, e.target.value as QuestionKind))} data-testid={`${base}-kind`}>
                    {QUESTION_KINDS.map((k) => <option key={k} value={k}>{t(`questionsEditor.kinds.${k}`)}</option>)}
                  </select>
                </label>
                <label className="qe-required">
                  <input type="checkbox" checked={q.required} onChange={(e) => update(i, (d) => ({ ...d, required: e.target.checked }))} data-testid={`${base}-required`} />
                  <span>{t('questionsEditor.required')}</span>
                </label>
              </div>
              <LabelInput
                id={`${base}-label`}
                labels={q.labels}
                locale={locale}
                max={QUESTION_LABEL_MAX}
                label={t('questionsEditor.label', { language: t(`languages.${locale}`) })}
                error={errorOf(`questions.${i}.labels.${locale}`) ?? errorOf(`questions.${i}.labels`)}
                onChange={(v) => update(i, (d) => ({ ...d, labels: setLabel(d.labels, v) }))}
                testId={`${base}-label`}
              />
              {q.kind === 'choice' ? (
                <fieldset className="qe-options">
                  <legend>{t('questionsEditor.options')}</legend>
                  {errorOf(`questions.${i}.options`) ? <p className="field-error">{errorOf(`questions.${i}.options`)}</p> : null}
                  {q.options.map((o, j) => (
                    <div key={o.key} className="qe-option">
                      <LabelInput
                        id={`${base}-o${j}`}
                        labels={o.labels}
                        locale={locale}
                        max={OPTION_LABEL_MAX}
                        label={t('questionsEditor.option', { n: j + 1 })}
                        error={errorOf(`questions.${i}.options.${j}.labels.${locale}`) ?? errorOf(`questions.${i}.options.${j}.labels`)}
                        onChange={(v) => update(i, (d) => ({ ...d, options: d.options.map((p, k) => (k === j ? { ...p, labels: setLabel(p.labels, v) } : p)) }))}
                        testId={`${base}-o${j}`}
                      />
                      <Button size="mini" fill="none" color="danger" className="qe-option-remove" disabled={q.options.length <= 2} onClick={() => update(i, (d) => ({ ...d, options: d.options.filter((_, k) => k !== j) }))} aria-label={t('questionsEditor.removeOption', { n: j + 1 })}>
                        <DeleteOutline />
                      </Button>
                    </div>
                  ))}
                  <Button size="small" fill="outline" disabled={q.options.length >= QUESTION_OPTIONS_MAX} onClick={() => update(i, (d) => ({ ...d, options: [...d.options, newOption()] }))} data-testid={`${base}-add-option`}>
                    <span className="qe-button-label"><AddOutline aria-hidden /> {t('questionsEditor.addOption')}</span>
                  </Button>
                </fieldset>
              ) : null}
            </li>
          );
        })}
      </ol>
      {errorOf('questions') ? <p className="field-error">{errorOf('questions')}</p> : null}
      <div className="qe-actions">
        <Button fill="outline" color="primary" disabled={drafts.length >= QUESTIONS_MAX} onClick={() => setDrafts((all) => [...all, newQuestion()])} data-testid={`${idPrefix}-add`}>
          <span className="qe-button-label"><AddOutline aria-hidden /> {t('questionsEditor.add')}</span>
        </Button>
        <span className="qe-actions-end">
          {onCancel ? <Button fill="outline" onClick={onCancel} disabled={busy}>{t(dirty ? 'app.cancel' : 'questionsEditor.close')}</Button> : null}
          <Button type="submit" color="primary" loading={busy} disabled={busy || !dirty} data-testid={`${idPrefix}-save`}>{t('questionsEditor.save')}</Button>
        </span>
      </div>
    </form>
  );
}
