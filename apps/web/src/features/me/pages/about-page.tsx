import { List } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import type { Locale } from '@pa/shared/locales';
import { PageNav } from '@/components/page-nav';
import { appName } from '@/i18n';

export default function AboutPage() {
  const { t, i18n } = useTranslation();
  return (
    <div className="sub-page">
      <PageNav title={t('about.title')} fallback="/me" />
      <div className="about-hero">
        <img src="./icon.svg" alt="" width={72} height={72} />
        <h2 data-testid="about-name">{appName(i18n.language as Locale)}</h2>
        <p>{t('about.description')}</p>
      </div>
      <List>
        <List.Item extra={appName(i18n.language as Locale)}>{t('about.name')}</List.Item>
        <List.Item extra={<span data-testid="about-version">{__APP_VERSION__}</span>}>{t('about.version')}</List.Item>
        <List.Item onClick={() => window.open('api/docs', '_blank', 'noopener')}>{t('about.apiReference')}</List.Item>
      </List>
    </div>
  );
}
