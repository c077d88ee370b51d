import { Button } from 'antd-mobile';
import { PictureOutline, TeamOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { CopyField } from '../../../components/copy-field';
import { EmptyState } from '../../../components/empty-state';
import { PageError, PageLoading } from '../../../components/page-status';
import { inviteLink } from '../../../lib/links';
import { navigate } from '../../../lib/router';
import { useMe } from '../../../lib/session';

export default function TeamPage() {
  const { t } = useTranslation();
  const me = useMe();
  return (
    <div className="tab-page">
      <h1 className="tab-title">{t('team.title')}</h1>
      {me.isPending ? <PageLoading /> : me.isError ? <PageError error={me.error} onRetry={() => me.refetch()} /> : (
        <section className="card flush-card" aria-labelledby="team-invite-title">
          <h2 id="team-invite-title">{t('home.inviteTitle')}</h2>
          <CopyField label={t('home.inviteCode')} value={me.data.inviteCode} buttonLabel={t('home.copyCode')} testId="team-invite-code" />
          <CopyField label={t('home.inviteLink')} value={inviteLink(me.data.inviteCode)} buttonLabel={t('home.copyLink')} testId="team-invite-link" />
          <Button block color="primary" onClick={() => navigate('/poster/invite')} data-testid="invite-poster">
            <PictureOutline aria-hidden /> {t('team.invitePoster')}
          </Button>
        </section>
      )}
      <EmptyState icon={<TeamOutline />} title={t('team.emptyTitle')} body={t('team.emptyBody')} />
    </div>
  );
}
