/**
 * What a promoter's Home shows first (staff see no figures): the figures of the range last
 * picked, in the language the app is about to load, and the unread count (the bell), each from a
 * task of its own. Keys and options are the ones Home itself uses, so Home finds them in flight.
 * The announcements are below the fold: Home's lower part asks for them once the first screen
 * is shown, rather than sharing the network with what that screen needs.
 *
 * A module of its own, loaded when the app opens on Home (app/routes.tsx): sign-in never needs it,
 * and a returning visitor's index.html preloads it (preload.json's `home` list).
 */
import type { Locale } from '@pa/shared/locales';
import { prefetchOverview } from '../features/home/api/get-overview';
import { lastRange } from '../features/home/lib/range';
import { queryClient } from '../lib/query-client';
import { unreadCountQuery } from '../lib/unread';
import { useAppStore } from '../stores/app-store';

export function prefetchHome(locale: Locale) {
  const { user } = useAppStore.getState();
  if (user?.role !== 'promoter') return;
  void prefetchOverview(queryClient, user.id, lastRange(), locale);
  setTimeout(() => void queryClient.prefetchQuery(unreadCountQuery), 0);
}
