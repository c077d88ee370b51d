import { Button, Toast } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import type { Campaign } from '@pa/shared';
import { errorText } from '@/lib/errors';
import { useJoinCampaign } from '../api/join-campaign';

/** Join, or where the reader stands: joined, waiting for approval, not approved. */
export function JoinButton({ campaign, block }: { campaign: Campaign; block?: boolean }) {
  const { t } = useTranslation();
  const join = useJoinCampaign();
  const status = campaign.enrollment?.status;
  if (status === 'approved') return <span className="current-tag">{t('promote.joined')}</span>;
  if (status === 'pending') return <span className="role-tag">{t('promote.pending')}</span>;
  if (status === 'rejected') return <span className="role-tag">{t('promote.rejected')}</span>;
  return (
    <Button
      color="primary"
      size={block ? 'large' : 'small'}
      block={block}
      loading={join.isPending}
      disabled={campaign.status !== 'active'}
      data-testid={`join-${campaign.id}`}
      onClick={async (event) => {
        event.stopPropagation();
        try {
          const { enrollment } = await join.mutateAsync(campaign.id);
          Toast.show({ icon: 'success', content: enrollment.status === 'approved' ? t('promote.joinedToast') : t('promote.pendingToast') });
        } catch (error) {
          Toast.show({ content: errorText(t, error) });
        }
      }}
    >
      {t('promote.join')}
    </Button>
  );
}
