import { useTranslation } from 'react-i18next';
import type { CommissionStatus } from '@pa/shared';

export function CommissionStatusTag({ status }: { status: CommissionStatus }) {
  const { t } = useTranslation();
  return <span className={`status-tag status-${status}`} data-testid="commission-status">{t(`commissions.status.${status}`)}</span>;
}
