import { Tag } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import type { AnnouncementStatus } from '@pa/shared';

const COLORS: Record<AnnouncementStatus, 'primary' | 'success' | 'default'> = { draft: 'primary', published: 'success', archived: 'default' };

export function AnnouncementStatusTag({ status, testId }: { status: AnnouncementStatus; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Tag className="status-tag-desk" color={COLORS[status]} fill={status === 'published' ? 'solid' : 'outline'} round data-testid={testId ?? 'announcement-status'}>
      {t(`announcementsAdmin.status.${status}`)}
    </Tag>
  );
}
