import { CheckList, Toast } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { LOCALES, type Locale } from '@pa/shared/locales';
import { PageNav } from '@/components/page-nav';
import { useChangeLocale } from '@/lib/locale';
import { useQueryClient } from '@tanstack/react-query';
import { meQuery } from '@/lib/session';

export default function LanguagePage() {
  const { t, i18n } = useTranslation();
  const change = useChangeLocale();
  const queryClient = useQueryClient();
  return (
    <div className="sub-page">
      <PageNav title={t('language.title')} fallback="/me" />
      <CheckList
        value={[i18n.language]}
        onChange={(value) => {
          const next = value[0] as Locale | undefined;
          if (!next || next === i18n.language) return;
          change.mutate(next, {
            onSuccess: () => {
              void queryClient.invalidateQueries({ queryKey: meQuery.queryKey });
              Toast.show({ icon: 'success', content: i18n.t('language.changed') });
            },
          });
        }}
      >
        {LOCALES.map((locale) => (
          <CheckList.Item key={locale} value={locale} data-testid={`lang-${locale}`}>
            <span lang={locale}>{t(`languages.${locale}`)}</span>
          </CheckList.Item>
        ))}
      </CheckList>
    </div>
  );
}
