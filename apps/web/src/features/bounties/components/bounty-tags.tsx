import { Tag } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import type { BountyStatus, SubmissionStatus } from '@pa/shared';

/** A bounty's status in the console: active or archived. */
export function BountyStatusTag({ status }: { status: BountyStatus }) {
  const { t } = useTranslation();
  return (
    <Tag className="status-tag-desk" color={status === 'active' ? 'success' : 'default'} fill={status === 'active' ? 'solid' : 'outline'} round data-testid="bounty-status">
      {t(`bountiesAdmin.status.${status}`)}
    </Tag>
  );
}

const SUBMISSION_COLORS: Record<SubmissionStatus, 'warning' | 'success' | 'danger'> = { pending: 'warning', approved: 'success', rejected: 'danger' };

/** A submission's status, where `label` is the area's words for it. */
export function SubmissionStatusTag({ status, label }: { status: SubmissionStatus; label: string }) {
  return (
    <Tag className="status-tag-desk" color={SUBMISSION_COLORS[status]} fill="outline" round data-testid={`submission-status-${status}`}>
      {label}
    </Tag>
  );
}
