import { Tag } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import type { WithdrawalStatus } from '@pa/shared';

const TAG_COLORS: Record<WithdrawalStatus, 'warning' | 'primary' | 'success' | 'danger' | 'default'> = {
  requested: 'warning',
  approved: 'primary',
  paid: 'success',
  failed: 'danger',
  rejected: 'danger',
  cancelled: 'default',
};

/**
 * A withdrawal's status in words (`withdrawals.status.*`, one key set for the promoter's app and
 * the console): a coloured badge in the app's lists, an outlined tag (`desk`) in the console's
 * tables and pages.
 */
export function WithdrawalStatusTag({ status, desk, testId }: { status: WithdrawalStatus; desk?: boolean; testId?: string }) {
  const { t } = useTranslation();
  const text = t(`withdrawals.status.${status}`);
  if (desk) return <Tag className="status-tag-desk" color={TAG_COLORS[status]} fill="outline" round data-testid={testId}>{text}</Tag>;
  return <span className={`status-tag withdrawal-status-${status}`} data-testid={testId ?? 'withdrawal-status'} data-status={status}>{text}</span>;
}
