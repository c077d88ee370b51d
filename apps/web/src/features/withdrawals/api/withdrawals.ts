import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { WithdrawalCreate, WithdrawalDetail, WithdrawalEnvelope, WithdrawalEvent, WithdrawalList, WithdrawalStatus, WithdrawalTermsView } from '@pa/shared';
import { api, type Idempotent } from '@/lib/api-client';
import { FOLLOWED } from '@/lib/query-client';
import { NOTIFICATIONS_KEY } from '@/lib/unread';

/** Money is shown from cache at once and always refetched when a screen opens (staleTime 0). */
const FRESH = { staleTime: 0 } as const;

export const withdrawalTermsQuery = queryOptions({
  queryKey: ['withdrawals', 'terms'] as const,
  queryFn: ({ signal }) => api<WithdrawalTermsView>('GET', 'withdrawals/terms', undefined, { signal }),
  ...FRESH,
});

export const useWithdrawalTerms = () => useQuery(withdrawalTermsQuery);

const withdrawalsQuery = (status?: WithdrawalStatus) =>
  infiniteQueryOptions({
    queryKey: ['withdrawals', 'list', status ?? 'all'] as const,
    initialPageParam: '',
    queryFn: ({ pageParam, signal }) => {
      const params = new URLSearchParams({ limit: '20' });
      if (status) params.set('status', status);
      if (pageParam) params.set('cursor', pageParam);
      return api<WithdrawalList>('GET', `withdrawals?${params}`, undefined, { signal });
    },
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    ...FOLLOWED,
  });

export const useWithdrawals = (status?: WithdrawalStatus) => useInfiniteQuery(withdrawalsQuery(status));

export type { WithdrawalDetail, WithdrawalEvent };

export const useWithdrawal = (id: string) =>
  useQuery({
    queryKey: ['withdrawals', 'detail', id] as const,
    queryFn: ({ signal }) => api<WithdrawalDetail>('GET', `withdrawals/${encodeURIComponent(id)}`, undefined, { signal }),
    ...FOLLOWED,
  });

/** Everything a withdrawal changes: balances, the ledger, the lists, today's count, the inbox. */
function invalidateMoney(queryClient: QueryClient) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: ['wallet'] }),
    queryClient.invalidateQueries({ queryKey: ['ledger'] }),
    queryClient.invalidateQueries({ queryKey: ['withdrawals'] }),
    queryClient.invalidateQueries({ queryKey: ['payout-accounts'] }),
    queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_KEY }),
  ]);
}

export type WithdrawalRequest = Idempotent<WithdrawalCreate>;

export function useCreateWithdrawal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ amount, payoutAccountId, idempotencyKey }: WithdrawalRequest) =>
      api<WithdrawalEnvelope>('POST', 'withdrawals', { amount, payoutAccountId } satisfies WithdrawalCreate, { headers: { 'idempotency-key': idempotencyKey } }).then((r) => r.withdrawal),
    onSuccess: () => invalidateMoney(queryClient),
  });
}

export function useCancelWithdrawal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<WithdrawalEnvelope>('POST', `withdrawals/${encodeURIComponent(id)}/cancel`).then((r) => r.withdrawal),
    onSettled: () => invalidateMoney(queryClient),
  });
}
