import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminWithdrawal, WithdrawalStatus } from '@pa/shared';
import { api, apiFile } from '../../../lib/api-client';

export type { AdminWithdrawal, WithdrawalStatus };
export type WithdrawalAction = 'approve' | 'pay' | 'fail' | 'reject';
/** The queue's filter: one status, or every one. */
export type WithdrawalFilter = WithdrawalStatus | 'all';

/** WithdrawalEventSchema in @pa/shared: one step of the timeline. */
export interface WithdrawalEvent {
  status: WithdrawalStatus;
  reason: string | null;
  reference: string | null;
  at: number;
}

/** What an operator may do next (PRODUCT.md §5); anything else is INVALID_STATE_TRANSITION. */
export const NEXT_ACTIONS: Record<WithdrawalStatus, WithdrawalAction[]> = {
  requested: ['approve', 'reject'],
  approved: ['pay', 'fail'],
  paid: [],
  failed: [],
  rejected: [],
  cancelled: [],
};

/** WithdrawalActionBodySchema limits. */
export const REFERENCE_MAX = 100;
export const REASON_MAX = 500;

export const adminWithdrawalsQuery = (filter: WithdrawalFilter, q: string) =>
  infiniteQueryOptions({
    queryKey: ['admin', 'withdrawals', 'list', filter, q] as const,
    queryFn: ({ pageParam, signal }) => {
      const params = new URLSearchParams({ limit: '20' });
      if (filter !== 'all') params.set('status', filter);
      if (q) params.set('q', q);
      if (pageParam) params.set('cursor', pageParam);
      return api<{ items: AdminWithdrawal[]; nextCursor: string | null }>('GET', `admin/withdrawals?${params.toString()}`, undefined, { signal });
    },
    initialPageParam: '',
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

export const useAdminWithdrawals = (filter: WithdrawalFilter, q: string) => useInfiniteQuery(adminWithdrawalsQuery(filter, q));

export const adminWithdrawalQuery = (id: string) =>
  queryOptions({
    queryKey: ['admin', 'withdrawals', 'detail', id] as const,
    queryFn: ({ signal }) => api<{ withdrawal: AdminWithdrawal; events: WithdrawalEvent[] }>('GET', `admin/withdrawals/${encodeURIComponent(id)}`, undefined, { signal }),
  });

export const useAdminWithdrawal = (id: string) => useQuery(adminWithdrawalQuery(id));

/**
 * approve (no body), pay `{ reference }`, fail / reject `{ reason }`. Whatever the outcome (a 409
 * means someone else moved it first), every list and detail is refetched.
 */
export function useWithdrawalAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action, text }: { id: string; action: WithdrawalAction; text?: string }) => {
      const body = action === 'pay' ? { reference: text } : action === 'approve' ? undefined : { reason: text };
      return api<{ withdrawal: AdminWithdrawal }>('POST', `admin/withdrawals/${encodeURIComponent(id)}/${action}`, body);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['admin', 'withdrawals'] }),
  });
}

/** Every approved withdrawal with its full account number, as CSV for a bank batch (the server audits each export). */
export const exportApprovedWithdrawals = () => apiFile('admin/withdrawals/export.csv');
