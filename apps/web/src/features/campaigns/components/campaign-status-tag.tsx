import { Tag } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import type { CampaignStatus } from '@pa/shared';

const COLORS: Record<CampaignStatus, 'primary' | 'success' | 'warning' | 'default'> = { draft: 'primary', active: 'success', paused: 'warning', ended: 'default' };

export function CampaignStatusTag({ status }: { status: CampaignStatus }) {
  const { t } = useTranslation();
  return (
    <Tag className="status-tag-desk" color={COLORS[status]} fill={status === 'active' ? 'solid' : 'outline'} round data-testid="campaign-status">
      {t(`campaignAdmin.status.${status}`)}
    </Tag>
  );
}
