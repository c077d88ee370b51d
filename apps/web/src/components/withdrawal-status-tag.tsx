import { useTranslation } from 'react-i18next';
import type { WithdrawalStatus } from '@pa/shared';

export function WithdrawalStatusTag({ status }: { status: WithdrawalStatus }) {
  const { t } = useTranslation();
  return <span className={`status-tag wd-status-${status}`} data-testid="withdrawal-status" data-status={status}>{t(`withdrawals.status.${status}`)}</span>;
}
