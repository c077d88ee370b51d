import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { loadLocale, i18next } from './i18n';
import { configureApi } from './lib/api-client';
import { followUserLocale } from './lib/locale';
import { queryClient } from './lib/query-client';
import { useAppStore } from './stores/app-store';
import { Providers } from './app/providers';
import { AppRoutes, openingLocale } from './app/routes';
import { RouteErrorBoundary } from './app/route-error';
import { currentLocation, navigate } from './lib/hash-router';
import './styles.css';

// antd-mobile's Toast and Dialog render outside the tree, with React 19: lib/antd-render.ts (see vite.config.ts).

configureApi({
  locale: () => i18next.language || 'en',
  onUnauthenticated: () => {
    const wasSignedIn = useAppStore.getState().user !== null;
    useAppStore.getState().setUser(null);
    queryClient.removeQueries({ queryKey: ['me'] });
    const current = currentLocation();
    if (current.pathname === '/login' || current.pathname === '/register' || current.pathname === '/pending') return;
    const next = `${current.pathname}${current.search}`;
    navigate(`/login?${wasSignedIn ? 'expired=1&' : ''}next=${encodeURIComponent(next)}`, { replace: true });
  },
});

async function start() {
  // The entry's own task ends here, once the modules have run and app/routes.tsx has sent the
  // opening page's requests: setting up the language and the first render follow in tasks of
  // their own, rather than one long task that the page's requests would only follow.
  await new Promise((resolve) => setTimeout(resolve, 0));
  await useAppStore.persist.rehydrate();
  const locale = openingLocale();
  await loadLocale(locale);
  // Signed in, the account's language wins over this device's (issue 28: one language per person).
  followUserLocale(queryClient);
  const root = createRoot(document.getElementById('root')!);
  // As a transition, the first render is done in slices with the browser free in between, rather
  // than as one long task that would hold up the first taps (Total Blocking Time).
  startTransition(() =>
    root.render(
      <StrictMode>
        <Providers>
          <RouteErrorBoundary>
            <AppRoutes />
          </RouteErrorBoundary>
        </Providers>
      </StrictMode>,
    ),
  );
}

void start();
