import type { ReactNode } from 'react';
import type { Role } from '@pa/shared';
import { Navigate } from '../../lib/router';
import { useMe } from '../../lib/session';

/** Hides staff pages from other roles (the server enforces the same on every call). */
export function requireRole(...roles: Role[]) {
  return function RequireRole({ children }: { children: ReactNode }) {
    const me = useMe();
    if (me.data && !roles.includes(me.data.role)) return <Navigate to="/" replace />;
    return <>{children}</>;
  };
}
