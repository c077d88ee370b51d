import { Button, Toast } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { copyText } from '../lib/clipboard';

/** A value shown in full (selectable) with a copy button. */
export function CopyField({ label, value, buttonLabel, testId }: { label: string; value: string; buttonLabel: string; testId?: string }) {
  const { t } = useTranslation();
  return (
    <div className="copy-field">
      <div className="copy-field-text">
        <span className="copy-field-label">{label}</span>
        <span className="copy-field-value" data-testid={testId}>{value}</span>
      </div>
      <Button
        size="small"
        color="primary"
        fill="outline"
        onClick={async () => {
          const ok = await copyText(value);
          Toast.show({ content: ok ? t('app.copied') : t('app.copyFailed'), icon: ok ? 'success' : undefined });
        }}
      >
        {buttonLabel}
      </Button>
    </div>
  );
}
