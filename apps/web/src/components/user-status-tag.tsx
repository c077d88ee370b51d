import { Tag } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import type { UserStatus } from '@pa/shared';

const COLORS: Record<UserStatus, 'warning' | 'success' | 'danger' | 'default'> = { pending: 'warning', active: 'success', suspended: 'danger', rejected: 'default' };

/**
 * An account's status (a promoter's or a staff member's) as a small coloured tag: the words
 * (`admin.status.*`, singular; the filters and tabs say the plural, `admin.filter.*`), not only the colour.
 */
export function UserStatusTag({ status, testId }: { status: UserStatus; testId?: string }) {
  const { t } = useTranslation();
  return <Tag className="status-tag-desk" color={COLORS[status]} fill="outline" round data-testid={testId}>{t(`admin.status.${status}`)}</Tag>;
}
