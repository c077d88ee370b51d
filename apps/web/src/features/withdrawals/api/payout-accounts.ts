import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Ok, PayoutAccountCreate, PayoutAccountEnvelope, PayoutAccountList, PayoutAccountPatch, Unsealed } from '@pa/shared';
import { normalizePayoutNumber } from '@pa/shared/rules';
import { api, withSealing } from '@/lib/api-client';
import { seal } from '@/lib/crypto';

const payoutAccountsQuery = queryOptions({
  queryKey: ['payout-accounts'] as const,
  queryFn: ({ signal }) => api<PayoutAccountList>('GET', 'payout-accounts', undefined, { signal }).then((r) => r.items),
  // `inUse` changes when a withdrawal moves on: always ask again when a screen opens.
  staleTime: 0,
});

export const usePayoutAccounts = () => useQuery(payoutAccountsQuery);

/** The account number as typed; normalized and sealed here, never sent or kept in the clear. */
type NewPayoutAccount = Unsealed<PayoutAccountCreate, 'accountNumber'>;

export function createPayoutAccount(input: NewPayoutAccount) {
  return withSealing(async () =>
    api<PayoutAccountEnvelope>('POST', 'payout-accounts', {
      method: input.method,
      holderName: input.holderName.trim(),
      accountNumber: await seal(normalizePayoutNumber(input.method, input.accountNumber)),
      isDefault: input.isDefault,
    } satisfies PayoutAccountCreate).then((r) => r.payoutAccount),
  );
}

export function useCreatePayoutAccount() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createPayoutAccount, onSuccess: () => queryClient.invalidateQueries({ queryKey: payoutAccountsQuery.queryKey }) });
}

export function useSetDefaultPayoutAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<PayoutAccountEnvelope>('PATCH', `payout-accounts/${encodeURIComponent(id)}`, { isDefault: true } satisfies PayoutAccountPatch).then((r) => r.payoutAccount),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: payoutAccountsQuery.queryKey }),
  });
}

export function useDeletePayoutAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<Ok>('DELETE', `payout-accounts/${encodeURIComponent(id)}`),
    // A 409 (in use) also means our list is stale: refetch either way.
    onSettled: () => queryClient.invalidateQueries({ queryKey: payoutAccountsQuery.queryKey }),
  });
}
