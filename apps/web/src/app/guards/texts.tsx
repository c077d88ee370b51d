/**
 * The layouts that hold signed-in screens back (suspended) until their texts are in
 * (i18n/index.ts): the promoter app's (with antd-mobile's pack for the language, handed to
 * antd-mobile here) and the console's. Loaded with the first route that has them (app/routes.tsx),
 * so sign-in downloads neither these nor antd-mobile's ConfigProvider and its default pack.
 */
import { ConfigProvider } from 'antd-mobile';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Locale } from '@pa/shared/locales';
import { antdLocales, useTexts } from '@/i18n';

export function AppTexts({ children }: { children: ReactNode }) {
  useTexts('app');
  const { i18n } = useTranslation();
  return <ConfigProvider locale={antdLocales.get(i18n.language as Locale)}>{children}</ConfigProvider>;
}

export function ConsoleTexts({ children }: { children: ReactNode }) {
  useTexts('console');
  return <>{children}</>;
}
