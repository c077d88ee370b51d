import { QueryClientProvider } from '@tanstack/react-query';
import { ConfigProvider } from 'antd-mobile';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Locale } from '@pa/shared/locales';
import { antdLocales } from '../i18n';
import { queryClient } from '../lib/query-client';

export function Providers({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  const antdLocale = antdLocales.get(i18n.language as Locale);
  return (
    <QueryClientProvider client={queryClient}>
      {antdLocale ? <ConfigProvider locale={antdLocale}>{children}</ConfigProvider> : children}
    </QueryClientProvider>
  );
}
