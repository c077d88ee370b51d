import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client';

/**
 * For what can change while it is on screen — money, a withdrawal's or a commission's status,
 * the unread badge (an operator pays, a sale is approved): asked again when the app comes back to
 * the front, and every 20 s while it is in front (never in the background). Other queries keep the
 * defaults below (no refetch on focus).
 */
const LIVE_REFRESH_MS = 20_000;
export const LIVE = { refetchOnWindowFocus: true, refetchInterval: LIVE_REFRESH_MS } as const;
/** Money and statuses: shown from cache at once, asked again whenever a screen opens, and followed while it stays open. */
export const FOLLOWED = { staleTime: 0, ...LIVE } as const;

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      // Client errors will not fix themselves; retry only network and server trouble.
      retry: (count, error) => !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 2,
    },
  },
});
