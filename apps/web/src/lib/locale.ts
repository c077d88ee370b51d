import { useMutation, type QueryClient } from '@tanstack/react-query';
import type { MePatch, User, UserEnvelope } from '@pa/shared';
import { isLocale, type Locale } from '@pa/shared/locales';
import { i18next, loadLocale } from '../i18n';
import { queryClient as appQueryClient } from './query-client';
import { useAppStore } from '../stores/app-store';
import { api } from './api-client';
import { meQuery } from './me-query';

/** Shows the app in `locale` and remembers it on this device. */
async function switchLocale(locale: Locale) {
  await loadLocale(locale);
  useAppStore.getState().setLocale(locale);
}

/**
 * One language per person (issue 28): once someone is signed in, the language stored on their
 * account (the one their mails go out in) is the app's, whatever this browser or device chose
 * before. Follows the `me` query (the sign-in's and registration's answers are put there too, and
 * so is every profile change), so a change made on another device shows here on the next `me`.
 * `current` and `apply` are the app's own (tests give theirs). Returns the unsubscribe function.
 */
export function followUserLocale(
  client: QueryClient,
  current: () => string = () => i18next.language,
  apply: (locale: Locale) => Promise<void> = switchLocale,
): () => void {
  return client.getQueryCache().subscribe((event) => {
    if (event.type !== 'updated' || event.query.queryKey.length !== 1 || event.query.queryKey[0] !== meQuery.queryKey[0]) return;
    const user = event.query.state.data as User | undefined;
    if (user && isLocale(user.locale) && user.locale !== current()) void apply(user.locale);
  });
}

/**
 * Switches the language now and remembers it on this device; when signed in, on the account
 * first (the mails' language), so the app and the account never disagree: a change the server
 * refuses changes neither.
 */
export function useChangeLocale() {
  return useMutation({
    mutationFn: async (locale: Locale) => {
      if (useAppStore.getState().user) {
        const { user } = await api<UserEnvelope>('PATCH', 'me', { locale } satisfies MePatch);
        appQueryClient.setQueryData(meQuery.queryKey, user);
      }
      await switchLocale(locale);
    },
  });
}
