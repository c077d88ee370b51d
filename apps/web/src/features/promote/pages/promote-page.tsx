import { ShopbagOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/empty-state';

export default function PromotePage() {
  const { t } = useTranslation();
  return (
    <div className="tab-page">
      <h1 className="tab-title">{t('promote.title')}</h1>
      <EmptyState icon={<ShopbagOutline />} title={t('promote.emptyTitle')} body={t('promote.emptyBody')} />
    </div>
  );
}
