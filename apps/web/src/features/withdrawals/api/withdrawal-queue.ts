import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminWithdrawal, AdminWithdrawalDetail, AdminWithdrawalEnvelope, AdminWithdrawalList, WithdrawalActionBody, WithdrawalEvent, WithdrawalStatus } from '@pa/shared';
import { WITHDRAWAL_REASON_MAX, WITHDRAWAL_REFERENCE_MAX, withdrawalActionsFrom, type StaffWithdrawalAction } from '@pa/shared/rules';
import { api, apiFile } from '@/lib/api-client';

export type { AdminWithdrawal, WithdrawalEvent, WithdrawalStatus };
export type WithdrawalAction = StaffWithdrawalAction;
/** The queue's filter: one status, or every one. */
export type WithdrawalFilter = WithdrawalStatus | 'all';

/** What an operator may do next: the staff steps WITHDRAWAL_TRANSITIONS allows from the status (anything else is INVALID_STATE_TRANSITION). */
export const nextActions = (status: WithdrawalStatus): WithdrawalAction[] => withdrawalActionsFrom(status, 'staff');

/** WithdrawalActionBodySchema limits. */
export const REFERENCE_MAX = WITHDRAWAL_REFERENCE_MAX;
export const REASON_MAX = WITHDRAWAL_REASON_MAX;

const adminWithdrawalsQuery = (filter: WithdrawalFilter, q: string) =>
  infiniteQueryOptions({
    queryKey: ['admin', 'withdrawals', 'list', filter, q] as const,
    queryFn: ({ pageParam, signal }) => {
      const params = new URLSearchParams({ limit: '20' });
      if (filter !== 'all') params.set('status', filter);
      if (q) params.set('q', q);
      if (pageParam) params.set('cursor', pageParam);
      return api<AdminWithdrawalList>('GET', `admin/withdrawals?${params.toString()}`, undefined, { signal });
    },
    initialPageParam: '',
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

export const useAdminWithdrawals = (filter: WithdrawalFilter, q: string) => useInfiniteQuery(adminWithdrawalsQuery(filter, q));

export const adminWithdrawalQuery = (id: string) =>
  queryOptions({
    queryKey: ['admin', 'withdrawals', 'detail', id] as const,
    queryFn: ({ signal }) => api<AdminWithdrawalDetail>('GET', `admin/withdrawals/${encodeURIComponent(id)}`, undefined, { signal }),
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
      const body: WithdrawalActionBody | undefined = action === 'pay' ? { reference: text } : action === 'approve' ? undefined : { reason: text };
      return api<AdminWithdrawalEnvelope>('POST', `admin/withdrawals/${encodeURIComponent(id)}/${action}`, body);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['admin', 'withdrawals'] }),
  });
}

/** Every approved withdrawal with its full account number, as CSV for a bank batch (the server audits each export). */
export const exportApprovedWithdrawals = () => apiFile('admin/withdrawals/export.csv');
