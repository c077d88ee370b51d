import { Button, Dialog, Toast } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import type { AdminCampaign, CampaignStatus } from '@pa/shared';
import { errorText } from '@/lib/errors';
import { useUpdateCampaign } from '../api/console-campaigns';
import { CampaignStatusTag } from './campaign-status-tag';

type Move = { to: CampaignStatus; action: 'activate' | 'pause' | 'end' };
const MOVES: Record<CampaignStatus, Move[]> = {
  draft: [{ to: 'active', action: 'activate' }],
  active: [{ to: 'paused', action: 'pause' }, { to: 'ended', action: 'end' }],
  paused: [{ to: 'active', action: 'activate' }, { to: 'ended', action: 'end' }],
  ended: [],
};

/** The current status, what it means, and (for admins) the moves it allows. */
export function CampaignStatusCard({ campaign, canEdit, dirty }: { campaign: AdminCampaign; canEdit: boolean; dirty: boolean }) {
  const { t } = useTranslation();
  const update = useUpdateCampaign(campaign.id);

  const move = async ({ to, action }: Move) => {
    if (dirty) {
      await Dialog.alert({ content: t('campaignAdmin.saveFirst'), confirmText: t('app.confirm') });
      return;
    }
    if (action === 'end' && !(await Dialog.confirm({ content: t('campaignAdmin.confirmEnd'), confirmText: t('campaignAdmin.actions.end'), cancelText: t('app.cancel') }))) return;
    try {
      await update.mutateAsync({ status: to });
      Toast.show({ icon: 'success', content: t(`campaignAdmin.moved.${to}`) });
    } catch (error) {
      Toast.show({ content: errorText(t, error) });
    }
  };

  const moves = canEdit ? MOVES[campaign.status] : [];
  return (
    <section className="card console-status-card">
      <div className="console-status-head">
        <h2>{t('campaignAdmin.statusTitle')}</h2>
        <CampaignStatusTag status={campaign.status} />
      </div>
      <p className="hint">{t(`campaignAdmin.statusHelp.${campaign.status}`)}</p>
      {moves.length ? (
        <div className="console-status-actions">
          {moves.map((m) => (
            <Button
              key={m.action}
              size="small"
              color={m.action === 'activate' ? 'primary' : m.action === 'end' ? 'danger' : 'default'}
              fill={m.action === 'activate' ? 'solid' : 'outline'}
              loading={update.isPending && update.variables?.status === m.to}
              disabled={update.isPending}
              onClick={() => void move(m)}
              data-testid={`campaign-${m.action}`}
            >
              {t(`campaignAdmin.actions.${m.action}`)}
            </Button>
          ))}
        </div>
      ) : null}
    </section>
  );
}
