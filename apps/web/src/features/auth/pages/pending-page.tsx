import { Button } from 'antd-mobile';
import { ClockCircleOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from '@/lib/hash-router';
import { AuthLayout } from '../components/auth-layout';

export default function PendingPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <AuthLayout title={t('auth.pendingTitle')}>
      <div className="pending" data-testid="pending">
        <ClockCircleOutline className="pending-icon" aria-hidden />
        <p>{t('auth.pendingBody')}</p>
        <Button block color="primary" fill="outline" onClick={() => navigate('/login', { replace: true })}>
          {t('auth.backToSignIn')}
        </Button>
      </div>
    </AuthLayout>
  );
}
