import type { ReactNode } from 'react';
import type { Role } from '@pa/shared';
import { useMe } from '../../lib/session';
import { RouteStatusPage } from '../route-status-page';

/** Staff pages show other roles a "not for you" page (the server enforces the same on every call). */
export function requireRole(...roles: Role[]) {
  return function RequireRole({ children }: { children: ReactNode }) {
    const me = useMe();
    if (me.data && !roles.includes(me.data.role)) return <RouteStatusPage kind="not-allowed" />;
    return <>{children}</>;
  };
}
