import { TeamOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/empty-state';

export default function TeamPage() {
  const { t } = useTranslation();
  return (
    <div className="tab-page">
      <h1 className="tab-title">{t('team.title')}</h1>
      <EmptyState icon={<TeamOutline />} title={t('team.emptyTitle')} body={t('team.emptyBody')} />
    </div>
  );
}
