/**
 * A small hash router: the app's paths live after `#`, so the page URL (and with it every
 * relative asset and API URL) never changes, whatever sub-path the app is served from.
 * Chosen over react-router to keep the first visit within its 150 KB budget (see docs/architecture.md).
 */
import { createContext, useContext, useEffect, useMemo, useSyncExternalStore, type AnchorHTMLAttributes, type ReactNode } from 'react';

interface Location {
  pathname: string;
  search: string;
}

export function parseHash(hash: string): Location {
  const raw = hash.replace(/^#/, '') || '/';
  const q = raw.indexOf('?');
  const pathname = (q === -1 ? raw : raw.slice(0, q)) || '/';
  return { pathname: pathname.startsWith('/') ? pathname : `/${pathname}`, search: q === -1 ? '' : raw.slice(q) };
}

const listeners = new Set<() => void>();
let current = typeof window === 'undefined' ? parseHash('') : parseHash(window.location.hash);
let snapshotHash = typeof window === 'undefined' ? '' : window.location.hash;

function refresh() {
  if (window.location.hash === snapshotHash) return;
  snapshotHash = window.location.hash;
  current = parseHash(snapshotHash);
  for (const l of listeners) l();
}

/**
 * While a page holds the address (a form with unsaved changes), a change that did not come from
 * the app — the browser's back or forward, the phone's back gesture, a typed address — is held:
 * the page stays, its address is put back, and `ask` decides. Leaving then goes one step back from
 * the address put back, which is where the person was going.
 */
type Ask = () => Promise<boolean>;
let held: Ask | null = null;
let asking = false;

function onHashChange() {
  if (!held || window.location.hash === snapshotHash) {
    refresh();
    return;
  }
  window.history.pushState(window.history.state, '', snapshotHash || '#/');
  if (asking) return;
  asking = true;
  const ask = held;
  void ask().then((leave) => {
    asking = false;
    if (!leave) return;
    if (held === ask) held = null;
    window.history.back();
  });
}

/** Holds the address until the returned release is called (see above). */
export function holdAddress(ask: Ask): () => void {
  held = ask;
  return () => {
    if (held === ask) held = null;
  };
}

if (typeof window !== 'undefined') window.addEventListener('hashchange', onHashChange);

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function currentLocation(): Location {
  return current;
}

export function navigate(to: string | number, options: { replace?: boolean } = {}) {
  if (typeof to === 'number') {
    window.history.go(to);
    return;
  }
  const hash = `#${to}`;
  if (options.replace) window.history.replaceState(window.history.state, '', hash);
  else window.history.pushState(null, '', hash);
  refresh();
  window.scrollTo(0, 0);
}

export function useLocation(): Location {
  return useSyncExternalStore(subscribe, currentLocation, currentLocation);
}

export const useNavigate = () => navigate;

export function useSearchParams(): URLSearchParams {
  const { search } = useLocation();
  return useMemo(() => new URLSearchParams(search), [search]);
}

function decodeSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/** Matches `/links/:id` style patterns; returns the params or null. */
export function matchPath(pattern: string, pathname: string): Record<string, string> | null {
  const a = pattern.split('/').filter(Boolean);
  const b = pathname.split('/').filter(Boolean);
  if (a.length !== b.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < a.length; i++) {
    const p = a[i]!;
    if (p.startsWith(':')) {
      // A malformed escape (`#/links/%E0%A4%A`) is an address no route has: not found, not a crash.
      const value = decodeSegment(b[i]!);
      if (value === null) return null;
      params[p.slice(1)] = value;
    } else if (p !== b[i]) return null;
  }
  return params;
}

const ParamsContext = createContext<Record<string, string>>({});
export const useParams = () => useContext(ParamsContext);

export interface RouteDef {
  path: string;
  /** The page (usually React.lazy). */
  page: React.ComponentType;
  /** Wrapping layouts, outermost first (e.g. RequireAuth, TabLayout). */
  layouts?: React.ComponentType<{ children: ReactNode }>[];
}

/**
 * The first route matching the address; `notFound` (at the same address) when none does.
 * `onMatch` is told the route before it renders (to start downloading all its lazy parts at once,
 * rather than each when the one around it has arrived).
 */
export function Routes({ routes, notFound: NotFound, onMatch }: { routes: RouteDef[]; notFound: React.ComponentType; onMatch?: (route: RouteDef) => void }) {
  const { pathname } = useLocation();
  for (const route of routes) {
    const params = matchPath(route.path, pathname);
    if (!params) continue;
    onMatch?.(route);
    const Page = route.page;
    let node: ReactNode = <Page />;
    for (const Layout of [...(route.layouts ?? [])].reverse()) node = <Layout>{node}</Layout>;
    return <ParamsContext.Provider value={params}>{node}</ParamsContext.Provider>;
  }
  return <NotFound />;
}

export function Navigate({ to, replace }: { to: string; replace?: boolean }) {
  useEffect(() => navigate(to, { replace }), [to, replace]);
  return null;
}

export function Link({ to, ...rest }: { to: string } & Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'>) {
  return <a href={`#${to}`} {...rest} />;
}
