import { useTranslation } from 'react-i18next';
import type { AskedQuestionView } from '@pa/shared';
import { Field, TextInput } from '@/components/field';

/**
 * The application form's questions on the register page (issue 31): one control per kind — a line,
 * a box for longer text, an address, a choice of options — each with its error (a field code,
 * from the shared rules or the server) or, when optional, saying so.
 */
export function ApplicationQuestions({ questions, answers, errors, onChange }: {
  questions: AskedQuestionView[];
  answers: Record<string, string>;
  errors: Record<string, string>;
  onChange: (id: string, value: string) => void;
}) {
  const { t } = useTranslation();
  if (questions.length === 0) return null;
  return (
    <fieldset className="application-questions" data-testid="application-questions">
      <legend className="application-title">{t('auth.application.title')}</legend>
      <p className="application-intro">{t('auth.application.intro')}</p>
      {questions.map((q) => {
        const id = `answer-${q.id}`;
        const value = answers[q.id] ?? '';
        const error = errors[q.id];
        const label = (
          <>
            {q.label}
            {q.required ? null : <span className="application-optional"> ({t('auth.application.optional')})</span>}
          </>
        );
        if (q.kind === 'choice') {
          return (
            <div key={q.id} className={`field${error ? ' field-invalid' : ''}`} role="radiogroup" aria-labelledby={`${id}-label`} aria-describedby={`${id}-msg`} data-testid={id}>
              <span id={`${id}-label`} className="application-choice-label">{label}</span>
              <div className="application-choices">
                {q.options.map((o) => (
                  <label key={o.id} className={`application-choice${value === o.id ? ' is-on' : ''}`}>
                    <input type="radio" name={id} value={o.id} checked={value === o.id} onChange={() => onChange(q.id, o.id)} />
                    <span>{o.label}</span>
                  </label>
                ))}
              </div>
              {error ? <p className="field-error" id={`${id}-msg`} data-testid={`${id}-error`}>{t(`fields.${error}`, { defaultValue: t('fields.invalid') })}</p> : null}
            </div>
          );
        }
        return (
          <Field
            key={q.id}
            id={id}
            label={label}
            error={error}
            // An address that is not one: say what one looks like, rather than "Not valid".
            errorText={q.kind === 'url' && error === 'invalid' ? t('auth.application.urlInvalid') : undefined}
            help={q.kind === 'url' ? t('auth.application.urlHelp') : undefined}
          >
            {q.kind === 'longText' ? (
              <textarea
                id={id}
                name={id}
                className="text-input application-long"
                rows={4}
                value={value}
                maxLength={q.maxLength}
                aria-invalid={error ? true : undefined}
                aria-describedby={`${id}-msg`}
                onChange={(e) => onChange(q.id, e.target.value)}
                data-testid={`${id}-input`}
              />
            ) : (
              <TextInput
                id={id}
                value={value}
                onChange={(v) => onChange(q.id, v)}
                invalid={!!error}
                maxLength={q.maxLength + (q.kind === 'url' ? 8 : 0)}
                {...(q.kind === 'url' ? { type: 'url', inputMode: 'url' as const, autoCapitalize: 'off', spellCheck: false, placeholder: 'https://' } : {})}
                autoComplete="off"
                data-testid={`${id}-input`}
              />
            )}
          </Field>
        );
      })}
    </fieldset>
  );
}
