import { Tag } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import type { CommissionStatus } from '@pa/shared';

const TAG_COLORS: Record<CommissionStatus, 'warning' | 'success' | 'danger' | 'default'> = { pending: 'warning', approved: 'success', rejected: 'danger', reversed: 'default' };

/**
 * A commission's status in words (`commissions.status.*`, one key set for the promoter's app and
 * the console, which loads the app's texts too; the wording is chosen in docs/console.md): a
 * coloured badge in the app, an outlined tag (`desk`) in the console's tables and lists.
 */
export function CommissionStatusTag({ status, desk, testId }: { status: CommissionStatus; desk?: boolean; testId?: string }) {
  const { t } = useTranslation();
  const text = t(`commissions.status.${status}`);
  if (desk) return <Tag className="status-tag-desk" color={TAG_COLORS[status]} fill="outline" round data-testid={testId}>{text}</Tag>;
  return <span className={`status-tag status-${status}`} data-testid={testId ?? 'commission-status'}>{text}</span>;
}
