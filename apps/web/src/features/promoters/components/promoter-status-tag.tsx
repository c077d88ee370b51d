import { Tag } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import type { UserStatus } from '@pa/shared';

const COLORS: Record<UserStatus, 'warning' | 'success' | 'danger' | 'default'> = { pending: 'warning', active: 'success', suspended: 'danger', rejected: 'default' };

/** A promoter's account status as a small coloured tag (the words, not only the colour; singular, unlike the filters' plural). */
export function PromoterStatusTag({ status, testId }: { status: UserStatus; testId?: string }) {
  const { t } = useTranslation();
  return <Tag className="status-tag-desk" color={COLORS[status]} fill="outline" round data-testid={testId}>{t(`promotersAdmin.status.${status}`)}</Tag>;
}
