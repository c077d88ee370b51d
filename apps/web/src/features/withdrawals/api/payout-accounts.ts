import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PayoutAccount } from '@pa/shared';
import { normalizePayoutNumber, type PayoutMethod } from '@pa/shared/rules';
import { api, withSealing } from '../../../lib/api-client';
import { seal } from '../../../lib/crypto';

export const payoutAccountsQuery = queryOptions({
  queryKey: ['payout-accounts'] as const,
  queryFn: ({ signal }) => api<{ items: PayoutAccount[] }>('GET', 'payout-accounts', undefined, { signal }).then((r) => r.items),
  // `inUse` changes when a withdrawal moves on: always ask again when a screen opens.
  staleTime: 0,
});

export const usePayoutAccounts = () => useQuery(payoutAccountsQuery);

export interface NewPayoutAccount {
  method: PayoutMethod;
  holderName: string;
  /** As typed; normalized and sealed here, never sent or kept in the clear. */
  accountNumber: string;
  isDefault: boolean;
}

export function createPayoutAccount(input: NewPayoutAccount) {
  return withSealing(async () =>
    api<{ payoutAccount: PayoutAccount }>('POST', 'payout-accounts', {
      method: input.method,
      holderName: input.holderName.trim(),
      accountNumber: await seal(normalizePayoutNumber(input.method, input.accountNumber)),
      isDefault: input.isDefault,
    }).then((r) => r.payoutAccount),
  );
}

export function useCreatePayoutAccount() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createPayoutAccount, onSuccess: () => queryClient.invalidateQueries({ queryKey: payoutAccountsQuery.queryKey }) });
}

export function useSetDefaultPayoutAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<{ payoutAccount: PayoutAccount }>('PATCH', `payout-accounts/${encodeURIComponent(id)}`, { isDefault: true }).then((r) => r.payoutAccount),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: payoutAccountsQuery.queryKey }),
  });
}

export function useDeletePayoutAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<{ ok: true }>('DELETE', `payout-accounts/${encodeURIComponent(id)}`),
    // A 409 (in use) also means our list is stale: refetch either way.
    onSettled: () => queryClient.invalidateQueries({ queryKey: payoutAccountsQuery.queryKey }),
  });
}
