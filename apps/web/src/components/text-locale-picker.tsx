import { Selector } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { LOCALES, type Locale } from '@pa/shared/locales';

interface Props {
  /** The radio group's name for screen readers ("Text language"). */
  label: string;
  value: Locale;
  onChange: (locale: Locale) => void;
  /** The languages whose texts have an error: a red mark. */
  withErrors: ReadonlySet<string>;
  /** Whether a language's texts are written: a green mark (unless it has an error). */
  written: (locale: Locale) => boolean;
  /** What the marks say to a screen reader. */
  errorLabel: string;
  writtenLabel: string;
  /** Each choice's test id is this followed by its locale. */
  testIdPrefix: string;
  disabled?: boolean;
}

/**
 * The language being edited in a console form with texts per language (campaigns, announcements):
 * the five languages in three columns, each marked when its texts have an error or are written.
 */
export function TextLocalePicker({ label, value, onChange, withErrors, written, errorLabel, writtenLabel, testIdPrefix, disabled }: Props) {
  const { t } = useTranslation();
  return (
    <div role="radiogroup" aria-label={label}>
      <Selector
        className="console-choice"
        columns={3}
        showCheckMark={false}
        disabled={disabled}
        value={[value]}
        onChange={(next) => next[0] && onChange(next[0])}
        options={LOCALES.map((l) => ({
          value: l,
          label: (
            <span className="console-choice-label" role="radio" aria-checked={l === value} data-testid={`${testIdPrefix}${l}`}>
              {t(`languages.${l}`)}
              {withErrors.has(l)
                ? <span className="console-locale-mark console-locale-mark-error" role="img" aria-label={errorLabel} />
                : written(l) ? <span className="console-locale-mark" role="img" aria-label={writtenLabel} /> : null}
            </span>
          ),
        }))}
      />
    </div>
  );
}
