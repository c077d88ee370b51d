import { lazy, type ReactNode } from 'react';
import type { Role } from '@pa/shared';
import { useMe } from '@/lib/session';

const NotAllowedPage = lazy(() => import('../route-status-page').then((m) => ({ default: m.NotAllowedPage })));

/** Staff pages show other roles a "not for you" page (the server enforces the same on every call). */
export function requireRole(...roles: Role[]) {
  return function RequireRole({ children }: { children: ReactNode }) {
    const me = useMe();
    if (me.data && !roles.includes(me.data.role)) return <NotAllowedPage />;
    return <>{children}</>;
  };
}
