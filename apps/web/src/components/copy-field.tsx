import { Button } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { copyText } from '../lib/clipboard';

/** Lets long URLs wrap after / ? & = # rather than in the middle of a word. */
function breakable(value: string) {
  return value.split(/(?<=[/?&=#])/).flatMap((part, i) => (i === 0 ? [part] : [<wbr key={i} />, part]));
}

/** A value shown in full (selectable) with a copy button. */
export function CopyField({ label, value, buttonLabel, testId }: { label: string; value: string; buttonLabel: string; testId?: string }) {
  const { t } = useTranslation();
  return (
    <div className="copy-field">
      <div className="copy-field-text">
        <span className="copy-field-label">{label}</span>
        <span className="copy-field-value" data-testid={testId}>{breakable(value)}</span>
      </div>
      <Button
        size="small"
        color="primary"
        fill="outline"
        onClick={async () => {
          // Copied at once (within the tap); the toast's code (with its animation library) only
          // loads now, so pages showing a copy field (Home) do not wait for it.
          const [ok, { default: Toast }] = await Promise.all([copyText(value), import('antd-mobile/es/components/toast')]);
          Toast.show({ content: ok ? t('app.copied') : t('app.copyFailed'), icon: ok ? 'success' : undefined });
        }}
      >
        {buttonLabel}
      </Button>
    </div>
  );
}
