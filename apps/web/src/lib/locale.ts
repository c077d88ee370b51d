import { useMutation } from '@tanstack/react-query';
import type { MePatch, UserEnvelope } from '@pa/shared';
import type { Locale } from '@pa/shared/locales';
import { loadLocale } from '../i18n';
import { useAppStore } from '../stores/app-store';
import { api } from './api-client';

/** Switches the language now, remembers it on this device and, when signed in, on the account. */
export function useChangeLocale() {
  const setLocale = useAppStore((s) => s.setLocale);
  return useMutation({
    mutationFn: async (locale: Locale) => {
      await loadLocale(locale);
      setLocale(locale);
      if (useAppStore.getState().user) await api<UserEnvelope>('PATCH', 'me', { locale } satisfies MePatch).catch(() => undefined);
    },
  });
}
