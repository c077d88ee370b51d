import type { ReactNode } from 'react';
import { ApiError } from '@/lib/api-client';
import { Navigate, useLocation } from '@/lib/hash-router';
import { PageError, PageLoading } from '@/components/page-status';
import { useMe } from '@/lib/session';

/** Signed-in pages only: otherwise to sign-in, remembering where the user was going. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const me = useMe();
  const location = useLocation();
  if (me.isPending) return <PageLoading />;
  if (me.isError) {
    if (me.error instanceof ApiError && me.error.code === 'UNAUTHENTICATED') {
      const next = `${location.pathname}${location.search}`;
      return <Navigate to={`/login${next !== '/' ? `?next=${encodeURIComponent(next)}` : ''}`} replace />;
    }
    return <PageError error={me.error} onRetry={() => me.refetch()} />;
  }
  return <>{children}</>;
}
