/**
 * Moving promoters into a group (issue 31, admins): the promoters table's bulk action and the
 * promoter page's "Change group". One choice of group, then one call; the promoters' rewards
 * follow their group from the next conversion on, which the sheet says.
 */
import { Button, Toast } from 'antd-mobile';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Sheet } from '@/components/sheet';
import { errorText } from '@/lib/errors';
import { useChangePromoterGroup, useGroupChoices, useMovePromoters } from '../api/promoters';
import { useGroupName } from '@/lib/group-name';

interface Props {
  /** The promoters to move (one from the promoter's page). */
  promoterIds: string[];
  /** Their group now, when they share one (preselected). */
  currentGroupId?: string | undefined;
  visible: boolean;
  onClose: () => void;
  onMoved?: () => void;
}

export function MoveGroupSheet({ promoterIds, currentGroupId, visible, onClose, onMoved }: Props) {
  return (
    <Sheet visible={visible} onClose={onClose} labelledBy="move-group-title">
      {visible ? <MoveGroupForm promoterIds={promoterIds} currentGroupId={currentGroupId} onClose={onClose} onMoved={onMoved} /> : null}
    </Sheet>
  );
}

function MoveGroupForm({ promoterIds, currentGroupId, onClose, onMoved }: Omit<Props, 'visible'>) {
  const { t } = useTranslation();
  const groupName = useGroupName();
  const groups = useGroupChoices();
  const many = useMovePromoters();
  const one = useChangePromoterGroup();
  const [groupId, setGroupId] = useState(currentGroupId ?? '');
  const busy = many.isPending || one.isPending;
  const single = promoterIds.length === 1;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!groupId || busy) return;
    const name = groups.data?.find((g) => g.id === groupId)?.name ?? '';
    try {
      if (single) {
        await one.mutateAsync({ id: promoterIds[0]!, groupId });
        Toast.show({ icon: 'success', content: t('promotersAdmin.group.movedOne', { group: name }) });
      } else {
        const result = await many.mutateAsync({ promoterIds, groupId });
        Toast.show({ icon: 'success', content: t('promotersAdmin.group.moved', { count: result.moved, group: name }) });
      }
      onMoved?.();
      onClose();
    } catch (error) {
      Toast.show({ content: errorText(t, error) });
    }
  };

  return (
    <form className="staff-form" onSubmit={onSubmit} noValidate data-testid="move-group">
      <h2 id="move-group-title" className="staff-title">{single ? t('promotersAdmin.group.titleOne') : t('promotersAdmin.group.title', { count: promoterIds.length })}</h2>
      <p className="staff-intro">{t('promotersAdmin.group.intro')}</p>
      <fieldset className="move-group-choices">
        <legend className="visually-hidden">{t('promotersAdmin.group.choose')}</legend>
        {(groups.data ?? []).map((g) => (
          <label key={g.id} className={`move-group-choice${groupId === g.id ? ' is-on' : ''}`} data-testid={`move-group-${g.id}`}>
            <input type="radio" name="move-group" value={g.id} checked={groupId === g.id} onChange={() => setGroupId(g.id)} />
            <span className="move-group-text">
              <span className="move-group-name">{groupName(g)}{g.id === currentGroupId ? <span className="move-group-current"> · {t('promotersAdmin.group.current')}</span> : null}</span>
              <span className="move-group-meta">{t('promotersAdmin.group.members', { count: g.promoterCount })}{g.description ? ` · ${g.description}` : ''}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <div className="staff-actions">
        <Button type="button" fill="outline" onClick={onClose} disabled={busy}>{t('app.cancel')}</Button>
        <Button type="submit" color="primary" loading={busy} disabled={busy || !groupId || (single && groupId === currentGroupId)} data-testid="move-group-submit">{t('promotersAdmin.group.submit')}</Button>
      </div>
    </form>
  );
}
