import { infiniteQueryOptions, useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminCommission, AdminCommissionList, CommissionAction, CommissionBulk, CommissionBulkResult, CommissionDecision, CommissionStatus, Ok } from '@pa/shared';
import { COMMISSION_BULK_MAX } from '@pa/shared/rules';
import { api } from '@/lib/api-client';

export type { AdminCommission, CommissionAction, CommissionStatus };

/** The server takes at most this many ids per bulk call. */
const BULK_MAX = COMMISSION_BULK_MAX;

const adminCommissionsQuery = (status: CommissionStatus, locale: string) =>
  infiniteQueryOptions({
    // The campaign names come in the reader's language.
    queryKey: ['admin', 'commissions', status, locale] as const,
    queryFn: ({ pageParam, signal }) =>
      api<AdminCommissionList>('GET', `admin/commissions?status=${status}&limit=20${pageParam ? `&cursor=${encodeURIComponent(pageParam)}` : ''}`, undefined, { signal }),
    initialPageParam: '',
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

export const useAdminCommissions = (status: CommissionStatus, locale: string) => useInfiniteQuery(adminCommissionsQuery(status, locale));

/** Every tab may change (a decision moves a commission out of pending into another status). */
const refresh = (queryClient: ReturnType<typeof useQueryClient>) => queryClient.invalidateQueries({ queryKey: ['admin', 'commissions'] });

export function useCommissionDecision() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action, reason }: { id: string; action: CommissionAction; reason?: string }) =>
      api<Ok>('POST', `admin/commissions/${encodeURIComponent(id)}/${action}`, action === 'reject' ? ({ reason } satisfies CommissionDecision) : undefined),
    onSettled: () => refresh(queryClient),
  });
}

/** Decides many at once, in calls of at most BULK_MAX ids; sums which changed and which were skipped. */
export function useCommissionBulk() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ ids, action, reason }: { ids: string[]; action: CommissionAction; reason?: string }) => {
      const result: CommissionBulkResult = { changed: [], skipped: [] };
      for (let i = 0; i < ids.length; i += BULK_MAX) {
        const part = await api<CommissionBulkResult>('POST', 'admin/commissions/bulk', { ids: ids.slice(i, i + BULK_MAX), action, ...(reason ? { reason } : {}) } satisfies CommissionBulk);
        result.changed.push(...part.changed);
        result.skipped.push(...part.skipped);
      }
      return result;
    },
    onSettled: () => refresh(queryClient),
  });
}
